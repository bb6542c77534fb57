//! What else outlives a node or the bus: a room handed over on SIGTERM, a game through a
//! restart of NATS (and the state sent while it was away), an AI room and an auto match whose
//! node dies, and the followers of a room through a node killed and started again.

use std::time::{Duration, Instant};

use parlor_shared::game::GameState;
use parlor_shared::hexapawn::MatchView;
use parlor_shared::identity::PlayerSecret;
use parlor_shared::protocol::{
    AiKind, ClientMsg, ErrorCode, RoomSnapshot, RoomSummary, SeatSpec, SeatState,
};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use crate::common::{Peer, paced_auto_match};
use crate::nodes::{Node, OwnNats, Services, game_under_way, listed, listed_where};
use crate::some_cave_move;

fn match_view(state: &RoomSnapshot) -> &MatchView {
    let GameState::HerMatch(view) = &state.state else {
        panic!("not an auto match")
    };
    view
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_stopped_with_sigterm_hands_its_rooms_over_at_once() {
    let Some(services) = Services::find() else {
        return;
    };
    let mut nodes = [services.node("a"), services.node("b")];
    let (alice, bob) = (PlayerSecret::random(), PlayerSecret::random());
    let mut maker = nodes[0].peer(&alice).await;
    let room = maker
        .create_room(vec![SeatSpec::Human, SeatSpec::Human])
        .await;
    drop(maker);
    let mut x = nodes[1].peer(&alice).await;
    listed(&mut x, room).await;
    let x_token = x.join(room, 0).await;
    let state = x.state_where(room, |s| s.seats.len() == 2).await;
    let state = x
        .play_and_see(room, &x_token, 0, some_cave_move(&state))
        .await;

    let stopped = Instant::now();
    nodes[0].signal(libc::SIGTERM);
    assert_eq!(x.expect_close().await, Some(CloseCode::Restart));
    let status = nodes[0].running.as_mut().unwrap().child.wait().unwrap();
    assert!(status.success(), "a stopped node exits cleanly: {status:?}");
    assert!(nodes[0].log.so_far().contains("rooms handed over"));

    // B takes the room without waiting for a lease to run out, and the game goes on.
    let mut x = nodes[1].peer(&alice).await;
    x.reclaim(room, &x_token).await;
    let back = x.state_where(room, |_| true).await;
    assert_eq!((back.version, &back.state), (1, &state.state));
    eprintln!("handed over in {:?}", stopped.elapsed());
    let mut y = nodes[1].peer(&bob).await;
    let y_token = y.join(room, 1).await;
    let after = y
        .play_and_see(room, &y_token, 1, some_cave_move(&back))
        .await;
    assert_eq!(after.version, 2);
    nodes[1].log.wait_for("room taken over");
}

/// Nodes a and b on a NATS server of the test's own, and a peer connected to each.
async fn two_nodes_on_own_nats(services: &Services) -> (OwnNats, [Node; 2], Peer, Peer) {
    let nats = OwnNats::start();
    let nodes = [
        services.node_on("a", &nats.url()),
        services.node_on("b", &nats.url()),
    ];
    let x = nodes[0].peer(&PlayerSecret::random()).await;
    let y = nodes[1].peer(&PlayerSecret::random()).await;
    (nats, nodes, x, y)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_goes_on_through_a_restart_of_the_bus() {
    let Some(services) = Services::find() else {
        return;
    };
    let (mut nats, nodes, mut x, mut y) = two_nodes_on_own_nats(&services).await;
    let (room, [x_token, y_token], state) = game_under_way(&nodes[0], &mut x, &mut y, 1).await;
    y.state_where(room, |s| s.version == 1).await;

    nats.restart();
    // y's move crosses the bus once it is back; nobody had to reconnect.
    let after = y
        .play_and_see(room, &y_token, 1, some_cave_move(&state))
        .await;
    assert_eq!(after.version, 2);
    assert_eq!(
        x.state_where(room, |s| s.version == 2).await.state,
        after.state
    );
    let after = x
        .play_and_see(room, &x_token, 2, some_cave_move(&after))
        .await;
    assert_eq!(
        y.state_where(room, |s| s.version == 3).await.state,
        after.state
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ai_room_and_an_auto_match_survive_their_node() {
    let Some(services) = Services::find() else {
        return;
    };
    let mut nodes = [services.node("a"), services.node("b"), services.node("c")];
    let (alice, bob) = (PlayerSecret::random(), PlayerSecret::random());
    let mut maker = nodes[0].peer(&alice).await;
    let ai = SeatSpec::Ai {
        move_ms: 50,
        kind: AiKind::Easy,
    };
    let ai_room = maker.create_room(vec![SeatSpec::Human, ai]).await;
    let auto = maker.create(paced_auto_match(), vec![]).await;
    let mut x = nodes[1].peer(&alice).await;
    listed(&mut x, ai_room).await;
    let token = x.join(ai_room, 0).await;
    let state = x.state_where(ai_room, |s| s.seats.len() == 2).await;
    let state = x
        .play_and_see(ai_room, &token, 0, some_cave_move(&state))
        .await;
    let answered = x.state_where(ai_room, |s| s.version == 2).await;
    assert_ne!(answered.state, state.state, "the AI answered");
    let mut fan = nodes[2].peer(&bob).await;
    listed(&mut fan, auto).await;
    fan.send(parlor_shared::protocol::ClientMsg::Watch { room: auto })
        .await;
    let seen = fan
        .state_where(auto, |s| match_view(s).rounds_played >= 100)
        .await;
    let seen = match_view(&seen).clone();

    nodes[0].kill_9();
    let killed = Instant::now();
    // The AI room: its player comes back, moves, and the AI answers at its new node.
    assert_eq!(x.expect_close().await, Some(CloseCode::Restart));
    let mut x = nodes[1].peer(&alice).await;
    x.reclaim(ai_room, &token).await;
    let back = x.state_where(ai_room, |_| true).await;
    assert_eq!((back.version, &back.state), (2, &answered.state));
    let moved = x
        .play_and_see(ai_room, &token, 2, some_cave_move(&back))
        .await;
    assert_eq!(moved.version, 3);
    x.state_where(ai_room, |s| s.version == 4).await;
    eprintln!(
        "AI room answered again {:?} after the kill",
        killed.elapsed()
    );

    // The auto match goes on from its last stored round.
    assert_eq!(fan.expect_close().await, Some(CloseCode::Restart));
    let mut fan = nodes[2].peer(&bob).await;
    let resumed = fan.watch(auto).await;
    let view = match_view(&resumed).clone();
    assert!(view.rounds_played <= seen.rounds_played + 400, "{view:?}");
    assert_eq!(view.stats[0].wins + view.stats[1].wins, view.rounds_played);
    let later = fan
        .state_where(auto, |s| {
            match_view(s).rounds_played > view.rounds_played + 50
        })
        .await;
    assert!(!match_view(&later).finished);
    assert!(killed.elapsed() < Duration::from_secs(60));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_restarted_under_its_name_takes_its_rooms_back_at_once() {
    let Some(services) = Services::find() else {
        return;
    };
    // A lease far longer than the test: only the node's own name can bring the room back.
    let long_lease = ["--lease-seconds", "60"];
    let mut node = services.node_with("a", &services.nats, &long_lease);
    let alice = PlayerSecret::random();
    let mut x = node.peer(&alice).await;
    let room = x.create_room(vec![SeatSpec::Human, SeatSpec::Human]).await;
    let token = x.join(room, 0).await;
    let state = x.state_where(room, |s| s.seats.len() == 2).await;
    let state = x
        .play_and_see(room, &token, 0, some_cave_move(&state))
        .await;

    node.kill_9();
    let killed = Instant::now();
    let node = services.node_with("a", &services.nats, &long_lease);
    node.log.wait_for("room taken over");
    let mut x = node.peer(&alice).await;
    x.reclaim(room, &token).await;
    let back = x.state_where(room, |_| true).await;
    assert_eq!((back.version, &back.state), (1, &state.state));
    assert!(
        killed.elapsed() < Duration::from_secs(30),
        "not after the lease"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn who_followed_a_room_through_a_node_killed_leaves_it_and_is_not_taken_for_a_newcomer() {
    let Some(services) = Services::find() else {
        return;
    };
    let owner = services.node("a");
    let mut through = services.node("b");
    let alice = PlayerSecret::random();
    let mut maker = owner.peer(&alice).await;
    let room = maker
        .create_room(vec![SeatSpec::Human, SeatSpec::Human])
        .await;
    // Alice's first connection to b (its connection 1) watches, Bob's takes a seat.
    let mut alice_on_b = through.peer(&alice).await;
    listed(&mut alice_on_b, room).await;
    alice_on_b.watch(room).await;
    let mut bob = through.peer(&PlayerSecret::random()).await;
    bob.join(room, 1).await;
    let present = |summary: &RoomSummary| {
        summary.spectators == 1
            && matches!(
                summary.seats[1],
                SeatState::Taken {
                    connected: true,
                    ..
                }
            )
    };
    listed_where(&mut maker, room, present).await;

    through.kill_9();
    let again = services.node("b");
    // The new process numbers its connections from 1 again: Mallory's is not Alice's, and may
    // not close her room.
    let mut mallory = again.peer(&PlayerSecret::random()).await;
    listed(&mut mallory, room).await;
    mallory.send(ClientMsg::CloseRoom { room }).await;
    mallory.expect_error(ErrorCode::NotYours).await;
    // Those of the killed process leave the room: nobody watches, Bob's seat is away.
    let gone = |summary: &RoomSummary| {
        summary.spectators == 0
            && matches!(
                summary.seats[1],
                SeatState::Taken {
                    connected: false,
                    ..
                }
            )
    };
    listed_where(&mut maker, room, gone).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_made_while_the_bus_was_away_reaches_the_other_node_once_it_is_back() {
    let Some(services) = Services::find() else {
        return;
    };
    let (mut nats, nodes, mut x, mut y) = two_nodes_on_own_nats(&services).await;
    // y made the second move, and saw it.
    let (room, [x_token, _], state) = game_under_way(&nodes[0], &mut x, &mut y, 2).await;

    nats.stop();
    // Stored and shown at its owner; the state sent to b is lost with the bus.
    let moved = x
        .play_and_see(room, &x_token, 2, some_cave_move(&state))
        .await;
    // Long enough for the nodes to come back to the bus at different times, so that the
    // state a's client kept for the bus goes out before b listens again (a second's outage
    // often lost nothing).
    tokio::time::sleep(Duration::from_secs(5)).await;
    nats.restart();
    // Nobody moves again: b asks for the room's state once the bus is back.
    let seen = y.state_where(room, |s| s.version == 3).await;
    assert_eq!(seen.state, moved.state);
}

/// Waits until `peer`'s lobby says it is partial (`partial`) or whole and lists `room` (or
/// not, as `listed` says).
async fn lobby_where(peer: &mut Peer, partial: bool, room: u64, listed: bool) {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let (rooms, said) = peer.lobby().await;
        if said == partial && rooms.iter().any(|r| r.room == room) == listed {
            return;
        }
        assert!(Instant::now() < deadline, "the lobby never said so: {said}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lobby_cut_off_from_the_bus_says_its_list_misses_rooms() {
    let Some(services) = Services::find() else {
        return;
    };
    let (mut nats, nodes, mut x, mut y) = two_nodes_on_own_nats(&services).await;
    let (room, _, _) = game_under_way(&nodes[0], &mut x, &mut y, 1).await;
    let (_, partial) = y.lobby().await;
    assert!(!partial, "a whole hall's list is not partial");

    nats.stop();
    // B no longer hears A: A's room drops from its list, which says rooms are missing.
    lobby_where(&mut y, true, room, false).await;
    nats.restart();
    lobby_where(&mut y, false, room, true).await;
}
