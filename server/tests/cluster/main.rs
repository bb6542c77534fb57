//! One hall served by three `server` nodes over PostgreSQL and NATS, on loopback: a game
//! played through one node and watched through the others, every lobby listing every room,
//! and rooms that outlive their node (`kill -9`, SIGSTOP past the lease, SIGTERM), a restart
//! of NATS, AI rooms and auto matches included, and a player renamed on another node.
//! Skipped with a note without `PARLOR_TEST_POSTGRES` and `PARLOR_TEST_NATS`
//! (`scripts/cluster_services.sh`), except in CI.

#[path = "../common/mod.rs"]
mod common;
mod failover;
mod nodes;
mod survival;

use parlor_shared::codec::Format;
use parlor_shared::game::{GameMove, GameSetup, GameState};
use parlor_shared::identity::PlayerSecret;
use parlor_shared::protocol::{
    ClientMsg, ErrorCode, RoomId, RoomSnapshot, RoomSummary, SeatSpec, SeatState, ServerMsg,
};

use common::Peer;
use nodes::{Node, OwnNats, Services, listed, listed_where};

/// A legal Magnetic Cave move in `state`.
pub fn some_cave_move(state: &RoomSnapshot) -> GameMove {
    let GameState::Cave(position) = &state.state else {
        panic!("not a Cave room")
    };
    GameMove::Cave(position.legal_squares().next().unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_played_through_one_node_is_watched_through_the_others() {
    let Some(services) = Services::find() else {
        return;
    };
    let nodes = [services.node("a"), services.node("b"), services.node("c")];
    let (alice, bob, carol) = (
        PlayerSecret::random(),
        PlayerSecret::random(),
        PlayerSecret::random(),
    );
    let mut x = nodes[0].peer(&alice).await;
    let room = x.create_room(vec![SeatSpec::Human, SeatSpec::Human]).await;
    let x_token = x.join(room, 0).await;

    // B and C learn of the room from A's word, and reach it through the bus.
    let mut y = nodes[1].peer(&bob).await;
    listed(&mut y, room).await;
    let y_token = y.join(room, 1).await;
    let mut watcher = nodes[2].peer(&carol).await;
    listed(&mut watcher, room).await;
    let first = watcher.watch(room).await;
    assert_eq!(first.version, 0);
    // A second watcher on C: each state reaches C once, and C gives it to both.
    let mut second_watcher = nodes[2].peer(&PlayerSecret::random()).await;
    assert_eq!(second_watcher.watch(room).await.version, 0);

    let mut state = x.state_where(room, |s| s.seats.len() == 2).await;
    for ply in 0..6u64 {
        let (mover, token) = match ply % 2 {
            0 => (&mut x, &x_token),
            _ => (&mut y, &y_token),
        };
        state = mover
            .play_and_see(room, token, ply, some_cave_move(&state))
            .await;
        assert_eq!(state.version, ply + 1);
        for watcher in [&mut watcher, &mut second_watcher] {
            let seen = watcher.state_where(room, |s| s.version == ply + 1).await;
            assert_eq!(
                seen.state, state.state,
                "the watchers on C see what the player sees"
            );
        }
    }
    // Each player sees the other's moves, whichever node they came through.
    let on_a = x.state_where(room, |s| s.version == 6).await;
    assert_eq!(on_a.state, state.state);
    assert_eq!(on_a.spectators, 2, "the watchers on C count");

    // Every node's lobby lists every node's rooms.
    let mut z = nodes[2].peer(&carol).await;
    let on_c = z.create_room(vec![SeatSpec::Human, SeatSpec::Human]).await;
    for node in &nodes {
        let mut peer = node.peer(&PlayerSecret::random()).await;
        let summary = listed_where(&mut peer, room, |s| s.moves == 6).await;
        assert_eq!(summary.spectators, 2);
        listed(&mut peer, on_c).await;
    }
    assert_ne!(on_c, room, "room ids are the hall's, not a node's");
}

/// X, through A, wins a Cave room A owns against Y, through B; Y asks through B to play again,
/// and X is shown the room Y made. X, Y, the finished room and the rematch.
async fn played_again_through_the_other_node(nodes: &[Node; 2]) -> (Peer, Peer, RoomId, RoomId) {
    let mut x = nodes[0].peer(&PlayerSecret::random()).await;
    let humans = vec![SeatSpec::Human, SeatSpec::Human];
    let room = x.create_room(humans.clone()).await;
    let x_token = x.join(room, 0).await;
    let mut y = nodes[1].peer(&PlayerSecret::random()).await;
    listed(&mut y, room).await;
    let y_token = y.join(room, 1).await;
    // Black's five in a row along the bottom, White's answers along the right.
    let cells = ["a1", "h8", "b1", "h7", "c1", "h6", "d1", "h5", "e1"];
    for (version, cell) in (0u64..).zip(cells) {
        let (mover, token) = match version % 2 {
            0 => (&mut x, &x_token),
            _ => (&mut y, &y_token),
        };
        mover.play(room, token, version, cell).await;
        mover.state_where(room, |s| s.version > version).await;
    }
    let end = y.state_where(room, |s| s.again.is_some()).await;
    let again = end.again.unwrap();

    // Y asks through B for the room A owns; X, on A, is shown the room Y made.
    let request = ClientMsg::PlayAgain {
        room,
        setup: again.setup,
        seats: again.seats,
    };
    y.send(request).await;
    let rematch = y
        .recv_until(|m| match m {
            ServerMsg::RoomCreated { room } => Some(room),
            ServerMsg::RoomRefused { message, .. } => panic!("refused: {message}"),
            _ => None,
        })
        .await;
    let named = |s: &RoomSnapshot| s.again.as_ref().is_some_and(|a| a.made.is_some());
    let shown = x.state_where(room, named).await;
    let made = shown.again.unwrap().made.unwrap();
    assert_eq!(
        (made.room, Some(made.by.clone())),
        (rematch, y.player.clone())
    );
    // B's lobby lists A's finished room naming it too.
    let summary = listed_where(&mut y, room, |s| s.rematch.is_some()).await;
    assert_eq!(summary.rematch, Some(made));
    (x, y, room, rematch)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_again_through_another_node_is_shown_to_the_other_player() {
    let Some(services) = Services::find() else {
        return;
    };
    let nodes = [services.node("a"), services.node("b")];
    let (mut x, mut y, room, rematch) = played_again_through_the_other_node(&nodes).await;
    // Y asked as soon as the game ended, through B, of a room A owns: the rematch keeps its
    // seats for the two all the same, whoever else comes, through either node.
    let kept = |peer: &Peer| SeatState::Kept {
        player: peer.player.clone().expect("greeted"),
    };
    let summary = listed(&mut x, rematch).await;
    assert_eq!(summary.seats, vec![kept(&y), kept(&x)]);
    for node in &nodes {
        let mut stranger = node.peer(&PlayerSecret::random()).await;
        listed(&mut stranger, rematch).await;
        let refused = stranger
            .join_refused(rematch, 1, ErrorCode::SeatTaken)
            .await;
        assert!(refused.contains("kept for"), "{refused}");
    }
    x.join(rematch, 1).await;

    // Nobody follows the finished room any more: no abandon clock runs for it (its row is
    // gone from the store; writing to it once warned that another node had taken the room).
    for peer in [&mut x, &mut y] {
        peer.send(ClientMsg::Leave { room }).await;
    }
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    let logged = nodes[0].log.so_far();
    assert!(
        !logged.contains("could not store since when nobody follows"),
        "{logged}"
    );
}

/// The rematch Y made through B closes before X comes: A's finished room names it no more,
/// so that X is not sent to a room that is gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_closed_on_another_node_is_named_no_more() {
    let Some(services) = Services::find() else {
        return;
    };
    let nodes = [services.node("a"), services.node("b")];
    let (mut x, mut y, room, rematch) = played_again_through_the_other_node(&nodes).await;
    y.send(ClientMsg::CloseRoom { room: rematch }).await;
    let unnamed = |s: &RoomSnapshot| s.again.as_ref().is_some_and(|a| a.made.is_none());
    x.state_where(room, unnamed).await;
    listed_where(&mut y, room, |s| s.rematch.is_none()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_node_of_a_running_nodes_name_is_refused_and_a_dead_nodes_name_is_free() {
    let Some(services) = Services::find() else {
        return;
    };
    let mut first = services.node("a");
    let mut peer = first.peer(&PlayerSecret::random()).await;
    let room = peer
        .create_room(vec![SeatSpec::Human, SeatSpec::Human])
        .await;
    let database = services.database.url();
    let args = ["--addr", "127.0.0.1:0", "--store", &database];
    let mut second = std::process::Command::new(common::SERVER)
        .args(args)
        .args(["--bus", &services.nats, "--node-id", "a"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while second.try_wait().unwrap().is_none() {
        if started.elapsed() > std::time::Duration::from_secs(20) {
            let _ = second.kill();
            panic!("a second node named \"a\" went on running");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let output = second.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(
        stderr.contains("another node of this hall runs as \"a\""),
        "{stderr}"
    );
    // The first goes on undisturbed: it keeps its room.
    listed(&mut peer, room).await;
    assert!(!first.log.so_far().contains("another node has taken"));
    // Killed, its name is free at once: a restart takes its rooms back.
    first.kill_9();
    let again = services.node("a");
    let mut peer = again.peer(&PlayerSecret::random()).await;
    listed(&mut peer, room).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bus_that_asks_for_a_password_gets_the_one_in_the_address_and_never_shows_it() {
    let Some(services) = Services::find() else {
        return;
    };
    let nats = OwnNats::start_with(&["--user", "parlor", "--pass", "s3cret"]);
    let address = |password: &str| format!("nats://parlor:{password}@127.0.0.1:{}", nats.port);
    let node = services.node_on("a", &address("s3cret"));
    let mut peer = node.peer(&PlayerSecret::random()).await;
    let room = peer
        .create_room(vec![SeatSpec::Human, SeatSpec::Human])
        .await;
    listed(&mut peer, room).await;

    // A wrong password: the node does not start, and says where it failed without it.
    let database = services.database.url();
    let wrong = address("wr0ng");
    let args = [
        "--addr",
        "127.0.0.1:0",
        "--store",
        &database,
        "--bus",
        &wrong,
    ];
    let output = std::process::Command::new(common::SERVER)
        .args(args)
        .args(["--node-id", "b"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    let expected = format!(
        "cannot connect to the bus at nats://parlor:…@127.0.0.1:{}",
        nats.port
    );
    assert!(stderr.contains(&expected), "{stderr}");
    assert!(!stderr.contains("wr0ng"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_quota_holds_across_nodes_and_each_node_has_its_own_caps() {
    let Some(services) = Services::find() else {
        return;
    };
    let quotas = ["--rooms-per-player", "2", "--max-rooms", "2"];
    let nodes = [
        services.node_with("a", &services.nats, &quotas),
        services.node_with("b", &services.nats, &quotas),
    ];
    let alice = PlayerSecret::random();
    let mut on_a = nodes[0].peer(&alice).await;
    let first = on_a
        .create_room(vec![SeatSpec::Human, SeatSpec::Human])
        .await;
    let mut on_b = nodes[1].peer(&alice).await;
    let second = on_b
        .create_room(vec![SeatSpec::Human, SeatSpec::Human])
        .await;
    listed(&mut on_a, second).await;
    listed(&mut on_b, first).await;
    // Alice has her two rooms, one on each node: a third is refused on either.
    for peer in [&mut on_a, &mut on_b] {
        let seats = vec![SeatSpec::Human, SeatSpec::Human];
        let refused = peer.create_refused(GameSetup::Cave, seats, ErrorCode::LimitReached);
        assert!(refused.await.contains("a player"));
    }
    // Each node's cap of two counts its own rooms: Bob still finds room on both.
    let bob = PlayerSecret::random();
    for node in &nodes {
        let mut peer = node.peer(&bob).await;
        peer.create_room(vec![SeatSpec::Human, SeatSpec::Human])
            .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_a_full_node_has_no_place_for_opens_on_a_node_with_room() {
    let Some(services) = Services::find() else {
        return;
    };
    let caps = ["--max-ai-rooms", "1"];
    let nodes = [
        services.node_with("a", &services.nats, &caps),
        services.node_with("b", &services.nats, &caps),
    ];
    let mut peer = nodes[0].peer(&PlayerSecret::random()).await;
    let ai = || SeatSpec::Ai {
        move_ms: 50,
        kind: parlor_shared::protocol::AiKind::Easy,
    };
    let here = peer.create_room(vec![SeatSpec::Human, ai()]).await;
    // B says it has a place left; A's is taken.
    listed(&mut nodes[1].peer(&PlayerSecret::random()).await, here).await;
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    let placed = peer.create_room(vec![SeatSpec::Human, ai()]).await;
    nodes[1].log.wait_for("room opened for another node");
    // It plays through A as any room of B's: its AI answers there.
    let token = peer.join(placed, 0).await;
    let state = peer.state_where(placed, |s| s.seats.len() == 2).await;
    peer.play_and_see(placed, &token, 0, some_cave_move(&state))
        .await;
    peer.state_where(placed, |s| s.version == 2).await;
    // With both nodes full, the hall is busy.
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    let seats = vec![SeatSpec::Human, ai()];
    peer.create_refused(GameSetup::Cave, seats, ErrorCode::ServerBusy)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_quotas_hold_across_nodes() {
    let Some(services) = Services::find() else {
        return;
    };
    let quota = ["--followed-per-address", "2"];
    let nodes = [
        services.node_with("a", &services.nats, &quota),
        services.node_with("b", &services.nats, &quota),
    ];
    let mut maker = nodes[0].peer(&PlayerSecret::random()).await;
    let mut rooms = Vec::new();
    for _ in 0..3 {
        rooms.push(
            maker
                .create_room(vec![SeatSpec::Human, SeatSpec::Human])
                .await,
        );
    }
    let mut on_a = nodes[0].peer(&PlayerSecret::random()).await;
    let mut on_b = nodes[1].peer(&PlayerSecret::random()).await;
    listed(&mut on_b, rooms[2]).await;
    on_a.watch(rooms[0]).await;
    on_b.watch(rooms[1]).await;
    // Both come from 127.0.0.1, which may follow two rooms in the whole hall.
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    for peer in [&mut on_a, &mut on_b] {
        peer.send(parlor_shared::protocol::ClientMsg::Watch { room: rooms[2] })
            .await;
        let refused = peer.expect_error(ErrorCode::LimitReached).await;
        assert!(refused.contains("one address"), "{refused}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_brain_one_node_trains_is_busy_on_the_others() {
    let Some(services) = Services::find() else {
        return;
    };
    let nodes = [services.node("a"), services.node("b")];
    let trainer = PlayerSecret::random();
    let mut on_a = nodes[0].peer(&trainer).await;
    let auto = on_a.create(common::paced_auto_match(), vec![]).await;
    let mut on_b = nodes[1].peer(&trainer).await;
    listed(&mut on_b, auto).await;
    tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
    // The same player's second match on the same brains, through B: refused while A trains them.
    let refused = on_b.create_refused(common::paced_auto_match(), vec![], ErrorCode::BrainBusy);
    assert!(refused.await.contains("left"));
}

/// A player greets node B under a new name, and a room that shows the old one opens on node A
/// just after (her connection to A still goes by it): B had not heard of the room when she
/// greeted it, and shows it under her new name all the same, as does A.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_back_under_a_new_name_on_another_node_is_shown_by_it_in_their_rooms() {
    let Some(services) = Services::find() else {
        return;
    };
    let nodes = [services.node("a"), services.node("b")];
    let alice = PlayerSecret::random();
    let mut on_a = nodes[0].peer(&alice).await;
    let raw = Peer::raw(&nodes[1].url(), Format::Json).await;
    let mut on_b = Peer::greet_as(raw, &alice, "Alice L").await;
    let room = on_a
        .create_room(vec![SeatSpec::Human, SeatSpec::Human])
        .await;
    on_a.join(room, 0).await;
    let renamed = |summary: &RoomSummary| {
        let seat = matches!(
            &summary.seats[0],
            SeatState::Taken { player: Some(player), .. } if player.name == "Alice L"
        );
        seat && summary
            .creator
            .as_ref()
            .is_some_and(|c| c.name == "Alice L")
    };
    listed_where(&mut on_b, room, renamed).await;
    listed_where(&mut on_a, room, renamed).await;
}

/// A node cut off from the database, its rooms let go, offers no places: a room another node
/// has no place for opens on a node that can store it, not on the emptiest-looking one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_cut_off_from_the_store_is_offered_no_rooms() {
    let Some(services) = Services::find() else {
        return;
    };
    let relay = nodes::StoreRelay::start(&services.database.url()).await;
    let cut_off = services.node_through(&relay.url, "a", &services.nats, &[]);
    let full = services.node_with("b", &services.nats, &["--max-rooms", "1"]);
    let roomy = services.node_with("c", &services.nats, &["--max-rooms", "5"]);
    let mut peer = full.peer(&PlayerSecret::random()).await;
    let humans = || vec![SeatSpec::Human, SeatSpec::Human];
    peer.create_room(humans()).await;
    drop(cut_off.peer(&PlayerSecret::random()).await);

    relay.cut();
    cut_off.log.wait_for("could not renew this node's claims");
    // Past its lease, and an announcement or two after.
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    let placed = peer.create_room(humans()).await;
    roomy.log.wait_for("room opened for another node");
    listed(&mut peer, placed).await;
}
