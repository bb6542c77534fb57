//! What the strong engine takes from the proof-number solver: the book of proven positions
//! (`levels/cave/proven.txt`), and in endgames df-pn itself, which sees forced wins far deeper
//! than the alpha-beta horizon: before the search it looks for a forced win, after it checks
//! that the chosen move does not walk into one.
//!
//! Each search starts from a cleared table. Tables kept from move to move (one per attacking
//! colour, the earlier searches' entries read but given up first) proved 620 wins where fresh
//! ones proved 611, over 4966 endgame positions of 151 arena games at 35 ms a position, and
//! changed no arena score measurably: not worth the state.

use std::time::{Duration, Instant};

use parlor_shared::cave::{Position, Square};

use crate::cave::dfpn::{Dfpn, Value, book};

/// Bricks on the board from which df-pn runs beside the search (at most 36 empty cells):
/// earlier, its proofs rarely finish in a move's time. The arena's lost games were lost by a
/// move at 28 to 41 bricks that df-pn proves losing in 200k to 300k nodes.
pub const LATE_BRICKS: u32 = 28;
/// From here on the search gets only a quarter of the time.
pub const ENDGAME_BRICKS: u32 = 34;

/// How a move's time is shared, as fractions of the budget at which each stage ends: the
/// search, df-pn's forced-win search, and (until 0.9) the check of the chosen move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    pub search: f32,
    pub forced_win: f32,
}

impl Schedule {
    pub const SEARCH_ONLY: Schedule = Schedule {
        search: 0.9,
        forced_win: 0.9,
    };

    pub fn of(bricks: u32) -> Schedule {
        match bricks {
            ..LATE_BRICKS => Schedule::SEARCH_ONLY,
            LATE_BRICKS..ENDGAME_BRICKS => Schedule {
                search: 0.5,
                forced_win: 0.6,
            },
            _ => Schedule {
                search: 0.25,
                forced_win: 0.6,
            },
        }
    }
}
/// Below this a df-pn check is not started.
const MIN_PROOF_TIME: Duration = Duration::from_millis(2);
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
    /// the time is up (the first candidate gets 80% of the time, each later one an equal share
    /// of what is left). A candidate there is no time left to check is taken unchecked after
    /// the first; `None` when every candidate is proven lost or there was no time at all.
    pub fn first_safe(
        &mut self,
        position: &Position,
        candidates: &[Square],
        deadline: Instant,
    ) -> Option<Square> {
        for (i, &square) in candidates.iter().enumerate() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left < MIN_PROOF_TIME {
                // No time to check it: a move not proven lost beats the one that was.
                return (i > 0).then_some(square);
            }
            let share = if i == 0 {
                left.mul_f64(0.8)
            } else {
                left.div_f64((candidates.len() - i) as f64)
            }
            .max(Duration::from_millis(1));
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
    use crate::cave::prover::test_position;

    /// An arena game the strong engine lost at 0.1 s a move, at ply 38 with Black to move:
    /// df-pn proves every move loses; after b8, White's c2 wins by force 21 plies before the
    /// five.
    const LOST: &str = "h5 g5 a5 f5 a4 e5 a6 d5 c5 a3 a7 a8 b6 c6 b7 d6 h4 e6 b4 f6 g6 b5 \
                        h3 h6 g3 f3 e3 d3 h1 h2 g2 c3 f2 b3 a2 e2 b2 d2";

    #[test]
    fn finds_the_deep_forced_win_and_sees_that_every_move_loses() {
        let mut proofs = Proofs::default();
        let before = test_position(LOST);
        let b8: Square = "b8".parse().unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        let after = before.play(b8).unwrap();
        assert_eq!(proofs.forced_win(&after, deadline), "c2".parse().ok());
        let candidates: Vec<Square> = before.legal_squares().collect();
        assert_eq!(proofs.first_safe(&before, &candidates, deadline), None);
    }

    #[test]
    fn a_move_that_leaves_a_five_open_is_refused_for_one_that_blocks_it() {
        let mut proofs = Proofs::default();
        // White must block e1; after the block df-pn proves nothing in this time.
        let before = test_position("a1 h8 b1 h7 c1 h6 d1");
        let (a8, e1) = ("a8".parse().unwrap(), "e1".parse().unwrap());
        let deadline = Instant::now() + Duration::from_millis(300);
        assert_eq!(proofs.first_safe(&before, &[a8, e1], deadline), Some(e1));
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
