//! Waiting on a `net::Connection`'s events, for the tests that drive one.

use std::time::{Duration, Instant};

use parlor_client::net::{Connection, NetEvent};
use parlor_shared::identity::Player;
use parlor_shared::protocol::{RoomId, RoomSnapshot, SeatState, ServerMsg};

pub const PATIENCE: Duration = Duration::from_secs(30);

/// Events until `pick` accepts one; the events passed over are returned too.
pub fn until<T>(
    connection: &Connection,
    mut pick: impl FnMut(&NetEvent) -> Option<T>,
) -> (T, Vec<NetEvent>) {
    let deadline = Instant::now() + PATIENCE;
    let mut passed = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let event = connection
            .recv_timeout(left)
            .unwrap_or_else(|| panic!("waited in vain; saw {passed:?}"));
        if let Some(found) = pick(&event) {
            return (found, passed);
        }
        passed.push(event);
    }
}

pub fn connected(connection: &Connection) {
    until(connection, |event| match event {
        NetEvent::Connected { .. } => Some(()),
        NetEvent::Disconnected(reason) => panic!("disconnected: {reason}"),
        _ => None,
    });
}

pub fn message<T>(
    connection: &Connection,
    mut pick: impl FnMut(&ServerMsg) -> Option<T>,
) -> (T, Vec<NetEvent>) {
    until(connection, |event| match event {
        NetEvent::Message(message) => pick(message),
        NetEvent::Disconnected(reason) => panic!("disconnected: {reason}"),
        _ => None,
    })
}

/// Waits until the connection says it is reconnecting: the server is gone.
pub fn reconnecting(connection: &Connection) -> u32 {
    until(connection, |event| match event {
        NetEvent::Reconnecting { attempt, .. } => Some(*attempt),
        NetEvent::Disconnected(reason) => panic!("gave up: {reason}"),
        _ => None,
    })
    .0
}

pub fn attempts_before_connected(connection: &Connection) -> Vec<(u32, String)> {
    let (_, passed) = until(connection, |event| match event {
        NetEvent::Connected { .. } => Some(()),
        NetEvent::Disconnected(reason) => panic!("gave up: {reason}"),
        _ => None,
    });
    passed
        .into_iter()
        .filter_map(|event| match event {
            NetEvent::Reconnecting { attempt, reason } => Some((attempt, reason)),
            _ => None,
        })
        .collect()
}

/// Waits until room `room` (followed on `peer`) shows a state `pick` accepts.
pub fn state_where(
    peer: &Connection,
    room: RoomId,
    mut pick: impl FnMut(&RoomSnapshot) -> bool,
) -> RoomSnapshot {
    message(peer, |message| match message {
        ServerMsg::State(state) if state.room == room && pick(state) => Some(state.clone()),
        _ => None,
    })
    .0
}

/// The player in seat `seat` and whether they are connected.
pub fn seated(state: &RoomSnapshot, seat: usize) -> Option<(Player, bool)> {
    match state.seats.get(seat)? {
        SeatState::Taken {
            connected,
            player: Some(player),
        } => Some((player.clone(), *connected)),
        _ => None,
    }
}
