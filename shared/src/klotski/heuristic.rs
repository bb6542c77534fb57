//! Lower bounds on the steps left, for the informed searches.
//!
//! All three are consistent (one step changes them by at most one), so A* never reopens a
//! position and IDA*'s thresholds are exact:
//! - Manhattan: every step moves one piece one cell, so the sum over pieces of the distance
//!   from the piece's top-left to its goal top-left is never more than the steps left.
//! - Linear conflicts: two 1x1 tiles in their goal row (or column) in the wrong order cannot pass
//!   each other inside it; all but a longest correctly ordered subset must step out and back,
//!   two more steps each, which Manhattan does not count.
//! - Pattern databases (classic one-blank boards only, see [`super::pdb`]).

use std::sync::Arc;

use super::grid::{MAX_CELLS, Shape};
use super::pdb::{Indices, PatternDatabases};
use super::puzzle::Puzzle;

/// Which lower bound a search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeuristicKind {
    Manhattan,
    /// Manhattan plus linear conflicts of 1x1 tiles.
    Conflicts,
    /// Additive pattern databases (the larger of the direct and the transposed lookups).
    PatternDatabases,
}

impl HeuristicKind {
    pub fn name(self) -> &'static str {
        match self {
            HeuristicKind::Manhattan => "manhattan",
            HeuristicKind::Conflicts => "manhattan+conflicts",
            HeuristicKind::PatternDatabases => "pattern databases",
        }
    }
}

/// A position's estimate with what it takes to update it after one move: the Manhattan and
/// conflict terms, or the database indices (whichever the heuristic uses; the others stay 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Estimate {
    manhattan: u32,
    conflicts: u32,
    indices: Indices,
}

/// A heuristic ready for one puzzle.
pub struct Heuristic {
    kind: HeuristicKind,
    rows: u8,
    cols: u8,
    cells: usize,
    /// `distance[piece * cells + top]`: Manhattan distance of that top-left to the goal's.
    distance: Vec<u8>,
    /// For 1x1 tiles, (goal row, goal column); `None` for blocks, which take no part in
    /// conflicts.
    single_goal: Vec<Option<(u8, u8)>>,
    databases: Option<Arc<PatternDatabases>>,
}

impl Heuristic {
    /// The heuristic of `kind` for `puzzle`; pattern databases are built (or taken from the
    /// process-wide cache) here, and fall back to conflicts where they do not apply.
    pub fn new(puzzle: &Puzzle, kind: HeuristicKind) -> Heuristic {
        let geometry = puzzle.geometry();
        let cells = geometry.cells();
        let mut distance = vec![0u8; puzzle.pieces().len() * cells];
        for (index, piece) in puzzle.pieces().iter().enumerate() {
            let goal = (piece.label - 1) as u8;
            for top in 0..cells {
                distance[index * cells + top] = geometry.manhattan(top as u8, goal) as u8;
            }
        }
        let single_goal = puzzle
            .pieces()
            .iter()
            .map(|piece| {
                let goal = (piece.label - 1) as u8;
                (piece.shape == Shape::Single)
                    .then(|| (geometry.row_of(goal), geometry.col_of(goal)))
            })
            .collect();
        let databases = match kind {
            HeuristicKind::PatternDatabases => PatternDatabases::for_puzzle(puzzle),
            _ => None,
        };
        let kind = match (kind, &databases) {
            (HeuristicKind::PatternDatabases, None) => HeuristicKind::Conflicts,
            _ => kind,
        };
        Heuristic {
            kind,
            rows: geometry.rows(),
            cols: geometry.cols(),
            cells,
            distance,
            single_goal,
            databases,
        }
    }

    /// The best heuristic available for `puzzle`: databases on classic boards, else conflicts.
    pub fn best(puzzle: &Puzzle) -> Heuristic {
        Heuristic::new(puzzle, HeuristicKind::PatternDatabases)
    }

    /// The kind actually in use (databases fall back to conflicts where they do not apply).
    pub fn kind(&self) -> HeuristicKind {
        self.kind
    }

    /// Lower bound on the steps from the position with these top-left cells to the goal.
    #[inline]
    pub fn estimate(&self, tops: &[u8]) -> u32 {
        self.value(&self.start(tops))
    }

    /// The estimate of the position with these top-left cells, ready for [`Self::after_move`].
    pub fn start(&self, tops: &[u8]) -> Estimate {
        match &self.databases {
            Some(databases) => Estimate {
                indices: databases.indices(tops),
                ..Estimate::default()
            },
            None => Estimate {
                manhattan: self.manhattan(tops),
                conflicts: self.conflicts(tops),
                ..Estimate::default()
            },
        }
    }

    #[inline]
    pub fn value(&self, estimate: &Estimate) -> u32 {
        match &self.databases {
            Some(databases) => databases.value(&estimate.indices),
            None => estimate.manhattan + estimate.conflicts,
        }
    }

    /// `estimate` after `piece` moved from `from` to `to`, `tops` being the cells after the
    /// move: Manhattan and the databases change by the moved piece alone; conflicts only when a
    /// 1x1 tile moved, and are then recounted.
    #[inline]
    pub fn after_move(
        &self,
        estimate: &Estimate,
        tops: &[u8],
        piece: usize,
        from: u8,
        to: u8,
    ) -> Estimate {
        if let Some(databases) = &self.databases {
            return Estimate {
                indices: databases.moved(&estimate.indices, piece, from, to),
                ..*estimate
            };
        }
        let row = piece * self.cells;
        let manhattan = estimate.manhattan + u32::from(self.distance[row + usize::from(to)])
            - u32::from(self.distance[row + usize::from(from)]);
        let conflicts = match self.single_goal[piece] {
            Some(_) => self.conflicts(tops),
            None => estimate.conflicts,
        };
        Estimate {
            manhattan,
            conflicts,
            ..*estimate
        }
    }

    fn manhattan(&self, tops: &[u8]) -> u32 {
        tops.iter()
            .enumerate()
            .map(|(piece, &top)| u32::from(self.distance[piece * self.cells + usize::from(top)]))
            .sum()
    }

    /// Two steps for every 1x1 tile that must leave its goal row or column to let another pass
    /// (none with plain Manhattan).
    fn conflicts(&self, tops: &[u8]) -> u32 {
        if self.kind != HeuristicKind::Conflicts {
            return 0;
        }
        let mut tile_at = [u8::MAX; MAX_CELLS];
        for (piece, &top) in tops.iter().enumerate() {
            if self.single_goal[piece].is_some() {
                tile_at[usize::from(top)] = piece as u8;
            }
        }
        let (rows, cols) = (usize::from(self.rows), usize::from(self.cols));
        let mut extra = 0;
        let mut line = [0u8; MAX_CELLS];
        for row in 0..rows {
            let mut length = 0;
            for col in 0..cols {
                let piece = tile_at[row * cols + col];
                if let Some(&Some((goal_row, goal_col))) = self.single_goal.get(usize::from(piece))
                    && usize::from(goal_row) == row
                {
                    line[length] = goal_col;
                    length += 1;
                }
            }
            extra += length - longest_increasing(&line[..length]);
        }
        for col in 0..cols {
            let mut length = 0;
            for row in 0..rows {
                let piece = tile_at[row * cols + col];
                if let Some(&Some((goal_row, goal_col))) = self.single_goal.get(usize::from(piece))
                    && usize::from(goal_col) == col
                {
                    line[length] = goal_row;
                    length += 1;
                }
            }
            extra += length - longest_increasing(&line[..length]);
        }
        2 * extra as u32
    }
}

/// Length of the longest strictly increasing subsequence (patience sorting).
fn longest_increasing(values: &[u8]) -> usize {
    let mut tails = [0u8; MAX_CELLS];
    let mut length = 0;
    for &value in values {
        let place = tails[..length].partition_point(|&tail| tail < value);
        tails[place] = value;
        length = length.max(place + 1);
    }
    length
}

/// Whether databases can be built for this board's geometry (used to pick defaults).
pub fn databases_apply(puzzle: &Puzzle) -> bool {
    PatternDatabases::applies(puzzle)
}

impl std::fmt::Debug for Heuristic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Heuristic({})", self.kind.name())
    }
}
