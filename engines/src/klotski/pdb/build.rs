//! Building a group's table: a breadth-first search from the goal over (the group's tiles'
//! placement, the blank's region), in layers of moves of the group's tiles. The other tiles
//! are indistinguishable, so the blank wanders among them for free: a state holds the whole
//! region of free cells the blank can reach, and a layer's states move one of the group's
//! tiles into that region. The depth at which a placement is first met is the fewest moves of
//! the group's tiles that bring them home, from any blank region. Each placement keeps the
//! regions already met (a bit a cell: 16 or 32 bits), so every state enters a layer once; the
//! table keeps `(depth - manhattan) / 2`, half a byte (see [`super`]).
//!
//! The 8-tile table has 519 million placements, and a layer's moves land all over them: met
//! one by one, each would be a miss of the processor's caches. So a layer goes in chunks of
//! states, each in two steps: every move is made and put in a bucket by the first three cells
//! of its placement (which fix a run of the table: 154,440 placements, 302 KiB of regions for
//! the 8 tiles), then each bucket's moves are met against their run, which stays in the cache,
//! the regions of a few moves ahead asked for early. The buckets are shared among the cores,
//! each core owning whole runs, so nothing is shared while written.

use super::rank::{Placement, cell_at, cell_bits, rank, rank_prefix};
use super::spec::{MAX_CELLS, TableSpec};
use crate::klotski::parallel::parallel;
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
/// States of a layer expanded together: their moves (about ten each, eight bytes a move, so
/// some 300 MB) are held until they are met; the more, the more of them meet a run while it is
/// in the cache.
const CHUNK: usize = 1 << 22;
/// Tiles whose cells choose a move's bucket, at most: three on tables too large for the
/// processor's caches, one (a bucket per worker or so) on those that fit.
const BUCKET_TILES: usize = 3;
/// Placements of the largest table that fits the caches (2 bytes of regions each).
const CACHED_PLACEMENTS: usize = 1 << 23;
/// Moves whose regions are asked for ahead of their meeting.
const AHEAD: usize = 16;

/// The tables of `spec`, one per group, `progress` told after every layer.
pub fn build_tables(spec: &TableSpec, progress: &(dyn Fn(&BuildProgress) + Sync)) -> Vec<Vec<u8>> {
    (0..spec.groups().len())
        .map(|group| match spec.cells() <= 16 {
            // Half the memory for the regions of the 4x4 tables, and twice the placements in
            // the processor's caches.
            true => build_table::<u16>(spec, group, progress),
            false => build_table::<u32>(spec, group, progress),
        })
        .collect()
}

/// The regions met at a placement, a bit a cell: 16 bits on boards of up to 16 cells, else 32.
trait Regions: Copy + Default + Send + Sync {
    fn from_cells(cells: u32) -> Self;
    fn cells(self) -> u32;
}

impl Regions for u16 {
    #[inline]
    fn from_cells(cells: u32) -> u16 {
        cells as u16
    }
    #[inline]
    fn cells(self) -> u32 {
        u32::from(self)
    }
}

impl Regions for u32 {
    #[inline]
    fn from_cells(cells: u32) -> u32 {
        cells
    }
    #[inline]
    fn cells(self) -> u32 {
        self
    }
}

/// What a build needs of the board and the group, worked out once.
struct Board {
    tiles: usize,
    cells: u32,
    /// Bits of a cell in a placement.
    bits: u32,
    all_cells: u32,
    /// Each cell's neighbours.
    neighbours: [u32; MAX_CELLS],
    first_col: u32,
    last_col: u32,
    cols: u32,
    /// `distance[slot][cell]`: Manhattan distance of the slot's tile on `cell` from its home.
    distance: Vec<[u8; MAX_CELLS]>,
    /// Tiles whose cells choose a bucket, and the placements a bucket holds (a run of the
    /// table, even, so that its half bytes are its own).
    bucket_tiles: usize,
    bucket_len: usize,
}

impl Board {
    /// A state: the placement (the low `tiles * bits` bits), then the blank's region (a bit a
    /// cell), then the tiles' Manhattan distance from home: at most 56 bits on 4x4 (eight tiles
    /// of 4 bits, 16 cells, a distance under 64), 61 on 5x5 (six tiles of 5 bits, 25 cells, a
    /// distance of at most 48).
    #[inline]
    fn state(&self, placement: Placement, region: u32, manhattan: u32) -> u64 {
        let region_at = self.tiles as u32 * self.bits;
        u64::from(placement)
            | u64::from(region) << region_at
            | u64::from(manhattan) << (region_at + self.cells)
    }

    /// A state's placement, region and Manhattan distance.
    #[inline]
    fn parts(&self, state: u64) -> (Placement, u32, u32) {
        let region_at = self.tiles as u32 * self.bits;
        let placement = (state & ((1 << region_at) - 1)) as Placement;
        let region = (state >> region_at) as u32 & self.all_cells;
        (
            placement,
            region,
            (state >> (region_at + self.cells)) as u32,
        )
    }

    /// A move not yet met: as a state, the cell its tile left (where the blank now is) in the
    /// region's place.
    #[inline]
    fn candidate(&self, placement: Placement, vacated: u32, manhattan: u32) -> u64 {
        self.state(placement, vacated, manhattan)
    }

    /// The free cells the blank reaches from `start` (cells) through `free`.
    #[inline]
    fn region(&self, start: u32, free: u32) -> u32 {
        let mut region = start;
        loop {
            let spread = region
                | (region >> 1) & !self.last_col
                | (region << 1) & !self.first_col
                | region >> self.cols
                | region << self.cols;
            let grown = spread & free;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }

    #[inline]
    fn free(&self, placement: Placement) -> u32 {
        let taken = (0..self.tiles).fold(0u32, |taken, slot| {
            taken | 1 << cell_at(placement, slot, self.bits)
        });
        self.all_cells & !taken
    }
}

fn build_table<R: Regions>(
    spec: &TableSpec,
    group: usize,
    progress: &(dyn Fn(&BuildProgress) + Sync),
) -> Vec<u8> {
    let goals = &spec.groups()[group];
    let tiles = goals.len();
    let geometry = Geometry::new(spec.rows, spec.cols);
    let cells = u32::from(spec.cells());
    let cols = u32::from(spec.cols);
    let mut neighbours = [0u32; MAX_CELLS];
    for (cell, around) in neighbours.iter_mut().enumerate().take(cells as usize) {
        for other in 0..cells {
            if geometry.manhattan(cell as u8, other as u8) == 1 {
                *around |= 1 << other;
            }
        }
    }
    let first_col = (0..u32::from(spec.rows)).fold(0, |mask, row| mask | 1 << (row * cols));
    let placements = spec.placements()[group];
    // Runs fixed by the first d tiles' cells: (cells - d)! / (cells - tiles)! placements; the
    // most tiles that give runs of an even length (one run, the whole table, if none does).
    let run =
        |fixed: usize| -> usize { (cells as usize - tiles + 1..=cells as usize - fixed).product() };
    let most_tiles = match placements > CACHED_PLACEMENTS {
        true => BUCKET_TILES,
        false => 1,
    };
    let bucket_tiles = (1..tiles.min(most_tiles + 1))
        .rev()
        .find(|&fixed| run(fixed) % 2 == 0)
        .unwrap_or(0);
    let bucket_len = match bucket_tiles {
        0 => placements.next_multiple_of(2),
        fixed => run(fixed),
    };
    let board = Board {
        tiles,
        cells,
        bits: cell_bits(cells),
        all_cells: ((1u64 << cells) - 1) as u32,
        neighbours,
        first_col,
        last_col: first_col << (cols - 1),
        cols,
        distance: (goals.iter())
            .map(|&goal| std::array::from_fn(|cell| geometry.manhattan(cell as u8, goal) as u8))
            .collect(),
        bucket_tiles,
        bucket_len,
    };
    let buckets = placements.div_ceil(bucket_len);
    let mut regions = vec![R::default(); buckets * bucket_len];
    let mut table = vec![0u8; buckets * bucket_len / 2];
    let home = (goals.iter().enumerate()).fold(0, |placement, (slot, &goal)| {
        placement | u32::from(goal) << (board.bits * slot as u32)
    });
    let region = board.region(1 << (cells - 1), board.free(home));
    regions[rank(home, tiles, cells)] = R::from_cells(region);
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    let mut reached = 1u64;
    let mut frontier = vec![board.state(home, region, 0)];
    let mut depth = 0;

    while !frontier.is_empty() {
        let mut next = Vec::new();
        // Each worker's moves by bucket, kept from chunk to chunk (made anew, their pages would
        // be cleared by the system each time: a seventh of the build's time), and from layer
        // to layer no longer, since each bucket keeps the room of its largest chunk.
        let mut moves: Vec<Vec<Vec<u64>>> = vec![vec![Vec::new(); buckets]; workers];
        for chunk in frontier.chunks(CHUNK) {
            // Emptied whole: a chunk of fewer states than workers leaves some buffers unused.
            moves.iter_mut().flatten().for_each(Vec::clear);
            let parts = chunk.chunks(chunk.len().div_ceil(workers));
            parallel(parts.zip(moves.iter_mut()), |(part, by_bucket)| {
                board.moves(part, by_bucket)
            });
            let moves = &moves;
            // Each worker takes every `workers`-th run of the table, whole.
            let mut runs: Vec<Vec<Run<R>>> = (0..workers).map(|_| Vec::new()).collect();
            for (bucket, (regions, table)) in (regions.chunks_mut(bucket_len))
                .zip(table.chunks_mut(bucket_len / 2))
                .enumerate()
            {
                runs[bucket % workers].push(Run {
                    bucket,
                    regions,
                    table,
                });
            }
            let met = parallel(runs, |runs| {
                let mut states = Vec::new();
                let mut first_met = 0;
                for Run {
                    bucket,
                    regions,
                    table,
                } in runs
                {
                    for made in moves {
                        first_met += board.meet(
                            &made[bucket],
                            depth + 1,
                            bucket,
                            regions,
                            table,
                            &mut states,
                        );
                    }
                }
                (states, first_met)
            });
            for (states, first_met) in met {
                next.extend(states);
                reached += first_met;
            }
        }
        frontier = next;
        depth += 1;
        progress(&BuildProgress {
            group,
            groups: spec.groups().len(),
            tiles,
            depth,
            reached,
            placements: placements as u64,
        });
    }
    table.truncate(placements.div_ceil(2));
    table
}

/// A bucket's run of the table: its placements' regions and entries.
struct Run<'a, R> {
    bucket: usize,
    regions: &'a mut [R],
    table: &'a mut [u8],
}

impl Board {
    /// Every move of a group's tile from the states of `part`, added to `by_bucket`.
    fn moves(&self, part: &[u64], by_bucket: &mut [Vec<u64>]) {
        for &entry in part {
            let (placement, region, manhattan) = self.parts(entry);
            for slot in 0..self.tiles {
                let cell = cell_at(placement, slot, self.bits);
                let mut targets = self.neighbours[usize::from(cell)] & region;
                while targets != 0 {
                    let target = targets.trailing_zeros();
                    targets &= targets - 1;
                    let moved = placement ^ (u32::from(cell) ^ target) << (self.bits * slot as u32);
                    let distance = &self.distance[slot];
                    let moved_manhattan = manhattan + u32::from(distance[target as usize])
                        - u32::from(distance[usize::from(cell)]);
                    let bucket = rank_prefix(moved, self.bucket_tiles, self.cells);
                    by_bucket[bucket].push(self.candidate(moved, u32::from(cell), moved_manhattan));
                }
            }
        }
    }

    /// Meets the moves of one bucket against its run of the table (`regions` and `table`),
    /// at `depth`: the states not met before go to `states`. How many placements were met
    /// for the first time.
    fn meet<R: Regions>(
        &self,
        moves: &[u64],
        depth: u32,
        bucket: usize,
        regions: &mut [R],
        table: &mut [u8],
        states: &mut Vec<u64>,
    ) -> u64 {
        let mut first_met = 0;
        let start = bucket * self.bucket_len;
        let index_of = |made: u64| rank(made as u32, self.tiles, self.cells) - start;
        let mut ahead = [0usize; AHEAD];
        for (at, &made) in moves.iter().enumerate() {
            // The region of the move AHEAD places on, asked for now, is there when it is met.
            let slot = at % AHEAD;
            let index = match at {
                0 => {
                    for (early, &made) in ahead.iter_mut().zip(moves) {
                        *early = index_of(made);
                        prefetch(&regions[*early]);
                    }
                    ahead[0]
                }
                _ => ahead[slot],
            };
            if let Some(&later) = moves.get(at + AHEAD) {
                ahead[slot] = index_of(later);
                prefetch(&regions[ahead[slot]]);
            }
            let (placement, blank, manhattan) = self.parts(made);
            let before = regions[index].cells();
            if before & 1 << blank != 0 {
                continue;
            }
            let region = self.region(1 << blank, self.free(placement));
            regions[index] = R::from_cells(before | region);
            if before == 0 {
                first_met += 1;
                // Moves of the group's tiles and their Manhattan distance have the same
                // parity, and there are at least as many moves.
                let extra = ((depth - manhattan) / 2).min(MAX_ENTRY);
                table[index >> 1] |= (extra as u8) << ((index & 1) * 4);
            }
            states.push(self.state(placement, region, manhattan));
        }
        first_met
    }
}

/// Asks the processor to bring `value`'s cache line in (a hint: it changes no memory).
#[inline]
fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing the program sees and cannot fault; `value` is a valid
    // reference anyway.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
