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

use parlor_shared::ewn::{
    DICE_LEN, Level, PIECES, PieceList, Pieces, chebyshev, chebyshev_to_corner, movable_pieces,
};

use super::relaxed::UNREACHABLE;

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
    /// `movable_turns[alive][pieces]`: bit `t` is set when the die of turn `t` lets one of
    /// `pieces` move with `alive` and `pieces` alive.
    movable_turns: Vec<[u32; MASKS]>,
}

/// What the bound knows about a position, pieces as indices 0..6 (piece 1 is index 0), turns
/// as bit sets (bit `t` for turn `t`).
struct Meetings {
    turn: usize,
    /// The turns looked at: from the position's turn to the cap or the move limit.
    window: u32,
    squares: [Option<u8>; N],
    /// `earliest[captor][victim]`: the first turn the captor can take the victim.
    earliest: [[u8; N]; N],
    /// `falls[piece]`: the last turn the piece is surely alive at (its earliest capture);
    /// `None` for a captured piece, or one not yet known to stand at all.
    falls: [Option<u8>; N],
}

/// Stretches of turns (a bit set each) over which the same pieces are surely alive, within
/// the window; the pieces drop out one fall at a time, and the target never falls.
type Stretches = ([(u32, usize); N], usize);

fn stretches(meetings: &Meetings) -> Stretches {
    let mut falls: [u8; N] = meetings.falls.map(|fall| fall.unwrap_or(0));
    falls.sort_unstable();
    let mut list = [(0, 0); N];
    let mut count = 0;
    let mut from = 0u32;
    for &fall in &falls {
        if u32::from(fall) < from {
            continue;
        }
        let alive = (0..N)
            .filter(|&piece| meetings.falls[piece].is_some_and(|f| f >= fall))
            .fold(0, |mask, piece| mask | 1 << piece);
        list[count] = (turn_range(from, u32::from(fall)) & meetings.window, alive);
        count += 1;
        from = u32::from(fall) + 1;
    }
    (list, count)
}

/// The turns `from..=to` as a bit set.
fn turn_range(from: u32, to: u32) -> u32 {
    let above_to = if to >= 31 {
        u32::MAX
    } else {
        (1 << (to + 1)) - 1
    };
    above_to & !((1u32 << from.min(31)) - 1)
}

/// The turn of the `n`-th (1-based) set bit of `turns`, if there are that many.
fn nth_turn(mut turns: u32, n: u8) -> Option<u8> {
    for _ in 1..n {
        turns &= turns.checked_sub(1)?;
    }
    (turns != 0).then(|| turns.trailing_zeros() as u8)
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
        let limit = level.rules().max_moves;
        let dice = *level.dice();
        let mut movable_turns = vec![[0u32; MASKS]; MASKS];
        for (alive, row) in movable_turns.iter_mut().enumerate() {
            for (pieces, turns) in row.iter_mut().enumerate() {
                for (turn, &die) in dice[..limit].iter().enumerate() {
                    let list = movers[alive | pieces][usize::from(die)];
                    if list.as_slice().iter().any(|&p| pieces & 1 << (p - 1) != 0) {
                        *turns |= 1 << turn;
                    }
                }
            }
        }
        CaptureBound {
            target: usize::from(level.target() - 1),
            limit,
            dice,
            movers,
            movable_turns,
        }
    }

    /// The turns of `meetings.window` that let one of `pieces` move, counting as alive at each
    /// turn only the pieces surely alive then.
    fn turns_for(&self, stretches: &Stretches, pieces: usize) -> u32 {
        let (list, count) = stretches;
        list[..*count].iter().fold(0, |turns, &(range, alive)| {
            turns | self.movable_turns[alive][pieces] & range
        })
    }

    /// Earliest capture turns given the surely-alive pieces, then the pieces surely alive
    /// given those turns. Returns whether anything changed.
    fn refine(&self, meetings: &mut Meetings) -> bool {
        let stretches = stretches(meetings);
        for a in 0..N {
            for b in a + 1..N {
                let (Some(square_a), Some(square_b)) = (meetings.squares[a], meetings.squares[b])
                else {
                    continue;
                };
                let turns = self.turns_for(&stretches, 1 << a | 1 << b);
                let meet = nth_turn(turns, chebyshev(square_a, square_b)).unwrap_or(UNREACHABLE);
                // The target is never a victim: taking it loses the puzzle.
                meetings.earliest[a][b] = if b == self.target { UNREACHABLE } else { meet };
                meetings.earliest[b][a] = if a == self.target { UNREACHABLE } else { meet };
            }
        }
        // A live piece stands until its earliest capture; a captured one never comes back.
        let falls: [Option<u8>; N] = std::array::from_fn(|victim| {
            meetings.squares[victim]?;
            meetings.earliest.iter().map(|row| row[victim]).min()
        });
        let changed = falls != meetings.falls;
        meetings.falls = falls;
        changed
    }

    /// Fewest moves from `pieces` at `turn` until the target can stand on square 0, given that
    /// it needs `distance` moves; [`UNREACHABLE`] if that is more than `cap` moves or beyond
    /// the move limit.
    pub fn moves_needed(&self, pieces: &Pieces, turn: usize, distance: u8, cap: u8) -> u8 {
        let end = self.limit.min(turn + usize::from(cap));
        if end <= turn {
            return if distance == 0 { 0 } else { UNREACHABLE };
        }
        let mut falls = [None; N];
        falls[self.target] = Some(UNREACHABLE);
        let mut meetings = Meetings {
            turn,
            window: turn_range(turn as u32, end as u32 - 1),
            squares: std::array::from_fn(|i| pieces.square_of(i as u8 + 1)),
            earliest: [[UNREACHABLE; N]; N],
            falls,
        };
        for _ in 0..REFINE_ROUNDS {
            if !self.refine(&mut meetings) {
                break;
            }
        }
        self.race(
            &meetings,
            usize::from(pieces.live_mask()),
            distance,
            end - turn,
        )
    }

    /// The forward relaxed puzzle: for each set of live pieces reachable, the least distance
    /// the target still has to go.
    fn race(&self, meetings: &Meetings, start: usize, distance: u8, len: usize) -> u8 {
        if distance == 0 {
            return 0;
        }
        let Meetings {
            turn,
            squares,
            earliest,
            ..
        } = meetings;
        // The turns each victim of the target may move on, to bound where it can stand when
        // taken: no nearer square 0 than it started, less the moves it has had by then.
        let stretches = stretches(meetings);
        let mut victim_turns = [0u32; N];
        for (victim, turns) in victim_turns.iter_mut().enumerate() {
            if earliest[self.target][victim] != UNREACHABLE {
                *turns = self.turns_for(&stretches, 1 << victim);
            }
        }
        // unlocks[offset][captor]: the victims the captor can first take at turn + offset.
        let mut unlocks = [[0usize; N]; DICE_LEN];
        for (captor, times) in earliest.iter().enumerate() {
            for (victim, &time) in times.iter().enumerate() {
                if let Some(offset) = usize::from(time).checked_sub(*turn).filter(|&o| o < len) {
                    unlocks[offset][captor] |= 1 << victim;
                }
            }
        }
        let mut left = [UNREACHABLE; MASKS];
        left[start] = distance;
        let mut reachable = 1usize << start;
        let mut victims = [0usize; N];
        for (offset, unlocked_now) in unlocks[..len].iter().enumerate() {
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
            for (captor_victims, unlocked) in victims.iter_mut().zip(unlocked_now) {
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
                            let before_now = (1u32 << now) - 1;
                            let moved = (victim_turns[victim] & before_now).count_ones() as u8;
                            after.max(from.saturating_sub(moved))
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
