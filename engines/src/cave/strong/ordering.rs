//! Move ordering: the moves most likely to be best are searched first, so alpha-beta cuts
//! the most. The table's move, then moves making two fours at once, then one, killers, moves
//! taking a cell the opponent needs for a five, and history; a move that opens such a cell
//! goes last. Killers and history learn from cut-offs.

use parlor_shared::cave::{Player, Square, beside_in_row, squares_of};

use super::{MAX_PLY, Strong};
use crate::cave::lines::five_completions;

/// History scores stay below every bonus of the move ordering (the smallest is 1 << 30).
const HISTORY_CAP: u32 = (1 << 30) - 1;

impl Strong {
    pub(super) fn remember_cutoff(&mut self, ply: i32, player: Player, square: Square, depth: i32) {
        let killers = &mut self.killers[ply as usize % MAX_PLY];
        if killers[0] != square.index() {
            killers[1] = killers[0];
            killers[0] = square.index();
        }
        let history = &mut self.history[player.seat() as usize][square.index() as usize];
        // Capped below the ordering's bonuses, so history alone never outranks them.
        *history = history
            .saturating_add((depth * depth) as u32)
            .min(HISTORY_CAP);
    }

    /// Candidate moves, most promising first.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn ordered(
        &self,
        candidates: u64,
        table_move: Option<u8>,
        ply: i32,
        me: Player,
        mine: u64,
        theirs: u64,
        legal: u64,
        their_fours: u64,
    ) -> Vec<(Square, bool)> {
        let killers = self.killers[ply as usize % MAX_PLY];
        let history = &self.history[me.seat() as usize];
        let mut scored: Vec<(i64, Square)> = squares_of(candidates)
            .map(|square| {
                let index = square.index();
                let mut score = i64::from(history[index as usize]);
                if Some(index) == table_move {
                    score += 1 << 40;
                }
                let opened = beside_in_row(square.bit()) & !(mine | theirs);
                let legal_after = (legal & !square.bit()) | opened;
                let threats =
                    (five_completions(mine | square.bit(), theirs) & legal_after).count_ones();
                score += match threats {
                    0 => 0,
                    1 => 1 << 34,
                    _ => 1 << 38, // two open fours at once: the opponent cannot block both
                };
                if killers.contains(&index) {
                    score += 1 << 32;
                }
                if their_fours & square.bit() != 0 {
                    score += 1 << 30; // takes a cell the opponent needs for a five
                }
                if their_fours & opened != 0 {
                    score -= 1 << 36; // opens a cell that completes the opponent's five
                }
                (score, square)
            })
            .collect();
        scored.sort_by_key(|&(score, square)| (std::cmp::Reverse(score), square));
        // A move ranked by its history alone is quiet: no table move, threat, killer or block.
        scored
            .into_iter()
            .map(|(score, square)| (square, (0..=i64::from(HISTORY_CAP)).contains(&score)))
            .collect()
    }
}
