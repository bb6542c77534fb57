//! Hexapawn rooms over loopback: a person against HER in slow mode (forcing HER's moves or
//! letting it pick) and fast mode, HER's stored brain learning from the game, auto matches
//! watched live (a spectator arriving mid-match), and the brain requests.

mod common;

use common::{Peer, start_server};
use parlor_shared::brain_parts;
use parlor_shared::codec::Format;
use parlor_shared::game::{GameMove, GameSetup, GameState, Outcome};
use parlor_shared::hexapawn::{
    AutoConfig, AutoMatch, Brain, Dims, HexGame, HexMove, HexSetup, MatchSetup, MatchView, Move,
    Pace, PlayMode, Position, Square,
};
use parlor_shared::protocol::{AiKind, ClientMsg, ErrorCode, SeatSpec, SeatToken, ServerMsg};

fn against_her(mode: PlayMode, brain: &str) -> GameSetup {
    GameSetup::Hexapawn(HexSetup {
        dims: Dims::HEXAPAWN,
        mirrors: false,
        mode,
        brain: brain.into(),
    })
}

fn her_seats() -> Vec<SeatSpec> {
    vec![
        SeatSpec::Human,
        SeatSpec::Ai {
            move_ms: 5,
            kind: AiKind::Standard,
        },
    ]
}

fn play(ply: &str) -> GameMove {
    GameMove::Hexapawn(HexMove::Play(ply.parse().unwrap()))
}

fn hex(state: &GameState) -> &HexGame {
    match state {
        GameState::Hexapawn(game) => game,
        other => panic!("not a game against HER: {other:?}"),
    }
}

fn view(state: &GameState) -> &MatchView {
    match state {
        GameState::HerMatch(view) => view,
        other => panic!("not an auto match: {other:?}"),
    }
}

#[tokio::test]
async fn slow_mode_lets_the_person_force_hers_moves_and_the_stored_brain_learns_the_loss() {
    let (server, _dir) = start_server("her-slow");
    let mut person = Peer::connect(&server.url(), Format::Json).await;
    let room = person
        .create(against_her(PlayMode::Slow, "slow"), her_seats())
        .await;
    let token = person.join(room, 0).await;
    // An auto match on the brain would store its own copy over this game's lesson.
    let match_on_slow = GameSetup::HerMatch(MatchSetup {
        dims: Dims::HEXAPAWN,
        mirrors: false,
        rounds: 1,
        pace: Pace::PerPly { ms: 1 },
        brains: ["other".into(), "slow".into()],
    });
    let reason = person
        .create_refused(match_on_slow.clone(), vec![], ErrorCode::BrainBusy)
        .await;
    assert!(reason.contains("against a person"), "{reason}");
    // Named as the person's own list names it, not by the id it is stored under.
    assert!(reason.starts_with("your brain \"slow\" "), "{reason}");
    person
        .send_move(room, &token, 0, GameMove::Hexapawn(HexMove::HerPicks))
        .await;
    let message = person.expect_error(ErrorCode::IllegalMove).await;
    assert!(message.contains("your move"), "{message}");
    // Squares off every board: refused and named by number; the room goes on (naming them
    // once overflowed and ended the room's task).
    let nowhere = Move::new(Square::new(255, 255), Square::new(255, 0));
    person
        .send_move(room, &token, 0, GameMove::Hexapawn(HexMove::Play(nowhere)))
        .await;
    let message = person.expect_error(ErrorCode::IllegalMove).await;
    assert!(message.contains("(column 255, row 255)"), "{message}");
    person.send_move(room, &token, 0, play("b1-b2")).await;
    let her_turn = person.state_where(room, |s| s.version == 1).await;
    let matchbox = hex(&her_turn.state)
        .matchbox
        .clone()
        .expect("HER's box shown");
    assert_eq!(matchbox.total, 4, "{matchbox:?}");
    // HER's turn waits for the person, who acts for HER: the lobby marks it their move.
    let held = person.my_seats().await;
    assert!(held.len() == 1 && held[0].to_move, "{held:?}");
    let before_her = hex(&her_turn.state).position;
    for refused in [
        GameMove::Hexapawn(HexMove::HerResigns),
        play("b3-b2"),
        play("a1-a2"),
    ] {
        person.send_move(room, &token, 1, refused).await;
        person.expect_error(ErrorCode::IllegalMove).await;
    }
    // Forced: HER takes on b2; the person retakes; forced again; the person's capture leaves
    // Black without a move.
    let line = ["a3xb2", "c1xb2", "c3xb2", "a1xb2"];
    let mut last = None;
    for (ply, version) in line.iter().zip(1u64..) {
        person.send_move(room, &token, version, play(ply)).await;
        last = Some(person.state_where(room, |s| s.version == version + 1).await);
    }
    let end = person.recorded(room, last.unwrap()).await;
    assert_eq!(end.outcome, Some(Outcome::Won { seat: 0 }));
    // The record names HER by the brain it played with.
    let record = person.record(end.record.expect("stored")).await;
    assert_eq!(record.summary.seats[1], "slow (matchbox robot)");
    assert!(
        hex(&end.state)
            .result_text()
            .unwrap()
            .starts_with("You win")
    );
    // The bead of HER's last move is gone from the stored brain; its first forced move stays.
    let brain = person.export("slow").await;
    let last_box = Position::start(Dims::HEXAPAWN)
        .play("b1-b2".parse().unwrap())
        .and_then(|p| p.play("a3xb2".parse().unwrap()))
        .and_then(|p| p.play("c1xb2".parse().unwrap()))
        .unwrap();
    let beads = |position: &Position, ply: &str| {
        let matchbox = brain.matchbox(position).unwrap();
        let mv = ply.parse().unwrap();
        matchbox.beads.iter().find(|b| b.mv == mv).unwrap().beads
    };
    assert_eq!(beads(&last_box, "c3xb2"), 0);
    assert_eq!(beads(&before_her, "a3xb2"), 1);
    let listed = person.brains().await;
    assert_eq!((listed[0].name.as_str(), listed[0].games), ("slow", 1));
    // The lesson is stored: the brain is free for a match.
    person.create(match_on_slow, vec![]).await;
}

#[tokio::test]
async fn fast_mode_her_answers_by_itself() {
    let (server, _dir) = start_server("her-fast");
    let mut person = Peer::connect(&server.url(), Format::Binary).await;
    let room = person
        .create(against_her(PlayMode::Fast, "fast"), her_seats())
        .await;
    let token = person.join(room, 0).await;
    person.send_move(room, &token, 0, play("b1-b2")).await;
    let answered = person.state_where(room, |s| s.version == 2).await;
    let game = hex(&answered.state);
    assert_eq!(game.plies.len(), 2);
    assert_eq!(game.seat_to_move(), Some(0));
    // HER's seat is not the person's to play in fast mode.
    person.join_refused(room, 1, ErrorCode::SeatTaken).await;
}

#[tokio::test]
async fn a_new_brain_is_made_by_its_first_room_and_a_room_of_another_board_is_refused() {
    let (server, _dir) = start_server("her-new-brain");
    let mut person = Peer::connect(&server.url(), Format::Json).await;
    person
        .create(against_her(PlayMode::Fast, "fresh"), her_seats())
        .await;
    // The name is taken at once: listed empty, before any game on it has ended.
    let listed = person.brains().await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!((listed[0].name.as_str(), listed[0].games), ("fresh", 0));
    let on_4x4 = GameSetup::Hexapawn(HexSetup {
        dims: "4x4".parse().unwrap(),
        mirrors: false,
        mode: PlayMode::Fast,
        brain: "fresh".into(),
    });
    let reason = person
        .create_refused(on_4x4, her_seats(), ErrorCode::BadRequest)
        .await;
    // Named as the person's list names it, not by the id it is stored under.
    assert!(
        reason.starts_with(r#"your brain "fresh" is for 3x3 boards"#),
        "{reason}"
    );
    let match_on_4x4 = GameSetup::HerMatch(MatchSetup {
        dims: "4x4".parse().unwrap(),
        mirrors: false,
        rounds: 10,
        pace: Pace::FullSpeed,
        brains: ["other".into(), "fresh".into()],
    });
    // A match is refused on a brain in a game before its board is looked at.
    let reason = person
        .create_refused(match_on_4x4, Vec::new(), ErrorCode::BrainBusy)
        .await;
    assert!(
        reason.starts_with(r#"your brain "fresh" is playing"#),
        "{reason}"
    );
}

#[tokio::test]
async fn a_game_against_her_needs_the_person_in_seat_0_and_her_in_seat_1() {
    let (server, _dir) = start_server("her-seats");
    let mut person = Peer::connect(&server.url(), Format::Json).await;
    let her = her_seats()[1];
    for seats in [
        vec![SeatSpec::Human, SeatSpec::Human],
        vec![her, SeatSpec::Human],
        vec![her, her],
    ] {
        let message = person
            .create_refused(
                against_her(PlayMode::Fast, "seats"),
                seats.clone(),
                ErrorCode::BadRequest,
            )
            .await;
        assert!(
            message.contains("a Human seat 0 and HER (AI Standard) in seat 1"),
            "{seats:?}: {message}"
        );
    }
}

#[tokio::test]
async fn an_auto_match_is_watched_live_and_a_late_spectator_gets_the_current_state() {
    let (server, _dir) = start_server("her-auto");
    let mut creator = Peer::connect(&server.url(), Format::Json).await;
    let setup = MatchSetup {
        dims: Dims::HEXAPAWN,
        mirrors: true,
        rounds: 60,
        pace: Pace::PerPly { ms: 5 },
        brains: ["A".into(), "B".into()],
    };
    let room = creator
        .create(GameSetup::HerMatch(setup.clone()), vec![])
        .await;
    creator.send(ClientMsg::Watch { room }).await;
    let running = creator
        .state_where(room, |s| view(&s.state).rounds_played >= 3)
        .await;
    assert!(running.outcome.is_none());
    // While the match trains A, nobody else may touch it.
    creator
        .send(ClientMsg::ResetBrain { name: "A".into() })
        .await;
    creator.expect_error(ErrorCode::BrainBusy).await;
    creator
        .create_refused(
            against_her(PlayMode::Fast, "B"),
            her_seats(),
            ErrorCode::BrainBusy,
        )
        .await;

    let mut late = Peer::connect(&server.url(), Format::Binary).await;
    late.send(ClientMsg::Watch { room }).await;
    let first = late
        .recv_until(|m| match m {
            ServerMsg::State(s) => Some(s),
            _ => None,
        })
        .await;
    assert!(view(&first.state).rounds_played >= 3);
    assert!(first.spectators >= 2);

    let end = creator.state_where(room, |s| s.outcome.is_some()).await;
    let done = view(&end.state);
    assert!(done.finished);
    assert_eq!(done.rounds_played, 60);
    assert_eq!(done.stats[0].wins + done.stats[1].wins, 60);
    assert_eq!(done.curve.len(), 6);
    assert_eq!(
        done.curve
            .iter()
            .map(|p| p.losses[0] + p.losses[1])
            .sum::<u32>(),
        60
    );
    let brains = creator.brains().await;
    let games: Vec<(String, u64)> = brains.into_iter().map(|b| (b.name, b.games)).collect();
    assert_eq!(games, [("A".to_string(), 60), ("B".to_string(), 60)]);
    // The match is over: its brains are free again.
    creator
        .send(ClientMsg::ResetBrain { name: "A".into() })
        .await;
    let reset = creator
        .recv_until(|m| match m {
            ServerMsg::Brains(brains) => Some(brains),
            _ => None,
        })
        .await;
    assert_eq!((reset[0].beads, reset[0].games), (0, 0));
}

#[tokio::test]
async fn an_auto_match_has_no_seat_to_join_or_move_from() {
    let (server, _dir) = start_server("her-auto-seats");
    let mut person = Peer::connect(&server.url(), Format::Binary).await;
    let slow = MatchSetup {
        dims: Dims::HEXAPAWN,
        mirrors: false,
        rounds: 1_000,
        pace: Pace::PerPly { ms: 1_000 },
        brains: ["A".into(), "B".into()],
    };
    let room = person.create(GameSetup::HerMatch(slow), vec![]).await;
    let token = SeatToken::random();
    for seat in [0, 1] {
        let message = person.join_refused(room, seat, ErrorCode::NoSuchSeat).await;
        assert!(message.contains("an auto match has no seats"), "{message}");
    }
    for mv in [HexMove::HerPicks, HexMove::Play("b1-b2".parse().unwrap())] {
        person
            .send_move(room, &token, 0, GameMove::Hexapawn(mv))
            .await;
        let message = person.expect_error(ErrorCode::NoSuchSeat).await;
        assert!(message.contains("an auto match has no seats"), "{message}");
    }
}

#[tokio::test]
async fn brains_are_exported_imported_and_refused_with_reasons() {
    let (server, _dir) = start_server("her-brains");
    let mut person = Peer::connect(&server.url(), Format::Json).await;
    person
        .send(ClientMsg::ExportBrain {
            name: "nobody".into(),
        })
        .await;
    person.expect_error(ErrorCode::NoSuchBrain).await;
    for (json, reason) in [("{", "not a Hexapawn brain"), ("{}", "missing field")] {
        person.import("X", json).await;
        let message = person.expect_error(ErrorCode::BadRequest).await;
        assert!(message.contains(reason), "{message}");
    }
    // A good brain file under a bad name is refused for its name as its first part arrives,
    // the rest passed over, and nothing is stored. (Padded with spaces to travel in parts.)
    let valid = Brain::new(Dims::HEXAPAWN, false).to_json() + &" ".repeat(100_000);
    assert!(Brain::from_json(&valid).is_ok());
    for (name, reason) in [
        ("", "a brain name has"),
        ("a\nb", "a brain name has"),
        ("HER ", "may not begin or end with a space"),
        (" HER", "may not begin or end with a space"),
        ("a/b", "may not hold '/'"),
    ] {
        let mut parts = brain_parts::import_requests(name, &valid);
        person.send(parts.next().unwrap()).await;
        let answer = person
            .recv_until(|m| match m {
                ServerMsg::Error { code, message } => Some((code, message)),
                ServerMsg::Brains(brains) => panic!("{name:?} stored: {brains:?}"),
                _ => None,
            })
            .await;
        assert_eq!(answer.0, ErrorCode::BadRequest, "{}", answer.1);
        assert!(answer.1.contains(reason), "{name:?}: {}", answer.1);
        let rest: Vec<ClientMsg> = parts.collect();
        assert!(!rest.is_empty(), "the file travels in parts");
        for part in rest {
            person.send(part).await;
        }
        // The next answer is the list: the passed-over parts are not answered.
        person.send(ClientMsg::ListBrains).await;
        match person.recv().await {
            ServerMsg::Brains(brains) => assert!(brains.is_empty(), "{name:?} stored: {brains:?}"),
            other => panic!("{name:?}: the parts after a refusal were answered: {other:?}"),
        }
    }

    let config = AutoConfig {
        dims: Dims::HEXAPAWN,
        mirrors: false,
        rounds: 100,
        seed: 9,
    };
    let trained = AutoMatch::new(config).run().brains[1].clone();
    person.import("taught", &trained.to_json()).await;
    let listed = person.brains().await;
    assert_eq!(listed[0].beads, trained.beads());
    assert_eq!(person.export("taught").await, trained);
    // Nor is a new brain made under such a name by a game against HER or an auto match.
    let message = person
        .create_refused(
            against_her(PlayMode::Fast, "HER "),
            her_seats(),
            ErrorCode::BadRequest,
        )
        .await;
    assert!(
        message.contains("may not begin or end with a space"),
        "{message}"
    );
    let two = MatchSetup {
        dims: Dims::HEXAPAWN,
        mirrors: false,
        rounds: 10,
        pace: Pace::FullSpeed,
        brains: ["one".into(), "a/b".into()],
    };
    let message = person
        .create_refused(GameSetup::HerMatch(two), Vec::new(), ErrorCode::BadRequest)
        .await;
    assert!(message.contains("may not hold '/'"), "{message}");
    assert_eq!(person.brains().await.len(), 1, "only the brain imported");
    // A game against HER with the wrong size for a stored brain is refused, with the reason.
    let octapawn = GameSetup::Hexapawn(HexSetup {
        dims: Dims::OCTAPAWN,
        mirrors: false,
        mode: PlayMode::Fast,
        brain: "taught".into(),
    });
    let message = person
        .create_refused(octapawn, her_seats(), ErrorCode::BadRequest)
        .await;
    assert!(message.contains("is for 3x3 boards"), "{message}");
}

/// An Octapawn brain after 2,000 rounds is about 160 KB as a file: more than a frame holds.
#[tokio::test]
async fn a_brain_larger_than_a_frame_travels_in_parts_both_ways_in_both_formats() {
    let (server, _dir) = start_server("her-brain-parts");
    let config = AutoConfig {
        dims: Dims::OCTAPAWN,
        mirrors: false,
        rounds: 2000,
        seed: 3,
    };
    let trained = AutoMatch::new(config).run().brains[0].clone();
    let file = trained.to_json();
    assert!(brain_parts::split(&file).len() >= 3, "{} bytes", file.len());
    for format in [Format::Json, Format::Binary] {
        let mut person = Peer::connect(&server.url(), format).await;
        person.import("big", &file).await;
        let listed = person.brains().await;
        assert_eq!(
            (listed[0].name.as_str(), listed[0].beads),
            ("big", trained.beads())
        );
        assert_eq!(person.export_file("big").await, file, "{format:?}");
    }
}

#[tokio::test]
async fn a_part_out_of_place_is_refused_and_the_rest_of_its_file_passed_over() {
    let (server, _dir) = start_server("her-brain-part-refused");
    let mut person = Peer::connect(&server.url(), Format::Json).await;
    let trained = AutoMatch::new(AutoConfig {
        dims: Dims::HEXAPAWN,
        mirrors: false,
        rounds: 50,
        seed: 4,
    })
    .run()
    .brains[0]
        .clone();
    let part = |part, text: &str| ClientMsg::ImportBrain {
        name: "X".into(),
        part,
        parts: 3,
        json: text.into(),
    };
    person.send(part(0, "{")).await;
    person.send(part(2, "}")).await;
    let message = person.expect_error(ErrorCode::BadRequest).await;
    assert!(message.contains("part 1 of 3"), "{message}");
    // The refused file's other parts are passed over without a word; the next file is stored.
    person.send(part(1, "x")).await;
    person.import("after", &trained.to_json()).await;
    let ServerMsg::Brains(listed) = person.recv().await else {
        panic!("the import's answer should come next")
    };
    let names: Vec<&str> = listed.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["after"], "nothing of X was stored");
}

/// 300 parts overdraw a budget of 200 requests if each costs one: the parts after the first
/// cost a sixteenth.
#[tokio::test]
async fn a_file_of_hundreds_of_parts_is_not_taken_for_abuse() {
    let (server, _dir) = start_server("her-brain-many-parts");
    let mut person = Peer::connect(&server.url(), Format::Binary).await;
    let junk = "x".repeat(300 * brain_parts::PART_BYTES);
    assert_eq!(brain_parts::split(&junk).len(), 300);
    person.import("junk", &junk).await;
    let message = person.expect_error(ErrorCode::BadRequest).await;
    assert!(message.contains("not a Hexapawn brain"), "{message}");
    assert!(person.brains().await.is_empty(), "still connected");
}
