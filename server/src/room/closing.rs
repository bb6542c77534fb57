//! When a room closes: a finished one a while after its game is stored, an unfinished one
//! when nobody has followed it for a while, however its AIs play on (`crate::abandon_clock`;
//! else rooms left behind would fill the server's cap on rooms for good, across restarts
//! too). A write the store refused (the finished game, an AI's move) is tried again every
//! `store_retry` until it is stored, so that the game goes on and the room can close then.

use std::time::Duration;

use tracing::{info, warn};

use parlor_shared::protocol::{ErrorCode, RoomId, ServerMsg};
use tokio::sync::mpsc;

use super::{ClosingWords, Room, RoomCommand, Subscriber};

impl Room {
    /// When the room may close, if nobody follows it by then: `linger` after its game was
    /// stored, or, while its game is unfinished, `abandoned_after` after it lost its last
    /// follower. `None` while it must stay open (followed, or over but not stored). A room
    /// naming a rematch that waits for its players stays longer, for the lobby marks that
    /// rematch for them by it: until the rematch closes or its game ends (the maker's
    /// connection's `tell_when_closed` says so), but no more than `abandoned_after` after it
    /// was named, for that word may never come (the maker's node gone, the bus down).
    pub(super) fn closing_time(&self) -> Option<tokio::time::Instant> {
        if let Some(recorded_at) = self.recorded_at {
            let lingered = recorded_at + self.lifetimes.linger;
            let rematch_waited =
                (self.rematch.as_ref()).map(|named| named.at + self.lifetimes.abandoned_after);
            let closes_at = lingered.max(rematch_waited.unwrap_or(lingered));
            return self.audience.closing_time(Some(closes_at), Duration::ZERO);
        }
        if self.state.outcome().is_some() {
            return None;
        }
        self.abandon_clock.closing_time()
    }

    /// When the room's timer is next due: to try a refused write again, to close, to show
    /// a changed spectator count, or to open the seats a rematch keeps.
    pub(super) fn wake_time(&self) -> Option<tokio::time::Instant> {
        [
            self.store_retry_at,
            self.closing_time(),
            self.spectators_news_at,
            self.seats_kept_until,
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// The room's timer is due and it is not closing: shows a changed spectator count, tries
    /// a refused write again, opens the seats kept for a rematch's players, whichever is due.
    pub(super) async fn timer_due(&mut self) {
        let now = tokio::time::Instant::now();
        if self.seats_kept_until.is_some_and(|at| at <= now) {
            self.open_kept_seats().await;
        }
        if self.spectators_news_at.is_some_and(|at| at <= now) {
            self.broadcast();
        }
        if self.store_retry_at.is_some_and(|at| at <= now) {
            self.retry_store().await;
        }
    }

    /// Whether the room's time to close has come (a write still to retry does not keep an
    /// abandoned room open).
    pub(super) fn closing_due(&self) -> bool {
        self.closing_time()
            .is_some_and(|at| at <= tokio::time::Instant::now())
    }

    /// Tries again what the store refused: the finished game (its record shown once stored),
    /// or the AI's move (still the first of its plan).
    pub(super) async fn retry_store(&mut self) {
        self.store_retry_at = None;
        match self.state.outcome() {
            Some(outcome) if self.record.is_none() => {
                self.finish(outcome).await;
                self.broadcast();
            }
            Some(_) => {}
            None => self.maybe_start_ai(),
        }
    }

    /// Closes the room: from now on no command gets in (its sender hears the room has
    /// closed), a command that came in as the time ran out is answered so, and an abandoned
    /// game is forgotten by the store.
    pub(super) async fn close(&mut self, inbox: &mut mpsc::Receiver<RoomCommand>) {
        turn_away(self.id, inbox);
        self.forget_if_abandoned().await;
    }

    /// `who` ends the room: allowed to its creator (and the hall's operators) while its game
    /// is unfinished. Its rows go
    /// from the store first (a restart must not bring it back), then everybody who followed
    /// it hears why, and the room closes.
    pub(super) async fn close_by(&mut self, who: Subscriber) {
        if !who.may_close(self.creator.as_ref()) {
            return who.error(
                ErrorCode::NotYours,
                format!("only the player who created room {} may close it", self.id),
            );
        }
        if self.state.outcome().is_some() {
            return who.error(ErrorCode::GameOver, "the game is over; it closes by itself");
        }
        if let Err(error) = self.store.forget_room(self.id).done().await {
            let error = format!("{error:#}");
            warn!(
                room = self.id,
                error, "could not forget a room closed on request"
            );
            return who.error(
                ErrorCode::Internal,
                format!("the server could not close room {}; try again", self.id),
            );
        }
        let by = who.closer();
        info!(room = self.id, moves = self.moves.len(), by, "room closed");
        let message = format!("room {} was closed by {by}", self.id);
        self.closing_now = Some(ClosingWords {
            message,
            asker: Some(who),
        });
    }

    /// An unfinished game closing: its rows go from the store, so a restart does not bring it
    /// back (no record is made of a game nobody finished).
    async fn forget_if_abandoned(&mut self) {
        if self.recorded_at.is_some() {
            return;
        }
        info!(room = self.id, moves = self.moves.len(), "room abandoned");
        if let Err(error) = self.store.forget_room(self.id).done().await {
            warn!(
                room = self.id,
                error = format!("{error:#}"),
                "could not forget an abandoned room"
            );
        }
    }
}

/// Closes `inbox` and answers each command still in it that `room` has closed, instead of
/// dropping it unanswered.
pub(crate) fn turn_away(room: RoomId, inbox: &mut mpsc::Receiver<RoomCommand>) {
    turn_away_saying(room, inbox, &format!("room {room} has closed"));
}

/// [`turn_away`], answering with `why` the room closed: a move sent as it was closed on
/// request hears the same reason as its followers, and hears it first.
pub(crate) fn turn_away_saying(room: RoomId, inbox: &mut mpsc::Receiver<RoomCommand>, why: &str) {
    inbox.close();
    while let Ok(command) = inbox.try_recv() {
        let who = match command {
            RoomCommand::Leave { who } => {
                who.send(ServerMsg::Left { room });
                continue;
            }
            RoomCommand::Join { who, .. }
            | RoomCommand::Reclaim { who, .. }
            | RoomCommand::Watch { who, .. }
            | RoomCommand::Close { who }
            | RoomCommand::Move { who, .. } => who,
            _ => continue,
        };
        who.send(ServerMsg::RoomClosed {
            room,
            message: why.to_string(),
        });
    }
}

/// Closes `inbox` of a room that moved to another node: whoever sent a command still in it is
/// asked to reconnect, to send it again where the room is now.
pub(crate) fn send_away(inbox: &mut mpsc::Receiver<RoomCommand>) {
    inbox.close();
    while let Ok(command) = inbox.try_recv() {
        match command {
            RoomCommand::Leave { .. } => {}
            RoomCommand::Join { who, .. }
            | RoomCommand::Reclaim { who, .. }
            | RoomCommand::Watch { who, .. }
            | RoomCommand::Close { who }
            | RoomCommand::Move { who, .. } => who.outbox.reconnect(),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audience::TestFollower;

    #[tokio::test]
    async fn commands_that_came_in_as_a_room_closed_are_answered_and_later_ones_refused() {
        let (sender, mut inbox) = mpsc::channel(8);
        let follower = TestFollower::new(1);
        let leave = RoomCommand::Leave {
            who: TestFollower::new(2).who,
        };
        sender.send(leave).await.unwrap();
        sender.send(follower.watch()).await.unwrap();
        turn_away(7, &mut inbox);
        let told = follower.next_reply().await;
        assert!(
            matches!(told, ServerMsg::RoomClosed { room: 7, .. }),
            "{told:?}"
        );
        let later = sender.send(follower.watch()).await;
        assert!(later.is_err(), "the inbox is closed");
    }
}
