//! One played room: the task that owns both players' connections, makes the room's move at
//! its times (the player to move sends it) and starts a new room when a game ends or the server
//! closes the room (an operator's `CloseRoom`), taking the room's spectators along.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail};
use parlor_shared::cave::{Position, Square, has_five};
use parlor_shared::game::{GameMove, GameSetup, GameState};
use parlor_shared::protocol::{ClientMsg, RoomId, SeatSpec, SeatToken, ServerMsg};
use tokio::sync::watch;
use tokio::time::{Interval, MissedTickBehavior};

use crate::peer::{self, Event, Socket};
use crate::stats::Stats;

pub struct RoomDriver {
    index: usize,
    /// Where in the period this room moves (index / rooms), so moves are spread evenly.
    phase: f64,
    room: RoomId,
    players: Option<(Socket, Socket)>,
    tokens: [SeatToken; 2],
    position: Position,
    version: u64,
    /// The version the last move sent will make, until a state reaches it.
    pending: Option<u64>,
    rng: Rng,
    /// Tells the room's spectators which room to watch.
    room_tx: watch::Sender<RoomId>,
    stats: Arc<Stats>,
}

/// When a driver makes its moves: the first at `first`, then one every `period`.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    pub first: tokio::time::Instant,
    pub period: Duration,
}

enum Action {
    Tick,
    Heard(usize, Event),
    Start(Schedule),
    Stop,
}

impl RoomDriver {
    /// Connects both players (each to its URL: two nodes of a hall, or one server twice),
    /// creates the room from the first and seats them.
    pub async fn open(
        urls: [&str; 2],
        stats: Arc<Stats>,
        index: usize,
        rooms: usize,
        seed: u64,
    ) -> anyhow::Result<RoomDriver> {
        let mut first = peer::connect(urls[0], "loadgen player").await?;
        let mut second = peer::connect(urls[1], "loadgen player").await?;
        let (room, tokens) = seat_players(&mut first, &mut second, &stats).await?;
        Ok(RoomDriver {
            index,
            phase: index as f64 / rooms.max(1) as f64,
            room,
            players: Some((first, second)),
            tokens,
            position: Position::new(),
            version: 0,
            pending: None,
            rng: Rng::new(seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)),
            room_tx: watch::Sender::new(room),
            stats,
        })
    }

    pub fn room(&self) -> RoomId {
        self.room
    }

    /// For a spectator: the room to watch now and every room after it.
    pub fn rooms(&self) -> watch::Receiver<RoomId> {
        self.room_tx.subscribe()
    }

    /// Reads both connections until `start` gives the schedule, then plays until `stop`;
    /// then closes the room it plays.
    pub async fn run(
        mut self,
        mut start: watch::Receiver<Option<Schedule>>,
        mut stop: watch::Receiver<bool>,
    ) {
        let Some((mut first, mut second)) = self.players.take() else {
            return;
        };
        let stats = self.stats.clone();
        stats.opened();
        stats.opened();
        let mut ticks: Option<Interval> = None;
        let result = loop {
            let action = tokio::select! {
                _ = next_tick(&mut ticks) => Action::Tick,
                event = peer::next_event(&mut first) => Action::Heard(0, event),
                event = peer::next_event(&mut second) => Action::Heard(1, event),
                Ok(()) = start.changed(), if ticks.is_none() => match *start.borrow_and_update() {
                    Some(schedule) => Action::Start(schedule),
                    None => continue,
                },
                _ = stop.changed() => Action::Stop,
            };
            let step = match action {
                Action::Tick => self.tick(&mut first, &mut second).await,
                Action::Heard(_, Event::Message(message)) => {
                    self.heard(*message, &mut first, &mut second).await
                }
                Action::Heard(seat, Event::Closed(code)) => {
                    stats.server_closed(code);
                    Err(anyhow!(
                        "the server closed player {seat}'s connection (close code {})",
                        code.map_or("none".into(), |code| code.to_string())
                    ))
                }
                Action::Start(schedule) => {
                    let offset = schedule.period.mul_f64(self.phase);
                    let mut interval =
                        tokio::time::interval_at(schedule.first + offset, schedule.period);
                    interval.set_missed_tick_behavior(MissedTickBehavior::Skip);
                    ticks = Some(interval);
                    Ok(())
                }
                Action::Stop => break Ok(()),
            };
            if let Err(error) = step {
                break Err(error);
            }
        };
        if let Err(error) = result {
            stats.note_failure(format!("room driver {}: {error:#}", self.index));
        }
        peer::close_room(&mut first, &stats, self.room).await;
        let _ = second.close(None).await;
        stats.closed();
        stats.closed();
    }

    /// The room's move time: the player to move sends a move on the current version, unless
    /// the previous move is still unanswered.
    async fn tick(&mut self, first: &mut Socket, second: &mut Socket) -> anyhow::Result<()> {
        if self.pending.is_some_and(|pending| pending > self.version) {
            self.stats.skipped_ticks.inc();
            return Ok(());
        }
        let Some(square) = choose_move(&self.position, &mut self.rng) else {
            return Ok(()); // the game is over; its last state starts the next room
        };
        let seat = self.position.to_move().seat() as usize;
        let message = ClientMsg::Move {
            room: self.room,
            token: self.tokens[seat].clone(),
            version: self.version,
            mv: GameMove::Cave(square),
        };
        self.stats
            .move_sent(self.room, self.version + 1, Instant::now());
        self.pending = Some(self.version + 1);
        let socket = if seat == 0 { first } else { second };
        peer::send(socket, &message).await
    }

    async fn heard(
        &mut self,
        message: ServerMsg,
        first: &mut Socket,
        second: &mut Socket,
    ) -> anyhow::Result<()> {
        match message {
            ServerMsg::State(snapshot) => {
                self.stats.states.inc();
                if snapshot.room != self.room || snapshot.version <= self.version {
                    return Ok(()); // an old room's, or the other player already told us
                }
                let GameState::Cave(position) = snapshot.state else {
                    bail!("room {} is not a Magnetic Cave room", self.room);
                };
                self.stats
                    .moves_accepted
                    .add(snapshot.version - self.version);
                self.version = snapshot.version;
                self.position = position;
                if snapshot.outcome.is_some() {
                    self.next_room(first, second).await?;
                }
            }
            ServerMsg::Error { code, message } => {
                self.stats.error(code);
                // A refused move: the next move time tries again.
                if self.pending.take().is_none() {
                    self.stats
                        .note_failure(format!("room {}: {code:?}: {message}", self.room));
                }
            }
            ServerMsg::RoomClosed { room, message } if room == self.room => {
                // Moves sent to a room that is gone would only be refused, for the rest of
                // the run: the players go on in a new room, once the move sent as it closed
                // has had its answer (a refusal, counted), which would otherwise come while a
                // player waits for the new room and end it.
                eprintln!("loadgen: {message}; its players go on in a new room");
                self.stats.rooms_closed.inc();
                peer::settle(first, &self.stats).await?;
                peer::settle(second, &self.stats).await?;
                self.start_room(first, second).await?;
            }
            _ => {}
        }
        Ok(())
    }

    /// The game is over: both players leave, and go on in a new room.
    async fn next_room(&mut self, first: &mut Socket, second: &mut Socket) -> anyhow::Result<()> {
        let leave = ClientMsg::Leave { room: self.room };
        peer::send(first, &leave).await?;
        peer::send(second, &leave).await?;
        self.start_room(first, second).await?;
        self.stats.rooms_recreated.inc();
        Ok(())
    }

    /// The first player creates a new room, both sit down in it and the spectators follow.
    async fn start_room(&mut self, first: &mut Socket, second: &mut Socket) -> anyhow::Result<()> {
        let (room, tokens) = seat_players(first, second, &self.stats).await?;
        self.room = room;
        self.tokens = tokens;
        self.position = Position::new();
        self.version = 0;
        self.pending = None;
        self.room_tx.send_replace(room);
        Ok(())
    }
}

async fn next_tick(ticks: &mut Option<Interval>) {
    match ticks {
        Some(interval) => {
            interval.tick().await;
        }
        None => std::future::pending().await,
    }
}

/// Creates a room of two human seats from `first`, and seats `first` at 0 and `second` at 1.
async fn seat_players(
    first: &mut Socket,
    second: &mut Socket,
    stats: &Stats,
) -> anyhow::Result<(RoomId, [SeatToken; 2])> {
    let room = create_room(first, stats, [SeatSpec::Human, SeatSpec::Human]).await?;
    let black = join(first, stats, room, 0).await?;
    let white = join(second, stats, room, 1).await?;
    Ok((room, [black, white]))
}

/// Creates a Magnetic Cave room with these seats.
pub async fn create_room(
    socket: &mut Socket,
    stats: &Stats,
    seats: [SeatSpec; 2],
) -> anyhow::Result<RoomId> {
    let request = ClientMsg::CreateRoom {
        setup: GameSetup::Cave,
        seats: seats.to_vec(),
    };
    peer::send(socket, &request).await?;
    peer::expect(socket, stats, "CreateRoom", |message| match message {
        ServerMsg::RoomCreated { room } => Some(*room),
        _ => None,
    })
    .await
}

async fn join(
    socket: &mut Socket,
    stats: &Stats,
    room: RoomId,
    seat: u8,
) -> anyhow::Result<SeatToken> {
    peer::send(socket, &ClientMsg::join_seat(room, seat)).await?;
    peer::expect(socket, stats, "JoinSeat", |message| match message {
        ServerMsg::Seated {
            room: r,
            seat: s,
            token,
        } if *r == room && *s == seat => Some(token.clone()),
        _ => None,
    })
    .await
}

/// A random legal move that does not make five in a row, unless every move does, so games
/// run their length.
pub fn choose_move(position: &Position, rng: &mut Rng) -> Option<Square> {
    let legal: Vec<Square> = position.legal_squares().collect();
    let mover = position.to_move();
    let quiet: Vec<Square> = legal
        .iter()
        .copied()
        .filter(|&square| !has_five(position.play_unchecked(square).bricks(mover)))
        .collect();
    let pool = if quiet.is_empty() { &legal } else { &quiet };
    if pool.is_empty() {
        return None;
    }
    Some(pool[rng.below(pool.len())])
}

/// xorshift64*: enough randomness to vary games, and reproducible from `--seed`.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as usize % n
    }
}
