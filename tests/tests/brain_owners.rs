//! Brains belong to players, over real connections: each player's "HER" is their own; only a
//! brain's owner imports over it, resets it or trains it in an auto match; anybody lists the
//! hall's, exports any brain, copies it under a name of their own, and plays against it, which
//! teaches another player's brain nothing.

mod common;

use common::{Peer, start_server};

use parlor_shared::codec::Format;
use parlor_shared::game::{GameMove, GameSetup, GameState};
use parlor_shared::hexapawn::{
    Brain, Dims, HexMove, HexSetup, MatchSetup, PERSON_SEAT, Pace, PlayMode,
};
use parlor_shared::protocol::{AiKind, BrainSummary, ClientMsg, ErrorCode, SeatSpec, ServerMsg};

/// Sends a brain file in its parts; the answer to the last one (or to a refused part).
async fn import(peer: &mut Peer, name: &str, json: &str) -> ServerMsg {
    peer.import(name, json).await;
    peer.recv_until(|m| matches!(m, ServerMsg::Brains(_) | ServerMsg::Error { .. }).then_some(m))
        .await
}

fn names(brains: &[BrainSummary]) -> Vec<&str> {
    brains.iter().map(|brain| brain.name.as_str()).collect()
}

fn auto_match(brains: [&str; 2]) -> GameSetup {
    GameSetup::HerMatch(MatchSetup {
        dims: Dims::HEXAPAWN,
        mirrors: false,
        rounds: 5,
        pace: Pace::FullSpeed,
        brains: brains.map(str::to_string),
    })
}

/// A brain that has played a few rounds, as a file.
fn trained_file() -> String {
    let mut her = parlor_shared::hexapawn::Her::new(Brain::new(Dims::HEXAPAWN, false), 3);
    let start = parlor_shared::hexapawn::Position::start(Dims::HEXAPAWN);
    let _ = her.choose(
        &start.play("b1-b2".parse().unwrap()).unwrap(),
        parlor_shared::hexapawn::Pick::Random,
    );
    her.into_brain().to_json()
}

#[tokio::test]
async fn only_a_brains_owner_changes_it_and_anybody_may_play_export_and_copy_it() {
    let (server, _dir) = start_server("brain-owners");
    let url = server.url();
    let mut ada = Peer::connect(&url, Format::Json).await;
    let mut bob = Peer::connect(&url, Format::Binary).await;
    let ada_id = ada.player.as_ref().unwrap().id;
    let adas = |name: &str| format!("{ada_id}/{name}");

    let file = trained_file();
    let stored = import(&mut ada, "HER", &file).await;
    assert!(
        matches!(&stored, ServerMsg::Brains(list) if names(list) == ["HER"]),
        "{stored:?}"
    );
    // Bob's list holds none of Ada's; his own "HER" is another brain.
    assert!(bob.brains().await.is_empty());

    // A stranger may not import over it, reset it or train it.
    let refused = import(
        &mut bob,
        &adas("HER"),
        &Brain::new(Dims::HEXAPAWN, false).to_json(),
    )
    .await;
    assert!(
        matches!(
            &refused,
            ServerMsg::Error {
                code: ErrorCode::NotYours,
                ..
            }
        ),
        "{refused:?}"
    );
    bob.send(ClientMsg::ResetBrain { name: adas("HER") }).await;
    bob.expect_error(ErrorCode::NotYours).await;
    let reason = bob
        .create_refused(
            auto_match([&adas("HER"), "mine"]),
            vec![],
            ErrorCode::NotYours,
        )
        .await;
    assert!(reason.contains("not yours"), "{reason}");
    assert_eq!(ada.export_file("HER").await, file, "untouched");

    // Anybody may export it and keep a copy of their own.
    let copy = bob.export_file(&adas("HER")).await;
    assert_eq!(copy, file);
    let stored = import(&mut bob, "copy of Ada's", &copy).await;
    assert!(matches!(&stored, ServerMsg::Brains(list) if names(list) == ["copy of Ada's"]));

    // And play against it: the game teaches Ada's brain nothing.
    let setup = GameSetup::Hexapawn(HexSetup {
        dims: Dims::HEXAPAWN,
        mirrors: false,
        mode: PlayMode::Fast,
        brain: adas("HER"),
    });
    let her = SeatSpec::Ai {
        move_ms: 5,
        kind: AiKind::Standard,
    };
    let room = bob.create(setup, vec![SeatSpec::Human, her]).await;
    let token = bob.join(room, 0).await;
    // Bob plays his first legal move each turn until the game ends and is stored.
    let mut version = 0;
    loop {
        let state = bob
            .state_where(room, |s| s.version >= version || s.record.is_some())
            .await;
        if state.record.is_some() {
            break;
        }
        version = state.version + 1;
        if state.state.seat_to_move() != Some(PERSON_SEAT) {
            continue;
        }
        let GameState::Hexapawn(game) = &state.state else {
            panic!("a game against HER");
        };
        let mv = game.position.legal_moves()[0];
        bob.send_move(
            room,
            &token,
            state.version,
            GameMove::Hexapawn(HexMove::Play(mv)),
        )
        .await;
    }
    let ada_brains = ada.brains().await;
    assert_eq!(ada_brains[0].games, 0, "a stranger's game teaches nothing");

    // The owner resets and trains it.
    ada.send(ClientMsg::ResetBrain { name: "HER".into() }).await;
    let reset = ada
        .recv_until(|m| match m {
            ServerMsg::Brains(list) => Some(list),
            _ => None,
        })
        .await;
    assert_eq!(reset[0].beads, 0);
    let trained = ada.create(auto_match(["HER", "HER 2"]), vec![]).await;
    // The match may be over by the time Ada watches it: then its first state says so.
    if ada.watch(trained).await.outcome.is_none() {
        ada.state_where(trained, |s| s.outcome.is_some()).await;
    }
    let after = ada.brains().await;
    assert_eq!(names(&after), ["HER", "HER 2"]);
    assert!(after.iter().all(|brain| brain.games == 5), "{after:?}");
}

#[tokio::test]
async fn a_players_brains_stop_at_their_quota_and_anothers_go_on() {
    let limits = parlor_server::Limits {
        brains: parlor_server::limits::BrainQuota {
            count: 2,
            bytes: 1 << 20,
        },
        ..parlor_server::Limits::default()
    };
    let (server, _dir) = common::start_server_with("brain-quota", limits);
    let url = server.url();
    let mut ada = Peer::connect(&url, Format::Json).await;
    let file = Brain::new(Dims::HEXAPAWN, false).to_json();
    for name in ["one", "two"] {
        assert!(matches!(
            import(&mut ada, name, &file).await,
            ServerMsg::Brains(_)
        ));
    }
    // Replacing one of them is no third brain; a third is refused, by import or by a match.
    assert!(matches!(
        import(&mut ada, "two", &file).await,
        ServerMsg::Brains(_)
    ));
    let third = import(&mut ada, "three", &file).await;
    assert!(
        matches!(&third, ServerMsg::Error { code: ErrorCode::LimitReached, message } if message.contains("2 brains")),
        "{third:?}"
    );
    ada.create_refused(auto_match(["one", "new"]), vec![], ErrorCode::LimitReached)
        .await;
    let mut bob = Peer::connect(&url, Format::Json).await;
    assert!(matches!(
        import(&mut bob, "one", &file).await,
        ServerMsg::Brains(_)
    ));
}
