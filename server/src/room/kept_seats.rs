//! A rematch keeps its seats for the players of the game it plays again (`play_again.rs`), but
//! not for ever: a player who never comes back would leave the others waiting in a room
//! nobody else may join. A seat still kept `lifetimes.abandoned_after` after the room opened
//! (or after a restart brought it back) is open to anybody, as the finished room's mark of
//! the rematch is gone by then too.

use tokio::time::Instant;

use super::{Room, RoomLifetimes, Seat};

impl Seat {
    /// A person's seat nobody has taken yet (it may be kept for somebody).
    pub(super) fn is_open(&self) -> bool {
        self.spec == parlor_shared::protocol::SeatSpec::Human && self.key.is_none()
    }

    /// A person's seat kept for a player who has not taken it yet.
    pub(super) fn is_kept(&self) -> bool {
        self.is_open() && self.player.is_some()
    }
}

/// When the seats of a room opening now stop being kept, if any is.
pub(super) fn kept_until(seats: &[Seat], lifetimes: &RoomLifetimes) -> Option<Instant> {
    (seats.iter().any(Seat::is_kept)).then(|| Instant::now() + lifetimes.abandoned_after)
}

impl Room {
    /// Opens to anybody every seat still kept, for its time is up; stores that and shows it.
    pub(super) async fn open_kept_seats(&mut self) {
        self.seats_kept_until = None;
        let mut opened = false;
        for seat in self.seats.iter_mut().filter(|seat| seat.is_kept()) {
            seat.player = None;
            opened = true;
        }
        if opened {
            tracing::info!(
                room = self.id,
                "seats kept for a rematch's players are open now"
            );
            // A refused write is logged there: the seat is open here all the same, and kept
            // again after a restart, for another while.
            let _ = self.save_seats().await;
            self.broadcast();
        }
    }
}
