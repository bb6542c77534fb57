//! Two players and a spectator on a real server over loopback: a whole game, seat tokens,
//! reconnects, stale versions, AI seats, stored replays, and both wire formats.

mod common;

use common::{BLACK_WINS, Peer, cave, start_server};
use parlor_shared::codec::Format;
use parlor_shared::game::{GameKind, GameSetup, GameState, Outcome};
use parlor_shared::identity::PlayerSecret;
use parlor_shared::protocol::{
    ClientMsg, ErrorCode, PROTOCOL_VERSION, SeatSpec, SeatState, SeatToken, ServerMsg,
};
use tokio_tungstenite::tungstenite::Message;

const HUMANS: [SeatSpec; 2] = [SeatSpec::Human, SeatSpec::Human];

/// Whether a taken seat's player is connected (`None`: the seat is not taken).
fn presence(seat: &SeatState) -> Option<bool> {
    match seat {
        SeatState::Taken { connected, .. } => Some(*connected),
        _ => None,
    }
}

#[tokio::test]
async fn two_players_and_a_spectator_see_the_same_game_and_the_stored_replay_matches() {
    let (server, _dir) = start_server("full-game");
    let url = server.url();
    // The players speak different formats: the server must answer each in its own.
    let mut black = Peer::connect(&url, Format::Binary).await;
    let mut white = Peer::connect(&url, Format::Json).await;
    let mut watcher = Peer::connect(&url, Format::Binary).await;

    let room = black.create_room(HUMANS.to_vec()).await;
    let black_token = black.join(room, 0).await;
    let white_token = white.join(room, 1).await;
    watcher.send(ClientMsg::Watch { room }).await;
    let first = watcher.state_where(room, |_| true).await;
    assert_eq!(first.version, 0);
    // Each seat names the player who took it, as the server welcomed them.
    let taken_by = |peer: &Peer| SeatState::Taken {
        connected: true,
        player: peer.player.clone(),
    };
    assert_eq!(first.seats, vec![taken_by(&black), taken_by(&white)]);

    let mut last = Vec::new();
    for (ply, cell) in BLACK_WINS.iter().enumerate() {
        let version = ply as u64;
        let (mover, token) = if ply % 2 == 0 {
            (&mut black, &black_token)
        } else {
            (&mut white, &white_token)
        };
        mover.play(room, token, version, cell).await;
        last.clear();
        for peer in [&mut black, &mut white, &mut watcher] {
            let state = peer.state_where(room, |s| s.version == version + 1).await;
            assert_eq!(state.moves.last(), Some(&cave(cell)));
            last.push(state);
        }
    }

    // Everyone waits for the state that carries the stored record's id.
    let mut finals = Vec::new();
    for (peer, last) in [&mut black, &mut white, &mut watcher].into_iter().zip(last) {
        finals.push(peer.recorded(room, last).await);
    }
    assert!(
        finals.iter().all(|s| s == &finals[0]),
        "players and spectator disagree"
    );
    let end = &finals[0];
    assert_eq!(end.outcome, Some(Outcome::Won { seat: 0 }));
    assert_eq!(end.moves, BLACK_WINS.map(cave).to_vec());
    assert_eq!(end.version, 9);

    // Any client can list the stored games and replay this one to the same end.
    let records = watcher.list_records().await;
    let id = end.record.unwrap();
    let summary = records.iter().find(|r| r.id == id).expect("record listed");
    assert_eq!(
        (summary.game, summary.moves, summary.outcome),
        (GameKind::Cave, 9, Outcome::Won { seat: 0 })
    );
    let record = white.record(id).await;
    assert_eq!(record.moves, end.moves);
    let replayed = record
        .start
        .replay(&record.moves)
        .expect("the stored moves are legal");
    assert_eq!(replayed.last(), Some(&end.state));

    // The game is over: no more moves.
    black.play(room, &black_token, 9, "h4").await;
    black.expect_error(ErrorCode::GameOver).await;
    white.send(ClientMsg::GetRecord { id: id + 100 }).await;
    white.expect_error(ErrorCode::NoSuchRecord).await;
}

#[tokio::test]
async fn tokens_bind_seats_spectators_cannot_move_and_stale_versions_are_refused() {
    let (server, _dir) = start_server("tokens");
    let url = server.url();
    let mut black = Peer::connect(&url, Format::Binary).await;
    let mut white = Peer::connect(&url, Format::Binary).await;
    let mut watcher = Peer::connect(&url, Format::Json).await;
    let room = black.create_room(HUMANS.to_vec()).await;
    let black_token = black.join(room, 0).await;
    let white_token = white.join(room, 1).await;
    watcher.send(ClientMsg::Watch { room }).await;
    watcher.state_where(room, |_| true).await;

    // White's token cannot move for Black, whose turn it is.
    white.play(room, &white_token, 0, "a1").await;
    white.expect_error(ErrorCode::NotYourTurn).await;
    // A spectator has no token; a made-up one holds no seat.
    watcher.play(room, &SeatToken::random(), 0, "a1").await;
    watcher.expect_error(ErrorCode::BadToken).await;
    // Even Black's own token used by the spectator's connection moves only for Black, so a
    // token is the whole authority: keep it secret. Here Black moves normally.
    black.play(room, &black_token, 0, "a1").await;
    black.state_where(room, |s| s.version == 1).await;
    // Black's token now that it is White's turn: refused.
    black.play(room, &black_token, 1, "b1").await;
    black.expect_error(ErrorCode::NotYourTurn).await;
    // A stale version, an illegal cell, a taken seat, a missing room: all refused.
    white.play(room, &white_token, 0, "h1").await;
    white.expect_error(ErrorCode::StaleVersion).await;
    white.play(room, &white_token, 1, "d4").await;
    let reason = white.expect_error(ErrorCode::IllegalMove).await;
    assert!(reason.contains("d4"), "{reason}");
    watcher.join_refused(room, 0, ErrorCode::SeatTaken).await;
    watcher.join_refused(room, 5, ErrorCode::NoSuchSeat).await;
    white.play(room + 1000, &white_token, 1, "h1").await;
    white.expect_error(ErrorCode::NoSuchRoom).await;
    // Nothing of that changed the room.
    white.play(room, &white_token, 1, "h1").await;
    let state = watcher.state_where(room, |s| s.version == 2).await;
    assert_eq!(state.moves, vec![cave("a1"), cave("h1")]);
}

#[tokio::test]
async fn a_player_who_disconnects_takes_the_seat_back_with_the_token() {
    let (server, _dir) = start_server("reconnect");
    let url = server.url();
    let mut black = Peer::connect(&url, Format::Binary).await;
    let mut white = Peer::connect(&url, Format::Binary).await;
    let room = black.create_room(HUMANS.to_vec()).await;
    let black_token = black.join(room, 0).await;
    let _white_token = white.join(room, 1).await;
    black.play(room, &black_token, 0, "a1").await;
    white.state_where(room, |s| s.version == 1).await;

    drop(black);
    let away = white
        .state_where(room, |s| presence(&s.seats[0]) == Some(false))
        .await;
    assert_eq!(away.version, 1);

    // Someone else cannot take the seat; the token holder can.
    let mut stranger = Peer::connect(&url, Format::Json).await;
    stranger.join_refused(room, 0, ErrorCode::SeatTaken).await;
    let mut back = Peer::connect(&url, Format::Json).await;
    back.send(ClientMsg::Reclaim {
        room,
        token: black_token.clone(),
    })
    .await;
    let seat = back
        .recv_until(|m| match m {
            ServerMsg::Seated { seat, .. } => Some(seat),
            _ => None,
        })
        .await;
    assert_eq!(seat, 0);
    let state = back.state_where(room, |_| true).await;
    assert_eq!(state.moves, vec![cave("a1")]);
    white
        .state_where(room, |s| presence(&s.seats[0]) == Some(true))
        .await;
    back.send(ClientMsg::Reclaim {
        room,
        token: SeatToken("nope".into()),
    })
    .await;
    back.expect_error(ErrorCode::BadToken).await;
}

#[tokio::test]
async fn a_late_spectator_gets_the_whole_game_at_once() {
    let (server, _dir) = start_server("late");
    let url = server.url();
    let mut black = Peer::connect(&url, Format::Binary).await;
    let mut white = Peer::connect(&url, Format::Binary).await;
    let room = black.create_room(HUMANS.to_vec()).await;
    let tokens = [black.join(room, 0).await, white.join(room, 1).await];
    for (ply, cell) in BLACK_WINS[..4].iter().enumerate() {
        let peer = if ply % 2 == 0 { &mut black } else { &mut white };
        peer.play(room, &tokens[ply % 2], ply as u64, cell).await;
        peer.state_where(room, |s| s.version == ply as u64 + 1)
            .await;
    }
    let mut late = Peer::connect(&url, Format::Json).await;
    late.send(ClientMsg::Watch { room }).await;
    let state = late.state_where(room, |_| true).await;
    assert_eq!(state.version, 4);
    assert_eq!(
        state.moves,
        BLACK_WINS[..4].iter().map(|c| cave(c)).collect::<Vec<_>>()
    );
    let GameState::Cave(position) = state.state else {
        panic!("not a cave")
    };
    assert_eq!(position.brick_count(), 4);
    assert_eq!(state.spectators, 1);
    // The lobby lists the room with its progress.
    let rooms = late.list_rooms().await;
    let listed = rooms.iter().find(|r| r.room == room).unwrap();
    assert_eq!((listed.moves, listed.spectators), (4, 1));
}

#[tokio::test]
async fn ai_seats_answer_humans_and_play_each_other_to_a_stored_end() {
    let (server, _dir) = start_server("ai");
    let url = server.url();
    let mut human = Peer::connect(&url, Format::Binary).await;
    let room = human
        .create_room(vec![SeatSpec::Human, SeatSpec::ai(50)])
        .await;
    let token = human.join(room, 0).await;
    human.play(room, &token, 0, "a1").await;
    let answered = human.state_where(room, |s| s.version == 2).await;
    assert_eq!(answered.moves[0], cave("a1"));
    assert_eq!(
        answered.seats[1],
        SeatState::Ai {
            move_ms: 50,
            name: "strong".into()
        }
    );

    // An AI budget over the course's 3 s is clamped.
    let duel = human
        .create_room(vec![SeatSpec::ai(20), SeatSpec::ai(99_999)])
        .await;
    human.send(ClientMsg::Watch { room: duel }).await;
    let first = human.state_where(duel, |_| true).await;
    assert_eq!(
        first.seats[1],
        SeatState::Ai {
            move_ms: 3000,
            name: "strong".into()
        }
    );
    human.send(ClientMsg::Leave { room: duel }).await;
    human
        .recv_until(|m| matches!(m, ServerMsg::Left { .. }).then_some(()))
        .await;

    let fast = human
        .create_room(vec![SeatSpec::ai(10), SeatSpec::ai(10)])
        .await;
    human.send(ClientMsg::Watch { room: fast }).await;
    let end = human.state_where(fast, |s| s.record.is_some()).await;
    assert!(end.outcome.is_some());
    let replayed = GameSetup::Cave
        .start()
        .unwrap()
        .replay(&end.moves)
        .expect("AI moves are legal");
    assert_eq!(replayed.last(), Some(&end.state));
}

#[tokio::test]
async fn a_person_with_json_text_frames_can_list_create_join_and_play() {
    let (server, _dir) = start_server("json");
    let mut person = Peer::raw(&server.url(), Format::Json).await;
    // As Python's `secrets.token_hex(32)` makes it.
    let secret = PlayerSecret::random().0;
    let hello = format!(
        r#"{{"Hello":{{"protocol":{PROTOCOL_VERSION},"client":"python","player":"{secret}","name":"Ada"}}}}"#
    );
    let typed = [
        hello.as_str(),
        r#""ListGames""#,
        r#"{"CreateRoom":{"setup":"Cave","seats":["Human",{"Ai":{"move_ms":30,"kind":"Standard"}}]}}"#,
        r#"{"JoinSeat":{"room":1,"seat":0}}"#,
    ];
    for text in typed {
        person.send_raw(Message::Text(text.into())).await;
    }
    assert!(matches!(person.recv().await, ServerMsg::Welcome { .. }));
    assert!(matches!(person.recv().await, ServerMsg::Games(g) if g[0].kind == GameKind::Cave));
    assert!(matches!(
        person.recv().await,
        ServerMsg::RoomCreated { room: 1 }
    ));
    let token = person
        .recv_until(|m| match m {
            ServerMsg::Seated { token, .. } => Some(token),
            _ => None,
        })
        .await;
    let text = format!(
        r#"{{"Move":{{"room":1,"token":"{}","version":0,"mv":{{"Cave":"H4"}}}}}}"#,
        token.0
    );
    person.send_raw(Message::Text(text.into())).await;
    let state = person.state_where(1, |s| s.version == 2).await;
    assert_eq!(state.moves[0], cave("h4"));
}

#[tokio::test]
async fn garbage_frames_get_an_error_and_the_connection_stays_usable() {
    let (server, _dir) = start_server("garbage");
    let mut peer = Peer::connect(&server.url(), Format::Binary).await;
    peer.send_raw(Message::Binary(vec![200, 1, 2, 3].into()))
        .await;
    peer.expect_error(ErrorCode::BadFrame).await;
    peer.send(ClientMsg::ListGames).await;
    assert!(matches!(peer.recv().await, ServerMsg::Games(_)));
    let mut json = Peer::connect(&server.url(), Format::Json).await;
    json.send_raw(Message::Text("{\"Move\":".into())).await;
    json.expect_error(ErrorCode::BadFrame).await;
    let reason = json
        .create_refused(
            GameSetup::Cave,
            vec![SeatSpec::Human],
            ErrorCode::BadRequest,
        )
        .await;
    assert!(reason.contains("2 seats"), "{reason}");
}

#[tokio::test]
async fn a_text_frame_that_is_not_utf8_is_closed_saying_so() {
    use tokio_tungstenite::tungstenite::protocol::frame::Frame;
    use tokio_tungstenite::tungstenite::protocol::frame::coding::{CloseCode, Data, OpCode};

    let (server, _dir) = start_server("not-utf8");
    let not_utf8 = || {
        let frame = Frame::message(vec![b'{', 0xff, 0xfe, b'}'], OpCode::Data(Data::Text), true);
        Message::Frame(frame)
    };
    // Before Hello and after it alike.
    let mut early = Peer::raw(&server.url(), Format::Json).await;
    early.send_raw(not_utf8()).await;
    assert_eq!(early.expect_close().await, Some(CloseCode::Invalid));
    let mut peer = Peer::connect(&server.url(), Format::Json).await;
    peer.send_raw(not_utf8()).await;
    // The WebSocket layer refuses it before anything is decoded: the close frame says why.
    assert_eq!(peer.expect_close().await, Some(CloseCode::Invalid));
}

#[tokio::test]
async fn the_handshake_refuses_other_protocol_versions_and_requests_before_hello() {
    let (server, _dir) = start_server("handshake");
    let mut old = Peer::raw(&server.url(), Format::Json).await;
    old.send(ClientMsg::Hello {
        protocol: 999,
        client: "old".into(),
        player: PlayerSecret::random(),
        name: "old".into(),
    })
    .await;
    let reason = old.expect_error(ErrorCode::Handshake).await;
    assert!(reason.contains("999"), "{reason}");
    let mut rude = Peer::raw(&server.url(), Format::Binary).await;
    rude.send(ClientMsg::ListRooms).await;
    rude.expect_error(ErrorCode::Handshake).await;
}

#[tokio::test]
async fn a_second_hello_is_refused_and_the_connection_goes_on() {
    let (server, _dir) = start_server("hello-again");
    let mut peer = Peer::connect(&server.url(), Format::Json).await;
    peer.send(ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        client: "again".into(),
        player: PlayerSecret::random(),
        name: "again".into(),
    })
    .await;
    match peer.recv().await {
        ServerMsg::Error { code, message } => {
            assert_eq!(code, ErrorCode::BadRequest, "{message}");
            assert!(message.contains("already greeted"), "{message}");
        }
        other => panic!("a second Hello answered with {other:?}"),
    }
    peer.send(ClientMsg::ListGames).await;
    assert!(matches!(peer.recv().await, ServerMsg::Games(_)));
}

#[tokio::test]
async fn a_join_sent_again_after_its_answer_was_lost_gets_the_same_seat() {
    let (server, _dir) = start_server("join-again");
    let url = server.url();
    let mut first = Peer::connect(&url, Format::Binary).await;
    let room = first.create_room(HUMANS.to_vec()).await;
    let token = SeatToken::random();
    let join = |seat| ClientMsg::JoinSeat {
        room,
        seat,
        token: Some(token.clone()),
    };
    let mut watcher = Peer::connect(&url, Format::Binary).await;
    watcher.watch(room).await;
    first.send(join(0)).await;
    // The connection drops before the answer is read: the seat is taken all the same. The
    // retry waits until the room shows the seat taken by nobody connected, so it is the same
    // join again, not a first one.
    drop(first);
    watcher
        .state_where(room, |s| presence(&s.seats[0]) == Some(false))
        .await;
    let mut again = Peer::connect(&url, Format::Json).await;
    again.send(join(0)).await;
    let seated = again
        .recv_until(|m| match m {
            ServerMsg::Seated { seat, token, .. } => Some((seat, token)),
            ServerMsg::Error { message, .. } => panic!("join refused: {message}"),
            _ => None,
        })
        .await;
    assert_eq!(seated, (0, token.clone()));
    let state = again.state_where(room, |_| true).await;
    assert_eq!(presence(&state.seats[0]), Some(true));
    // The token moves for the seat, and holds no other seat of the room.
    again.play(room, &token, 0, "a1").await;
    again.state_where(room, |s| s.version == 1).await;
    again.send(join(1)).await;
    let reason = again.expect_error(ErrorCode::BadRequest).await;
    assert!(reason.contains("already holds seat 0"), "{reason}");
    // Someone else's token does not take the seat; a token not made by SeatToken::random is
    // refused before anything is looked at.
    let mut stranger = Peer::connect(&url, Format::Json).await;
    stranger.join_refused(room, 0, ErrorCode::SeatTaken).await;
    for bad in ["", "not a token", "0123456789ABCDEF0123456789ABCDEF"] {
        let token = SeatToken(bad.into());
        stranger
            .send(ClientMsg::JoinSeat {
                room,
                seat: 1,
                token: Some(token),
            })
            .await;
        stranger.expect_error(ErrorCode::BadRequest).await;
    }
    stranger.join(room, 1).await;
}

#[tokio::test]
async fn a_leave_is_always_answered_and_a_move_made_before_a_reclaim_is_seen_by_its_mover() {
    let (server, _dir) = start_server("leave-and-move");
    let url = server.url();
    let mut host = Peer::connect(&url, Format::Json).await;
    let room = host.create_room(HUMANS.to_vec()).await;
    let token = host.join(room, 0).await;
    // The second Leave finds the connection gone from the room, the third a room the server
    // never had (a finished room after a restart, say): answered all the same.
    for room in [room, room, 999_999] {
        host.send(ClientMsg::Leave { room }).await;
        host.recv_until(|m| {
            matches!(m, ServerMsg::Left { room: left } if left == room).then_some(())
        })
        .await;
    }
    // Back on a new connection, the seat's holder moves before it reclaims the seat.
    let mut back = Peer::connect(&url, Format::Binary).await;
    let seen = back.play_and_see(room, &token, 0, cave("a1")).await;
    assert_eq!((seen.version, seen.moves.len()), (1, 1));
}
