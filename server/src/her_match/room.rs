//! The room side of an auto match: the task that hands each new view of the match to its
//! watchers and keeps the lobby's summary, while the match plays on its own thread.

use parlor_shared::game::{GameKind, GameState};
use parlor_shared::hexapawn::{MatchView, Pace};
use parlor_shared::identity::Player;
use parlor_shared::protocol::{
    ErrorCode, RoomId, RoomSnapshot, RoomSummary, SeatState, ServerMsg, WATCHERS_SHOWN,
};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;
use tracing::{info, warn};

use crate::abandon_clock::AbandonClock;
use crate::audience::Audience;
use crate::limits::RoomLifetimes;
use crate::outbox::Broadcast;
use crate::players::rename_shown;
use crate::room::RoomCommand;

pub(super) fn summary_of(
    room: RoomId,
    creator: Option<&Player>,
    version: u64,
    spectators: u32,
    view: Option<&MatchView>,
) -> RoomSummary {
    RoomSummary {
        room,
        game: GameKind::HerMatch,
        creator: creator.cloned(),
        seats: view.map_or_else(Vec::new, brain_seats),
        spectators,
        version,
        moves: view.map_or(0, |view| view.rounds_played.min(u64::from(u32::MAX)) as u32),
        outcome: view.and_then(MatchView::outcome),
        to_move: None,
        rematch: None,
    }
}

/// The match's brains as its summary's seats, so that the lobby names them (which won, too):
/// AIs that play at the match's pace.
fn brain_seats(view: &MatchView) -> Vec<SeatState> {
    let move_ms = match view.setup.pace {
        Pace::FullSpeed => 0,
        Pace::PerPly { ms } => ms,
    };
    (view.setup.brains.iter())
        .map(|brain| SeatState::Ai {
            move_ms,
            name: brain.clone(),
        })
        .collect()
}

pub(super) struct MatchRoom {
    pub(super) id: RoomId,
    pub(super) creator: Option<Player>,
    /// Goes up with every view sent.
    pub(super) version: u64,
    pub(super) view: MatchView,
    pub(super) audience: Audience,
    pub(super) summary: watch::Sender<RoomSummary>,
    /// How long the room stays open after the match ends before it may close.
    pub(super) lifetimes: RoomLifetimes,
    /// When the unfinished match stops while nobody watches it (see `crate::abandon_clock`).
    pub(super) abandon_clock: AbandonClock,
    /// Why the match's thread stopped it short, when it says (the store is full).
    pub(super) why_stopped: oneshot::Receiver<String>,
    /// Once the match's thread has stopped: whether the match's rows are gone from the store.
    pub(super) forgotten: oneshot::Receiver<bool>,
    /// Set as the room stops because another node plays the match on (see `super::Stops`).
    pub(super) moved_away: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// Where the room's creator is stored, under the name it goes by.
    pub(super) store: crate::store::Store,
}

impl Drop for MatchRoom {
    fn drop(&mut self) {
        // As a game room does: a panic tells the watchers the match's room is gone.
        if std::thread::panicking() {
            self.audience.farewell(self.id);
        }
    }
}

/// The least time between two views sent to a match's watchers: every ply of a match paced
/// at 50 ms or more is shown; one paced faster is shown 20 times a second.
const MIN_VIEW_GAP: std::time::Duration = std::time::Duration::from_millis(50);

impl MatchRoom {
    pub(super) async fn run(
        mut self,
        mut inbox: mpsc::Receiver<RoomCommand>,
        mut views: watch::Receiver<MatchView>,
    ) {
        let mut ended = None;
        // Until when a new view waits: a match paced faster than `MIN_VIEW_GAP` a ply (a few
        // ms, or none) is shown at most that often, as full speed is throttled, rather than
        // sending each watcher thousands of states a second.
        let mut quiet_until = Instant::now();
        let mut ended_by = None;
        loop {
            // A watch, a leaving, or a view a closed connection did not take may have changed
            // who watches.
            self.abandon_clock.note(self.audience.len() > 0);
            let closing = self.closing_time(ended);
            let quiet = quiet_until > Instant::now();
            tokio::select! {
                // Watched by nobody, and over and lingered, or abandoned: the hall stops
                // listing it, and an abandoned match's thread sees its views unheard and stops.
                () = tokio::time::sleep_until(closing.unwrap_or_else(Instant::now)),
                    if closing.is_some() => {
                    if ended.is_none() {
                        info!(room = self.id, "auto match abandoned: nobody watched it");
                    }
                    crate::room::turn_away(self.id, &mut inbox);
                    break;
                }
                command = inbox.recv() => match command {
                    // A match whose thread has sent its last view is over, seen here yet or
                    // not: it is not ended by anyone.
                    Some(RoomCommand::Close { who })
                        if ended.is_none() && !views.borrow().finished =>
                    {
                        if self.may_end(&who) {
                            crate::room::turn_away(self.id, &mut inbox);
                            ended_by = Some(who);
                            break;
                        }
                    }
                    Some(RoomCommand::Moved) => {
                        info!(room = self.id, "auto match moved to another node");
                        // Before the views go unheard, which alone would read as closed.
                        (self.moved_away).store(true, std::sync::atomic::Ordering::SeqCst);
                        self.audience.send_elsewhere();
                        crate::room::send_away(&mut inbox);
                        break;
                    }
                    Some(command) => self.handle(command),
                    None => break,
                },
                () = tokio::time::sleep_until(quiet_until), if quiet => {}
                changed = views.changed(), if ended.is_none() && !quiet => match changed {
                    Ok(()) => {
                        self.view = views.borrow_and_update().clone();
                        self.version += 1;
                        self.broadcast();
                        quiet_until = Instant::now() + MIN_VIEW_GAP;
                    }
                    // The match's thread is done and its last view was sent.
                    Err(_) if self.view.finished => {
                        ended = Some(Instant::now());
                        self.abandon_clock.stop();
                    }
                    // It stopped short: the store is full, or its rounds could not be stored
                    // (or its thread failed).
                    Err(_) => {
                        let message = self.why_stopped.try_recv().unwrap_or_else(|_| format!(
                            "auto match {} stopped before its end; it goes on from its last \
                             stored round when the server restarts",
                            self.id
                        ));
                        self.audience.close_with(self.id, &message);
                        crate::room::turn_away(self.id, &mut inbox);
                        break;
                    }
                },
            }
        }
        if let Some(who) = ended_by {
            drop(views);
            self.end_for(&who).await;
        }
    }

    /// When the room may close if still unwatched: `linger` after the match ended, or,
    /// while the match goes on, `abandoned_after` after it lost its last watcher.
    fn closing_time(&self, ended: Option<Instant>) -> Option<Instant> {
        if ended.is_some() {
            return self.audience.closing_time(ended, self.lifetimes.linger);
        }
        self.abandon_clock.closing_time()
    }

    /// Whether `who` may end the match (its creator may, while it runs); a refusal tells
    /// `who` why.
    fn may_end(&self, who: &crate::audience::Subscriber) -> bool {
        if !who.may_close(self.creator.as_ref()) {
            who.error(
                ErrorCode::NotYours,
                format!(
                    "only the player who started auto match {} may end it",
                    self.id
                ),
            );
            return false;
        }
        true
    }

    /// Ends the match for `who`, its views unheard by now: once its thread has stopped the
    /// round in progress, stored the rounds before it and forgotten the match (so that a
    /// restart cannot bring it back and its brains are free), its watchers hear why.
    async fn end_for(&mut self, who: &crate::audience::Subscriber) {
        let forgotten = (&mut self.forgotten).await.unwrap_or(false);
        let by = who.closer();
        info!(room = self.id, by, forgotten, "auto match ended");
        let message = if forgotten {
            format!("auto match {} was ended by {by}", self.id)
        } else {
            format!(
                "auto match {} was stopped by {by}, but the store could not forget it: it goes \
                 on from its last stored round when the server restarts",
                self.id
            )
        };
        self.audience.close_at_request(self.id, who, &message);
    }

    fn handle(&mut self, command: RoomCommand) {
        let refuse = |who: &crate::audience::Subscriber| {
            who.error(
                ErrorCode::NoSuchSeat,
                "an auto match has no seats: its HERs play each other; watch it instead",
            )
        };
        match command {
            RoomCommand::Watch { who, spectator_cap } => {
                let watchers = self.audience.len();
                if !self.audience.admit(self.id, &who, watchers, spectator_cap) {
                    return;
                }
                // Only the newcomer needs the view now; the others see the count next time.
                self.publish_summary();
                let state = Broadcast::new(ServerMsg::State(self.snapshot()));
                who.send_state(self.id, state);
            }
            RoomCommand::Renamed { who } => {
                let creator = self.creator.as_mut();
                if creator.is_some_and(|creator| rename_shown(creator, &who.player)) {
                    // Not waited for: the name shows at once. A refusal is logged, and the
                    // creator's next hello tells the room again.
                    let (room, stored) = (self.id, self.store.set_creator(self.id, &who.player));
                    tokio::spawn(async move {
                        if let Err(error) = stored.done().await {
                            let error = format!("{error:#}");
                            warn!(room, error, "could not store the creator's new name");
                        }
                    });
                    self.broadcast();
                }
            }
            RoomCommand::Resend { who } => self.audience.resend(self.id, &who, || self.snapshot()),
            RoomCommand::Leave { who } => {
                let followed = self.audience.remove(who.id).is_some();
                who.send(ServerMsg::Left { room: self.id });
                if followed {
                    self.publish_summary();
                }
            }
            RoomCommand::Join { who, .. }
            | RoomCommand::Reclaim { who, .. }
            | RoomCommand::Move { who, .. } => refuse(&who),
            RoomCommand::Close { who } => who.error(
                ErrorCode::GameOver,
                "the auto match is over; it closes by itself",
            ),
            // An auto match offers no Play again.
            RoomCommand::AiMoved { .. }
            | RoomCommand::Moved
            | RoomCommand::PlayedAgain { .. }
            | RoomCommand::RematchClosed { .. } => {}
            #[cfg(test)]
            RoomCommand::Panic => panic!("a bug in auto match {}", self.id),
        }
    }

    fn snapshot(&self) -> RoomSnapshot {
        RoomSnapshot {
            room: self.id,
            version: self.version,
            seats: Vec::new(),
            spectators: self.audience.len() as u32,
            watchers: self.audience.players(|_| true, WATCHERS_SHOWN),
            creator: self.creator.clone(),
            state: GameState::HerMatch(self.view.clone()),
            moves: Vec::new(),
            plan_ahead: vec![],
            outcome: self.view.outcome(),
            record: None,
            // A new match is made from the lobby's form (its brains have learnt meanwhile).
            again: None,
        }
    }

    fn publish_summary(&mut self) {
        let spectators = self.audience.len() as u32;
        self.summary.send_replace(summary_of(
            self.id,
            self.creator.as_ref(),
            self.version,
            spectators,
            Some(&self.view),
        ));
    }

    /// Publishes the lobby summary and sends the view to every watcher.
    fn broadcast(&mut self) {
        self.publish_summary();
        let state = Broadcast::new(ServerMsg::State(self.snapshot()));
        for gone in self.audience.send_state(self.id, &state) {
            self.audience.remove(gone);
        }
    }
}

#[cfg(test)]
mod tests;
