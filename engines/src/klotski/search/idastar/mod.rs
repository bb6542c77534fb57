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
//! On several threads a round is split into subtrees that the threads share out (`split.rs`),
//! with one table for all (`table.rs`): on the 5x6 sample two threads took the round to bound
//! 88 in 22 s, one in 44 s.
//!
//! Weighted IDA* ([`weighted_idastar`]) bounds f = g + w·h instead, in tenths of a step: its
//! first solution is at most w times the shortest, and its bounds prove nothing. It needs no
//! memory, so the anytime search goes on with it where weighted A* fills its positions' cap;
//! it may be told to look only for solutions shorter than one it has.

use std::sync::atomic::{AtomicBool, Ordering};

use super::{CLOCK_EVERY, Flow, Limits, Outcome, PieceMove, SearchStats, Space, Weight, deepen};
use crate::klotski::heuristic::{Estimate, Heuristic};
use crate::klotski::key::Packed;
use parlor_shared::klotski::cells_of;
use parlor_shared::klotski::{Dir, MAX_CELLS, Shape, Step};

mod split;
mod table;

use table::Table;

/// Positions a round must follow for the next to be split among several threads: below, a
/// round takes less than the threads take to start.
const SPLIT_FROM: u64 = 10_000;

/// Marks a blank cell in `Walker::owner`.
const BLANK: u8 = u8::MAX;

/// What the walkers of one search share: the puzzle, the heuristic, the budget and the table.
struct Common<'s, 'p, const W: usize> {
    space: &'s Space<'p, W>,
    heuristic: &'s Heuristic,
    limits: &'s Limits,
    table: Table<W>,
    /// The heuristic's weight: rounds bound f = 10·g + weight·h (tenths of a step).
    weight: u32,
    /// Only solutions shorter than this are looked for: g + h at least this is cut.
    shorter_than: u32,
    threads: usize,
    /// Positions a round must follow for the next to be split among the threads.
    split_from: u64,
    /// Set when a thread found a solution, for the others to stop.
    found: AtomicBool,
}

/// A subtree of a round for a thread to search: its root position, the path to it and its
/// estimate.
struct Subtree {
    tops: Vec<u8>,
    path: Vec<PieceMove>,
    estimate: Estimate,
}

/// The depth-first search's position, changed in place move by move and restored on return.
struct Walker<'c, 's, 'p, const W: usize> {
    common: &'c Common<'s, 'p, W>,
    tops: Vec<u8>,
    /// The piece on each cell, or `BLANK`: moves are found from the blanks, which are few.
    owner: [u8; MAX_CELLS],
    occupied: u64,
    key: Packed<W>,
    path: Vec<PieceMove>,
    round: u16,
    /// The bound on f (tenths of a step), and the least f met beyond it.
    bound: u32,
    next_bound: u32,
    expanded: u64,
    /// Positions the last round expanded.
    last_round: u64,
    /// The depth at which positions are laid out as `frontier` instead of searched (`u32::MAX`
    /// but while a round is split into subtrees).
    collect_at: u32,
    frontier: Vec<Subtree>,
}

impl<const W: usize> Walker<'_, '_, '_, W> {
    fn search(&mut self, g: u32, estimate: Estimate) -> Flow {
        let common = self.common;
        let h = common.heuristic.value(&estimate);
        if g + h >= common.shorter_than {
            return Flow::Continue;
        }
        let f = 10 * g + common.weight * h;
        if f > self.bound {
            self.next_bound = self.next_bound.min(f);
            return Flow::Continue;
        }
        if g == self.collect_at {
            self.frontier.push(Subtree {
                tops: self.tops.clone(),
                path: self.path.clone(),
                estimate,
            });
            return Flow::Continue;
        }
        if self.key == common.space.goal {
            return Flow::Found;
        }
        if common.table.seen(&self.key, g, self.round) {
            return Flow::Continue;
        }
        self.expanded += 1;
        if self.expanded.is_multiple_of(CLOCK_EVERY)
            && (common.limits.expired() || common.found.load(Ordering::Relaxed))
        {
            return Flow::Stopped;
        }
        let undo = self.path.last().map(|mv| mv.reversed());
        let puzzle = common.space.puzzle;
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
                let next = common
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
        self.key = self
            .common
            .space
            .layout
            .moved(&self.key, piece, top, step.to);
        for cell in cells_of(step.leave) {
            self.owner[usize::from(cell)] = BLANK;
        }
        for cell in cells_of(step.enter) {
            self.owner[usize::from(cell)] = piece as u8;
        }
    }
}

/// IDA* with a transposition table, its rounds on `threads` threads.
pub(crate) fn idastar<const W: usize>(
    space: &Space<W>,
    heuristic: &Heuristic,
    limits: &Limits,
    threads: usize,
    stats: &mut SearchStats,
) -> Outcome {
    let common = Common::new(space, heuristic, limits, Weight::ONE, u32::MAX, threads);
    stats.stored = common.table.len() as u64;
    let mut walker = Walker::at_start(&common);
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
    threads: usize,
    stats: &mut SearchStats,
) -> Outcome {
    let common = Common::new(space, heuristic, limits, weight, shorter_than, threads);
    let mut walker = Walker::at_start(&common);
    let mut rounds = SearchStats::default();
    let outcome = deepen(walker.bound, &mut rounds, |bound| walker.round(bound));
    stats.expanded += rounds.expanded;
    stats.stored = stats.stored.max(common.table.len() as u64);
    match outcome {
        Outcome::Found { .. } => Outcome::Found {
            path: walker.path,
            proved: weight == Weight::ONE,
        },
        other => other,
    }
}

impl<'s, 'p, const W: usize> Common<'s, 'p, W> {
    fn new(
        space: &'s Space<'p, W>,
        heuristic: &'s Heuristic,
        limits: &'s Limits,
        weight: Weight,
        shorter_than: u32,
        threads: usize,
    ) -> Common<'s, 'p, W> {
        Common {
            space,
            heuristic,
            limits,
            table: Table::new(limits.max_positions, space.puzzle.blank_count()),
            weight: weight.0,
            shorter_than,
            threads: threads.max(1),
            // Tests split every round, so that their small boards go through the split.
            split_from: if cfg!(test) { 0 } else { SPLIT_FROM },
            found: AtomicBool::new(false),
        }
    }
}

impl<'c, 's, 'p, const W: usize> Walker<'c, 's, 'p, W> {
    /// A walker at the start, its first bound the start's f.
    fn at_start(common: &'c Common<'s, 'p, W>) -> Walker<'c, 's, 'p, W> {
        let tops = common.space.puzzle.start().tops();
        let mut walker = Walker {
            common,
            tops: Vec::new(),
            owner: [BLANK; MAX_CELLS],
            occupied: 0,
            key: common.space.start,
            path: Vec::new(),
            round: 0,
            bound: common.weight * common.heuristic.estimate(tops),
            next_bound: u32::MAX,
            expanded: 0,
            last_round: 0,
            collect_at: u32::MAX,
            frontier: Vec::new(),
        };
        walker.place(tops, &[]);
        walker
    }

    /// Puts the walker on the position `tops`, reached by `path`.
    fn place(&mut self, tops: &[u8], path: &[PieceMove]) {
        let (space, puzzle) = (self.common.space, self.common.space.puzzle);
        self.owner = [BLANK; MAX_CELLS];
        for (piece, (shape, &top)) in (puzzle.pieces().iter())
            .map(|piece| piece.shape)
            .zip(tops)
            .enumerate()
        {
            for cell in cells_of(puzzle.geometry().footprint(shape, top).unwrap_or(0)) {
                self.owner[usize::from(cell)] = piece as u8;
            }
        }
        self.tops = tops.to_vec();
        self.occupied = space.occupied(tops);
        self.key = space.layout.pack(tops);
        self.path = path.to_vec();
    }

    /// One round from the start within `bound` (tenths): how it ended, the least f beyond the
    /// bound, and the positions expanded so far. A round is split among the threads once the
    /// round before it was large enough to be worth their start.
    fn round(&mut self, bound: u32) -> (Flow, u32, u64) {
        let before = self.expanded;
        let ended = if self.common.threads > 1 && self.last_round >= self.common.split_from {
            split::round(self, bound)
        } else {
            self.bound = bound;
            self.round = self.common.table.next_round(self.round);
            self.next_bound = u32::MAX;
            let start = self.common.heuristic.start(&self.tops);
            (self.search(0, start), self.next_bound, self.expanded)
        };
        self.last_round = self.expanded - before;
        ended
    }
}
