//! How a dropped connection is retried: the backoff between attempts, and the outage that
//! brief connections do not end.

use std::time::Duration;

use tokio::time::Instant;

/// How a dropped connection is retried: waits of `first`, doubling up to `max`, until
/// `give_up_after` has passed since the drop (never when `None`).
#[derive(Debug, Clone, Copy)]
pub struct Backoff {
    pub first: Duration,
    pub max: Duration,
    pub give_up_after: Option<Duration>,
}

impl Default for Backoff {
    /// 0.5 s, 1 s, 2 s, 4 s, then every 5 s for as long as the window is open: a person
    /// whose server was away for an hour finds the window connected again, not frozen.
    fn default() -> Backoff {
        Backoff {
            first: Duration::from_millis(500),
            max: Duration::from_secs(5),
            give_up_after: None,
        }
    }
}

impl Backoff {
    /// The wait before attempt `attempt` (from 1).
    pub fn delay(&self, attempt: u32) -> Duration {
        let doubled = self
            .first
            .saturating_mul(1u32 << attempt.saturating_sub(1).min(20));
        doubled.min(self.max)
    }
}

/// How long a connection must stay up to end an outage: one dropped sooner (a server that
/// welcomes us and then drops us) goes on with the same outage, its attempts spaced by the
/// backoff reached and its time to give up (if any) running, else such a server would be
/// hammered every half second.
pub(super) const STEADY: Duration = Duration::from_secs(10);

/// A loss of the connection being worked on: when it began and the attempts made so far.
#[derive(Clone, Copy)]
pub(super) struct Outage {
    pub(super) began: Instant,
    pub(super) attempts: u32,
}

impl Outage {
    /// An outage beginning now, with no attempt made yet.
    pub(super) fn starting_now() -> Outage {
        Outage {
            began: Instant::now(),
            attempts: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_half_a_second_up_to_five() {
        let backoff = Backoff::default();
        let delays: Vec<u64> = (1..=7)
            .map(|attempt| backoff.delay(attempt).as_millis() as u64)
            .collect();
        assert_eq!(delays, [500, 1000, 2000, 4000, 5000, 5000, 5000]);
        assert_eq!(backoff.delay(1000), Duration::from_secs(5));
        // The window never gives up: an outage of any length ends connected again.
        assert_eq!(backoff.give_up_after, None);
    }
}
