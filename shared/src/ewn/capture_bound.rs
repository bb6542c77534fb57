//! A second lower bound, from how soon each capture can happen at all.
//!
//! Two pieces at king distance D need D moves between them (D - 1 to meet, one to capture),
//! each on a turn whose die lets one of them move. A die never lets a piece move with more
//! pieces alive than it would with fewer, so counting the turns that let them move with only
//! the pieces *surely* alive gives the earliest turn of their capture. A piece is surely alive
//! until its own earliest capture; that in turn delays other captures, so the two are refined
//! together a few rounds.
//!
//! With those earliest turns, a relaxed puzzle is solved forward from the position: the state
//! is the set of live pieces and the target's distance still to go; each turn one movable piece
//! moves, the target one step closer (or, capturing, no closer than its victim can have come
//! to square 0); a move may capture a piece its mover can have reached by then. Every real
//! line is one of these, so the first turn the distance reaches 0 bounds the real finish.
//!
//! The table bound ([`super::relaxed`]) is cheaper and blind to distances between pieces; the
//! solver asks it first.

use super::board::{chebyshev, chebyshev_to_corner};
use super::pieces::{PIECES, Pieces};
use super::relaxed::UNREACHABLE;
use super::rules::{DICE_LEN, Level, PieceList, movable_pieces};

const MASKS: usize = 1 << PIECES;
const N: usize = PIECES as usize;
/// Rounds of refining capture turns and surely-alive pieces; later rounds rarely change much.
const REFINE_ROUNDS: usize = 3;

pub struct CaptureBound {
    target: usize,
    limit: usize,
    dice: [u8; DICE_LEN],
    /// `movers[mask][die]`: the pieces the die lets move with `mask` alive.
    movers: [[PieceList; N + 1]; MASKS],
    /// The same as bit sets (bit `i` for piece index `i`).
    mover_bits: [[u8; N + 1]; MASKS],
}

/// What the bound knows about a position for the turns `turn..turn + len`, pieces as indices
/// 0..6 (piece 1 is index 0).
struct Meetings {
    turn: usize,
    len: usize,
    squares: [Option<u8>; N],
    /// `earliest[captor][victim]`: the first turn the captor can take the victim.
    earliest: [[u8; N]; N],
    /// `surely_alive[offset]`: the pieces certainly alive at turn `turn + offset`.
    surely_alive: [usize; DICE_LEN],
}

/// The indices of the set bits of `bits`, lowest first.
fn set_bits(mut bits: usize) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let index = bits.trailing_zeros() as usize;
        bits &= bits.checked_sub(1)?;
        Some(index)
    })
}

impl CaptureBound {
    pub fn new(level: &Level) -> CaptureBound {
        let mut movers = [[PieceList::EMPTY; N + 1]; MASKS];
        for (mask, row) in movers.iter_mut().enumerate() {
            for die in 1..=PIECES {
                row[usize::from(die)] = movable_pieces(&Pieces::with_live_mask(mask), die);
            }
        }
        let mover_bits = movers.map(|row| {
            row.map(|list| {
                list.as_slice()
                    .iter()
                    .fold(0, |bits, &piece| bits | 1 << (piece - 1))
            })
        });
        CaptureBound {
            target: usize::from(level.target() - 1),
            limit: level.rules().max_moves,
            dice: *level.dice(),
            movers,
            mover_bits,
        }
    }

    /// Whether the die of turn `now` lets any of `pieces` move with `alive` (and them) alive.
    fn can_move(&self, alive: usize, now: usize, pieces: usize) -> bool {
        usize::from(self.mover_bits[alive | pieces][usize::from(self.dice[now])]) & pieces != 0
    }

    /// Earliest capture turns given `meetings.surely_alive`, then the pieces surely alive given
    /// those turns. Returns whether anything changed.
    fn refine(&self, meetings: &mut Meetings) -> bool {
        let Meetings {
            turn,
            len,
            squares,
            earliest,
            surely_alive,
        } = meetings;
        for a in 0..N {
            for b in a + 1..N {
                let (Some(square_a), Some(square_b)) = (squares[a], squares[b]) else {
                    continue;
                };
                let pair = 1 << a | 1 << b;
                let mut moves_left = chebyshev(square_a, square_b);
                let mut meet = UNREACHABLE;
                for (offset, &alive) in surely_alive[..*len].iter().enumerate() {
                    let now = *turn + offset;
                    if self.can_move(alive, now, pair) {
                        moves_left -= 1;
                        if moves_left == 0 {
                            meet = now as u8;
                            break;
                        }
                    }
                }
                // The target is never a victim: taking it loses the puzzle.
                earliest[a][b] = if b == self.target { UNREACHABLE } else { meet };
                earliest[b][a] = if a == self.target { UNREACHABLE } else { meet };
            }
        }
        // A live piece stands until its earliest capture; a captured one never comes back.
        let falls: [Option<u8>; N] = std::array::from_fn(|victim| {
            squares[victim]?;
            earliest.iter().map(|row| row[victim]).min()
        });
        let mut changed = false;
        for (offset, alive) in surely_alive[..*len].iter_mut().enumerate() {
            let now = (*turn + offset) as u8;
            let surely = (0..N)
                .filter(|&piece| falls[piece].is_some_and(|fall| fall >= now))
                .fold(0, |mask, piece| mask | 1 << piece);
            changed |= surely != *alive;
            *alive = surely;
        }
        changed
    }

    /// Fewest moves from `pieces` at `turn` until the target can stand on square 0, given that
    /// it needs `distance` moves; [`UNREACHABLE`] if that is more than `cap` moves or beyond
    /// the move limit.
    pub fn moves_needed(&self, pieces: &Pieces, turn: usize, distance: u8, cap: u8) -> u8 {
        let len = self.limit.min(turn + usize::from(cap)) - turn;
        let mut meetings = Meetings {
            turn,
            len,
            squares: std::array::from_fn(|i| pieces.square_of(i as u8 + 1)),
            earliest: [[UNREACHABLE; N]; N],
            surely_alive: [1 << self.target; DICE_LEN],
        };
        for _ in 0..REFINE_ROUNDS {
            if !self.refine(&mut meetings) {
                break;
            }
        }
        self.race(&meetings, usize::from(pieces.live_mask()), distance)
    }

    /// The forward relaxed puzzle: for each set of live pieces reachable, the least distance
    /// the target still has to go.
    fn race(&self, meetings: &Meetings, start: usize, distance: u8) -> u8 {
        if distance == 0 {
            return 0;
        }
        let Meetings {
            turn,
            len,
            squares,
            earliest,
            surely_alive,
        } = meetings;
        // Moves each victim of the target may have made by each turn, to bound where it can
        // stand when taken: no nearer square 0 than it started, less those moves.
        let mut moved = [[0u8; DICE_LEN + 1]; N];
        for (victim, counts) in moved.iter_mut().enumerate() {
            if earliest[self.target][victim] == UNREACHABLE {
                continue;
            }
            for (offset, &alive) in surely_alive[..*len].iter().enumerate() {
                let step = u8::from(self.can_move(alive, turn + offset, 1 << victim));
                counts[offset + 1] = counts[offset] + step;
            }
        }
        // unlocks[offset][captor]: the victims the captor can first take at turn + offset.
        let mut unlocks = [[0usize; N]; DICE_LEN];
        for (captor, times) in earliest.iter().enumerate() {
            for (victim, &time) in times.iter().enumerate() {
                if let Some(offset) = usize::from(time).checked_sub(*turn).filter(|&o| o < *len) {
                    unlocks[offset][captor] |= 1 << victim;
                }
            }
        }
        let mut left = [UNREACHABLE; MASKS];
        left[start] = distance;
        let mut reachable = 1usize << start;
        let mut victims = [0usize; N];
        for offset in 0..*len {
            let now = turn + offset;
            // The target moves at most once a turn: with fewer turns left than the least
            // distance to go, nothing reachable can finish.
            let least = set_bits(reachable)
                .map(|mask| left[mask])
                .min()
                .unwrap_or(UNREACHABLE);
            if usize::from(least) > len - offset {
                return UNREACHABLE;
            }
            for (captor_victims, unlocked) in victims.iter_mut().zip(&unlocks[offset]) {
                *captor_victims |= unlocked;
            }
            let mut next_left = [UNREACHABLE; MASKS];
            let mut next_reachable = 0;
            let mut reach = |mask: usize, distance: u8| {
                next_left[mask] = next_left[mask].min(distance);
                next_reachable |= 1 << mask;
            };
            for mask in set_bits(reachable) {
                for &mover in self.movers[mask][usize::from(self.dice[now])].as_slice() {
                    let mover = usize::from(mover - 1);
                    let is_target = mover == self.target;
                    let after = left[mask] - u8::from(is_target);
                    if after == 0 {
                        return (offset + 1) as u8;
                    }
                    reach(mask, after);
                    for victim in set_bits(victims[mover] & mask) {
                        let landing = if is_target {
                            let from = squares[victim].map_or(0, chebyshev_to_corner);
                            after.max(from.saturating_sub(moved[victim][offset]))
                        } else {
                            after
                        };
                        reach(mask & !(1 << victim), landing);
                    }
                }
            }
            left = next_left;
            reachable = next_reachable;
        }
        UNREACHABLE
    }
}
