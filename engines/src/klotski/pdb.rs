//! Additive pattern databases for classic boards: 1x1 tiles only, one blank, at most 16 cells
//! (the 15-puzzle and everything smaller with at least two rows and columns).
//!
//! The tiles are split into disjoint groups (6-6-3 on 4x4). For each group a table gives, for
//! every placement of its tiles, the fewest moves *of those tiles* that bring them home while
//! the other tiles are indistinguishable; moves of other tiles are free. As every move moves
//! one tile of one group, the tables' sum is a lower bound on the whole. On square boards the
//! transposed position (rows as columns) needs as many moves, so the larger of the two sums is
//! used.
//!
//! A table is indexed by the tiles' cells, 4 bits each (`16^k` bytes: 16 MiB for 6 tiles), and
//! built by a breadth-first search over (tiles' cells, blank's cell) in layers of tile moves:
//! every position in a layer first spreads its blank over the free cells it can reach at no
//! cost. Tables are built at first use and kept for the process; a [`TableStore`] the program
//! sets (the client's, over its cache folder) keeps them between processes, since the 4x4
//! tables take seconds to build.

use std::sync::{Arc, Mutex, OnceLock};

use parlor_shared::klotski::Puzzle;
use parlor_shared::klotski::Shape;

/// Cells of the largest board the tables cover (a cell fits in 4 bits).
const MAX_CELLS: usize = 16;
/// Tiles of the largest group (`16^6` bytes a table).
const MAX_GROUP: usize = 6;
const UNSET: u8 = u8::MAX;

/// Groups at most: 15 tiles in groups of up to six.
const MAX_GROUPS: usize = 3;

/// Where a piece's cell sits in the table indices: its group and the bit shift of its slot.
#[derive(Clone, Copy, Default)]
struct Slot {
    group: u8,
    shift: u8,
}

/// A position's table indices and their sums, updated move by move: a move changes one index
/// of each lookup, so it costs two table reads instead of all of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Indices {
    direct: [u32; MAX_GROUPS],
    transposed: [u32; MAX_GROUPS],
    direct_sum: u32,
    transposed_sum: u32,
}

/// The tables of one board size.
pub struct PatternDatabases {
    /// One table per group of tiles.
    tables: Vec<Vec<u8>>,
    /// Each piece's slot in the direct lookup.
    direct: [Slot; MAX_CELLS],
    /// On square boards, each cell's mirror across the main diagonal, and each piece's slot in
    /// the lookup of the transposed position (where the tile whose goal is cell g stands where
    /// the tile whose goal is mirror(g) stands, mirrored).
    transpose: Option<([u8; MAX_CELLS], [Slot; MAX_CELLS])>,
}

/// Keeps the tables of a board size between processes: engines do no I/O of their own.
pub trait TableStore: Send + Sync {
    /// The tables of a `rows` x `cols` board as they were saved, if they were; they are
    /// checked again before use ([`table_lengths`]).
    fn load(&self, rows: u8, cols: u8) -> Option<Vec<Vec<u8>>>;
    /// Keeps tables just built.
    fn save(&self, rows: u8, cols: u8, tables: &[Vec<u8>]);
}

static STORE: OnceLock<Box<dyn TableStore>> = OnceLock::new();

/// Sets the process's table store, once (a later call changes nothing).
pub fn set_table_store(store: Box<dyn TableStore>) {
    let _ = STORE.set(store);
}

/// The length of each table of a `rows` x `cols` board: 16 to the power of its group's tiles.
pub fn table_lengths(rows: u8, cols: u8) -> Vec<usize> {
    (partition(rows, cols).iter())
        .map(|group| 1usize << (4 * group.len()))
        .collect()
}

/// The tables of a `rows` x `cols` board, built now (seconds on 4x4), for a store to keep.
pub fn build_tables(rows: u8, cols: u8) -> Vec<Vec<u8>> {
    let groups = partition(rows, cols);
    // One thread a group: the two large tables of 4x4 take most of the time.
    std::thread::scope(|scope| {
        let handles: Vec<_> = groups
            .iter()
            .map(|group| scope.spawn(move || build_table(rows, cols, group)))
            .collect();
        handles
            .into_iter()
            .map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

impl PatternDatabases {
    /// Whether `puzzle` is a classic board the tables cover.
    pub fn applies(puzzle: &Puzzle) -> bool {
        let cells = puzzle.geometry().cells();
        puzzle.rows() >= 2
            && puzzle.cols() >= 2
            && cells <= MAX_CELLS
            && puzzle.blank_count() == 1
            && puzzle
                .pieces()
                .iter()
                .all(|piece| piece.shape == Shape::Single)
    }

    /// The tables for `puzzle`'s board, built on first use; `None` if they do not apply.
    pub fn for_puzzle(puzzle: &Puzzle) -> Option<Arc<PatternDatabases>> {
        type Cache = Mutex<Vec<((u8, u8), Arc<PatternDatabases>)>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        if !Self::applies(puzzle) {
            return None;
        }
        let size = (puzzle.rows(), puzzle.cols());
        // Held while building, so two searches needing the same tables build them once.
        let mut cache = CACHE
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((_, databases)) = cache.iter().find(|(key, _)| *key == size) {
            return Some(Arc::clone(databases));
        }
        let (rows, cols) = size;
        let stored = STORE.get().and_then(|store| store.load(rows, cols));
        let lengths = table_lengths(rows, cols);
        let fits = |tables: &Vec<Vec<u8>>| tables.iter().map(Vec::len).eq(lengths.iter().copied());
        let tables = match stored.filter(fits) {
            Some(tables) => tables,
            None => {
                let tables = build_tables(rows, cols);
                if let Some(store) = STORE.get() {
                    store.save(rows, cols, &tables);
                }
                tables
            }
        };
        let databases = Arc::new(PatternDatabases::with_tables(rows, cols, tables));
        cache.push((size, Arc::clone(&databases)));
        Some(databases)
    }

    /// The databases of a `rows` x `cols` board over its `tables` (of [`table_lengths`]).
    fn with_tables(rows: u8, cols: u8, tables: Vec<Vec<u8>>) -> PatternDatabases {
        let groups = partition(rows, cols);
        let mut direct = [Slot::default(); MAX_CELLS];
        for (group, pieces) in groups.iter().enumerate() {
            for (slot, &piece) in pieces.iter().enumerate() {
                direct[usize::from(piece)] = Slot {
                    group: group as u8,
                    shift: 4 * slot as u8,
                };
            }
        }
        let transpose = (rows == cols).then(|| {
            let mut mirror = [0u8; MAX_CELLS];
            let mut transposed = [Slot::default(); MAX_CELLS];
            for cell in 0..rows * cols {
                mirror[usize::from(cell)] = (cell % cols) * cols + cell / cols;
            }
            for piece in 0..rows * cols - 1 {
                // The piece stands in for the tile whose goal is its goal's mirror.
                transposed[usize::from(piece)] = direct[usize::from(mirror[usize::from(piece)])];
            }
            (mirror, transposed)
        });
        PatternDatabases {
            tables,
            direct,
            transpose,
        }
    }

    /// The indices of the position with these top-left cells (piece `i` = tile `i + 1`).
    pub fn indices(&self, tops: &[u8]) -> Indices {
        let mut indices = Indices {
            direct: [0; MAX_GROUPS],
            transposed: [0; MAX_GROUPS],
            direct_sum: 0,
            transposed_sum: 0,
        };
        for (piece, &top) in tops.iter().enumerate() {
            let slot = self.direct[piece];
            indices.direct[usize::from(slot.group)] |= u32::from(top) << slot.shift;
            if let Some((mirror, transposed)) = &self.transpose {
                let slot = transposed[piece];
                indices.transposed[usize::from(slot.group)] |=
                    u32::from(mirror[usize::from(top)]) << slot.shift;
            }
        }
        for group in 0..self.tables.len() {
            indices.direct_sum += self.read(group, indices.direct[group]);
            if self.transpose.is_some() {
                indices.transposed_sum += self.read(group, indices.transposed[group]);
            }
        }
        indices
    }

    /// `indices` after `piece` moved from cell `from` to cell `to`.
    #[inline]
    pub fn moved(&self, indices: &Indices, piece: usize, from: u8, to: u8) -> Indices {
        let mut next = *indices;
        let slot = self.direct[piece];
        let group = usize::from(slot.group);
        next.direct[group] ^= u32::from(from ^ to) << slot.shift;
        next.direct_sum = next.direct_sum + self.read(group, next.direct[group])
            - self.read(group, indices.direct[group]);
        if let Some((mirror, transposed)) = &self.transpose {
            let slot = transposed[piece];
            let group = usize::from(slot.group);
            let change = mirror[usize::from(from)] ^ mirror[usize::from(to)];
            next.transposed[group] ^= u32::from(change) << slot.shift;
            next.transposed_sum = next.transposed_sum + self.read(group, next.transposed[group])
                - self.read(group, indices.transposed[group]);
        }
        next
    }

    /// The lower bound the indices give.
    #[inline]
    pub fn value(&self, indices: &Indices) -> u32 {
        indices.direct_sum.max(indices.transposed_sum)
    }

    #[inline]
    fn read(&self, group: usize, index: u32) -> u32 {
        u32::from(self.tables[group][index as usize])
    }
}

/// The groups of tiles (by goal cell): 6-6-3 on 4x4, chosen compact; elsewhere row-major runs
/// of at most six tiles, as even as possible.
fn partition(rows: u8, cols: u8) -> Vec<Vec<u8>> {
    if (rows, cols) == (4, 4) {
        return vec![
            vec![0, 1, 4, 5, 8, 12],
            vec![2, 3, 6, 7, 10, 11],
            vec![9, 13, 14],
        ];
    }
    let tiles = usize::from(rows * cols) - 1;
    let size = tiles.div_ceil(tiles.div_ceil(MAX_GROUP));
    let all: Vec<u8> = (0..tiles as u8).collect();
    all.chunks(size).map(<[u8]>::to_vec).collect()
}

/// The table of one group: fewest moves of its tiles (goals `goals`) from every placement.
fn build_table(rows: u8, cols: u8, goals: &[u8]) -> Vec<u8> {
    debug_assert!(goals.len() <= MAX_GROUP);
    let cells = u32::from(rows * cols);
    let board: u32 = (1 << cells) - 1;
    let first_col: u32 = (0..rows).fold(0, |mask, row| mask | 1 << (row * cols));
    let last_col = first_col << (cols - 1);
    let spread = |mask: u32| -> u32 {
        (mask | (mask >> 1) & !last_col | (mask << 1) & !first_col | mask >> cols | mask << cols)
            & board
    };
    // Per tiles' index: the blank cells already spread from (low 16 bits) and the depth at
    // which the index was first reached (high bits, UNSET until then). One word, so checking a
    // successor is one memory access.
    const DEPTH_SHIFT: u32 = 16;
    let mut state = vec![u32::from(UNSET) << DEPTH_SHIFT; 1usize << (4 * goals.len())];
    let start = goals
        .iter()
        .enumerate()
        .fold(0usize, |index, (slot, &cell)| {
            index | usize::from(cell) << (4 * slot)
        });
    // Entries are (index << 4 | blank); one may be queued more than once (from each tile next
    // to its blank), the later copies skipped.
    let mut frontier = vec![(start << 4 | (cells as usize - 1)) as u32];
    let mut depth = 0u32;
    while !frontier.is_empty() {
        let mut next = Vec::with_capacity(frontier.len() * 2);
        for &entry in &frontier {
            let (index, blank) = (entry as usize >> 4, entry & 15);
            let word = state[index];
            if word & (1 << blank) != 0 {
                continue;
            }
            let mut tiles = [0u32; MAX_GROUP];
            for (slot, cell) in tiles.iter_mut().enumerate().take(goals.len()) {
                *cell = (index >> (4 * slot) & 15) as u32;
            }
            let tiles = &tiles[..goals.len()];
            let free = board & !tiles.iter().fold(0, |mask, &cell| mask | 1 << cell);
            let mut region = 1u32 << blank;
            loop {
                let grown = spread(region) & free;
                if grown == region {
                    break;
                }
                region = grown;
            }
            let first = word >> DEPTH_SHIFT == u32::from(UNSET);
            let depth_bits = if first {
                depth << DEPTH_SHIFT
            } else {
                word & !0xFFFF
            };
            state[index] = depth_bits | (word & 0xFFFF) | region;
            for (slot, &cell) in tiles.iter().enumerate() {
                for target in
                    parlor_shared::klotski::cells_of(u64::from(spread(1 << cell) & region))
                {
                    let moved = index ^ ((cell as usize ^ usize::from(target)) << (4 * slot));
                    if state[moved] & (1 << cell) == 0 {
                        next.push((moved << 4 | cell as usize) as u32);
                    }
                }
            }
        }
        frontier = next;
        depth += 1;
    }
    // Placements no search can meet (two tiles on one cell, or the other parity class) stay
    // admissible at 0.
    state
        .into_iter()
        .map(|word| match (word >> DEPTH_SHIFT) as u8 {
            UNSET => 0,
            depth => depth,
        })
        .collect()
}
