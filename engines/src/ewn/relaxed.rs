//! A lower bound on the moves still needed, from a relaxed puzzle that forgets where the
//! non-target pieces stand.
//!
//! The relaxed puzzle keeps only the turn, the set of live pieces and the target's king
//! distance to square 0. Each turn one movable piece moves (the same pieces as in the real
//! puzzle, since the live set is the same); a target move brings the target one step closer;
//! any move may capture any one piece other than the mover and the target. Every real winning
//! line is also a relaxed one (a real move brings the target at most one step closer and
//! captures at most one piece), so the relaxed optimum never exceeds the real one. It knows
//! which turns the dice give the target and how captures add turns, but not how far apart the
//! pieces are; [`super::regions`] does, at a higher price.

use std::sync::LazyLock;

use parlor_shared::ewn::{BOARD_SIZE, DICE_LEN, Level, PIECES, PieceList, Pieces, movable_pieces};

/// "Cannot be done within the move limit."
pub const UNREACHABLE: u8 = u8::MAX;

const MASKS: usize = 1 << PIECES;
/// King distances to square 0 run 0..BOARD_SIZE; a row holds 16, so that taking the least of
/// two rows is one vector instruction.
const DISTANCES: usize = BOARD_SIZE as usize;
const ROW: usize = 16;

/// `MOVERS[live mask][die]`: the pieces the die lets move with those pieces alive (bit
/// `p - 1` for piece `p`), for the searches that know only which pieces live.
pub static MOVERS: LazyLock<[[PieceList; PIECES as usize + 1]; MASKS]> = LazyLock::new(|| {
    std::array::from_fn(|mask| {
        std::array::from_fn(|die| match die {
            0 => PieceList::EMPTY,
            die => movable_pieces(&Pieces::with_live_mask(mask), die as u8),
        })
    })
});

/// The smaller of two rows, distance by distance.
#[inline]
fn least(a: &[u8; ROW], b: &[u8; ROW]) -> [u8; ROW] {
    std::array::from_fn(|distance| a[distance].min(b[distance]))
}

/// `moves_needed[turn][live mask][distance]`, filled backwards from the move limit.
pub struct RelaxedBound {
    moves_needed: Vec<[[u8; ROW]; MASKS]>,
}

impl RelaxedBound {
    pub fn new(level: &Level) -> RelaxedBound {
        let limit = level.rules().max_moves.min(DICE_LEN);
        let target_bit = 1usize << (level.target() - 1);
        let mut moves_needed = vec![[[UNREACHABLE; ROW]; MASKS]; limit + 1];
        for table in moves_needed.iter_mut() {
            for row in table.iter_mut() {
                row[0] = 0;
            }
        }
        for turn in (0..limit).rev() {
            let die = usize::from(level.dice()[turn]);
            let next = moves_needed[turn + 1];
            for mask in (0..MASKS).filter(|mask| mask & target_bit != 0) {
                let mut best = [UNREACHABLE; ROW];
                for &mover in MOVERS[mask][die].as_slice() {
                    let mover_bit = 1usize << (mover - 1);
                    // Without a capture, or capturing one piece other than mover and target;
                    // whole rows at once, by distance.
                    let mut after = next[mask];
                    for bit in (0..PIECES).map(|piece| 1usize << piece) {
                        if mask & bit != 0 && bit != mover_bit && bit != target_bit {
                            after = least(&after, &next[mask & !bit]);
                        }
                    }
                    // A target move brings it one step closer: from `distance` it needs what
                    // `distance - 1` needs after the move, the row moved one place up.
                    if mover_bit == target_bit {
                        after = (u128::from_le_bytes(after) << 8).to_le_bytes();
                    }
                    best = least(&best, &after);
                }
                let row = &mut moves_needed[turn][mask];
                for distance in 1..DISTANCES {
                    row[distance] = best[distance].saturating_add(1);
                }
            }
        }
        RelaxedBound { moves_needed }
    }

    /// Fewest moves the relaxed puzzle needs from `turn` with `live_mask` alive and the target
    /// `distance` king steps from square 0; [`UNREACHABLE`] if not within the move limit.
    pub fn moves_needed(&self, turn: usize, live_mask: u8, distance: u8) -> u8 {
        self.moves_needed.get(turn).map_or(UNREACHABLE, |table| {
            table[usize::from(live_mask)][usize::from(distance)]
        })
    }
}
