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
