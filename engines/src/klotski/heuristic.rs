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
//! - Block pattern databases (any board, see [`super::blocks_pdb`]).

use std::sync::Arc;

use super::blocks_pdb::{BlockDatabases, BlockIndices};
use super::pdb::{Indices, PatternDatabases, Wanted};
use parlor_shared::klotski::Puzzle;
use parlor_shared::klotski::{MAX_CELLS, Shape};

/// Which lower bound a search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeuristicKind {
    Manhattan,
    /// Manhattan plus linear conflicts of 1x1 tiles.
    Conflicts,
    /// Additive pattern databases (the larger of the direct and the reflected lookups): the
    /// best kept (7-8 on 4x4), else those a search builds.
    PatternDatabases,
    /// The pattern databases a search builds for itself (6-6-3 on 4x4), never the kept 7-8.
    SmallPatternDatabases,
    /// Additive pattern databases for any board, blocks and several blanks included (the
    /// largest sum of up to six partitions, or Manhattan plus conflicts if larger), built by the
    /// search for its board.
    BlockDatabases,
}

impl HeuristicKind {
    pub fn name(self) -> &'static str {
        match self {
            HeuristicKind::Manhattan => "manhattan",
            HeuristicKind::Conflicts => "manhattan+conflicts",
            HeuristicKind::PatternDatabases => "pattern databases",
            HeuristicKind::SmallPatternDatabases => "small pattern databases",
            HeuristicKind::BlockDatabases => "block pattern databases",
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
    blocks: BlockIndices,
}

/// A heuristic ready for one puzzle.
pub struct Heuristic {
    kind: HeuristicKind,
    rows: u8,
    cols: u8,
    cells: usize,
    /// `distance[piece * cells + top]`: Manhattan distance of that top-left to the goal's.
    distance: Vec<u8>,
    /// Which pieces are 1x1 tiles (blocks take no part in conflicts).
    single: Vec<bool>,
    /// Each piece's goal (row, column).
    goal_lines: Vec<(u8, u8)>,
    /// The 1x1 tiles whose goal is in each row, in goal order; then the same for columns.
    row_members: Vec<Vec<u8>>,
    col_members: Vec<Vec<u8>>,
    databases: Option<Arc<PatternDatabases>>,
    block_databases: Option<Arc<BlockDatabases>>,
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
        let single: Vec<bool> = puzzle
            .pieces()
            .iter()
            .map(|piece| piece.shape == Shape::Single)
            .collect();
        let members = |line_of: &dyn Fn(u8) -> u8, lines: u8| -> Vec<Vec<u8>> {
            (0..lines)
                .map(|line| {
                    (0..puzzle.pieces().len())
                        .filter(|&piece| single[piece] && line_of(piece as u8) == line)
                        .map(|piece| piece as u8)
                        .collect()
                })
                .collect()
        };
        // A piece's goal top-left is where the goal picture has its label.
        let goal_lines: Vec<(u8, u8)> = puzzle
            .pieces()
            .iter()
            .map(|piece| {
                let goal = (piece.label - 1) as u8;
                (geometry.row_of(goal), geometry.col_of(goal))
            })
            .collect();
        let row_members = members(&|piece| goal_lines[usize::from(piece)].0, geometry.rows());
        let col_members = members(&|piece| goal_lines[usize::from(piece)].1, geometry.cols());
        let databases = match kind {
            HeuristicKind::PatternDatabases => PatternDatabases::for_puzzle(puzzle, Wanted::Best),
            HeuristicKind::SmallPatternDatabases => {
                PatternDatabases::for_puzzle(puzzle, Wanted::Small)
            }
            _ => None,
        };
        let block_databases = match kind {
            HeuristicKind::BlockDatabases => BlockDatabases::for_puzzle(puzzle),
            _ => None,
        };
        let kind = match (kind, &databases, &block_databases) {
            (HeuristicKind::PatternDatabases | HeuristicKind::SmallPatternDatabases, None, _)
            | (HeuristicKind::BlockDatabases, _, None) => HeuristicKind::Conflicts,
            _ => kind,
        };
        Heuristic {
            kind,
            rows: geometry.rows(),
            cols: geometry.cols(),
            cells,
            distance,
            single,
            goal_lines,
            row_members,
            col_members,
            databases,
            block_databases,
        }
    }

    /// The kind actually in use (databases fall back to conflicts where they do not apply).
    pub fn kind(&self) -> HeuristicKind {
        self.kind
    }

    /// The pattern databases in use, if any.
    pub fn databases(&self) -> Option<&PatternDatabases> {
        self.databases.as_deref()
    }

    /// The tables in use, "4x4 7-8" or "5x6 block tables 5-5-5-4-4, 6 partitions, fitted to the
    /// start", if any.
    pub fn tables_label(&self) -> Option<String> {
        match (&self.databases, &self.block_databases) {
            (Some(databases), _) => Some(databases.spec().label()),
            (None, Some(blocks)) => Some(blocks.label()),
            (None, None) => None,
        }
    }

    /// Lower bound on the steps from the position with these top-left cells to the goal.
    #[inline]
    pub fn estimate(&self, tops: &[u8]) -> u32 {
        self.value(&self.start(tops))
    }

    /// The estimate of the position with these top-left cells, ready for [`Self::after_move`].
    pub fn start(&self, tops: &[u8]) -> Estimate {
        if let Some(blocks) = &self.block_databases {
            return Estimate {
                manhattan: self.manhattan(tops),
                conflicts: self.conflicts(tops),
                blocks: blocks.indices(tops),
                ..Estimate::default()
            };
        }
        match &self.databases {
            Some(databases) => Estimate {
                indices: databases.lookup().indices(tops),
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
        if let Some(blocks) = &self.block_databases {
            // Groups see only their own pieces, conflicts whole lines: either may be larger.
            return blocks
                .value(&estimate.blocks)
                .max(estimate.manhattan + estimate.conflicts);
        }
        match &self.databases {
            Some(databases) => databases.lookup().value(&estimate.indices),
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
        let blocks = (self.block_databases.as_ref())
            .map(|blocks| blocks.moved(&estimate.blocks, piece, from, to));
        if let Some(databases) = &self.databases {
            return Estimate {
                indices: databases.lookup().moved(&estimate.indices, piece, from, to),
                ..*estimate
            };
        }
        let row = piece * self.cells;
        let manhattan = estimate.manhattan + u32::from(self.distance[row + usize::from(to)])
            - u32::from(self.distance[row + usize::from(from)]);
        let conflicts = if self.counts_conflicts() && self.single[piece] {
            self.conflicts_after_move(estimate.conflicts, tops, piece, from, to)
        } else {
            estimate.conflicts
        };
        Estimate {
            manhattan,
            conflicts,
            blocks: blocks.unwrap_or(estimate.blocks),
            ..*estimate
        }
    }

    /// Whether the bound counts linear conflicts: on their own, or beside the block tables.
    fn counts_conflicts(&self) -> bool {
        matches!(
            self.kind,
            HeuristicKind::Conflicts | HeuristicKind::BlockDatabases
        )
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
        if !self.counts_conflicts() {
            return 0;
        }
        let cell_of = |piece: u8| tops[usize::from(piece)];
        let rows = (0..self.rows).map(|row| {
            self.line_conflicts(&self.row_members[usize::from(row)], row, true, cell_of)
        });
        let cols = (0..self.cols).map(|col| {
            self.line_conflicts(&self.col_members[usize::from(col)], col, false, cell_of)
        });
        rows.chain(cols).sum()
    }

    /// `conflicts` after the 1x1 tile `piece` moved from `from` to `to` (`tops` after the move).
    /// A tile counts only in its goal row and goal column, and sliding along a line never changes
    /// the order of the tiles in it, so only one line can change: the goal row after a move up
    /// or down, the goal column after a move sideways.
    fn conflicts_after_move(
        &self,
        conflicts: u32,
        tops: &[u8],
        piece: usize,
        from: u8,
        to: u8,
    ) -> u32 {
        let vertical = from / self.cols != to / self.cols;
        let (goal_row, goal_col) = self.goal_lines[piece];
        let (members, line) = if vertical {
            (&self.row_members[usize::from(goal_row)], goal_row)
        } else {
            (&self.col_members[usize::from(goal_col)], goal_col)
        };
        let before = self.line_conflicts(members, line, vertical, |other| {
            if usize::from(other) == piece {
                from
            } else {
                tops[usize::from(other)]
            }
        });
        let after = self.line_conflicts(members, line, vertical, |other| tops[usize::from(other)]);
        conflicts + after - before
    }

    /// Twice the tiles of `members` (a goal row if `row`, else a goal column, in goal order)
    /// that must leave `line` to let the others pass: those now in it minus the longest subset
    /// already in goal order.
    #[inline]
    fn line_conflicts(
        &self,
        members: &[u8],
        line: u8,
        row: bool,
        cell_of: impl Fn(u8) -> u8,
    ) -> u32 {
        // (place along the line, rank in goal order) of the members now in it.
        let mut present = [(0u8, 0u8); MAX_CELLS];
        let mut count = 0;
        for (rank, &piece) in members.iter().enumerate() {
            let cell = cell_of(piece);
            let (here, along) = if row {
                (cell / self.cols, cell % self.cols)
            } else {
                (cell % self.cols, cell / self.cols)
            };
            if here == line {
                present[count] = (along, rank as u8);
                count += 1;
            }
        }
        if count < 2 {
            return 0;
        }
        let present = &mut present[..count];
        present.sort_unstable();
        let mut ranks = [0u8; MAX_CELLS];
        for (slot, &(_, rank)) in ranks.iter_mut().zip(present.iter()) {
            *slot = rank;
        }
        2 * (count - longest_increasing(&ranks[..count])) as u32
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
    super::pdb::applies(puzzle)
}

impl std::fmt::Debug for Heuristic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Heuristic({})", self.kind.name())
    }
}
