//! A second lower bound, from how soon each piece can be captured at all.
//!
//! For a capture between pieces a and b at king distance D, a and b must make D moves between
//! them (D - 1 to meet, one to capture), one per turn, each on a turn that lets one of them move.
//! While both and the target live, a turn lets a move only if it would with just {a, b, target}
//! alive (fewer live pieces never take a piece's turn away). So the D-th such turn is the
//! earliest turn piece x can be captured, over all its possible captors. Letting every piece
//! fall at exactly its earliest turn gives fewer live pieces at every turn than any real line,
//! so the target moves on at least the turns it really does: the turn at which it has had
//! enough moves bounds the real finish from below.
//!
//! The relaxed puzzle ([`super::relaxed`]) is blind to distance but counts one capture per
//! move; this bound is the other way round, so the solver takes the larger of the two.

use super::board::{BOARD_SIZE, chebyshev};
use super::pieces::{PIECES, Pieces};
use super::relaxed::UNREACHABLE;
use super::rules::{Level, movable_pieces};

/// Distances between pieces run 1..BOARD_SIZE.
const DISTANCES: usize = BOARD_SIZE as usize;
const MASKS: usize = 1 << PIECES;
const N: usize = PIECES as usize;

pub struct CaptureBound {
    target: u8,
    limit: usize,
    dice: Vec<u8>,
    /// `pair_turns[a][b][turn][d]`: the turn of the d-th move, from `turn` on, that the dice
    /// allow to piece a or b (with only a, b and the target alive); [`UNREACHABLE`] if none.
    pair_turns: Vec<[[u8; DISTANCES]; N * N]>,
    /// `target_moves[mask][die]`: whether the die lets the target move with `mask` alive.
    target_moves: [[bool; N + 1]; MASKS],
}

fn pair_index(a: u8, b: u8) -> usize {
    usize::from(a - 1) * N + usize::from(b - 1)
}

impl CaptureBound {
    pub fn new(level: &Level) -> CaptureBound {
        let target = level.target();
        let limit = level.rules().max_moves;
        let dice = level.dice()[..limit].to_vec();
        let target_bit = 1usize << (target - 1);
        let mut target_moves = [[false; N + 1]; MASKS];
        for (mask, row) in target_moves.iter_mut().enumerate() {
            for die in 1..=PIECES {
                row[usize::from(die)] =
                    movable_pieces(&Pieces::with_live_mask(mask), die).contains(target);
            }
        }
        let mut pair_turns = vec![[[UNREACHABLE; DISTANCES]; N * N]; limit + 1];
        for a in 1..=PIECES {
            for b in (1..=PIECES).filter(|&b| b != a) {
                let alive = Pieces::with_live_mask(target_bit | 1 << (a - 1) | 1 << (b - 1));
                // Backwards: the moves from `turn` on are this turn's (if allowed) then the rest.
                for turn in (0..limit).rev() {
                    let movers = movable_pieces(&alive, dice[turn]);
                    let allowed = movers.contains(a) || movers.contains(b);
                    let later = pair_turns[turn + 1][pair_index(a, b)];
                    let here = &mut pair_turns[turn][pair_index(a, b)];
                    for d in 1..DISTANCES {
                        here[d] = if allowed {
                            if d == 1 { turn as u8 } else { later[d - 1] }
                        } else {
                            later[d]
                        };
                    }
                }
            }
        }
        CaptureBound {
            target,
            limit,
            dice,
            pair_turns,
            target_moves,
        }
    }

    /// Fewest moves from `pieces` at `turn` until the target can stand on square 0, given that
    /// it needs `distance` moves; [`UNREACHABLE`] if that is more than `cap` moves or beyond
    /// the move limit.
    pub fn moves_needed(&self, pieces: &Pieces, turn: usize, distance: u8, cap: u8) -> u8 {
        if distance == 0 {
            return 0;
        }
        let mut live = [(0, 0); N];
        let mut count = 0;
        for piece in 1..=PIECES {
            if let Some(square) = pieces.square_of(piece) {
                live[count] = (piece, square);
                count += 1;
            }
        }
        let live = &live[..count];
        let pair_turns = &self.pair_turns[turn];
        let mut falls = [UNREACHABLE; N];
        for &(victim, at) in live.iter().filter(|&&(piece, _)| piece != self.target) {
            falls[usize::from(victim - 1)] = live
                .iter()
                .filter(|&&(captor, _)| captor != victim)
                .map(|&(captor, square)| {
                    pair_turns[pair_index(captor, victim)][usize::from(chebyshev(square, at))]
                })
                .min()
                .unwrap_or(UNREACHABLE);
        }
        let mut mask = usize::from(pieces.live_mask());
        let mut left = distance;
        let end = self.limit.min(turn + usize::from(cap));
        for now in turn..end {
            if self.target_moves[mask][usize::from(self.dice[now])] {
                left -= 1;
                if left == 0 {
                    return (now + 1 - turn) as u8;
                }
            }
            // Pieces captured this turn are gone from the next turn on.
            for (i, &fall) in falls.iter().enumerate() {
                if usize::from(fall) == now {
                    mask &= !(1 << i);
                }
            }
        }
        UNREACHABLE
    }
}
