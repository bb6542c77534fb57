//! Server-wide caps and room lifetimes: boards too big for the rules, rooms nobody follows,
//! the caps on AI rooms and auto matches across reconnects. Each test starts a real server with
//! limits small enough to reach.

mod common;

use std::time::Duration;

use common::{Peer, cave, start_server_with};
use parlor_server::Limits;
use parlor_server::limits::Budget;
use parlor_server::limits::RoomQuota;
use parlor_shared::codec::Format;
use parlor_shared::game::GameSetup;
use parlor_shared::hexapawn::{Dims, MatchSetup, Pace};
use parlor_shared::klotski::KlotskiBoard;
use parlor_shared::protocol::{ClientMsg, ErrorCode, SeatSpec, ServerMsg};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

const HUMANS: [SeatSpec; 2] = [SeatSpec::Human, SeatSpec::Human];

#[tokio::test]
async fn boards_too_big_for_the_rules_are_refused_before_anything_is_made() {
    let (server, _dir) = start_server_with("big-boards", Limits::default());
    let mut client = Peer::connect(&server.url(), Format::Binary).await;
    let huge = KlotskiBoard {
        rows: 255,
        cols: 255,
        grid: vec![1, 0],
        blocks: vec![],
    };
    let reason = client
        .create_refused(
            GameSetup::Klotski(huge),
            vec![SeatSpec::ai(100)],
            ErrorCode::BadRequest,
        )
        .await;
    assert!(reason.contains("64"), "{reason}");
    // A frame over 64 KiB never reaches the decoder: the socket refuses it and hangs up.
    let mut other = Peer::connect(&server.url(), Format::Binary).await;
    client
        .send_raw(Message::Binary(vec![7; 70_000].into()))
        .await;
    let code = client.expect_close().await;
    assert!(matches!(code, None | Some(CloseCode::Size)), "{code:?}");
    other.send(ClientMsg::ListRooms).await;
    let ServerMsg::Rooms { rooms, .. } = other.recv().await else {
        panic!("expected the room list")
    };
    assert!(rooms.is_empty());
}

#[tokio::test]
async fn a_finished_room_nobody_follows_closes_and_the_lobby_list_stays_one_frame() {
    let limits = Limits {
        per_player: RoomQuota {
            rooms: 1000,
            ..Limits::default().per_player
        },
        per_address: RoomQuota {
            rooms: 1000,
            ..Limits::default().per_address
        },
        room_creations: Budget {
            per_second: 1000.0,
            burst: 1000.0,
        },
        room_creations_per_address: Budget::per_minute(1000),
        requests: Budget {
            per_second: 1000.0,
            burst: 1000.0,
        },
        finished_room_linger: Duration::from_millis(500),
        ..Limits::default()
    };
    let (server, _dir) = start_server_with("closing-rooms", limits);
    let mut host = Peer::connect(&server.url(), Format::Json).await;
    let fast = host
        .create_room(vec![SeatSpec::ai(10), SeatSpec::ai(10)])
        .await;
    // Nobody watches while the AIs play it out; the room stays listed once it is over.
    loop {
        let rooms = host.list_rooms().await;
        let listed = rooms.iter().find(|r| r.room == fast);
        if listed.expect("the room is listed").outcome.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Within the linger its creator can still watch the end.
    host.send(ClientMsg::Watch { room: fast }).await;
    let end = host.state_where(fast, |s| s.record.is_some()).await;
    host.send(ClientMsg::Leave { room: fast }).await;
    host.recv_until(|m| matches!(m, ServerMsg::Left { .. }).then_some(()))
        .await;
    // After the linger the room closes once its last follower has gone; its stored game stays.
    let mut gone = false;
    for _ in 0..250 {
        host.send(ClientMsg::Watch { room: fast }).await;
        let answer = host
            .recv_until(|m| match m {
                ServerMsg::State(s) => Some(Ok(s)),
                ServerMsg::Error { code, .. } => Some(Err(code)),
                _ => None,
            })
            .await;
        if answer == Err(ErrorCode::NoSuchRoom) {
            gone = true;
            break;
        }
        host.send(ClientMsg::Leave { room: fast }).await;
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(gone, "the finished, unfollowed room still answers");
    let record = host.record(end.record.unwrap()).await;
    assert_eq!(record.moves, end.moves);

    // However many rooms are open, the lobby's list is the newest 200 and fits a JSON frame.
    let mut newest = 0;
    for _ in 0..210 {
        newest = host.create_room(HUMANS.to_vec()).await;
    }
    let rooms = host.list_rooms().await;
    assert_eq!(rooms.len(), 200);
    assert_eq!(rooms.last().map(|r| r.room), Some(newest));
    assert!(rooms.iter().all(|r| r.room != fast));
}

/// An auto match of `brains` that runs long enough to hold its place for the whole test.
fn slow_match(brains: [&str; 2]) -> GameSetup {
    GameSetup::HerMatch(MatchSetup {
        dims: Dims::HEXAPAWN,
        mirrors: true,
        rounds: 1_000,
        pace: Pace::PerPly { ms: 1_000 },
        brains: brains.map(String::from),
    })
}

#[tokio::test]
async fn server_wide_caps_on_ai_rooms_and_auto_matches_say_the_server_is_busy() {
    let limits = Limits {
        max_ai_rooms: 1,
        max_matches: 1,
        ..Limits::default()
    };
    let (server, _dir) = start_server_with("server-caps", limits);
    let url = server.url();
    let mut first = Peer::connect(&url, Format::Binary).await;
    let mut second = Peer::connect(&url, Format::Json).await;
    let ai_seats = vec![SeatSpec::Human, SeatSpec::ai(100)];
    first.create_room(ai_seats.clone()).await;
    second
        .create_refused(GameSetup::Cave, ai_seats, ErrorCode::ServerBusy)
        .await;
    // Rooms without AI seats are not held back by the AI's cap.
    second.create_room(HUMANS.to_vec()).await;

    first.create(slow_match(["A", "B"]), vec![]).await;
    let reason = second
        .create_refused(slow_match(["C", "D"]), vec![], ErrorCode::ServerBusy)
        .await;
    assert!(reason.contains("auto match"), "{reason}");
}

#[tokio::test]
async fn the_server_wide_room_cap_holds_across_reconnects_and_simultaneous_creations() {
    let limits = Limits {
        max_rooms: 3,
        max_matches: 1,
        ..Limits::default()
    };
    let (server, _dir) = start_server_with("room-cap", limits);
    let url = server.url();

    // Eight connections ask for an auto match at the same moment: the cap admits one, though
    // a match is registered only after its row is stored and its brains read (each creation
    // counts from its check on: see server/src/room_caps.rs).
    let mut askers = Vec::new();
    for index in 0..8 {
        let asker = Peer::connect(&url, Format::Binary).await;
        let setup = slow_match([&format!("A{index}"), &format!("B{index}")]);
        askers.push((asker, setup));
    }
    for (asker, setup) in &mut askers {
        let create = ClientMsg::CreateRoom {
            setup: setup.clone(),
            seats: vec![],
        };
        asker.send(create).await;
    }
    let mut created = 0;
    for (asker, _) in &mut askers {
        let answer = asker
            .recv_until(|m| match m {
                ServerMsg::RoomCreated { .. } => Some(true),
                ServerMsg::RoomRefused { code, .. } => {
                    assert_eq!(code, ErrorCode::ServerBusy);
                    Some(false)
                }
                _ => None,
            })
            .await;
        created += usize::from(answer);
    }
    assert_eq!(created, 1, "one auto match at a time");

    // Rooms left behind by connections that went away still count.
    let mut first = Peer::connect(&url, Format::Binary).await;
    first.create_room(HUMANS.to_vec()).await;
    first.create_room(HUMANS.to_vec()).await;
    drop(first);
    let mut again = Peer::connect(&url, Format::Json).await;
    let reason = again
        .create_refused(GameSetup::Cave, HUMANS.to_vec(), ErrorCode::ServerBusy)
        .await;
    assert!(reason.contains("3 unfinished rooms"), "{reason}");
    assert_eq!(again.list_rooms().await.len(), 3);
}

#[tokio::test]
async fn an_unfinished_room_nobody_follows_is_forgotten_after_the_abandon_time() {
    let limits = Limits {
        abandoned_room_after: Duration::from_millis(1000),
        ..Limits::default()
    };
    let (server, dir) = start_server_with("abandoned", limits);
    let url = server.url();
    let mut host = Peer::connect(&url, Format::Binary).await;
    let left_alone = host.create_room(HUMANS.to_vec()).await;
    let watched = host.create_room(HUMANS.to_vec()).await;
    let played = host.create_room(HUMANS.to_vec()).await;
    let mut watcher = Peer::connect(&url, Format::Json).await;
    watcher.watch(watched).await;
    // A player who went away after a move: its seat waits for its token for a while.
    let mut player = Peer::connect(&url, Format::Binary).await;
    let token = player.join(played, 0).await;
    player.play_and_see(played, &token, 0, cave("a1")).await;
    drop(player);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let open = |rooms: Vec<parlor_shared::protocol::RoomSummary>| {
        rooms.iter().map(|room| room.room).collect::<Vec<_>>()
    };
    assert_eq!(open(host.list_rooms().await), [left_alone, watched, played]);
    tokio::time::sleep(Duration::from_millis(1700)).await;
    assert_eq!(open(host.list_rooms().await), [watched]);
    // The store forgot them too: a restart brings back only the watched room. The running
    // server holds the store, so its file is read as the sqlite3 tool would.
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
    let stored = rusqlite::Connection::open_with_flags(dir.path().join("games.db"), flags).unwrap();
    let mut rows = stored.prepare("SELECT id FROM rooms ORDER BY id").unwrap();
    let ids: Vec<i64> = (rows.query_map([], |row| row.get(0)).unwrap())
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(ids, [watched as i64]);
}

/// Four hosts fill their room quotas with the default limits (64 rooms each, from four
/// identities of 16): 256 rooms, past the 200 the lobby lists. The room somebody else made
/// before them, the oldest of all, stays listed; each host is listed no more than its share.
#[tokio::test]
async fn hosts_that_fill_their_room_quotas_hide_nobody_elses_room_from_the_lobby() {
    let (server, _dir) = start_server_with("list-flood", Limits::default());
    let url = server.url();
    let from = |host: u8| std::net::IpAddr::from([127, 0, 0, host]);
    let secret = parlor_shared::identity::PlayerSecret::random;
    let mut someone = Peer::connect_from(&url, Format::Binary, from(9), &secret()).await;
    let theirs = someone.create_room(HUMANS.to_vec()).await;
    let limits = Limits::default();
    let (per_address, per_player) = (limits.per_address.rooms, limits.per_player.rooms);
    let mut made_by = std::collections::HashMap::new();
    for host in 2..6 {
        for _ in 0..per_address / per_player {
            let mut flooder = Peer::connect_from(&url, Format::Binary, from(host), &secret()).await;
            for _ in 0..per_player {
                made_by.insert(flooder.create_room(HUMANS.to_vec()).await, host);
            }
        }
    }
    let listed = someone.list_rooms().await;
    assert_eq!(listed.len(), 200, "the lobby's cap");
    assert_eq!(listed[0].room, theirs, "the oldest room, not a flooder's");
    for host in 2..6 {
        let shown = (listed.iter()).filter(|room| made_by.get(&room.room) == Some(&host));
        assert!(shown.count() <= 50, "host {host} listed past its share");
    }
}
