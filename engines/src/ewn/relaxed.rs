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
//! pieces are; [`super::capture_bound`] does, at a higher price.

use parlor_shared::ewn::{BOARD_SIZE, DICE_LEN, Level, PIECES, Pieces, movable_pieces};

/// "Cannot be done within the move limit."
pub const UNREACHABLE: u8 = u8::MAX;

const MASKS: usize = 1 << PIECES;
/// King distances to square 0 run 0..BOARD_SIZE.
const DISTANCES: usize = BOARD_SIZE as usize;

/// `moves_needed[turn][live mask][distance]`, filled backwards from the move limit.
pub struct RelaxedBound {
    moves_needed: Vec<[[u8; DISTANCES]; MASKS]>,
}

impl RelaxedBound {
    pub fn new(level: &Level) -> RelaxedBound {
        let limit = level.rules().max_moves.min(DICE_LEN);
        let target_bit = 1usize << (level.target() - 1);
        let mut moves_needed = vec![[[UNREACHABLE; DISTANCES]; MASKS]; limit + 1];
        for table in moves_needed.iter_mut() {
            for row in table.iter_mut() {
                row[0] = 0;
            }
        }
        for turn in (0..limit).rev() {
            let die = level.dice()[turn];
            for mask in (0..MASKS).filter(|mask| mask & target_bit != 0) {
                let movers = movable_pieces(&Pieces::with_live_mask(mask), die);
                for distance in 1..DISTANCES {
                    let next = &moves_needed[turn + 1];
                    let mut best = UNREACHABLE;
                    for &mover in movers.as_slice() {
                        let mover_bit = 1usize << (mover - 1);
                        let after = if mover_bit == target_bit {
                            distance - 1
                        } else {
                            distance
                        };
                        // Without a capture, or capturing one piece other than mover and target.
                        let captures =
                            (0..PIECES as usize)
                                .map(|piece| 1usize << piece)
                                .filter(|&bit| {
                                    mask & bit != 0 && bit != mover_bit && bit != target_bit
                                });
                        for left in std::iter::once(mask).chain(captures.map(|bit| mask & !bit)) {
                            best = best.min(next[left][after]);
                        }
                    }
                    moves_needed[turn][mask][distance] = best.saturating_add(1);
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
