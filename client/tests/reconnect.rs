//! The client resumes by itself: `net::Connection` against the real `server` binary killed with
//! SIGKILL and restarted on the same port and data directory (players reclaim their seats,
//! spectators watch again, a move made while reconnecting lands after the resume), and a
//! policy close that must not be retried. Against scripted fake servers: `reconnect_fake_server.rs`.
//!
//! The server process comes from `common::server`.

mod common;

use std::time::Duration;

use parlor_client::identity::Identity;
use parlor_client::net::{Connection, NetEvent};
use parlor_server::limits::Budget;
use parlor_server::{Limits, ServerConfig};
use parlor_shared::game::{GameMove, GameSetup};
use parlor_shared::protocol::{ClientMsg, RoomId, RoomSnapshot, SeatSpec, SeatToken, ServerMsg};

use common::net::{connected, message, reconnecting, until};
use common::server::{free_addr, start_server};

fn state_at(connection: &Connection, room: RoomId, version: u64) -> RoomSnapshot {
    message(connection, |m| match m {
        ServerMsg::State(s) if s.room == room && s.version == version => Some(s.clone()),
        _ => None,
    })
    .0
}

fn join(connection: &Connection, room: RoomId, seat: u8) -> SeatToken {
    connection.send(ClientMsg::join_seat(room, seat));
    message(connection, |m| match m {
        ServerMsg::Seated { token, .. } => Some(token.clone()),
        ServerMsg::Error { message, .. } => panic!("{message}"),
        _ => None,
    })
    .0
}

fn cave(square: &str) -> GameMove {
    GameMove::Cave(square.parse().unwrap())
}

/// After a resume: only `Reconnecting` before `Connected`, then (for a player) `Seated` with
/// the same token, and a first `State` equal in version, moves and game to `last`.
fn resumed(connection: &Connection, last: &RoomSnapshot, seat: Option<(u8, &SeatToken)>) {
    let (_, before) = until(connection, |event| match event {
        NetEvent::Connected { .. } => Some(()),
        NetEvent::Disconnected(reason) => panic!("gave up: {reason}"),
        _ => None,
    });
    assert!(
        before
            .iter()
            .all(|event| matches!(event, NetEvent::Reconnecting { .. })),
        "only Reconnecting before the resume: {before:?}"
    );
    let room = last.room;
    let mut reseated = seat.is_none();
    let mut first_state = None;
    until(connection, |event| {
        match event {
            NetEvent::Message(m) => match &**m {
                ServerMsg::Seated {
                    room: r,
                    seat: s,
                    token: t,
                } if *r == room && Some((*s, t)) == seat => reseated = true,
                ServerMsg::State(s) if s.room == room && first_state.is_none() => {
                    first_state = Some(s.clone())
                }
                _ => {}
            },
            NetEvent::Disconnected(reason) => panic!("gave up: {reason}"),
            _ => {}
        }
        (reseated && first_state.is_some()).then_some(())
    });
    let state = first_state.unwrap();
    assert_eq!(state.version, last.version);
    assert_eq!(state.moves, last.moves);
    assert_eq!(state.state, last.state);
}

#[test]
fn seats_and_watches_come_back_by_themselves_after_kill_9_and_a_restart() {
    let dir = common::scratch();
    let addr = free_addr();
    let url = format!("ws://{addr}");
    let server = start_server(addr, dir.path());

    let alice = Connection::open(&url, &Identity::fresh());
    let bob = Connection::open(&url, &Identity::fresh());
    let spectator = Connection::open(&url, &Identity::fresh());
    for connection in [&alice, &bob, &spectator] {
        connected(connection);
    }
    alice.send(ClientMsg::CreateRoom {
        setup: GameSetup::Cave,
        seats: vec![SeatSpec::Human, SeatSpec::Human],
    });
    let (room, _) = message(&alice, |m| match m {
        ServerMsg::RoomCreated { room } => Some(*room),
        _ => None,
    });
    let alice_token = join(&alice, room, 0);
    let bob_token = join(&bob, room, 1);
    spectator.send(ClientMsg::Watch { room });
    state_at(&spectator, room, 0);
    alice.send(ClientMsg::Move {
        room,
        token: alice_token.clone(),
        version: 0,
        mv: cave("a1"),
    });
    let last = state_at(&alice, room, 1);
    state_at(&bob, room, 1);
    state_at(&spectator, room, 1);

    server.kill_9();
    for connection in [&alice, &bob, &spectator] {
        reconnecting(connection);
    }
    let server = start_server(addr, dir.path());
    // No request from the test: each connection takes up what it followed.
    resumed(&alice, &last, Some((0, &alice_token)));
    resumed(&bob, &last, Some((1, &bob_token)));
    resumed(&spectator, &last, None);

    // Bob's token still holds his seat: his move is accepted and everyone sees it.
    bob.send(ClientMsg::Move {
        room,
        token: bob_token.clone(),
        version: 1,
        mv: cave("h8"),
    });
    for connection in [&alice, &bob, &spectator] {
        assert_eq!(
            state_at(connection, room, 2).moves.last(),
            Some(&cave("h8"))
        );
    }

    // A move made while the server is down waits for the resume and lands then.
    server.kill_9();
    reconnecting(&alice);
    alice.send(ClientMsg::Move {
        room,
        token: alice_token,
        version: 2,
        mv: cave("b1"),
    });
    let _restarted = start_server(addr, dir.path());
    for connection in [&alice, &bob, &spectator] {
        let state = state_at(connection, room, 3);
        assert_eq!(state.moves, vec![cave("a1"), cave("h8"), cave("b1")]);
    }
}

#[test]
fn a_policy_close_for_an_overdrawn_budget_is_not_retried() {
    let limits = Limits {
        requests: Budget {
            per_second: 1.0,
            burst: 5.0,
        },
        ..Limits::default()
    };
    let config = ServerConfig {
        limits,
        ..ServerConfig::new(([127, 0, 0, 1], 0).into(), None)
    };
    let server = parlor_server::start_in_background(config).unwrap();
    let connection = Connection::open(&server.url(), &Identity::fresh());
    connected(&connection);
    for _ in 0..40 {
        connection.send(ClientMsg::ListGames);
    }
    let (reason, passed) = until(&connection, |event| match event {
        NetEvent::Disconnected(reason) => Some(reason.clone()),
        _ => None,
    });
    assert!(
        !passed
            .iter()
            .any(|event| matches!(event, NetEvent::Reconnecting { .. })),
        "{passed:?}"
    );
    assert!(
        reason.contains("the server closed the connection"),
        "{reason}"
    );
    // The thread has ended: no attempt follows.
    assert!(connection.recv_timeout(Duration::from_secs(2)).is_none());
}

/// A hall given as several addresses (its nodes): the first that answers is used, and when it
/// goes away the next one is tried. (Two lone servers stand in for two nodes here; the
/// cluster's own tests resume seats across real nodes.)
#[test]
fn several_addresses_are_tried_in_turn_first_and_after_a_drop() {
    let (down, first_addr, second_addr) = (free_addr(), free_addr(), free_addr());
    let (first_data, second_data) = (common::scratch(), common::scratch());
    let first = start_server(first_addr, first_data.path());
    let _second = start_server(second_addr, second_data.path());
    let urls = format!("ws://{down},ws://{first_addr},ws://{second_addr}");
    let connection = Connection::open(&urls, &Identity::fresh());
    connected(&connection);
    connection.send(ClientMsg::ListRooms);
    message(&connection, |m| {
        matches!(m, ServerMsg::Rooms { .. }).then_some(())
    });

    first.kill_9();
    reconnecting(&connection);
    connected(&connection);
    connection.send(ClientMsg::ListRooms);
    message(&connection, |m| {
        matches!(m, ServerMsg::Rooms { .. }).then_some(())
    });
}
