//! The swindle: in a position proven a tie, play the tying move that gives a fallible
//! opponent the most ways to lose.

use parlor_shared::cave::{Position, Square};

use super::zobrist::Hashes;
use super::{Score, Strong, WIN};

/// In a proven tie, only replies that lose this many plies or more after they are played count
/// as traps for the opponent.
const DEEP_TRAP_PLIES: Score = 5;

impl Strong {
    /// In a position proven a tie, the tying move that leaves the opponent the largest share
    /// of replies that lose. A perfect opponent ties whatever is played; a fallible one is
    /// likeliest to go wrong where most of its moves lose. `depth` is the proving search's
    /// depth; when the time runs out the best move so far stands (`tying` if none was done).
    pub(super) fn swindle(
        &mut self,
        position: &Position,
        hashes: Hashes,
        depth: i32,
        tying: Square,
    ) -> Square {
        let me = position.to_move();
        // A reply that loses within a few plies is seen at a glance and catches nobody.
        let deep_enough = WIN - 2 - DEEP_TRAP_PLIES;
        // (losing replies, all replies, move)
        let mut best = (0u32, 1u32, tying);
        for square in position.legal_squares() {
            let child = position.play_unchecked(square);
            if child.outcome().is_some() {
                continue;
            }
            let child_hashes = hashes.with(me, square);
            let Some(value) = self.pvs(&child, child_hashes, depth, 1, -1, 1) else {
                break;
            };
            if value > 0 {
                continue; // the opponent wins after this one
            }
            let (mut losing, mut replies) = (0, 0);
            for reply in child.legal_squares() {
                let after = child.play_unchecked(reply);
                replies += 1;
                if after.outcome().is_some() {
                    continue;
                }
                let after_hashes = child_hashes.with(me.other(), reply);
                match self.pvs(&after, after_hashes, depth, 2, 0, deep_enough + 1) {
                    Some(score) if score > 0 && score <= deep_enough => losing += 1,
                    Some(_) => {}
                    None => return best.2,
                }
            }
            if u64::from(losing) * u64::from(best.1) > u64::from(best.0) * u64::from(replies) {
                best = (losing, replies, square);
            }
        }
        best.2
    }
}
