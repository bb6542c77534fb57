//! Rooms that outlive their node: `kill -9` of the owner mid-game, the owner paused past its
//! lease (SIGSTOP) and woken again, and an owner stopped with SIGTERM, which hands its rooms over.

use std::time::{Duration, Instant};

use parlor_shared::identity::PlayerSecret;
use parlor_shared::protocol::{
    ErrorCode, RoomId, RoomSnapshot, SeatSpec, SeatState, SeatToken, ServerMsg,
};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use crate::common::Peer;
use crate::nodes::{Node, Services, game_under_way, listed, listed_where};
use crate::some_cave_move;

/// The connection is closed with "try again" (the room moved); the peer comes back through
/// `node` and takes its seat again with `token` (or watches, without one), as the client does.
async fn come_back(
    peer: &mut Peer,
    node: &Node,
    secret: &PlayerSecret,
    room: RoomId,
    token: Option<&SeatToken>,
) -> RoomSnapshot {
    assert_eq!(peer.expect_close().await, Some(CloseCode::Restart));
    *peer = node.peer(secret).await;
    match token {
        Some(token) => {
            peer.reclaim(room, token).await;
            peer.state_where(room, |_| true).await
        }
        None => peer.watch(room).await,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killing_the_owner_mid_game_loses_and_doubles_no_move() {
    let Some(services) = Services::find() else {
        return;
    };
    let mut nodes = [services.node("a"), services.node("b"), services.node("c")];
    let secrets = [
        PlayerSecret::random(),
        PlayerSecret::random(),
        PlayerSecret::random(),
    ];
    let mut x = nodes[1].peer(&secrets[0]).await;
    let mut y = nodes[2].peer(&secrets[1]).await;
    let (room, tokens, state) = game_under_way(&nodes[0], &mut x, &mut y, 4).await;
    let mut watcher = nodes[2].peer(&secrets[2]).await;
    assert_eq!(watcher.watch(room).await.version, 4);

    // The owner dies; x moves at once: the move waits for the room's next owner.
    nodes[0].kill_9();
    let killed = Instant::now();
    x.send_move(room, &tokens[0], 4, some_cave_move(&state))
        .await;
    let seen = come_back(&mut x, &nodes[1], &secrets[0], room, Some(&tokens[0])).await;
    let seen = match seen.version {
        5 => seen,
        _ => x.state_where(room, |s| s.version == 5).await,
    };
    let failover = killed.elapsed();
    eprintln!("failover: {failover:?} from kill -9 to the next accepted move");
    assert!(failover < Duration::from_secs(10));

    // The others were asked to come back too, and see the same game.
    let on_y = come_back(&mut y, &nodes[2], &secrets[1], room, Some(&tokens[1])).await;
    let on_y = match on_y.version {
        5 => on_y,
        _ => y.state_where(room, |s| s.version == 5).await,
    };
    assert_eq!((on_y.version, &on_y.state), (5, &seen.state));
    let watched = come_back(&mut watcher, &nodes[2], &secrets[2], room, None).await;
    assert_eq!(watched.version, 5);

    // The game goes on, every move once.
    let next = y
        .play_and_see(room, &tokens[1], 5, some_cave_move(&on_y))
        .await;
    assert_eq!(next.version, 6);
    assert_eq!(
        watcher.state_where(room, |s| s.version == 6).await.state,
        next.state
    );
    let summary = listed_where(&mut x, room, |s| s.moves == 6).await;
    assert_eq!(summary.version, 6);
}

/// The owner dies, and its player comes back at once (as the window does) through the other
/// node, inside the dead owner's lease: that node takes the room over and answers the player's
/// Reclaim through the bus to itself. The player must go on hearing the game: its stand-in
/// there was let go within a second, the node never hearing its own announcements, and the
/// player saw no move after and was shown away.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_back_at_once_through_the_next_owner_goes_on_hearing_the_game() {
    let Some(services) = Services::find() else {
        return;
    };
    let mut nodes = [services.node("a"), services.node("b")];
    let secrets = [
        PlayerSecret::random(),
        PlayerSecret::random(),
        PlayerSecret::random(),
    ];
    let mut x = nodes[0].peer(&secrets[0]).await;
    let mut y = nodes[1].peer(&secrets[1]).await;
    let (room, tokens, _) = game_under_way(&nodes[0], &mut x, &mut y, 4).await;

    nodes[0].kill_9();
    x = nodes[1].peer(&secrets[0]).await;
    x.reclaim(room, &tokens[0]).await;
    let back = x.state_where(room, |_| true).await;
    assert_eq!(back.version, 4);
    let mut watcher = nodes[1].peer(&secrets[2]).await;
    assert_eq!(watcher.watch(room).await.version, 4);
    // y followed the room through b at its old owner: asked to come back.
    let on_y = come_back(&mut y, &nodes[1], &secrets[1], room, Some(&tokens[1])).await;
    assert_eq!(on_y.version, 4);
    // Longer than the stand-ins lived, then the game goes on, heard by all.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let moved = x
        .play_and_see(room, &tokens[0], 4, some_cave_move(&back))
        .await;
    let answered = y
        .play_and_see(room, &tokens[1], 5, some_cave_move(&moved))
        .await;
    assert_eq!(answered.version, 6);
    let heard = x.state_where(room, |s| s.version == 6).await;
    assert_eq!(heard.state, answered.state);
    assert!(
        matches!(
            heard.seats[0],
            SeatState::Taken {
                connected: true,
                ..
            }
        ),
        "x is not shown away: {:?}",
        heard.seats[0]
    );
    assert_eq!(
        watcher.state_where(room, |s| s.version == 6).await.version,
        6
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_owner_paused_past_its_lease_is_fenced_when_it_wakes() {
    let Some(services) = Services::find() else {
        return;
    };
    let nodes = [services.node("a"), services.node("b"), services.node("c")];
    let secrets = [PlayerSecret::random(), PlayerSecret::random()];
    let mut x = nodes[1].peer(&secrets[0]).await;
    let mut y = nodes[2].peer(&secrets[1]).await;
    let (room, tokens, state) = game_under_way(&nodes[0], &mut x, &mut y, 2).await;
    // Someone on the owner itself, with x's token, whose move the paused owner reads late.
    let mut late = nodes[0].peer(&secrets[0]).await;

    nodes[0].signal(libc::SIGSTOP);
    // Another node takes the room once the lease has run out, and the players follow it.
    let seen = come_back(&mut x, &nodes[1], &secrets[0], room, Some(&tokens[0])).await;
    assert_eq!(seen.version, 2);
    come_back(&mut y, &nodes[2], &secrets[1], room, Some(&tokens[1])).await;
    let after = x
        .play_and_see(room, &tokens[0], 2, some_cave_move(&seen))
        .await;
    assert_eq!(after.version, 3);

    // A move at the version the paused owner knows, read when it wakes: refused, whether
    // the old owner tries to store it (fenced) or has already learnt it lost the room.
    late.send_move(room, &tokens[0], 2, some_cave_move(&state))
        .await;
    nodes[0].signal(libc::SIGCONT);
    let (code, message) = late
        .recv_until(|m| match m {
            ServerMsg::Error { code, message } => Some((code, message)),
            ServerMsg::State(s) if s.room == room => {
                assert!(s.version <= 3, "a move went in twice: {s:?}");
                None
            }
            _ => None,
        })
        .await;
    eprintln!("the woken owner's answer: {code:?} {message}");
    match code {
        // It tried to store the move at its old epoch: the store refused.
        ErrorCode::Internal => nodes[0].log.wait_for("is not this node's"),
        // It had learnt it lost the room, and passed the move to the new owner.
        ErrorCode::StaleVersion => {}
        other => panic!("{other:?}: {message}"),
    }
    nodes[0]
        .log
        .wait_for("another node has taken this room; ending it here");

    // The game went on at the new owner only: y sees move 3 and plays move 4.
    let on_y = y.state_where(room, |s| s.version == 3).await;
    assert_eq!(on_y.state, after.state);
    let next = y
        .play_and_see(room, &tokens[1], 3, some_cave_move(&on_y))
        .await;
    assert_eq!(next.version, 4);
    let mut anyone = nodes[0].peer(&PlayerSecret::random()).await;
    listed_where(&mut anyone, room, |s| s.moves == 4).await;
}

/// A node takes a dead node's room over only while its caps have a place for it: a node whose
/// places are all taken leaves the room in the store, and the next node with a place takes it,
/// its game whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_nodes_room_goes_only_to_a_node_with_a_place_for_it() {
    let Some(services) = Services::find() else {
        return;
    };
    let caps = ["--max-rooms", "1"];
    let mut a = services.node_with("a", &services.nats, &caps);
    let b = services.node_with("b", &services.nats, &caps);
    let secrets = [PlayerSecret::random(), PlayerSecret::random()];
    let mut x = b.peer(&secrets[0]).await;
    let mut y = b.peer(&secrets[1]).await;
    let (room, tokens, _) = game_under_way(&a, &mut x, &mut y, 2).await;
    // B's one place goes to a room of its own.
    let mut maker = b.peer(&PlayerSecret::random()).await;
    maker
        .create_room(vec![SeatSpec::Human, SeatSpec::Human])
        .await;

    a.kill_9();
    // Past A's lease and several of B's looks for rooms to take: B has no place for it.
    tokio::time::sleep(Duration::from_secs(5)).await;
    assert!(
        !b.log.so_far().contains("room taken over"),
        "a full node took a room over"
    );

    // A node with a place takes it, and the game goes on from its last move.
    let c = services.node_with("c", &services.nats, &caps);
    c.log.wait_for("room taken over");
    let back = come_back(&mut x, &b, &secrets[0], room, Some(&tokens[0])).await;
    assert_eq!(back.version, 2);
    let moved = x
        .play_and_see(room, &tokens[0], 2, some_cave_move(&back))
        .await;
    assert_eq!(moved.version, 3);
    assert!(!b.log.so_far().contains("room taken over"));
}

/// A node whose AI places are all taken leaves a dead node's AI room in the store, once (it
/// does not claim it again twice a second), and the next node with an AI place takes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_nodes_ai_room_waits_for_a_node_with_an_ai_place() {
    let Some(services) = Services::find() else {
        return;
    };
    let caps = ["--max-ai-rooms", "1"];
    let mut a = services.node_with("a", &services.nats, &caps);
    let b = services.node_with("b", &services.nats, &caps);
    let ai = || SeatSpec::Ai {
        move_ms: 50,
        kind: parlor_shared::protocol::AiKind::Easy,
    };
    let mut on_a = a.peer(&PlayerSecret::random()).await;
    let room = on_a.create_room(vec![SeatSpec::Human, ai()]).await;
    let mut on_b = b.peer(&PlayerSecret::random()).await;
    on_b.create_room(vec![SeatSpec::Human, ai()]).await;

    a.kill_9();
    // Past A's lease and several of B's looks for rooms to take.
    b.log.wait_for("room left for another node");
    tokio::time::sleep(Duration::from_secs(3)).await;
    let logged = b.log.so_far();
    assert!(!logged.contains("room taken over"), "a full node took it");
    assert_eq!(logged.matches("room left for another node").count(), 1);

    let c = services.node_with("c", &services.nats, &caps);
    c.log.wait_for("room taken over");
    listed(&mut on_b, room).await;
}
