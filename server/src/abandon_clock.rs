//! When an unfinished room nobody follows closes: [`Limits::abandoned_room_after`] after it lost
//! its last follower (no seat holder connected, no spectator; a new room has none yet),
//! whatever happens in it meanwhile. Its AIs' moves and an auto match's rounds do not keep it
//! open: else rooms of AIs whose creators left would play on for hours, holding the server's
//! caps on rooms.
//!
//! When the clock started is kept in the store (`rooms.unfollowed_since`), written only when
//! the room loses its last follower or gains its first, so a restart goes on from it instead of
//! starting it again (a flood of rooms would otherwise be restored whole by every restart). A
//! room followed when the server stopped has lost its followers with it: its clock starts when
//! the server starts, and that is stored too.
//!
//! [`Limits::abandoned_room_after`]: crate::Limits::abandoned_room_after

use std::time::Duration;

use parlor_shared::protocol::RoomId;
use tokio::time::Instant;
use tracing::warn;

use crate::store::{Store, unix_now};

pub struct AbandonClock {
    room: RoomId,
    store: Store,
    /// How long the room may go unfollowed.
    after: Duration,
    /// When the room closes if nobody follows it by then; `None` while somebody does.
    closes_at: Option<Instant>,
    /// The game is over and stored ([`AbandonClock::stop`]): its row is gone, and the clock
    /// neither runs nor writes again.
    stopped: bool,
}

impl AbandonClock {
    /// The clock of room `room` as its task starts, when nobody follows it yet: unfollowed
    /// since `since` (unix seconds, as stored), or, with `None` (the room was followed when
    /// the server stopped), from now on, which is stored.
    pub fn start(room: RoomId, store: Store, after: Duration, since: Option<u64>) -> AbandonClock {
        let now = unix_now();
        let clock = AbandonClock {
            room,
            store,
            after,
            closes_at: None,
            stopped: false,
        };
        let since = since.unwrap_or_else(|| {
            clock.store_since(Some(now));
            now
        });
        // A time ahead of the clock (set back since) counts as now.
        let unfollowed_for = Duration::from_secs(now.saturating_sub(since));
        AbandonClock {
            closes_at: Some(Instant::now() + after.saturating_sub(unfollowed_for)),
            ..clock
        }
    }

    /// Notes whether anybody follows the room now. Losing the last follower starts the clock,
    /// gaining the first stops it; each change is stored, and nothing else is.
    pub fn note(&mut self, followed: bool) {
        if self.stopped {
            return;
        }
        match (followed, self.closes_at) {
            (true, Some(_)) => {
                self.closes_at = None;
                self.store_since(None);
            }
            (false, None) => {
                self.closes_at = Some(Instant::now() + self.after);
                self.store_since(Some(unix_now()));
            }
            _ => {}
        }
    }

    /// The room's game is over and stored, its row gone from the store: no more clock, and no
    /// more writes (a write to the gone row was refused, in a cluster as if another node had
    /// taken the room). A finished room closes by its own rule (`linger`).
    pub fn stop(&mut self) {
        self.stopped = true;
        self.closes_at = None;
    }

    /// When the room closes if still unfollowed; `None` while somebody follows it.
    pub fn closing_time(&self) -> Option<Instant> {
        self.closes_at
    }

    /// Stores `since` without holding up the room: a write the store refused is only logged,
    /// as it costs no more than a clock that a restart may start again.
    fn store_since(&self, since: Option<u64>) {
        let (room, written) = (self.room, self.store.set_unfollowed_since(self.room, since));
        tokio::spawn(async move {
            if let Err(error) = written.done().await {
                warn!(
                    room,
                    error = format!("{error:#}"),
                    "could not store since when nobody follows the room"
                );
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::StoredRoom;

    const AFTER: Duration = Duration::from_secs(600);

    /// A store holding room 1, unfollowed since `since`.
    async fn store_with_room(since: Option<u64>) -> Store {
        let store = Store::in_memory().unwrap();
        let row = crate::room::tests::cave_row(1, since);
        store.insert_room(&row).done().await.unwrap();
        store
    }

    fn stored_since(store: &Store) -> Option<u64> {
        match &store.load_rooms().unwrap().rooms[..] {
            [StoredRoom::Game(row)] => row.unfollowed_since,
            other => panic!("{other:?}"),
        }
    }

    /// How long from now `clock` closes its room, to the second.
    fn closes_in(clock: &AbandonClock) -> Option<u64> {
        let left = |at: Instant| at.saturating_duration_since(Instant::now());
        (clock.closing_time().map(left)).map(|left| left.as_secs_f64().round() as u64)
    }

    #[tokio::test]
    async fn a_restored_clock_goes_on_from_its_stored_start() {
        let store = store_with_room(None).await;
        let now = unix_now();
        let clock = |since| AbandonClock::start(1, store.clone(), AFTER, Some(since));
        assert_eq!(closes_in(&clock(now)), Some(600));
        assert_eq!(closes_in(&clock(now - 590)), Some(10));
        assert_eq!(closes_in(&clock(now - 7_200)), Some(0), "overdue: at once");
        assert_eq!(closes_in(&clock(now + 60)), Some(600), "ahead of the clock");
        assert_eq!(
            stored_since(&store),
            None,
            "a stored start is not written again"
        );
    }

    #[tokio::test]
    async fn a_room_followed_when_the_server_stopped_starts_its_clock_now_and_stores_it() {
        let store = store_with_room(None).await;
        let clock = AbandonClock::start(1, store.clone(), AFTER, None);
        assert_eq!(closes_in(&clock), Some(600));
        crate::eventually("the start was not stored", || {
            stored_since(&store).is_some_and(|since| since.abs_diff(unix_now()) <= 1)
        })
        .await;
    }

    #[tokio::test]
    async fn losing_the_last_follower_starts_the_clock_and_a_follower_stops_it_both_stored() {
        let long_ago = unix_now() - 7_200;
        let store = store_with_room(Some(long_ago)).await;
        let mut clock = AbandonClock::start(1, store.clone(), AFTER, Some(long_ago));
        clock.note(true);
        assert_eq!(clock.closing_time(), None);
        crate::eventually("the follower was not stored", || {
            stored_since(&store).is_none()
        })
        .await;
        clock.note(true);
        clock.note(false);
        assert_eq!(closes_in(&clock), Some(600), "a full time from the leaving");
        crate::eventually("the leaving was not stored", || {
            stored_since(&store).is_some_and(|since| since.abs_diff(unix_now()) <= 1)
        })
        .await;
        let started = clock.closing_time();
        clock.note(false);
        assert_eq!(
            clock.closing_time(),
            started,
            "still unfollowed: the clock runs on"
        );
    }

    #[tokio::test]
    async fn a_stopped_clock_neither_runs_nor_writes() {
        let long_ago = unix_now() - 7_200;
        let store = store_with_room(Some(long_ago)).await;
        let mut clock = AbandonClock::start(1, store.clone(), AFTER, Some(long_ago));
        clock.stop();
        assert_eq!(clock.closing_time(), None);
        // A follower, then none: each would be written to a running clock's room.
        clock.note(true);
        clock.note(false);
        assert_eq!(
            clock.closing_time(),
            None,
            "a finished room closes by its own rule"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(stored_since(&store), Some(long_ago), "nothing written");
    }
}
