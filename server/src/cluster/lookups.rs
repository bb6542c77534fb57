//! Looking a room up in the store, for a client that names a room the lobby does not list (a
//! room opened a moment ago, or between owners): each look is a database round trip, so a
//! client naming room after room that does not exist must not turn into as many queries. At
//! most [`AT_ONCE`] looks run at a time (more are answered "no such room" at once), and a room
//! found absent is taken for absent for [`ABSENT_FOR`] without asking again.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use parlor_shared::protocol::RoomId;
use tokio::sync::Semaphore;
use tokio::time::Instant;

/// Looks in the store at once, at most.
pub const AT_ONCE: usize = 8;
/// How long a room found absent stays so without asking the store again.
pub const ABSENT_FOR: Duration = Duration::from_secs(2);
/// Absent rooms remembered at most; past it the memory starts again.
const REMEMBERED: usize = 4096;

pub struct Lookups {
    permits: Semaphore,
    absent: Mutex<HashMap<RoomId, Instant>>,
}

impl Default for Lookups {
    fn default() -> Lookups {
        Lookups {
            permits: Semaphore::new(AT_ONCE),
            absent: Mutex::default(),
        }
    }
}

impl Lookups {
    /// Whether `room` is in progress, by `ask` (the store), unless it was found absent lately
    /// or too many looks are under way (then: not, at once).
    pub async fn in_progress<F>(&self, room: RoomId, now: Instant, ask: F) -> bool
    where
        F: Future<Output = bool>,
    {
        let absent_lately = crate::lock(&self.absent)
            .get(&room)
            .is_some_and(|&at| now.duration_since(at) < ABSENT_FOR);
        if absent_lately {
            return false;
        }
        let Ok(_permit) = self.permits.try_acquire() else {
            return false;
        };
        let found = ask.await;
        if !found {
            let mut absent = crate::lock(&self.absent);
            if absent.len() >= REMEMBERED {
                absent.clear();
            }
            absent.insert(room, now);
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[tokio::test]
    async fn an_absent_room_is_not_asked_for_again_soon_and_looks_are_capped() {
        let lookups = Lookups::default();
        let asked = AtomicUsize::new(0);
        let ask = |found: bool| {
            let asked = &asked;
            async move {
                asked.fetch_add(1, Ordering::Relaxed);
                found
            }
        };
        let now = Instant::now();
        assert!(!lookups.in_progress(7, now, ask(false)).await);
        assert!(
            !lookups
                .in_progress(7, now + ABSENT_FOR / 2, ask(true))
                .await,
            "absent lately"
        );
        assert_eq!(asked.load(Ordering::Relaxed), 1, "the store was asked once");
        assert!(
            lookups.in_progress(7, now + ABSENT_FOR, ask(true)).await,
            "asked again later"
        );
        assert!(
            lookups.in_progress(8, now, ask(true)).await,
            "a room found is not remembered"
        );

        // With every permit held, a look is answered at once, without the store.
        let held: Vec<_> = (0..AT_ONCE)
            .map(|_| lookups.permits.try_acquire().unwrap())
            .collect();
        let never = async { panic!("the store was asked") };
        assert!(!lookups.in_progress(9, now, never).await);
        drop(held);
    }
}
