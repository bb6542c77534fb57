//! IDA*: depth-first searches bounded by f = g + h, the bound raised each round to the least f
//! that exceeded it, so the first solution found is a shortest one and each bound is a proved
//! lower bound. Memory is the path plus a fixed-size transposition table.
//!
//! The table remembers, per position, the smallest g at which this round reached it; reaching
//! it again no earlier is pruned, since the first visit searched everything this one could.
//! This cuts the many transpositions of boards with several blanks (where independent moves
//! commute). A round in which nothing exceeded the bound searched every reachable position.
//! The table is far smaller than a round, so what it keeps matters: a position near the start
//! stands for a large subtree and one near the bound for a small one, so each bucket of two
//! keeps the shallowest position that fell in it this round beside the latest other one. On
//! the 5x6 sample that took the round to bound 86 in 56 M positions and 67 s, where a table
//! of as many slots that always replaced had not finished it after 73 M and 90 s.
//!
//! Weighted IDA* ([`weighted_idastar`]) bounds f = g + w·h instead, in tenths of a step: its
//! first solution is at most w times the shortest, and its bounds prove nothing. It needs no
//! memory, so the anytime search goes on with it where weighted A* fills its positions' cap;
//! it may be told to look only for solutions shorter than one it has.

use super::{CLOCK_EVERY, Flow, Limits, Outcome, PieceMove, SearchStats, Space, Weight, deepen};
use crate::klotski::heuristic::{Estimate, Heuristic};
use crate::klotski::key::{Packed, hash_of};
use parlor_shared::klotski::cells_of;
use parlor_shared::klotski::{Dir, MAX_CELLS, Shape, Step};

/// Slots of the transposition table at most (16 bytes each for one-word positions) on boards
/// with one blank. Small on purpose: on random 15-puzzles a table of 2^22 slots saved 1% of
/// the positions and cost 50% more time in cache misses than this one.
const TABLE_SLOTS_MAX: usize = 1 << 19;
/// The same on boards with several blanks, whose independent moves commute into many
/// transpositions: on the 5x6 sample (three blanks) 2^23 slots reached a bound in 90 s that
/// 2^19 needed 30 minutes and forty times the positions for.
const TABLE_SLOTS_MAX_BLANKS: usize = 1 << 23;

#[derive(Clone, Copy)]
struct Slot<const W: usize> {
    key: Packed<W>,
    g: u16,
    round: u16,
}

struct Table<const W: usize> {
    /// Buckets of two: the first keeps the shallowest position that fell in the bucket this
    /// round, the second the latest other one.
    slots: Vec<[Slot<W>; 2]>,
    mask: u64,
}

impl<const W: usize> Table<W> {
    fn new(max_positions: usize, blanks: usize) -> Table<W> {
        let most = if blanks > 1 {
            TABLE_SLOTS_MAX_BLANKS
        } else {
            TABLE_SLOTS_MAX
        };
        let len = max_positions.clamp(1 << 10, most).next_power_of_two() / 2;
        let empty = Slot {
            key: Packed([0; W]),
            g: 0,
            round: 0,
        };
        Table {
            slots: vec![[empty; 2]; len],
            mask: len as u64 - 1,
        }
    }

    fn len(&self) -> usize {
        self.slots.len() * 2
    }

    /// The round after `round` (1 and up; slots start at round 0, never current). Wrapping
    /// around clears the table, so an old slot is never mistaken for a current one.
    fn next_round(&mut self, round: u16) -> u16 {
        if round == u16::MAX {
            self.slots
                .iter_mut()
                .flatten()
                .for_each(|slot| slot.round = 0);
            return 1;
        }
        round + 1
    }

    /// Whether `key` was reached this round at `g` or earlier; if not, remembers it at `g`.
    #[inline]
    fn seen(&mut self, key: &Packed<W>, g: u32, round: u16) -> bool {
        let bucket = &mut self.slots[(hash_of(key) & self.mask) as usize];
        let holds = |slot: &Slot<W>| slot.round == round && slot.key == *key;
        if holds(&bucket[0]) {
            if u32::from(bucket[0].g) <= g {
                return true;
            }
            bucket[0].g = g as u16;
            return false;
        }
        if holds(&bucket[1]) && u32::from(bucket[1].g) <= g {
            return true;
        }
        // New to the bucket, or reached earlier than the second slot says: either way the
        // second slot is overwritten below.
        let fresh = Slot {
            key: *key,
            g: g as u16,
            round,
        };
        if bucket[0].round != round || g <= u32::from(bucket[0].g) {
            bucket[1] = bucket[0];
            bucket[0] = fresh;
        } else {
            bucket[1] = fresh;
        }
        false
    }
}

/// Marks a blank cell in `Walker::owner`.
const BLANK: u8 = u8::MAX;

/// The depth-first search's position, changed in place move by move and restored on return.
struct Walker<'s, 'p, const W: usize> {
    space: &'s Space<'p, W>,
    heuristic: &'s Heuristic,
    limits: &'s Limits,
    tops: Vec<u8>,
    /// The piece on each cell, or `BLANK`: moves are found from the blanks, which are few.
    owner: [u8; MAX_CELLS],
    occupied: u64,
    key: Packed<W>,
    path: Vec<PieceMove>,
    table: Table<W>,
    round: u16,
    /// The heuristic's weight, and the bound on f = 10·g + weight·h (tenths of a step).
    weight: u32,
    bound: u32,
    next_bound: u32,
    /// Only solutions shorter than this are looked for: g + h at least this is cut.
    shorter_than: u32,
    expanded: u64,
}

impl<const W: usize> Walker<'_, '_, W> {
    fn search(&mut self, g: u32, estimate: Estimate) -> Flow {
        let h = self.heuristic.value(&estimate);
        if g + h >= self.shorter_than {
            return Flow::Continue;
        }
        let f = 10 * g + self.weight * h;
        if f > self.bound {
            self.next_bound = self.next_bound.min(f);
            return Flow::Continue;
        }
        if self.key == self.space.goal {
            return Flow::Found;
        }
        if self.table.seen(&self.key, g, self.round) {
            return Flow::Continue;
        }
        self.expanded += 1;
        if self.expanded.is_multiple_of(CLOCK_EVERY) && self.limits.expired() {
            return Flow::Stopped;
        }
        let undo = self.path.last().map(|mv| mv.reversed());
        let puzzle = self.space.puzzle;
        let geometry = puzzle.geometry();
        let mut blanks = geometry.full_mask() & !self.occupied;
        while blanks != 0 {
            let blank = blanks.trailing_zeros() as u8;
            blanks &= blanks - 1;
            for dir in Dir::ALL {
                // The piece that would move towards `dir` into this blank is on the cell beyond it.
                let Some(beyond) = geometry.step(Shape::Single, blank, dir.opposite()) else {
                    continue;
                };
                let piece = self.owner[usize::from(beyond.to)];
                if piece == BLANK {
                    continue;
                }
                let piece = usize::from(piece);
                let top = self.tops[piece];
                let mv = PieceMove::new(piece, dir);
                let Some(step) = geometry.step(puzzle.pieces()[piece].shape, top, dir) else {
                    continue;
                };
                // A block moving into two blanks is taken from the first of them only.
                if step.enter & self.occupied != 0
                    || step.enter.trailing_zeros() != u32::from(blank)
                    || Some(mv) == undo
                {
                    continue;
                }
                self.play(piece, top, step);
                self.path.push(mv);
                let next = self
                    .heuristic
                    .after_move(&estimate, &self.tops, piece, top, step.to);
                match self.search(g + 1, next) {
                    Flow::Continue => {}
                    stop => return stop,
                }
                self.path.pop();
                self.play(
                    piece,
                    step.to,
                    Step {
                        to: top,
                        enter: step.leave,
                        leave: step.enter,
                    },
                );
            }
        }
        Flow::Continue
    }

    /// Moves `piece` from `top` by `step` (or back, given the reversed step).
    #[inline]
    fn play(&mut self, piece: usize, top: u8, step: Step) {
        self.tops[piece] = step.to;
        self.occupied = (self.occupied & !step.leave) | step.enter;
        self.key = self.space.layout.moved(&self.key, piece, top, step.to);
        for cell in cells_of(step.leave) {
            self.owner[usize::from(cell)] = BLANK;
        }
        for cell in cells_of(step.enter) {
            self.owner[usize::from(cell)] = piece as u8;
        }
    }
}

/// IDA* with a transposition table.
pub(crate) fn idastar<const W: usize>(
    space: &Space<W>,
    heuristic: &Heuristic,
    limits: &Limits,
    stats: &mut SearchStats,
) -> Outcome {
    let mut walker = Walker::new(space, heuristic, limits, Weight::ONE, u32::MAX);
    stats.stored = walker.table.len() as u64;
    // At weight one every f is ten times a number of steps, and the rounds count steps.
    let tenths = |f: u32| if f == u32::MAX { f } else { f / 10 };
    deepen(tenths(walker.bound), stats, |bound| {
        let (flow, next_bound, expanded) = walker.round(bound * 10);
        (flow, tenths(next_bound), expanded)
    })
    .with_path(walker.path)
}

/// Weighted IDA* (`weight` in tenths), looking only for solutions shorter than `shorter_than`.
/// Its rounds' bounds are no lower bounds: `stats` keeps only the positions it expanded and
/// stored. Exhausted means that nothing shorter than `shorter_than` exists.
pub(crate) fn weighted_idastar<const W: usize>(
    space: &Space<W>,
    heuristic: &Heuristic,
    weight: Weight,
    shorter_than: u32,
    limits: &Limits,
    stats: &mut SearchStats,
) -> Outcome {
    let mut walker = Walker::new(space, heuristic, limits, weight, shorter_than);
    let mut rounds = SearchStats::default();
    let outcome = deepen(walker.bound, &mut rounds, |bound| walker.round(bound));
    stats.expanded += rounds.expanded;
    stats.stored = stats.stored.max(walker.table.len() as u64);
    match outcome {
        Outcome::Found { .. } => Outcome::Found {
            path: walker.path,
            proved: weight == Weight::ONE,
        },
        other => other,
    }
}

impl<'s, 'p, const W: usize> Walker<'s, 'p, W> {
    /// A walker at the start, its first bound the start's f.
    fn new(
        space: &'s Space<'p, W>,
        heuristic: &'s Heuristic,
        limits: &'s Limits,
        weight: Weight,
        shorter_than: u32,
    ) -> Walker<'s, 'p, W> {
        let tops = space.puzzle.start().tops().to_vec();
        let mut owner = [BLANK; MAX_CELLS];
        for (piece, (shape, &top)) in space
            .puzzle
            .pieces()
            .iter()
            .map(|piece| piece.shape)
            .zip(&tops)
            .enumerate()
        {
            for cell in cells_of(space.puzzle.geometry().footprint(shape, top).unwrap_or(0)) {
                owner[usize::from(cell)] = piece as u8;
            }
        }
        Walker {
            space,
            heuristic,
            limits,
            occupied: space.occupied(&tops),
            bound: weight.0 * heuristic.estimate(&tops),
            tops,
            owner,
            key: space.start,
            path: Vec::new(),
            table: Table::new(limits.max_positions, space.puzzle.blank_count()),
            round: 0,
            weight: weight.0,
            next_bound: u32::MAX,
            shorter_than,
            expanded: 0,
        }
    }

    /// One round from the start within `bound` (tenths): how it ended, the least f beyond the
    /// bound, and the positions expanded so far.
    fn round(&mut self, bound: u32) -> (Flow, u32, u64) {
        self.bound = bound;
        self.round = self.table.next_round(self.round);
        self.next_bound = u32::MAX;
        let start = self.heuristic.start(&self.tops);
        let flow = self.search(0, start);
        (flow, self.next_bound, self.expanded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position reached near the start outlives any number of deeper ones in its bucket, and
    /// a position is pruned only when reached again no earlier than it was, in the same round.
    #[test]
    fn the_table_keeps_the_shallowest_position_of_a_round() {
        let mut table = Table::<1>::new(1 << 10, 3);
        let round = table.next_round(0);
        let near = Packed([7]);
        assert!(!table.seen(&near, 2, round));
        assert!(table.seen(&near, 2, round));
        assert!(table.seen(&near, 3, round));
        assert!(
            !table.seen(&near, 1, round),
            "reached earlier: searched again"
        );
        assert!(table.seen(&near, 1, round));
        for key in 100..100_000 {
            assert!(!table.seen(&Packed([key]), 5, round));
        }
        assert!(table.seen(&near, 1, round), "evicted by deeper positions");
        let next = table.next_round(round);
        assert!(!table.seen(&near, 3, next), "a new round remembers nothing");
    }
}
