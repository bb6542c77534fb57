//! Building a group's table: a breadth-first search from the goal over (the group's tiles'
//! placement, the blank's region), in layers of moves of the group's tiles. The other tiles
//! are indistinguishable, so the blank wanders among them for free: a state holds the whole
//! region of free cells the blank can reach, and a layer's states move one of the group's
//! tiles into that region. The depth at which a placement is first met is the fewest moves of
//! the group's tiles that bring them home, from any blank region.
//!
//! Each placement keeps the regions already met (16 bits: cells), so every state enters a
//! layer once; the table keeps `(depth - manhattan) / 2`, half a byte (see [`super`]). A layer
//! is split among the machine's cores, which meet in atomic updates of those two arrays.

use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU64, Ordering};

use super::rank::{Placement, cell_at, rank};
use super::spec::TableSpec;
use parlor_shared::klotski::Geometry;

/// Where a build is, for a progress bar: after each layer of each group.
#[derive(Clone, Copy, Debug)]
pub struct BuildProgress {
    /// The group being built (from 0) and how many there are.
    pub group: usize,
    pub groups: usize,
    /// Tiles of the group.
    pub tiles: usize,
    /// Moves of the group's tiles from the goal, done.
    pub depth: u32,
    /// Placements met so far, and all of them.
    pub reached: u64,
    pub placements: u64,
}

/// The most a table entry holds: a placement that needs more is kept at 15, a smaller lower
/// bound and so still admissible (none of the 4x4 tables' groups needs it).
const MAX_ENTRY: u32 = 15;

/// The tables of `spec`, one per group, `progress` told after every layer.
pub fn build_tables(spec: &TableSpec, progress: &(dyn Fn(&BuildProgress) + Sync)) -> Vec<Vec<u8>> {
    (0..spec.groups().len())
        .map(|group| build_table(spec, group, progress))
        .collect()
}

/// A frontier state: placement (bits 0-31), the blank's region (32-47), its tiles' Manhattan
/// distance from home (48-55).
fn state(placement: Placement, region: u32, manhattan: u32) -> u64 {
    u64::from(placement) | u64::from(region) << 32 | u64::from(manhattan) << 48
}

/// What a build needs of the board, worked out once.
struct Board {
    cells: u32,
    /// Each cell's neighbours.
    neighbours: [u32; 16],
    /// `distance[slot][cell]`: Manhattan distance of the slot's tile on `cell` from its home.
    distance: Vec<[u8; 16]>,
}

impl Board {
    /// The free cells the blank reaches from `start` (cells) through `free`.
    #[inline]
    fn region(&self, start: u32, free: u32) -> u32 {
        let mut region = start;
        loop {
            let grown = (region | self.around(region)) & free;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }

    #[inline]
    fn around(&self, cells: u32) -> u32 {
        let mut around = 0;
        let mut rest = cells;
        while rest != 0 {
            around |= self.neighbours[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        around
    }
}

fn build_table(
    spec: &TableSpec,
    group: usize,
    progress: &(dyn Fn(&BuildProgress) + Sync),
) -> Vec<u8> {
    let goals = &spec.groups()[group];
    let tiles = goals.len();
    let geometry = Geometry::new(spec.rows, spec.cols);
    let cells = u32::from(spec.cells());
    let mut neighbours = [0u32; 16];
    for (cell, around) in neighbours.iter_mut().enumerate().take(cells as usize) {
        for other in 0..cells {
            if geometry.manhattan(cell as u8, other as u8) == 1 {
                *around |= 1 << other;
            }
        }
    }
    let distance = (goals.iter())
        .map(|&goal| std::array::from_fn(|cell| geometry.manhattan(cell as u8, goal) as u8))
        .collect();
    let board = Board {
        cells,
        neighbours,
        distance,
    };
    let placements = spec.placements()[group];
    let regions: Vec<AtomicU16> = std::iter::repeat_with(|| AtomicU16::new(0))
        .take(placements)
        .collect();
    let table: Vec<AtomicU8> = std::iter::repeat_with(|| AtomicU8::new(0))
        .take(placements.div_ceil(2))
        .collect();
    let home = (goals.iter().enumerate())
        .fold(0, |placement, (slot, &goal)| placement | u32::from(goal) << (4 * slot));
    let all_cells = (1u32 << cells) - 1;
    let free = all_cells & !goals.iter().fold(0, |taken, &goal| taken | 1 << goal);
    let region = board.region(1 << (cells - 1), free);
    regions[rank(home, tiles, cells)].store(region as u16, Ordering::Relaxed);
    let reached = AtomicU64::new(1);
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    // One part a worker: each takes the part it made in the layer before.
    let mut frontier = vec![vec![state(home, region, 0)]];
    let mut depth = 0;
    while frontier.iter().any(|part| !part.is_empty()) {
        let layer = Layer {
            board: &board,
            tiles,
            depth,
            regions: &regions,
            table: &table,
            reached: &reached,
        };
        let parts = split(frontier, workers);
        frontier = std::thread::scope(|scope| {
            let layer = &layer;
            let handles: Vec<_> = (parts.into_iter())
                .map(|part| scope.spawn(move || layer.expand(&part)))
                .collect();
            (handles.into_iter())
                .map(|handle| {
                    handle
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .collect()
        });
        depth += 1;
        progress(&BuildProgress {
            group,
            groups: spec.groups().len(),
            tiles,
            depth,
            reached: reached.load(Ordering::Relaxed),
            placements: placements as u64,
        });
    }
    table.into_iter().map(AtomicU8::into_inner).collect()
}

/// Shares the states of `parts` among `workers` parts of about equal size.
fn split(parts: Vec<Vec<u64>>, workers: usize) -> Vec<Vec<u64>> {
    let total: usize = parts.iter().map(Vec::len).sum();
    if parts.len() == workers && parts.iter().all(|part| part.len() * workers <= total * 2) {
        return parts;
    }
    let all: Vec<u64> = parts.into_iter().flatten().collect();
    all.chunks(total.div_ceil(workers).max(1))
        .map(<[u64]>::to_vec)
        .collect()
}

/// One layer of a build, shared by its workers.
struct Layer<'a> {
    board: &'a Board,
    tiles: usize,
    depth: u32,
    regions: &'a [AtomicU16],
    table: &'a [AtomicU8],
    reached: &'a AtomicU64,
}

impl Layer<'_> {
    /// The states one move of a group's tile from those of `part`, not met before.
    fn expand(&self, part: &[u64]) -> Vec<u64> {
        let board = self.board;
        let mut next = Vec::with_capacity(part.len() * 2);
        let mut first_met = 0;
        for &entry in part {
            let placement = entry as u32;
            let region = (entry >> 32) as u32 & 0xFFFF;
            let manhattan = (entry >> 48) as u32;
            let taken = (0..self.tiles).fold(0u32, |taken, slot| {
                taken | 1 << cell_at(placement, slot)
            });
            let free = ((1u32 << board.cells) - 1) & !taken;
            for slot in 0..self.tiles {
                let cell = cell_at(placement, slot);
                let mut targets = board.neighbours[usize::from(cell)] & region;
                while targets != 0 {
                    let target = targets.trailing_zeros();
                    targets &= targets - 1;
                    let moved = placement ^ (u32::from(cell) ^ target) << (4 * slot);
                    let moved_free = (free & !(1 << target)) | 1 << cell;
                    let moved_region = board.region(1 << cell, moved_free);
                    let index = rank(moved, self.tiles, board.cells);
                    let before =
                        self.regions[index].fetch_or(moved_region as u16, Ordering::Relaxed);
                    if u32::from(before) & moved_region != 0 {
                        continue;
                    }
                    let distance = &board.distance[slot];
                    let moved_manhattan = manhattan + u32::from(distance[target as usize])
                        - u32::from(distance[usize::from(cell)]);
                    if before == 0 {
                        first_met += 1;
                        // Moves of the group's tiles and their Manhattan distance have the same
                        // parity, and there are at least as many moves.
                        let extra = ((self.depth + 1 - moved_manhattan) / 2).min(MAX_ENTRY);
                        let shift = (index & 1) * 4;
                        self.table[index >> 1].fetch_or((extra as u8) << shift, Ordering::Relaxed);
                    }
                    next.push(state(moved, moved_region, moved_manhattan));
                }
            }
        }
        self.reached.fetch_add(first_met, Ordering::Relaxed);
        next
    }
}
