//! Spectators: connections that watch a played room (following it to the next room when a game
//! ends) and time each move's state; and the AI rooms, whose creator watches them search.

use std::sync::Arc;
use std::time::{Duration, Instant};

use parlor_shared::protocol::{AiKind, ClientMsg, RoomId, SeatSpec, ServerMsg};
use tokio::sync::watch;

use crate::driver::create_room;
use crate::peer::{self, Event, Socket};
use crate::stats::Stats;

/// Connects and starts watching `room`.
pub async fn open_spectator(url: &str, stats: &Stats, room: RoomId) -> anyhow::Result<Socket> {
    let mut socket = peer::connect(url, "loadgen spectator").await?;
    watch_room(&mut socket, stats, room).await?;
    Ok(socket)
}

async fn watch_room(socket: &mut Socket, stats: &Stats, room: RoomId) -> anyhow::Result<()> {
    peer::send(socket, &ClientMsg::Watch { room }).await?;
    peer::expect(socket, stats, "Watch", |message| match message {
        ServerMsg::State(snapshot) if snapshot.room == room => Some(()),
        _ => None,
    })
    .await
}

/// Watches the room `rooms` names until `stop`; each state newer than the last one seen gives
/// a latency sample. A new room from the driver is left for the next one.
pub async fn spectate(
    mut socket: Socket,
    mut rooms: watch::Receiver<RoomId>,
    stats: Arc<Stats>,
    mut stop: watch::Receiver<bool>,
) {
    stats.opened();
    let mut room = *rooms.borrow_and_update();
    // The newest version seen of `room`: only states after it time a move. `None` until the
    // first state of a newly watched room, which only shows where it stands.
    let mut seen: Option<u64> = Some(0);
    // Whether the server closed `room`: it is not left then (the server would refuse it).
    let mut closed = false;
    loop {
        let event = tokio::select! {
            event = peer::next_event(&mut socket) => event,
            Ok(()) = rooms.changed() => {
                let next = *rooms.borrow_and_update();
                let from = (!closed).then_some(room);
                if let Err(error) = follow(&mut socket, from, next).await {
                    stats.note_failure(format!("spectator: {error:#}"));
                    break;
                }
                (room, seen, closed) = (next, None, false);
                continue;
            }
            _ = stop.changed() => break,
        };
        let message = match event {
            Event::Message(message) => *message,
            Event::Closed(code) => {
                stats.server_closed(code);
                stats.note_failure(format!(
                    "the server closed a spectator's connection (close code {})",
                    code.map_or("none".into(), |code| code.to_string())
                ));
                break;
            }
        };
        match message {
            ServerMsg::State(snapshot) => {
                stats.states.inc();
                if snapshot.room != room {
                    continue;
                }
                if seen.is_some_and(|last| snapshot.version > last) {
                    stats.spectator_saw(room, snapshot.version, Instant::now());
                }
                seen = Some(seen.unwrap_or(0).max(snapshot.version));
            }
            // Its players go on in a new room, which `rooms` names.
            ServerMsg::RoomClosed { room: gone, .. } => closed |= gone == room,
            ServerMsg::Error { code, .. } => stats.error(code),
            _ => {}
        }
    }
    stats.closed();
}

/// Leaves `from`, if it is still open, and watches `to`.
async fn follow(socket: &mut Socket, from: Option<RoomId>, to: RoomId) -> anyhow::Result<()> {
    if let Some(room) = from {
        peer::send(socket, &ClientMsg::Leave { room }).await?;
    }
    peer::send(socket, &ClientMsg::Watch { room: to }).await
}

/// An AI room: one connection creates a Magnetic Cave room with two AI seats and watches it.
pub struct AiRoom {
    socket: Socket,
    room: RoomId,
    move_ms: u32,
    /// When the room was created: the next is created a second later at the soonest.
    created: Instant,
}

/// How often an AI room is created at the soonest: the rate a server (with the default limits,
/// as the command line starts it) allows a connection after its burst; it closes one that
/// creates more. With budgets of a few ms a game is over sooner than that.
fn create_every() -> Duration {
    Duration::from_secs_f64(1.0 / parlor_server::Limits::default().room_creations.per_second)
}

impl AiRoom {
    pub async fn open(url: &str, stats: &Stats, move_ms: u32) -> anyhow::Result<AiRoom> {
        let mut socket = peer::connect(url, "loadgen AI watcher").await?;
        let room = create_ai_room(&mut socket, stats, move_ms).await?;
        Ok(AiRoom {
            socket,
            room,
            move_ms,
            created: Instant::now(),
        })
    }

    /// Watches until `stop`, then closes its room; a finished game, or a room the server
    /// closed, is replaced by a new AI room.
    pub async fn run(mut self, stats: Arc<Stats>, mut stop: watch::Receiver<bool>) {
        stats.opened();
        loop {
            let event = tokio::select! {
                event = peer::next_event(&mut self.socket) => event,
                _ = stop.changed() => break,
            };
            match event {
                Event::Message(message) => match *message {
                    ServerMsg::State(snapshot) => {
                        stats.states.inc();
                        if snapshot.room == self.room && snapshot.outcome.is_some() {
                            stats.ai_games.inc();
                            if let Err(error) = self.next_room(&stats, true).await {
                                stats.note_failure(format!("AI room: {error:#}"));
                                break;
                            }
                        }
                    }
                    ServerMsg::RoomClosed { room, message } if room == self.room => {
                        eprintln!("loadgen: {message}; its watcher opens a new AI room");
                        stats.rooms_closed.inc();
                        if let Err(error) = self.next_room(&stats, false).await {
                            stats.note_failure(format!("AI room: {error:#}"));
                            break;
                        }
                    }
                    ServerMsg::Error { code, .. } => stats.error(code),
                    _ => {}
                },
                Event::Closed(code) => {
                    stats.server_closed(code);
                    stats.note_failure("the server closed an AI room's watcher".into());
                    break;
                }
            }
        }
        peer::close_room(&mut self.socket, &stats, self.room).await;
        stats.closed();
    }

    /// Creates the next AI room, leaving the last one first if it is still open (`leave`).
    async fn next_room(&mut self, stats: &Stats, leave: bool) -> anyhow::Result<()> {
        if leave {
            let leave = ClientMsg::Leave { room: self.room };
            peer::send(&mut self.socket, &leave).await?;
        }
        tokio::time::sleep_until((self.created + create_every()).into()).await;
        self.created = Instant::now();
        self.room = create_ai_room(&mut self.socket, stats, self.move_ms).await?;
        Ok(())
    }
}

async fn create_ai_room(
    socket: &mut Socket,
    stats: &Stats,
    move_ms: u32,
) -> anyhow::Result<RoomId> {
    let ai = SeatSpec::Ai {
        move_ms,
        kind: AiKind::Strong,
    };
    let room = create_room(socket, stats, [ai, ai]).await?;
    watch_room(socket, stats, room).await?;
    Ok(room)
}

/// Starts a task for each spectator of one room.
pub fn spawn_spectators(
    sockets: Vec<Socket>,
    rooms: watch::Receiver<RoomId>,
    stats: &Arc<Stats>,
    stop: &watch::Receiver<bool>,
) {
    for socket in sockets {
        tokio::spawn(spectate(socket, rooms.clone(), stats.clone(), stop.clone()));
    }
}
