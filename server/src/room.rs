//! One task per room owns its game: commands come in over a bounded channel, every change goes
//! out to each player and spectator as a full snapshot. The rules decide every move; a seat
//! token decides who may make it.

mod ai_seats;
mod closing;
mod kept_seats;
mod persist;
mod play_again;
mod restore;
mod seats;
mod views;

use closing::turn_away_saying;
pub(crate) use closing::{send_away, turn_away};
pub(crate) use views::placeholder_summary;
use views::seat_label;

use std::collections::VecDeque;
use std::net::IpAddr;

use parlor_shared::game::{GameKind, GameMove, GameState};
use parlor_shared::identity::Player;
use parlor_shared::protocol::{
    ErrorCode, RecordId, RoomId, RoomSummary, SeatSpec, SeatToken, ServerMsg,
};
use tokio::sync::{mpsc, watch};
use tracing::{debug, info};

use crate::abandon_clock::AbandonClock;
use crate::ai;
use crate::audience::Audience;
pub use crate::audience::{ConnId, Subscriber};
use crate::her_seat::HerSeat;
use crate::limits::RoomLifetimes;
use crate::outbox::Broadcast;
use crate::seat_key::SeatKey;
use crate::store::Store;
use play_again::NamedRematch;
pub use play_again::{PlayedAgain, seats_kept};

/// Commands a room's inbox holds before senders wait.
pub const ROOM_INBOX: usize = 64;

pub enum RoomCommand {
    /// Take a seat. Whoever held it before stays as a spectator while the room has fewer
    /// than `spectator_cap` of them (each `Join` and `Reclaim` carries the cap for this).
    Join {
        seat: u8,
        token: Option<SeatToken>,
        who: Subscriber,
        spectator_cap: usize,
    },
    Reclaim {
        token: SeatToken,
        who: Subscriber,
        spectator_cap: usize,
    },
    /// Follow the room, unless it already has `spectator_cap` spectators.
    Watch {
        who: Subscriber,
        spectator_cap: usize,
    },
    /// Stop following the room; answered `Left` whether or not `who` followed it.
    Leave { who: Subscriber },
    /// Send `who`, if it follows the room, the room's state again: states sent while the
    /// hall's bus was away were lost on the way to another node (`cluster/remote.rs`).
    Resend { who: Subscriber },
    /// `who` goes by a new name: the seats it took, and the room if it made it, show it.
    Renamed { who: Subscriber },
    /// End the unfinished room: only its creator may.
    Close { who: Subscriber },
    /// `who` made a room to play this finished game again (see `play_again.rs`): named to
    /// the other players if it is the first such room, or replaces the first if it closed.
    PlayedAgain { made: PlayedAgain, who: Subscriber },
    /// Room `rematch`, which a player made to play this finished game again, has closed or
    /// its game is over: the others must not be sent to it (said by the server, never by a
    /// client; `who`, a stand-in for its maker, is there for the bus, which carries every
    /// command with a connection).
    RematchClosed { rematch: RoomId, who: Subscriber },
    Move {
        token: SeatToken,
        version: u64,
        mv: GameMove,
        who: Subscriber,
    },
    /// An AI seat's plan for the state at `version`: its move first, then the moves it means
    /// to make next (a puzzle solver's whole solution) (internal).
    AiMoved {
        version: u64,
        plan: Vec<GameMove>,
        /// The seat's planner, handed back after its search (lost if the search panicked).
        planner: Option<(u8, ai::Planner)>,
    },
    /// Another node of the hall owns the room now (or is to take it over): the room ends here
    /// without a word to the store, and its followers are asked to reconnect, to find it
    /// there (see `crate::cluster`).
    Moved,
    /// A bug in the room, to test what its followers are told.
    #[cfg(test)]
    Panic,
}

/// What the hall keeps of a running room.
#[derive(Clone)]
pub struct RoomHandle {
    pub inbox: mpsc::Sender<RoomCommand>,
    pub summary: watch::Receiver<RoomSummary>,
}

struct Seat {
    spec: SeatSpec,
    /// The key of the token that took the seat, once someone has.
    key: Option<SeatKey>,
    /// The player who took it (`None` in rooms stored before players were known).
    player: Option<Player>,
    /// The connection currently holding the seat, if any.
    holder: Option<ConnId>,
    /// An AI seat's planner between its searches (built at its first search; away during one).
    planner: Option<ai::Planner>,
}

struct Room {
    id: RoomId,
    game: GameKind,
    creator: Option<Player>,
    creator_address: Option<IpAddr>,
    version: u64,
    state: GameState,
    start: GameState,
    moves: Vec<GameMove>,
    seats: Vec<Seat>,
    /// Everybody who receives the room's states: seat holders and spectators.
    audience: Audience,
    record: Option<RecordId>,
    /// The room that plays the finished game again, once one of its players made it.
    rematch: Option<NamedRematch>,
    /// The version an AI search is running for, so only one runs at a time.
    ai_thinking: Option<u64>,
    /// The moves an AI seat has planned beyond the one it made, played without searching
    /// again while the game follows the plan.
    ai_plan: VecDeque<GameMove>,
    /// HER, in a Hexapawn room against a person.
    her: Option<HerSeat>,
    /// Feeds the AIs that play at random (mixed with the version, so each move differs).
    seed: u64,
    inbox: mpsc::WeakSender<RoomCommand>,
    summary: watch::Sender<RoomSummary>,
    store: Store,
    /// When the finished game was stored; the room may close `lifetimes.linger` after it.
    recorded_at: Option<tokio::time::Instant>,
    /// When to try again a write the store refused: the finished game, or the AI's move.
    store_retry_at: Option<tokio::time::Instant>,
    /// When to show everyone a spectator count that changed without a state going out (see
    /// `views::SPECTATORS_SHOWN_WITHIN`).
    spectators_news_at: Option<tokio::time::Instant>,
    /// When the unfinished room closes while nobody follows it (see `crate::abandon_clock`).
    abandon_clock: AbandonClock,
    /// When the seats a rematch keeps are open to anybody (`kept_seats.rs`).
    seats_kept_until: Option<tokio::time::Instant>,
    /// Set when the game cannot go on (an AI seat failed) or its creator ended it: the room
    /// closes once the command at hand is done, and then says why to its followers.
    closing_now: Option<ClosingWords>,
    lifetimes: RoomLifetimes,
}

/// Why a room closes now, and who asked for it (told too, should they not follow it).
struct ClosingWords {
    message: String,
    asker: Option<Subscriber>,
}

/// What a room starts with: a new room (see `RoomInit::new`) or one restored from the store
/// (`RoomInit::restore`), with the moves played so far and the keys of the seats' tokens.
pub struct RoomInit {
    pub id: RoomId,
    pub start: GameState,
    pub seats: Vec<SeatSpec>,
    pub seed: u64,
    pub store: Store,
    pub her: Option<HerSeat>,
    /// The state after `moves`.
    pub state: GameState,
    pub moves: Vec<GameMove>,
    /// One per seat.
    pub keys: Vec<Option<SeatKey>>,
    /// Who took each seat.
    pub players: Vec<Option<Player>>,
    pub creator: Option<Player>,
    /// The address the room was asked for from (this run's rooms only): the AI pool's turns
    /// go by it.
    pub creator_address: Option<IpAddr>,
    /// Since when nobody follows the room (unix seconds): its creation for a new room, as
    /// stored for a restored one; `None` for a room followed when the server stopped.
    pub unfollowed_since: Option<u64>,
}

/// Starts a room's task and returns its handle. Once its game is stored the room stays open
/// for `lifetimes.linger`, then closes when nobody follows it; an unfinished game closes
/// `lifetimes.abandoned_after` after it lost its last follower, whatever its AIs do meanwhile.
pub fn spawn_room(init: RoomInit, lifetimes: RoomLifetimes) -> RoomHandle {
    let RoomInit {
        id,
        start,
        seats,
        seed,
        store,
        her,
        state,
        moves,
        keys,
        players,
        creator,
        creator_address,
        unfollowed_since,
    } = init;
    let (inbox_tx, inbox_rx) = mpsc::channel(ROOM_INBOX);
    let game = start.kind();
    let mut players = players.into_iter();
    let seats: Vec<Seat> = seats
        .into_iter()
        .zip(keys.into_iter().chain(std::iter::repeat(None)))
        .map(|(spec, key)| Seat {
            spec,
            key,
            player: players.next().flatten(),
            holder: None,
            planner: None,
        })
        .collect();
    let abandon_clock = AbandonClock::start(
        id,
        store.clone(),
        lifetimes.abandoned_after,
        unfollowed_since,
    );
    let seats_kept_until = kept_seats::kept_until(&seats, &lifetimes);
    let mut room = Room {
        id,
        game,
        creator,
        creator_address,
        version: moves.len() as u64,
        state,
        start,
        moves,
        seats,
        audience: Audience::default(),
        record: None,
        rematch: None,
        ai_thinking: None,
        ai_plan: VecDeque::new(),
        her,
        seed,
        inbox: inbox_tx.downgrade(),
        summary: watch::Sender::new(placeholder_summary(id, game)),
        store,
        recorded_at: None,
        store_retry_at: None,
        spectators_news_at: None,
        abandon_clock,
        seats_kept_until,
        closing_now: None,
        lifetimes,
    };
    room.publish_summary();
    let summary = room.summary.subscribe();
    tokio::spawn(room.run(inbox_rx));
    RoomHandle {
        inbox: inbox_tx,
        summary,
    }
}

impl Drop for Room {
    fn drop(&mut self) {
        // The room's task panicked (a bug): its followers are told it is gone, instead of
        // waiting on it. The hall stops listing it once its inbox closes.
        if std::thread::panicking() {
            self.audience.farewell(self.id);
        }
    }
}

impl Room {
    async fn run(mut self, mut inbox: mpsc::Receiver<RoomCommand>) {
        info!(room = self.id, game = ?self.game, "room open");
        // A restored room whose last move ended the game, stored just before a crash.
        if let Some(outcome) = self.state.outcome()
            && self.record.is_none()
        {
            self.finish(outcome).await;
        }
        self.maybe_start_ai();
        loop {
            // Whatever last happened (a visit, a leaving, a state a closed connection did not
            // take) may have changed who follows the room.
            self.abandon_clock.note(self.audience.len() > 0);
            let command = match self.wake_time() {
                Some(at) => match tokio::time::timeout_at(at, inbox.recv()).await {
                    Ok(command) => command,
                    Err(_) if !self.closing_due() => {
                        self.timer_due().await;
                        continue;
                    }
                    // Followed by nobody, and over or abandoned: the hall stops listing it.
                    Err(_) => {
                        self.close(&mut inbox).await;
                        break;
                    }
                },
                None => inbox.recv().await,
            };
            let Some(command) = command else {
                break;
            };
            if let RoomCommand::Moved = command {
                info!(room = self.id, "room moved to another node");
                self.audience.send_elsewhere();
                send_away(&mut inbox);
                return;
            }
            self.handle(command).await;
            if let Some(words) = self.closing_now.take() {
                // The inbox closes first: a follower told that the room has closed must find it
                // gone, its place in their quota of followed rooms free.
                turn_away_saying(self.id, &mut inbox, &words.message);
                match &words.asker {
                    Some(asker) => (self.audience).close_at_request(self.id, asker, &words.message),
                    None => self.audience.close_with(self.id, &words.message),
                }
                break;
            }
        }
        info!(room = self.id, "room closed");
    }

    async fn handle(&mut self, command: RoomCommand) {
        match command {
            RoomCommand::Join {
                seat,
                token,
                who,
                spectator_cap,
            } => self.join(seat, token, who, spectator_cap).await,
            RoomCommand::Reclaim {
                token,
                who,
                spectator_cap,
            } => self.reclaim(token, who, spectator_cap),
            RoomCommand::Watch { who, spectator_cap } => {
                let spectators = self.spectator_count() as usize;
                if !self
                    .audience
                    .admit(self.id, &who, spectators, spectator_cap)
                {
                    return;
                }
                // Only the newcomer needs a state now; the others see the new count within
                // `SPECTATORS_SHOWN_WITHIN`, one state for every spectator who came meanwhile,
                // so S spectators cost about S states, not S squared. The lobby summary comes
                // first, so whatever the newcomer asks next sees itself counted.
                self.publish_summary();
                let state = Broadcast::new(ServerMsg::State(self.snapshot()));
                who.send_state(self.id, state);
                self.spectators_changed();
            }
            RoomCommand::Leave { who } => self.leave(who),
            RoomCommand::Resend { who } => self.audience.resend(self.id, &who, || self.snapshot()),
            RoomCommand::Renamed { who } => self.renamed(&who.player).await,
            RoomCommand::Close { who } => self.close_by(who).await,
            RoomCommand::PlayedAgain { made, who } => self.played_again(made, &who),
            RoomCommand::RematchClosed { rematch, .. } => self.rematch_closed(rematch),
            RoomCommand::Move {
                token,
                version,
                mv,
                who,
            } => match self.seat_of(&token) {
                None => who.error(ErrorCode::BadToken, "that token holds no seat in this room"),
                Some(seat) => {
                    let made = match mv.check_made_by_a_person() {
                        Ok(()) => self.try_move(seat, version, mv).await,
                        Err(reason) => Err((ErrorCode::IllegalMove, reason)),
                    };
                    match made {
                        Err((code, message)) => who.error(code, message),
                        // A mover that does not follow the room (it moved before its Reclaim)
                        // hears of its move too, as a follower would.
                        Ok(()) if !self.audience.contains(who.id) => {
                            let state = Broadcast::new(ServerMsg::State(self.snapshot()));
                            who.send_state(self.id, state);
                        }
                        Ok(()) => {}
                    }
                }
            },
            RoomCommand::AiMoved {
                version,
                plan,
                planner,
            } => self.ai_moved(version, plan, planner).await,
            // Handled by `run`, which ends the room.
            RoomCommand::Moved => {}
            #[cfg(test)]
            RoomCommand::Panic => panic!("a bug in room {}", self.id),
        }
    }

    /// Validates and applies a move by `seat`; on success (once the move is stored) every
    /// subscriber sees the new state. A move the store refuses is refused (`Internal`) and
    /// changes nothing: a state is never shown that a restart would take back.
    async fn try_move(
        &mut self,
        seat: u8,
        version: u64,
        mv: GameMove,
    ) -> Result<(), (ErrorCode, String)> {
        if self.state.outcome().is_some() {
            return Err((ErrorCode::GameOver, "the game is over".into()));
        }
        if version != self.version {
            return Err((
                ErrorCode::StaleVersion,
                format!(
                    "the move was made on version {version}, the room is at {}",
                    self.version
                ),
            ));
        }
        let her_draws = self.her.as_ref().map(HerSeat::draw_count);
        let (next, recorded) = match (&mut self.her, mv) {
            (Some(her), GameMove::Hexapawn(mv)) => {
                let (next, recorded) = her.apply(&self.state, seat, mv)?;
                (next, GameMove::Hexapawn(recorded))
            }
            _ => {
                // A player resigns for their own seat, on their turn or not, once somebody
                // sits opposite (else there is no game to give anyone: Close ends the room);
                // any other move waits for its seat's turn.
                let refused = match mv {
                    GameMove::Resign { seat: resigning } if resigning != seat => {
                        Some(format!("seat {seat} cannot resign for seat {resigning}"))
                    }
                    GameMove::Resign { .. } if self.seats.iter().any(Seat::is_open) => {
                        return Err((
                            ErrorCode::IllegalMove,
                            "nobody has taken the other seat yet, so there is nobody to resign \
                             to: close the room instead"
                                .into(),
                        ));
                    }
                    GameMove::Resign { .. } => None,
                    _ if self.state.seat_to_move() != Some(seat) => {
                        Some(format!("it is not seat {seat}'s turn"))
                    }
                    _ => None,
                };
                if let Some(message) = refused {
                    return Err((ErrorCode::NotYourTurn, message));
                }
                let next = self
                    .state
                    .apply(mv)
                    .map_err(|e| (ErrorCode::IllegalMove, e.to_string()))?;
                (next, mv)
            }
        };
        debug!(room = self.id, seat, %recorded, "move");
        if let Err(error) = self.store_move(recorded).await {
            if let (Some(her), Some(count)) = (&mut self.her, her_draws) {
                her.forget_draws_after(count);
            }
            return Err(error);
        }
        self.state = next;
        self.moves.push(recorded);
        self.version += 1;
        self.broadcast();
        match self.state.outcome() {
            Some(outcome) => {
                // A finished game needs no engine: its tables (up to 12 MB a strong Magnetic
                // Cave seat, see `ai::MAX_KEPT_CAVE_ENGINES`) go now, not when the room closes.
                self.seats.iter_mut().for_each(|seat| seat.planner = None);
                self.finish(outcome).await;
                self.broadcast();
            }
            None => self.maybe_start_ai(),
        }
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests;
