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
//! cost. Tables are built at first use and kept for the process.

use std::sync::{Arc, Mutex, OnceLock};

use super::grid::Shape;
use super::puzzle::Puzzle;

/// Cells of the largest board the tables cover (a cell fits in 4 bits).
const MAX_CELLS: usize = 16;
/// Tiles of the largest group (`16^6` bytes a table).
const MAX_GROUP: usize = 6;
const UNSET: u8 = u8::MAX;

struct Group {
    /// The tiles (piece index = goal cell on a classic board), in table-index order.
    pieces: Vec<u8>,
    table: Vec<u8>,
}

impl Group {
    #[inline]
    fn lookup(&self, cell_of: impl Fn(u8) -> u8) -> u32 {
        let index = self
            .pieces
            .iter()
            .enumerate()
            .fold(0usize, |index, (slot, &piece)| {
                index | usize::from(cell_of(piece)) << (4 * slot)
            });
        u32::from(self.table[index])
    }
}

/// The tables of one board size.
pub struct PatternDatabases {
    groups: Vec<Group>,
    /// On square boards, each cell's mirror across the main diagonal.
    transpose: Option<[u8; MAX_CELLS]>,
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
        let databases = Arc::new(PatternDatabases::build(size.0, size.1));
        cache.push((size, Arc::clone(&databases)));
        Some(databases)
    }

    fn build(rows: u8, cols: u8) -> PatternDatabases {
        let groups = partition(rows, cols);
        // One thread a group: the two large tables of 4x4 take most of the time.
        let tables: Vec<Vec<u8>> = std::thread::scope(|scope| {
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
        });
        let groups = groups
            .into_iter()
            .zip(tables)
            .map(|(pieces, table)| Group { pieces, table })
            .collect();
        let transpose = (rows == cols).then(|| {
            let mut mirror = [0u8; MAX_CELLS];
            for (cell, image) in mirror.iter_mut().enumerate().take(usize::from(rows * cols)) {
                let (row, col) = (cell as u8 / cols, cell as u8 % cols);
                *image = col * cols + row;
            }
            mirror
        });
        PatternDatabases { groups, transpose }
    }

    /// Lower bound for the position with these top-left cells (piece `i` = tile `i + 1`).
    #[inline]
    pub fn estimate(&self, tops: &[u8]) -> u32 {
        let direct: u32 = self
            .groups
            .iter()
            .map(|group| group.lookup(|piece| tops[usize::from(piece)]))
            .sum();
        match &self.transpose {
            // In the transposed position the tile whose goal is cell g stands where the tile whose
            // goal is mirror(g) stands, mirrored.
            Some(mirror) => {
                let transposed: u32 = self
                    .groups
                    .iter()
                    .map(|group| {
                        group.lookup(|piece| {
                            mirror[usize::from(tops[usize::from(mirror[usize::from(piece)])])]
                        })
                    })
                    .sum();
                direct.max(transposed)
            }
            None => direct,
        }
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

/// One bit per (tiles' index, blank cell).
struct Bits(Vec<u64>);

impl Bits {
    fn new(len: usize) -> Bits {
        Bits(vec![0; len.div_ceil(64)])
    }

    fn get(&self, at: usize) -> bool {
        self.0[at / 64] >> (at % 64) & 1 == 1
    }

    fn set(&mut self, at: usize) {
        self.0[at / 64] |= 1 << (at % 64);
    }
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
    let size = 1usize << (4 * goals.len());
    let mut table = vec![UNSET; size];
    // (index << 4 | blank): `closed` once the blank's free region was spread, `queued` once the
    // entry is in a frontier.
    let mut closed = Bits::new(size << 4);
    let mut queued = Bits::new(size << 4);
    let start = goals
        .iter()
        .enumerate()
        .fold(0usize, |index, (slot, &cell)| {
            index | usize::from(cell) << (4 * slot)
        });
    let start_entry = start << 4 | (cells as usize - 1);
    queued.set(start_entry);
    let mut frontier = vec![start_entry as u32];
    let mut depth = 0u8;
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for &entry in &frontier {
            let entry = entry as usize;
            if closed.get(entry) {
                continue;
            }
            let (index, blank) = (entry >> 4, entry & 15);
            let mut cells_buffer = [0u32; MAX_GROUP];
            for (slot, cell) in cells_buffer.iter_mut().enumerate().take(goals.len()) {
                *cell = (index >> (4 * slot) & 15) as u32;
            }
            let tiles = &cells_buffer[..goals.len()];
            let free = board & !tiles.iter().fold(0, |mask, &cell| mask | 1 << cell);
            let mut region = 1u32 << blank;
            loop {
                let grown = spread(region) & free;
                if grown == region {
                    break;
                }
                region = grown;
            }
            for cell in super::puzzle::cells_of(u64::from(region)) {
                closed.set(index << 4 | usize::from(cell));
            }
            if table[index] == UNSET {
                table[index] = depth;
            }
            for (slot, &cell) in tiles.iter().enumerate() {
                for target in super::puzzle::cells_of(u64::from(spread(1 << cell) & region)) {
                    let moved = index ^ ((cell as usize ^ usize::from(target)) << (4 * slot));
                    let moved_entry = moved << 4 | cell as usize;
                    if !closed.get(moved_entry) && !queued.get(moved_entry) {
                        queued.set(moved_entry);
                        next.push(moved_entry as u32);
                    }
                }
            }
        }
        frontier = next;
        depth += 1;
    }
    // Placements no search can meet (two tiles on one cell, or the other parity class) stay
    // admissible at 0.
    for value in &mut table {
        if *value == UNSET {
            *value = 0;
        }
    }
    table
}
