//! The searches behind [`super::solve`]. Each works on packed positions ([`Packed`]) of one
//! puzzle's [`Space`] and ends with an [`Outcome`]: a path (proved shortest or not), the
//! reachable positions exhausted (a proof of `No`), or the budget spent.

mod astar;
mod beam;
mod bfs;
mod idastar;
mod shortcut;
mod tiles;

pub(crate) use astar::{Weight, best_first, bytes_per_position};
pub(crate) use beam::beam;
pub(crate) use bfs::{bfs, bidirectional};
pub(crate) use idastar::{idastar, weighted_idastar};
pub(crate) use shortcut::shorten;
pub(crate) use tiles::tiles_idastar;
#[cfg(test)]
pub(crate) use tiles::tiles_idastar_with;

use std::time::Instant;

use super::key::{KeyLayout, Packed};
use parlor_shared::klotski::Dir;
use parlor_shared::klotski::Puzzle;

/// A move inside the searches: piece index and direction in one byte (at most 63 pieces).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PieceMove(u8);

impl PieceMove {
    pub fn new(piece: usize, dir: Dir) -> PieceMove {
        PieceMove((piece as u8) << 2 | dir.index() as u8)
    }

    pub fn piece(self) -> usize {
        usize::from(self.0 >> 2)
    }

    pub fn dir(self) -> Dir {
        Dir::ALL[usize::from(self.0 & 3)]
    }

    /// The same piece moving back.
    pub fn reversed(self) -> PieceMove {
        PieceMove::new(self.piece(), self.dir().opposite())
    }
}

/// When a search must stop: a wall-clock deadline and a cap on stored positions (memory).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub deadline: Instant,
    pub max_positions: usize,
}

impl Limits {
    pub fn expired(&self) -> bool {
        Instant::now() >= self.deadline
    }
}

/// What a search did, for the statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Positions whose moves were generated.
    pub expanded: u64,
    /// Most positions held at once (tables, queues, transposition entries in use).
    pub stored: u64,
    /// Steps the shortest solution is proved to need at least.
    pub lower_bound: u32,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    Found { path: Vec<PieceMove>, proved: bool },
    Exhausted { positions: u64 },
    OutOfBudget,
}

/// How a depth-first search below a position ended.
pub(crate) enum Flow {
    Found,
    /// Nothing found within the bound.
    Continue,
    Stopped,
}

/// IDA*'s rounds: `round` searches within a bound and returns how it ended, the least f that
/// exceeded the bound (`u32::MAX` if none did) and the positions expanded so far; each round's
/// bound is the last one's least f beyond it, so the first solution is a shortest one and each
/// bound a proved lower bound. A solution's path is left empty, for the caller to fill from its
/// walker. A round in which nothing exceeded the bound searched every reachable position.
pub(crate) fn deepen(
    first_bound: u32,
    stats: &mut SearchStats,
    mut round: impl FnMut(u32) -> (Flow, u32, u64),
) -> Outcome {
    let (mut bound, mut before) = (first_bound, 0);
    loop {
        stats.lower_bound = bound;
        let (flow, next_bound, expanded) = round(bound);
        stats.expanded = expanded;
        match flow {
            Flow::Found => {
                return Outcome::Found {
                    path: Vec::new(),
                    proved: true,
                };
            }
            Flow::Stopped => return Outcome::OutOfBudget,
            Flow::Continue if next_bound == u32::MAX => {
                return Outcome::Exhausted {
                    positions: expanded - before,
                };
            }
            Flow::Continue => (bound, before) = (next_bound, expanded),
        }
    }
}

impl Outcome {
    /// The outcome with `path` as its solution, if it found one.
    pub(crate) fn with_path(self, path: Vec<PieceMove>) -> Outcome {
        match self {
            Outcome::Found { proved, .. } => Outcome::Found { path, proved },
            other => other,
        }
    }
}

/// How often (in expansions) the clock is read.
pub(crate) const CLOCK_EVERY: u64 = 1 << 10;

/// A puzzle seen as a graph of packed positions.
pub(crate) struct Space<'a, const W: usize> {
    pub puzzle: &'a Puzzle,
    pub layout: KeyLayout,
    pub start: Packed<W>,
    pub goal: Packed<W>,
}

impl<'a, const W: usize> Space<'a, W> {
    pub fn new(puzzle: &'a Puzzle, layout: KeyLayout) -> Space<'a, W> {
        Space {
            puzzle,
            layout,
            start: layout.pack(puzzle.start().tops()),
            goal: layout.pack(&puzzle.goal_tops()),
        }
    }

    /// The empty solution, proved shortest, when the start is the goal.
    pub fn solved_at_start(&self) -> Option<Outcome> {
        (self.start == self.goal).then(|| Outcome::Found {
            path: Vec::new(),
            proved: true,
        })
    }

    pub fn pieces(&self) -> usize {
        self.puzzle.pieces().len()
    }

    /// The cells covered by pieces at these top-left cells.
    #[inline]
    pub fn occupied(&self, tops: &[u8]) -> u64 {
        let geometry = self.puzzle.geometry();
        self.puzzle
            .pieces()
            .iter()
            .zip(tops)
            .fold(0, |all, (piece, &top)| {
                all | geometry.footprint(piece.shape, top).unwrap_or(0)
            })
    }

    /// Calls `visit` with every position one move from `key`, the move, the moved piece's
    /// cell before it, and all top-left cells after it. `tops` must hold `key`'s cells (see
    /// [`KeyLayout::unpack`]); it is changed for each call and restored.
    #[inline]
    pub fn for_each_move(
        &self,
        key: &Packed<W>,
        tops: &mut [u8],
        mut visit: impl FnMut(Packed<W>, PieceMove, u8, &[u8]),
    ) {
        let occupied = self.occupied(tops);
        for piece in 0..tops.len() {
            let top = tops[piece];
            for dir in Dir::ALL {
                if let Some(step) = self.puzzle.step(piece, top, dir)
                    && step.enter & occupied == 0
                {
                    tops[piece] = step.to;
                    let next = self.layout.moved(key, piece, top, step.to);
                    visit(next, PieceMove::new(piece, dir), top, tops);
                    tops[piece] = top;
                }
            }
        }
    }
}

/// The moves leading to node `index` of a search tree stored as (parent, move) links, the root
/// having parent `u32::MAX`.
pub(crate) fn trace(mut index: u32, link: impl Fn(u32) -> (u32, PieceMove)) -> Vec<PieceMove> {
    let mut path = Vec::new();
    while index != u32::MAX {
        let (parent, mv) = link(index);
        if parent == u32::MAX {
            break;
        }
        path.push(mv);
        index = parent;
    }
    path.reverse();
    path
}
