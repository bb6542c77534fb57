//! What the strong engine takes from the proof-number solver: the book of proven positions
//! (`levels/cave/proven.txt`), and in endgames df-pn itself, which sees forced wins far deeper
//! than the alpha-beta horizon: before the search it looks for a forced win, after it checks
//! that the chosen move does not walk into one.

use std::time::{Duration, Instant};

use parlor_shared::cave::{Position, Square};

use crate::ai::cave_dfpn::{Dfpn, Value, book};

/// Bricks on the board from which df-pn runs beside the search (at most 30 empty cells):
/// earlier, its proofs rarely finish in a move's time.
pub const ENDGAME_BRICKS: u32 = 34;
/// 2^18 entries: 8 MB.
const TABLE_BITS: u32 = 18;

pub struct Proofs {
    solver: Dfpn,
}

impl Default for Proofs {
    fn default() -> Self {
        Proofs {
            solver: Dfpn::new(TABLE_BITS),
        }
    }
}

impl Proofs {
    /// The book's winning move for `position` (or a mirror image of it), if it has one.
    pub fn book_move(position: &Position) -> Option<Square> {
        match book::proven().lookup(position)? {
            (Value::Win, best) => best,
            _ => None,
        }
    }

    /// A forced win df-pn proves before `deadline`.
    pub fn forced_win(&mut self, position: &Position, deadline: Instant) -> Option<Square> {
        self.solver.deadline = Some(deadline);
        self.solver.winning_move(position, u64::MAX)
    }

    /// The first of `candidates` after which df-pn cannot prove a win for the opponent before
    /// the time is up (the first candidate gets half the time, each later one an equal share
    /// of what is left). `None` when the time is up first or every candidate is proven lost.
    pub fn first_safe(
        &mut self,
        position: &Position,
        candidates: &[Square],
        deadline: Instant,
    ) -> Option<Square> {
        for (i, &square) in candidates.iter().enumerate() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            let shares = if i == 0 { 2 } else { candidates.len() - i };
            let share = left.div_f64(shares as f64).max(Duration::from_millis(1));
            self.solver.deadline = Some(Instant::now() + share);
            let after = position.play_unchecked(square);
            if after.outcome().is_some() || self.solver.winning_move(&after, u64::MAX).is_none() {
                return Some(square);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::cave_prover::test_position;

    /// An arena game the strong engine lost at 0.1 s a move: after Black's b8 (ply 39), df-pn
    /// proves White's c2 wins by force, 21 plies before the five.
    const LOST: &str = "h5 g5 a5 f5 a4 e5 a6 d5 c5 a3 a7 a8 b6 c6 b7 d6 h4 e6 b4 f6 g6 b5 \
                        h3 h6 g3 f3 e3 d3 h1 h2 g2 c3 f2 b3 a2 e2 b2 d2";

    #[test]
    fn finds_the_deep_forced_win_and_refuses_the_move_that_allowed_it() {
        let mut proofs = Proofs::default();
        let before = test_position(LOST);
        let b8: Square = "b8".parse().unwrap();
        let after = before.play(b8).unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        assert_eq!(proofs.forced_win(&after, deadline), "c2".parse().ok());
        let mut candidates = vec![b8];
        candidates.extend(before.legal_squares().filter(|&s| s != b8));
        let safe = proofs.first_safe(&before, &candidates, deadline);
        assert!(safe.is_some_and(|s| s != b8), "{safe:?}");
    }

    #[test]
    fn with_no_time_left_nothing_is_called_safe() {
        let mut proofs = Proofs::default();
        let before = test_position(LOST);
        let candidates: Vec<Square> = before.legal_squares().collect();
        assert_eq!(
            proofs.first_safe(&before, &candidates, Instant::now()),
            None
        );
    }
}
