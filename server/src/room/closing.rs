//! When a room closes: a finished one a while after its game is stored, an unfinished one
//! when nobody has followed it or done anything in it for a long time (else rooms left
//! behind would fill the server's cap on rooms for good, across restarts too).

use tracing::{info, warn};

use super::Room;

impl Room {
    /// When the room may close, if nobody follows it by then: `linger` after its game was
    /// stored, or `abandoned_after` after its last command while its game is unfinished.
    /// `None` while it must stay open (followed, or over but not stored).
    pub(super) fn closing_time(&self) -> Option<tokio::time::Instant> {
        if self.recorded_at.is_some() {
            return (self.audience).closing_time(self.recorded_at, self.lifetimes.linger);
        }
        let abandoned = self.audience.len() == 0 && self.state.outcome().is_none();
        abandoned.then(|| self.last_activity + self.lifetimes.abandoned_after)
    }

    /// An unfinished game closing: its rows go from the store, so a restart does not bring it
    /// back (no record is made of a game nobody finished).
    pub(super) async fn forget_if_abandoned(&mut self) {
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
