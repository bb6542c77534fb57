//! IDA*: depth-first searches bounded by f = g + h, the bound raised each round to the least f
//! that exceeded it, so the first solution found is a shortest one and each bound is a proved
//! lower bound. Memory is the path plus a fixed-size transposition table.
//!
//! The table remembers, per position, the smallest g at which this round reached it; reaching
//! it again no earlier is pruned, since the first visit searched everything this one could.
//! This cuts the many transpositions of boards with several blanks (where independent moves
//! commute). A round in which nothing exceeded the bound searched every reachable position.

use super::{CLOCK_EVERY, Limits, Outcome, PieceMove, SearchStats, Space};
use crate::klotski::grid::Dir;
use crate::klotski::heuristic::Heuristic;
use crate::klotski::key::{Packed, hash_of};

/// Slots of the transposition table at most (16 bytes each for one-word positions).
const TABLE_SLOTS_MAX: usize = 1 << 22;

#[derive(Clone, Copy)]
struct Slot<const W: usize> {
    key: Packed<W>,
    g: u16,
    round: u16,
}

struct Table<const W: usize> {
    slots: Vec<Slot<W>>,
    mask: u64,
}

impl<const W: usize> Table<W> {
    fn new(max_positions: usize) -> Table<W> {
        let len = max_positions
            .clamp(1 << 10, TABLE_SLOTS_MAX)
            .next_power_of_two();
        Table {
            slots: vec![
                Slot {
                    key: Packed([0; W]),
                    g: 0,
                    round: 0,
                };
                len
            ],
            mask: len as u64 - 1,
        }
    }

    /// The round after `round` (1 and up; slots start at round 0, never current). Wrapping
    /// around clears the table, so an old slot is never mistaken for a current one.
    fn next_round(&mut self, round: u16) -> u16 {
        if round == u16::MAX {
            self.slots.iter_mut().for_each(|slot| slot.round = 0);
            return 1;
        }
        round + 1
    }

    /// Whether `key` was reached this round at `g` or earlier; if not, remembers it at `g`.
    #[inline]
    fn seen(&mut self, key: &Packed<W>, g: u32, round: u16) -> bool {
        let slot = &mut self.slots[(hash_of(key) & self.mask) as usize];
        if slot.round == round && slot.key == *key && u32::from(slot.g) <= g {
            return true;
        }
        *slot = Slot {
            key: *key,
            g: g as u16,
            round,
        };
        false
    }
}

enum Flow {
    Found,
    /// Nothing found within the bound (the least f beyond it is in `Walker::next_bound`).
    Continue,
    Stopped,
}

struct Walker<'s, 'p, const W: usize> {
    space: &'s Space<'p, W>,
    heuristic: &'s Heuristic,
    limits: &'s Limits,
    tops: Vec<u8>,
    occupied: u64,
    key: Packed<W>,
    path: Vec<PieceMove>,
    table: Table<W>,
    round: u16,
    bound: u32,
    next_bound: u32,
    expanded: u64,
}

impl<const W: usize> Walker<'_, '_, W> {
    fn search(&mut self, g: u32, h: u32) -> Flow {
        let f = g + h;
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
        for piece in 0..self.tops.len() {
            let top = self.tops[piece];
            let shape = puzzle.pieces()[piece].shape;
            for dir in Dir::ALL {
                let mv = PieceMove::new(piece, dir);
                let Some(step) = geometry.step(shape, top, dir) else {
                    continue;
                };
                if step.enter & self.occupied != 0 || Some(mv) == undo {
                    continue;
                }
                let (key, occupied) = (self.key, self.occupied);
                self.tops[piece] = step.to;
                self.occupied = (occupied & !step.leave) | step.enter;
                self.key = self.space.layout.moved(&key, piece, top, step.to);
                self.path.push(mv);
                let h = self.heuristic.estimate(&self.tops);
                match self.search(g + 1, h) {
                    Flow::Continue => {}
                    stop => return stop,
                }
                self.path.pop();
                (self.key, self.occupied) = (key, occupied);
                self.tops[piece] = top;
            }
        }
        Flow::Continue
    }
}

/// IDA* with a transposition table.
pub(crate) fn idastar<const W: usize>(
    space: &Space<W>,
    heuristic: &Heuristic,
    limits: &Limits,
    stats: &mut SearchStats,
) -> Outcome {
    let tops = space.puzzle.start().tops().to_vec();
    let start_h = heuristic.estimate(&tops);
    let mut walker = Walker {
        space,
        heuristic,
        limits,
        occupied: space.occupied(&tops),
        tops,
        key: space.start,
        path: Vec::new(),
        table: Table::new(limits.max_positions),
        round: 0,
        bound: start_h,
        next_bound: u32::MAX,
        expanded: 0,
    };
    stats.stored = walker.table.slots.len() as u64;
    loop {
        stats.lower_bound = walker.bound;
        walker.round = walker.table.next_round(walker.round);
        walker.next_bound = u32::MAX;
        let before = walker.expanded;
        let flow = walker.search(0, start_h);
        stats.expanded = walker.expanded;
        match flow {
            Flow::Found => {
                return Outcome::Found {
                    path: walker.path,
                    proved: true,
                };
            }
            Flow::Stopped => return Outcome::OutOfBudget,
            Flow::Continue if walker.next_bound == u32::MAX => {
                return Outcome::Exhausted {
                    positions: walker.expanded - before,
                };
            }
            Flow::Continue => walker.bound = walker.next_bound,
        }
    }
}
