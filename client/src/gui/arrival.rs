//! How far the last move has come on a board drawn from whole states (a room's snapshots, a
//! replay's steps): when exactly one more move is shown than before, it moves in over a short
//! time; anything else (the first state seen, a jump, a step back) shows it in place at once.
//! Drawing only: a click is taken whatever the animation shows, so input never waits for it.

use super::pacing;

/// How long a move takes to arrive.
pub const ARRIVAL_SECONDS: f64 = 0.2;

#[derive(Clone, Copy, Debug, Default)]
pub struct Arrival {
    /// How many moves the state shown last had.
    seen: Option<usize>,
    /// When the last move began to arrive.
    started: f64,
}

impl Arrival {
    /// How far the last of `moves` moves has come at `now`: from 0 (it has just been made) to
    /// 1 (in place), eased so that it slows as it lands. Keeps the window drawing while it is
    /// under way.
    pub fn progress(&mut self, moves: usize, now: f64) -> f32 {
        if self.seen != Some(moves) {
            self.started = match self.seen {
                Some(seen) if seen + 1 == moves => now,
                _ => f64::NEG_INFINITY,
            };
            self.seen = Some(moves);
        }
        let linear = ((now - self.started) / ARRIVAL_SECONDS).clamp(0.0, 1.0) as f32;
        if linear < 1.0 {
            pacing::animating();
        }
        1.0 - (1.0 - linear).powi(3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_more_move_arrives_and_anything_else_is_in_place() {
        let mut arrival = Arrival::default();
        assert_eq!(arrival.progress(3, 10.0), 1.0, "the first state seen");
        assert_eq!(
            arrival.progress(4, 11.0),
            0.0,
            "one more move starts to arrive"
        );
        let midway = arrival.progress(4, 11.0 + ARRIVAL_SECONDS / 2.0);
        assert!(
            midway > 0.5 && midway < 1.0,
            "eased: past half at half time ({midway})"
        );
        assert_eq!(arrival.progress(4, 11.0 + ARRIVAL_SECONDS), 1.0);
        assert_eq!(arrival.progress(3, 12.0), 1.0, "a step back is in place");
        assert_eq!(arrival.progress(9, 13.0), 1.0, "a jump is in place");
    }
}
