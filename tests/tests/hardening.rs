//! Hostile and careless clients: budgets overdrawn, caps reached, silent and non-reading
//! connections, tokens used where they do not belong. Each test starts a real server with
//! limits small enough to reach.

mod common;

use std::time::Duration;

use common::{Peer, start_server_with};
use futures_util::{SinkExt, StreamExt};
use parlor_server::Limits;
use parlor_server::limits::Budget;
use parlor_shared::codec::Format;
use parlor_shared::game::{GameMove, GameSetup};
use parlor_shared::klotski::{KlotskiBoard, KlotskiMove};
use parlor_shared::protocol::{ClientMsg, ErrorCode, SeatSpec, ServerMsg};
use tokio::io::AsyncReadExt;
use tokio_tungstenite::MaybeTlsStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

const HUMANS: [SeatSpec; 2] = [SeatSpec::Human, SeatSpec::Human];

#[tokio::test]
async fn a_client_over_its_request_budget_is_closed_with_1008_and_others_play_on() {
    let limits = Limits {
        requests: Budget {
            per_second: 5.0,
            burst: 20.0,
        },
        ..Limits::default()
    };
    let (server, _dir) = start_server_with("abuse-rate", limits);
    let mut flooder = Peer::connect(&server.url(), Format::Json).await;
    let mut bystander = Peer::connect(&server.url(), Format::Binary).await;
    // The server may close the connection before the last of these frames is sent.
    for _ in 0..60 {
        if !flooder.try_send(ClientMsg::ListGames).await {
            break;
        }
    }
    assert_eq!(flooder.expect_close().await, Some(CloseCode::Policy));
    bystander.send(ClientMsg::ListGames).await;
    assert!(matches!(bystander.recv().await, ServerMsg::Games(_)));

    // Pings are requests too: each costs the server a pong.
    let mut pinger = Peer::connect(&server.url(), Format::Binary).await;
    for _ in 0..60 {
        if pinger
            .socket
            .send(Message::Ping(Vec::new().into()))
            .await
            .is_err()
        {
            break;
        }
    }
    assert_eq!(pinger.expect_close().await, Some(CloseCode::Policy));
}

#[tokio::test]
async fn a_flood_of_room_creations_is_closed_with_1008() {
    let limits = Limits {
        room_creations: Budget {
            per_second: 0.1,
            burst: 3.0,
        },
        ..Limits::default()
    };
    let (server, _dir) = start_server_with("abuse-rooms", limits);
    let mut flooder = Peer::connect(&server.url(), Format::Binary).await;
    for _ in 0..3 {
        flooder.create_room(HUMANS.to_vec()).await;
    }
    flooder
        .send(ClientMsg::CreateRoom {
            setup: GameSetup::Cave,
            seats: HUMANS.to_vec(),
        })
        .await;
    assert_eq!(flooder.expect_close().await, Some(CloseCode::Policy));
    // The fourth room was never made.
    let mut other = Peer::connect(&server.url(), Format::Binary).await;
    other.send(ClientMsg::ListRooms).await;
    let ServerMsg::Rooms { rooms, .. } = other.recv().await else {
        panic!("expected the room list")
    };
    assert_eq!(rooms.len(), 3);
}

/// Why `room` is gone for `peer` (its `RoomClosed`).
async fn room_closed(peer: &mut Peer, room: parlor_shared::protocol::RoomId) -> String {
    peer.recv_until(|m| match m {
        ServerMsg::RoomClosed { room: r, message } if r == room => Some(message),
        _ => None,
    })
    .await
}

#[tokio::test]
async fn caps_on_rooms_ai_rooms_and_spectators_refuse_and_change_nothing() {
    let limits = Limits {
        per_player: parlor_server::limits::RoomQuota {
            rooms: 2,
            ai_rooms: 1,
            matches: 1,
        },
        spectators_per_room: 1,
        ..Limits::default()
    };
    let (server, _dir) = start_server_with("caps", limits);
    let url = server.url();
    let mut owner = Peer::connect(&url, Format::Binary).await;
    let ai_seats = vec![SeatSpec::Human, SeatSpec::ai(100)];
    owner.create_room(ai_seats.clone()).await;
    owner
        .create_refused(GameSetup::Cave, ai_seats, ErrorCode::LimitReached)
        .await;
    let room = owner.create_room(HUMANS.to_vec()).await;
    let reason = owner
        .create_refused(GameSetup::Cave, HUMANS.to_vec(), ErrorCode::LimitReached)
        .await;
    assert!(reason.contains("2 unfinished rooms"), "{reason}");

    let mut first = Peer::connect(&url, Format::Json).await;
    let mut second = Peer::connect(&url, Format::Json).await;
    first.send(ClientMsg::Watch { room }).await;
    assert_eq!(first.state_where(room, |_| true).await.spectators, 1);
    second.send(ClientMsg::Watch { room }).await;
    second.expect_error(ErrorCode::LimitReached).await;
    // Players do not count as spectators: a seat can still be taken and the game played.
    let token = owner.join(room, 0).await;
    owner.play(room, &token, 0, "a1").await;
    let seen = first.state_where(room, |s| s.version == 1).await;
    assert_eq!(seen.spectators, 1);

    // Passing the seat's token from connection to connection keeps the cap: a replaced
    // holder would be a second spectator, so it leaves the room instead.
    let mut third = Peer::connect(&url, Format::Binary).await;
    assert_eq!(third.reclaim(room, &token).await, 0);
    let reason = room_closed(&mut owner, room).await;
    assert!(reason.contains("taken over"), "{reason}");
    let mut fourth = Peer::connect(&url, Format::Binary).await;
    assert_eq!(fourth.reclaim(room, &token).await, 0);
    room_closed(&mut third, room).await;

    let rooms = owner.list_rooms().await;
    assert_eq!(rooms.len(), 2, "refused rooms were not made");
    let summary = rooms.iter().find(|r| r.room == room).unwrap();
    assert_eq!(summary.spectators, 1, "only the first watcher");
}

#[tokio::test]
async fn connections_over_the_cap_are_told_the_server_is_busy() {
    let limits = Limits {
        max_connections: 2,
        ..Limits::default()
    };
    let (server, _dir) = start_server_with("max-connections", limits);
    let url = server.url();
    let _first = Peer::connect(&url, Format::Binary).await;
    let second = Peer::connect(&url, Format::Binary).await;
    let mut third = Peer::raw(&url, Format::Json).await;
    third.expect_error(ErrorCode::ServerBusy).await;
    assert_eq!(third.expect_close().await, Some(CloseCode::Again));
    // A slot freed is a slot for the next client.
    drop(second);
    tokio::time::sleep(Duration::from_millis(200)).await;
    Peer::connect(&url, Format::Binary).await;
}

#[tokio::test]
async fn one_address_holds_at_most_its_share_of_connections() {
    let limits = Limits {
        connections_per_address: 2,
        ..Limits::default()
    };
    let (server, _dir) = start_server_with("connections-per-address", limits);
    let url = server.url();
    let _first = Peer::connect(&url, Format::Binary).await;
    let second = Peer::connect(&url, Format::Binary).await;
    // The server has room for thousands more, but not from this address.
    let mut third = Peer::raw(&url, Format::Json).await;
    let reason = third.expect_error(ErrorCode::LimitReached).await;
    assert!(
        reason.contains("your address holds 2 connections"),
        "{reason}"
    );
    assert_eq!(third.expect_close().await, Some(CloseCode::Policy));
    drop(second);
    tokio::time::sleep(Duration::from_millis(200)).await;
    Peer::connect(&url, Format::Binary).await;
}

#[tokio::test]
async fn silent_peers_are_closed_by_the_handshake_and_idle_timeouts() {
    let limits = Limits {
        handshake_timeout: Duration::from_millis(300),
        idle_timeout: Duration::from_millis(600),
        ping_every: Duration::from_millis(150),
        ..Limits::default()
    };
    let (server, _dir) = start_server_with("timeouts", limits);
    let url = server.url();

    // A TCP connection that never starts the WebSocket handshake.
    let mut tcp = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let mut byte = [0u8; 1];
    let read = tokio::time::timeout(Duration::from_secs(5), tcp.read(&mut byte)).await;
    assert!(matches!(read, Ok(Ok(0))), "the server hangs up: {read:?}");

    // A WebSocket that never says Hello (and so is answered in the default, binary).
    let mut mute = Peer::raw(&url, Format::Binary).await;
    let reason = mute.expect_error(ErrorCode::Handshake).await;
    assert!(reason.contains("no Hello"), "{reason}");

    // One that pings every 100 ms instead: control frames do not extend the wait for Hello.
    let mut pinger = Peer::raw(&url, Format::Binary).await;
    let started = std::time::Instant::now();
    let reason = loop {
        pinger.send_raw(Message::Ping(Vec::new().into())).await;
        let next = tokio::time::timeout(Duration::from_millis(100), pinger.recv()).await;
        if let Ok(ServerMsg::Error { code, message }) = next {
            assert_eq!(code, ErrorCode::Handshake);
            break message;
        }
        assert!(started.elapsed() < Duration::from_secs(5), "still open");
    };
    assert!(reason.contains("no Hello"), "{reason}");

    // A client that reads (and so answers the server's pings) stays well past the idle time.
    let mut live = Peer::connect(&url, Format::Binary).await;
    let stay = tokio::time::sleep(Duration::from_millis(1500));
    tokio::pin!(stay);
    loop {
        tokio::select! {
            () = &mut stay => break,
            frame = live.socket.next() => match frame {
                Some(Ok(Message::Ping(_))) => continue,
                other => panic!("only pings should arrive, got {other:?}"),
            },
        }
    }
    live.send(ClientMsg::ListGames).await;
    assert!(matches!(live.recv().await, ServerMsg::Games(_)));

    // A client that neither reads nor writes sends no pongs: it is closed as idle.
    let mut asleep = Peer::connect(&url, Format::Binary).await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    // (Its late pongs may meet the closed socket before it reads the close frame.)
    let code = asleep.expect_close().await;
    assert!(matches!(code, None | Some(CloseCode::Away)), "{code:?}");
}

#[tokio::test]
async fn a_token_works_only_in_its_own_room_and_an_old_room_id_is_refused() {
    let (server, _dir) = start_server_with("tokens-elsewhere", Limits::default());
    let url = server.url();
    let mut player = Peer::connect(&url, Format::Binary).await;
    let first = player.create_room(HUMANS.to_vec()).await;
    let second = player.create_room(HUMANS.to_vec()).await;
    let token = player.join(first, 0).await;
    player.play(second, &token, 0, "a1").await;
    player.expect_error(ErrorCode::BadToken).await;
    player
        .send(ClientMsg::Reclaim {
            room: second,
            token: token.clone(),
        })
        .await;
    player.expect_error(ErrorCode::BadToken).await;
    player.play(second + 100, &token, 0, "a1").await;
    player.expect_error(ErrorCode::NoSuchRoom).await;
    player.send(ClientMsg::Watch { room: 0 }).await;
    player.expect_error(ErrorCode::NoSuchRoom).await;
    // The real room is untouched and the token still moves there.
    player.play(first, &token, 0, "a1").await;
    assert_eq!(
        player
            .state_where(first, |s| s.version == 1)
            .await
            .moves
            .len(),
        1
    );
}

/// A spectator whose socket takes almost nothing: a tiny receive buffer, and it stops reading.
async fn sleepy_spectator(server: &parlor_server::BackgroundServer) -> Peer {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(2048).unwrap();
    let stream = socket.connect(server.addr).await.unwrap();
    let (socket, _) = tokio_tungstenite::client_async(server.url(), MaybeTlsStream::Plain(stream))
        .await
        .unwrap();
    Peer::greet(Peer {
        socket,
        format: Format::Json,
        player: None,
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_that_stops_reading_never_slows_the_room_and_then_gets_the_latest_state() {
    const MOVES: u64 = 1000;
    // The player here moves as fast as it can, far beyond a person's request budget.
    let limits = Limits {
        requests: Budget {
            per_second: 10_000.0,
            burst: 10_000.0,
        },
        ..Limits::default()
    };
    let (server, _dir) = start_server_with("slow-consumer", limits);
    let url = server.url();
    let mut player = Peer::connect(&url, Format::Json).await;
    let mut reader = Peer::connect(&url, Format::Json).await;
    let mut sleeper = sleepy_spectator(&server).await;
    // 1 2 3 / _ 4 5: sliding 4 left and back never solves it, so the game goes on.
    let board = KlotskiBoard {
        rows: 2,
        cols: 3,
        grid: vec![1, 2, 3, 0, 4, 5],
        blocks: vec![],
    };
    let room = player
        .create(GameSetup::Klotski(board), vec![SeatSpec::Human])
        .await;
    let token = player.join(room, 0).await;
    for watcher in [&mut reader, &mut sleeper] {
        watcher.send(ClientMsg::Watch { room }).await;
        watcher.state_where(room, |_| true).await;
    }
    // The sleeper reads nothing from here on, while the game runs as fast as the player can.
    for version in 0..MOVES {
        let slide = if version % 2 == 0 { "4 L" } else { "4 R" };
        let mv = GameMove::Klotski(KlotskiMove::Slide(slide.parse().unwrap()));
        player.send_move(room, &token, version, mv).await;
        player.state_where(room, |s| s.version == version + 1).await;
    }
    // The step limit ends the game at the last move, and its record follows: a reader may get
    // them as two states or, behind, as one.
    let last = reader.state_where(room, |s| s.version == MOVES).await;
    let last = reader.recorded(room, last).await;
    assert_eq!(last.moves.len() as u64, MOVES);

    // Waking up, the sleeper finds the latest state after a few stale ones, not every update.
    let mut states = 0;
    let caught_up = sleeper
        .recv_until(|m| match m {
            ServerMsg::State(s) => {
                states += 1;
                (s.version == MOVES && s.record.is_some()).then_some(s)
            }
            _ => None,
        })
        .await;
    assert_eq!(caught_up, last);
    eprintln!("the sleeper got {states} states for {MOVES} moves");
    assert!(
        states < MOVES as usize / 2,
        "the sleeper got {states} states for {MOVES} moves; missed updates should be skipped"
    );
}
