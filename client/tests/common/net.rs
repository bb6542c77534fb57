//! Waiting on a `net::Connection`'s events, for the tests that drive one.

use std::time::{Duration, Instant};

use parlor_client::net::{Connection, NetEvent};
use parlor_shared::identity::Player;
use parlor_shared::protocol::{ClientMsg, RoomId, RoomSnapshot, SeatState, SeatToken, ServerMsg};

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

/// The room the server says `peer` created.
pub fn created(peer: &Connection) -> RoomId {
    message(peer, |message| match message {
        ServerMsg::RoomCreated { room } => Some(*room),
        ServerMsg::RoomRefused { message, .. } => panic!("refused: {message}"),
        _ => None,
    })
    .0
}

/// Takes seat `seat` of `room` for `peer`; its token.
pub fn join(peer: &Connection, room: RoomId, seat: u8) -> SeatToken {
    peer.send(ClientMsg::join_seat(room, seat));
    message(peer, |message| match message {
        ServerMsg::Seated { room: r, token, .. } if *r == room => Some(token.clone()),
        ServerMsg::Error { message, .. } => panic!("not seated: {message}"),
        _ => None,
    })
    .0
}

/// A window test's hall: a server in this process, a scratch folder, and in it the home
/// (identity, settings) of the person whose window the test opens.
pub struct WindowHall {
    pub dir: tempfile::TempDir,
    pub home: std::path::PathBuf,
    pub url: String,
    _server: parlor_server::BackgroundServer,
}

impl WindowHall {
    pub fn start() -> WindowHall {
        let dir = super::scratch();
        let home = dir.path().join("home");
        let config = parlor_server::ServerConfig::new(([127, 0, 0, 1], 0).into(), None);
        let server = parlor_server::start_in_background(config).expect("server starts");
        WindowHall {
            url: server.url(),
            dir,
            home,
            _server: server,
        }
    }

    /// A connection as the window's person (the identity kept in `home`), once connected.
    pub fn the_person(&self) -> Connection {
        let home = parlor_client::identity::Home::under(&self.home);
        let identity = parlor_client::identity::Identity::load_or_create(&home).unwrap();
        let connection = Connection::open(&self.url, &identity);
        connected(&connection);
        connection
    }

    /// A connection as somebody else, once connected.
    pub fn somebody_else(&self) -> Connection {
        let connection = Connection::open(&self.url, &parlor_client::identity::Identity::fresh());
        connected(&connection);
        connection
    }
}
