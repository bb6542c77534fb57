//! Additive pattern databases for any board: blocks, several blanks, up to 64 cells.
//!
//! The pieces (a block is one piece) are split into disjoint groups. Each group's table gives,
//! for every placement of its pieces, the fewest moves *of those pieces* that bring them home
//! when every other piece is invisible ([`build`] says why that never over-estimates). Every
//! real move moves one piece, of one group, so the tables' sum is a lower bound on the moves
//! left; it is at least the sum of the pieces' Manhattan distances, and more wherever a
//! group's pieces stand in each other's way. Up to six partitions, grown from the goal's
//! corners ([`partition`]) and then fitted to the start ([`choose`]: pieces that stand in
//! each other's way there share a group), give as many sums, and the bound is the largest.
//!
//! Why "invisible" rather than the one-blank tables' region of free cells (`super::pdb`): with
//! several blanks the region would be a count of blanks per region of free cells, and on the
//! boards these tables are for (5x6 with three blanks) a group of five pieces almost never
//! splits the free cells, so it would cost a larger state for next to nothing. The bytes go to
//! larger groups instead: a table indexes its pieces' top-left cells as digits in base
//! `cells`, a byte an entry, so five pieces on 30 cells take 24 MiB and the grouping of a
//! 5x6 board, six times, 450 MiB, fitted and built in some 45 s on two cores.
//!
//! A position's estimate keeps each table's index and entry; a move changes one index per
//! partition (one multiply-add) and reads one entry per partition.

mod build;
mod choose;
mod partition;
#[cfg(test)]
mod tests;

use std::sync::{Arc, Mutex, OnceLock};

use parlor_shared::klotski::{Puzzle, Shape};

use super::parallel::on_every_core;
use build::{Group, shifted};
use choose::improved_for_start;
use partition::{MAX_PARTITIONS, MAX_TABLES, partitions, push_unless_held};

/// A piece's place in one partition's lookup: its group's table and its slot's weight.
#[derive(Clone, Copy, Default)]
struct Slot {
    table: u8,
    weight: u32,
}

/// A position's indices in every table and what the tables say of them, updated move by move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BlockIndices {
    index: [u32; MAX_TABLES],
    entry: [u8; MAX_TABLES],
    /// Each partition's sum of entries.
    sums: [u32; MAX_PARTITIONS],
}

/// The tables of one board (its size and its pieces' shapes and goals), ready for lookups.
pub struct BlockDatabases {
    board: Board,
    /// Every group's table, partition after partition.
    tables: Vec<Vec<u8>>,
    /// Pieces of each table, by piece index, and how many tables each partition has.
    groups: Vec<Vec<usize>>,
    partitions: usize,
    /// `slots[piece][partition]`.
    slots: Vec<[Slot; MAX_PARTITIONS]>,
    /// Whether the groups were fitted to a start ([`choose`]), for the label.
    fitted: bool,
}

/// The tables kept for the process and the start they were last asked for: fitting groups to a
/// start takes seconds on a 5x6 board, so a start asked for again is not fitted again.
struct Kept {
    start: Vec<u8>,
    databases: Arc<BlockDatabases>,
}

/// What the tables depend on: the board's size and its pieces (labels fix the goals).
#[derive(Clone, PartialEq, Eq)]
struct Board {
    rows: u8,
    cols: u8,
    pieces: Vec<(u16, Shape)>,
}

impl Board {
    fn of(puzzle: &Puzzle) -> Board {
        Board {
            rows: puzzle.rows(),
            cols: puzzle.cols(),
            pieces: (puzzle.pieces().iter())
                .map(|piece| (piece.label, piece.shape))
                .collect(),
        }
    }
}

impl BlockDatabases {
    /// The tables for `puzzle`'s board and start, built on first use and kept for the process
    /// (a bench solves one board many times); `None` if the board has too many pieces for them.
    pub(crate) fn for_puzzle(puzzle: &Puzzle) -> Option<Arc<BlockDatabases>> {
        static KEPT: OnceLock<Mutex<Option<Kept>>> = OnceLock::new();
        let board = Board::of(puzzle);
        let start = puzzle.start().tops();
        // Held while fitting and building, so two searches of one board do both once.
        let mut kept = KEPT
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(hit) =
            (kept.as_ref()).filter(|k| k.databases.board == board && k.start == start)
        {
            return Some(Arc::clone(&hit.databases));
        }
        let fitted = on_every_core(partitions(puzzle)?, |groups| {
            improved_for_start(puzzle, groups)
        });
        // Two partitions grown apart may be fitted to the same groups: one of them is enough.
        let mut partitions = Vec::with_capacity(fitted.len());
        for groups in fitted {
            push_unless_held(&mut partitions, groups);
        }
        // Another start of the board may have been fitted to the same groups. Otherwise the
        // kept tables go before the new ones are built: one board's tables at a time.
        let databases = match kept.take() {
            Some(k) if k.databases.board == board && k.databases.groups == partitions.concat() => {
                k.databases
            }
            _ => Arc::new(BlockDatabases::new(puzzle, partitions, true)),
        };
        *kept = Some(Kept {
            start: start.to_vec(),
            databases: Arc::clone(&databases),
        });
        Some(databases)
    }

    /// The tables for groups of at most `size` pieces, built now and not kept (for tests).
    #[cfg(test)]
    pub(crate) fn with_group_size(puzzle: &Puzzle, size: usize) -> Option<BlockDatabases> {
        Some(BlockDatabases::new(
            puzzle,
            partition::partitions_of(puzzle, size)?,
            false,
        ))
    }

    fn new(puzzle: &Puzzle, partitions: Vec<Vec<Vec<usize>>>, fitted: bool) -> BlockDatabases {
        let mut slots = vec![[Slot::default(); MAX_PARTITIONS]; puzzle.pieces().len()];
        let mut built = Vec::new();
        for (partition, partition_groups) in partitions.iter().enumerate() {
            for members in partition_groups {
                let group = Group::of(puzzle, members);
                for (&piece, &weight) in members.iter().zip(group.weights()) {
                    slots[piece][partition] = Slot {
                        table: built.len() as u8,
                        weight,
                    };
                }
                built.push(group);
            }
        }
        let tables = on_every_core(built.iter().collect(), |group: &Group| group.table());
        BlockDatabases {
            board: Board::of(puzzle),
            tables,
            groups: partitions.concat(),
            partitions: partitions.len(),
            slots,
            fitted,
        }
    }

    /// "5x6 block tables 5-5-5-4-4, 6 partitions, fitted to the start", for reports.
    pub fn label(&self) -> String {
        let per_partition = self.groups.len() / self.partitions;
        let sizes: Vec<String> = self.groups[..per_partition]
            .iter()
            .map(|group| group.len().to_string())
            .collect();
        let times = match self.partitions {
            1 => String::new(),
            many => format!(", {many} partitions"),
        };
        let fitted = if self.fitted {
            ", fitted to the start"
        } else {
            ""
        };
        format!(
            "{}x{} block tables {}{times}{fitted}",
            self.board.rows,
            self.board.cols,
            sizes.join("-")
        )
    }

    /// The indices and entries of the position with these top-left cells.
    pub fn indices(&self, tops: &[u8]) -> BlockIndices {
        let mut indices = BlockIndices::default();
        let per_partition = self.groups.len() / self.partitions;
        for (table, group) in self.groups.iter().enumerate() {
            let partition = table / per_partition;
            let index = (group.iter())
                .map(|&piece| u32::from(tops[piece]) * self.slots[piece][partition].weight)
                .sum::<u32>();
            indices.index[table] = index;
            indices.entry[table] = self.tables[table][index as usize];
            indices.sums[partition] += u32::from(indices.entry[table]);
        }
        indices
    }

    /// `indices` after `piece` moved from `from` to `to`.
    #[inline]
    pub fn moved(&self, indices: &BlockIndices, piece: usize, from: u8, to: u8) -> BlockIndices {
        let mut next = *indices;
        for (partition, slot) in self.slots[piece][..self.partitions].iter().enumerate() {
            let table = usize::from(slot.table);
            let index = shifted(indices.index[table], slot.weight, from, to);
            let entry = self.tables[table][index as usize];
            next.index[table] = index;
            next.entry[table] = entry;
            next.sums[partition] =
                indices.sums[partition] + u32::from(entry) - u32::from(indices.entry[table]);
        }
        next
    }

    /// The lower bound: the largest partition's sum.
    #[inline]
    pub fn value(&self, indices: &BlockIndices) -> u32 {
        indices.sums[..self.partitions]
            .iter()
            .copied()
            .max()
            .unwrap_or(0)
    }
}
