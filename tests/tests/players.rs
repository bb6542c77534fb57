//! People in the hall, over real connections: a player is their secret on any connection,
//! their seats come back on a new connection (a restarted client has lost its tokens, never its
//! player), rooms name their creator, who alone may close them, and weak secrets, weak tokens
//! and bad names are refused.

mod common;

use common::{Peer, cave, start_server};
use parlor_shared::codec::Format;
use parlor_shared::game::GameKind;
use parlor_shared::game::GameSetup;
use parlor_shared::hexapawn::{Dims, MatchSetup, Pace};
use parlor_shared::identity::PlayerSecret;
use parlor_shared::protocol::{
    ClientMsg, ErrorCode, HeldSeat, PROTOCOL_VERSION, SeatSpec, SeatState, SeatToken, ServerMsg,
};

const HUMANS: [SeatSpec; 2] = [SeatSpec::Human, SeatSpec::Human];

/// The answer to a Hello from `secret` named `name`: the handshake's refusal, or `None` when
/// welcomed.
async fn hello_refusal(url: &str, secret: &str, name: &str) -> Option<String> {
    let mut peer = Peer::raw(url, Format::Json).await;
    peer.send(ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        client: "test".into(),
        player: PlayerSecret(secret.into()),
        name: name.into(),
    })
    .await;
    match peer.recv().await {
        ServerMsg::Welcome { .. } => None,
        ServerMsg::Error {
            code: ErrorCode::Handshake,
            message,
        } => Some(message),
        other => panic!("a Hello answered with {other:?}"),
    }
}

#[tokio::test]
async fn one_secret_is_one_player_on_every_connection_and_weak_secrets_and_bad_names_are_refused() {
    let (server, _dir) = start_server("players-hello");
    let url = server.url();
    let ada = PlayerSecret::random();
    let first = Peer::connect_as(&url, Format::Json, &ada).await;
    let again = Peer::connect_as(&url, Format::Binary, &ada).await;
    let other = Peer::connect(&url, Format::Json).await;
    let id = |peer: &Peer| peer.player.as_ref().unwrap().id;
    assert_eq!(id(&first), id(&again));
    assert_ne!(id(&first), id(&other));
    // The public id shows nothing of the secret.
    assert!(!ada.0.contains(&id(&first).to_string()));

    let weak = [
        "0".repeat(64),
        "0123456789abcdef".repeat(4),
        "ab".repeat(32),
    ];
    for secret in &weak {
        let refusal = hello_refusal(&url, secret, "Ada").await.expect("refused");
        assert!(refusal.contains("guessed"), "{refusal}");
    }
    let fine = PlayerSecret::random().0;
    for name in ["", "   ", &"x".repeat(33), "two\nlines"] {
        assert!(hello_refusal(&url, &fine, name).await.is_some(), "{name:?}");
    }
    assert_eq!(hello_refusal(&url, &fine, &"é".repeat(32)).await, None);
    // A name that imitates a tag, or pushes the real one out of sight, is shown tidied.
    let imitation = format!("Ada #3f2a{}.", "\u{2003}".repeat(22));
    let mut peer = Peer::raw(&url, Format::Json).await;
    peer.send(ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        client: "test".into(),
        player: PlayerSecret(fine),
        name: imitation,
    })
    .await;
    let ServerMsg::Welcome { player, .. } = peer.recv().await else {
        panic!("the tidied name is welcome");
    };
    assert_eq!(player.name, "Ada 3f2a .");
}

#[tokio::test]
async fn a_player_on_a_new_connection_takes_their_seat_back_and_the_old_token_stops_working() {
    let (server, _dir) = start_server("players-seats");
    let url = server.url();
    let ada = PlayerSecret::random();
    let mut first = Peer::connect_as(&url, Format::Binary, &ada).await;
    let mut bob = Peer::connect(&url, Format::Json).await;
    let room = first.create_room(HUMANS.to_vec()).await;
    let old_token = first.join(room, 0).await;
    let waiting = first.my_seats().await;
    assert!(
        !waiting[0].to_move,
        "Black waits for an opponent, not a move"
    );
    let bob_token = bob.join(room, 1).await;
    let playing = first.my_seats().await;
    assert!(playing[0].to_move, "Black's move, now White has come");
    first.play_and_see(room, &old_token, 0, cave("a1")).await;
    // The client dies: its tokens are gone with it.
    drop(first);
    bob.state_where(room, |s| {
        matches!(&s.seats[0], SeatState::Taken { connected: false, player: Some(p) } if p.name == "tester")
    })
    .await;

    // A stranger may not take the seat; the same player on a new connection may.
    let mut stranger = Peer::connect(&url, Format::Json).await;
    assert!(stranger.my_seats().await.is_empty());
    stranger.join_refused(room, 0, ErrorCode::SeatTaken).await;
    let mut back = Peer::connect_as(&url, Format::Json, &ada).await;
    let held = back.my_seats().await;
    assert_eq!(
        held,
        vec![HeldSeat {
            room,
            seat: 0,
            game: GameKind::Cave,
            to_move: false,
            kept: false,
        }],
        "White is to move"
    );
    let bobs = bob.my_seats().await;
    assert!(bobs.iter().all(|held| held.to_move), "{bobs:?}");
    let new_token = back.join(room, 0).await;
    assert_ne!(new_token, old_token);
    let state = bob
        .state_where(room, |s| {
            matches!(
                &s.seats[0],
                SeatState::Taken {
                    connected: true,
                    ..
                }
            )
        })
        .await;
    assert_eq!(state.moves, vec![cave("a1")]);
    bob.play_and_see(room, &bob_token, 1, cave("h8")).await;
    // The old token holds the seat no more: whoever kept it cannot move for the player.
    back.play(room, &old_token, 2, "b1").await;
    back.expect_error(ErrorCode::BadToken).await;
    back.play_and_see(room, &new_token, 2, cave("b1")).await;
}

#[tokio::test]
async fn a_window_whose_seat_its_player_took_back_elsewhere_is_told_and_watches_on() {
    let (server, _dir) = start_server("players-taken-back");
    let url = server.url();
    let ada = PlayerSecret::random();
    let mut first = Peer::connect_as(&url, Format::Json, &ada).await;
    let room = first.create_room(HUMANS.to_vec()).await;
    let old_token = first.join(room, 0).await;
    // The same player's second window, both connected, takes the seat by who they are.
    let mut second = Peer::connect_as(&url, Format::Binary, &ada).await;
    let new_token = second.join(room, 0).await;
    let told = first
        .recv_until(|message| match message {
            ServerMsg::SeatTakenBack { room, seat } => Some((room, seat)),
            _ => None,
        })
        .await;
    assert_eq!(told, (room, 0));
    // It watches on: the move made from the second window reaches it.
    second.play_and_see(room, &new_token, 0, cave("a1")).await;
    let seen = first.state_where(room, |s| s.moves.len() == 1).await;
    assert_eq!(seen.moves, vec![cave("a1")]);
    first.play(room, &old_token, 1, "b1").await;
    first.expect_error(ErrorCode::BadToken).await;
}

#[tokio::test]
async fn seat_tokens_a_client_chooses_must_look_random() {
    let (server, _dir) = start_server("players-tokens");
    let mut peer = Peer::connect(&server.url(), Format::Json).await;
    let room = peer.create_room(HUMANS.to_vec()).await;
    for weak in [
        "0".repeat(32),
        "0123456789abcdef".repeat(2),
        "a1".repeat(16),
    ] {
        peer.send(ClientMsg::JoinSeat {
            room,
            seat: 0,
            token: Some(SeatToken(weak.clone())),
        })
        .await;
        let refusal = peer.expect_error(ErrorCode::BadRequest).await;
        assert!(refusal.contains("guessed"), "{weak}: {refusal}");
    }
    // Nothing was taken: a good token gets the seat.
    peer.join(room, 0).await;
}

#[tokio::test]
async fn rooms_name_their_creator_who_alone_may_close_them() {
    let (server, _dir) = start_server("players-close");
    let url = server.url();
    let mut ada = Peer::connect(&url, Format::Json).await;
    let mut bob = Peer::connect(&url, Format::Binary).await;
    let room = ada.create_room(HUMANS.to_vec()).await;
    let rooms = bob.list_rooms().await;
    let listed = rooms.iter().find(|r| r.room == room).unwrap();
    assert_eq!(listed.creator, ada.player);
    bob.join(room, 1).await;
    let watched = bob.state_where(room, |_| true).await;
    assert_eq!(watched.creator, ada.player);

    bob.send(ClientMsg::CloseRoom { room }).await;
    bob.expect_error(ErrorCode::NotYours).await;
    assert!(bob.list_rooms().await.iter().any(|r| r.room == room));

    ada.send(ClientMsg::CloseRoom { room }).await;
    for peer in [&mut ada, &mut bob] {
        let told = peer
            .recv_until(|m| match m {
                ServerMsg::RoomClosed {
                    room: closed,
                    message,
                } if closed == room => Some(message),
                _ => None,
            })
            .await;
        assert!(told.contains("closed by its creator"), "{told}");
    }
    assert!(!ada.list_rooms().await.iter().any(|r| r.room == room));
    assert!(bob.my_seats().await.is_empty());

    // An auto match too.
    let setup = MatchSetup {
        dims: Dims::HEXAPAWN,
        mirrors: true,
        rounds: 1_000,
        pace: Pace::PerPly { ms: 500 },
        brains: ["ada A".into(), "ada B".into()],
    };
    let auto = ada.create(GameSetup::HerMatch(setup), vec![]).await;
    bob.send(ClientMsg::CloseRoom { room: auto }).await;
    bob.expect_error(ErrorCode::NotYours).await;
    ada.send(ClientMsg::CloseRoom { room: auto }).await;
    ada.recv_until(|m| {
        matches!(m, ServerMsg::RoomClosed { room, .. } if room == auto).then_some(())
    })
    .await;
    assert!(!ada.list_rooms().await.iter().any(|r| r.room == auto));
}

#[tokio::test]
async fn a_stored_game_names_its_players() {
    let (server, _dir) = start_server("players-record");
    let url = server.url();
    let ada = PlayerSecret::random();
    let mut peer = Peer::raw(&url, Format::Json).await;
    peer = Peer::greet_as(peer, &ada, "Ada").await;
    let board = "2 3\n1 2 3\n4 0 5\n0\n";
    let puzzle = parlor_shared::klotski::parse_puzzle(board).unwrap();
    let setup = GameSetup::Klotski(parlor_shared::klotski::KlotskiBoard::of(&puzzle));
    let room = peer.create(setup, vec![SeatSpec::Human]).await;
    let token = peer.join(room, 0).await;
    let slide = parlor_shared::game::GameMove::Klotski(parlor_shared::klotski::KlotskiMove::Slide(
        parlor_shared::klotski::Move {
            label: 5,
            dir: parlor_shared::klotski::Dir::Left,
        },
    ));
    peer.send_move(room, &token, 0, slide).await;
    let done = peer.state_where(room, |s| s.record.is_some()).await;
    let record = peer.record(done.record.unwrap()).await;
    let ada_label = peer.player.as_ref().unwrap().label();
    assert!(ada_label.starts_with("Ada #"), "{ada_label}");
    assert_eq!(record.summary.seats, vec![ada_label.clone()]);
    let ada_id = peer.player.as_ref().unwrap().id;
    assert_eq!(record.summary.players, vec![Some(ada_id)]);

    // Renamed on another connection: the game keeps her old label, and her id says it is hers.
    let mut renamed = Peer::greet_as(Peer::raw(&url, Format::Binary).await, &ada, "Ada L").await;
    assert_eq!(renamed.player.as_ref().unwrap().id, ada_id);
    let listed = renamed.list_records().await;
    let summary = listed.iter().find(|r| r.id == record.summary.id).unwrap();
    assert_eq!(summary.seats, vec![ada_label]);
    assert_eq!(summary.players, vec![Some(ada_id)]);
}

#[tokio::test]
async fn rooms_followed_stop_at_the_quota_and_a_closed_room_frees_its_place() {
    let limits = parlor_server::Limits {
        followed_per_player: 2,
        ..parlor_server::Limits::default()
    };
    let (server, _dir) = common::start_server_with("players-follows", limits);
    let url = server.url();
    let mut host = Peer::connect(&url, Format::Json).await;
    let rooms = [
        host.create_room(HUMANS.to_vec()).await,
        host.create_room(HUMANS.to_vec()).await,
        host.create_room(HUMANS.to_vec()).await,
    ];
    // One player on two connections shares the quota.
    let me = PlayerSecret::random();
    let mut first = Peer::connect_as(&url, Format::Json, &me).await;
    let mut second = Peer::connect_as(&url, Format::Json, &me).await;
    first.watch(rooms[0]).await;
    second.watch(rooms[1]).await;
    second.send(ClientMsg::Watch { room: rooms[2] }).await;
    let refusal = second.expect_error(ErrorCode::LimitReached).await;
    assert!(refusal.contains("follow 2 rooms"), "{refusal}");
    // A room that closes is followed no more.
    host.send(ClientMsg::CloseRoom { room: rooms[0] }).await;
    first
        .recv_until(|m| matches!(m, ServerMsg::RoomClosed { .. }).then_some(()))
        .await;
    first.watch(rooms[2]).await;
}

#[tokio::test]
async fn a_player_back_under_a_new_name_is_shown_by_it_in_their_rooms() {
    let (server, _dir) = start_server("players-renamed");
    let url = server.url();
    let ada = PlayerSecret::random();
    let mut first = Peer::greet_as(Peer::raw(&url, Format::Json).await, &ada, "Ada").await;
    let room = first.create(GameSetup::Cave, HUMANS.to_vec()).await;
    first.join(room, 0).await;
    let mut watcher = Peer::connect(&url, Format::Json).await;
    watcher.watch(room).await;

    let mut again = Peer::greet_as(Peer::raw(&url, Format::Binary).await, &ada, "Ada L").await;
    let state = watcher
        .state_where(room, |state| {
            matches!(&state.seats[0], SeatState::Taken { player: Some(p), .. } if p.name == "Ada L")
        })
        .await;
    assert_eq!(state.creator.as_ref().unwrap().name, "Ada L");
    let listed = again.list_rooms().await;
    let summary = listed.iter().find(|r| r.room == room).unwrap();
    assert_eq!(summary.creator.as_ref().unwrap().name, "Ada L");
    // A room she has no part in keeps its names.
    let bob_room = watcher.create(GameSetup::Cave, HUMANS.to_vec()).await;
    let listed = again.list_rooms().await;
    let bobs = listed.iter().find(|r| r.room == bob_room).unwrap();
    assert_ne!(bobs.creator.as_ref().unwrap().name, "Ada L");
}
