//! Which pieces share a table: pieces whose goals lie close together get in each other's way
//! most, and a table only sees the interactions inside its group, so groups are grown around
//! a seed by nearness of goals. Partitions seeded from different corners of the goal cut the
//! board along different lines, and the search takes the largest of their sums.

use parlor_shared::klotski::Puzzle;

/// Most groups a set of tables may hold, over all its partitions (each group is a table, and
/// a position's estimate keeps one index per table).
pub(crate) const MAX_TABLES: usize = 32;
/// Partitions at most (their sums' maximum is the bound). On the 5x6 sample, IDA*'s rounds to
/// bound 88 took 150 s with two partitions, 67 s with four, 46-53 s with six, 47 s with eight:
/// each partition more costs a lookup a move, and past six that eats what it saves. Each also
/// costs its fitting and its tables: 74 MiB and some 15 s of one core there.
pub(crate) const MAX_PARTITIONS: usize = 6;
/// Entries a table may have at most: a byte each, so 32 MiB. Why not groups of six (30^6
/// entries on a 5x6 board): fitted to the 5x6 sample's start they took 22 minutes and 4.7 GB to
/// build, and two partitions of them proved 92 in a 15-minute IDA*, as six of groups of five do.
pub(crate) const MAX_ENTRIES: u64 = 1 << 25;

/// The pieces of each group, by piece index, for every partition; `None` if the board has too
/// many pieces for [`MAX_TABLES`] tables of at most [`MAX_ENTRIES`] entries.
pub(crate) fn partitions(puzzle: &Puzzle) -> Option<Vec<Vec<Vec<usize>>>> {
    let pieces = puzzle.pieces().len();
    let size = largest_group(puzzle.geometry().cells() as u64, pieces);
    partitions_of(puzzle, size)
}

/// The partitions into groups of at most `size` pieces (see [`partitions`]).
pub(crate) fn partitions_of(puzzle: &Puzzle, size: usize) -> Option<Vec<Vec<Vec<usize>>>> {
    let pieces = puzzle.pieces().len();
    if pieces == 0 || size == 0 {
        return None;
    }
    let groups = pieces.div_ceil(size);
    if groups > MAX_TABLES {
        return None;
    }
    let count = (MAX_TABLES / groups).min(MAX_PARTITIONS);
    let mut partitions: Vec<Vec<Vec<usize>>> = Vec::with_capacity(count);
    for start in every_seeding() {
        if partitions.len() == count {
            break;
        }
        // With a single group, or on a board whose goal looks alike from two corners, two
        // orders may grow one partition.
        push_unless_held(&mut partitions, grow(puzzle, &start.order(puzzle), groups));
    }
    Some(partitions)
}

/// Adds `groups` to `partitions` unless one of them has the same groups, in any order: the
/// same sum twice would only cost time. Groups list their pieces in order, as `grow` and the
/// fitting leave them.
pub(crate) fn push_unless_held(partitions: &mut Vec<Vec<Vec<usize>>>, groups: Vec<Vec<usize>>) {
    let as_set = |groups: &[Vec<usize>]| {
        let mut set = groups.to_vec();
        set.sort_unstable();
        set
    };
    let set = as_set(&groups);
    if !partitions.iter().any(|held| as_set(held) == set) {
        partitions.push(groups);
    }
}

/// Where a partition's groups are seeded: at a corner of the goal, taking the next seed along
/// the rows or along the columns. Opposite corners come first: their partitions cut the board
/// along the most different lines.
#[derive(Clone, Copy)]
struct GrownFrom {
    bottom: bool,
    right: bool,
    by_columns: bool,
}

/// The goal's corners as (bottom, right), opposite ones first.
const CORNERS: [(bool, bool); 4] = [(false, false), (true, true), (false, true), (true, false)];

/// Every seeding: from each corner along the rows, then from each along the columns.
fn every_seeding() -> impl Iterator<Item = GrownFrom> {
    [false, true].into_iter().flat_map(|by_columns| {
        CORNERS.map(|(bottom, right)| GrownFrom {
            bottom,
            right,
            by_columns,
        })
    })
}

impl GrownFrom {
    /// The pieces by their goal's distance from the corner, row by row or column by column.
    fn order(self, puzzle: &Puzzle) -> Vec<usize> {
        let geometry = puzzle.geometry();
        let (rows, cols) = (geometry.rows(), geometry.cols());
        let goals = puzzle.goal_tops();
        let mut order: Vec<usize> = (0..goals.len()).collect();
        order.sort_by_key(|&piece| {
            let (row, col) = (goals[piece] / cols, goals[piece] % cols);
            let row = if self.bottom { rows - 1 - row } else { row };
            let col = if self.right { cols - 1 - col } else { col };
            if self.by_columns {
                (col, row)
            } else {
                (row, col)
            }
        });
        order
    }
}

/// The most pieces a table may hold on a board of `cells` cells: tables index a placement by
/// its pieces' top-left cells in base `cells`, so `cells^size` entries.
fn largest_group(cells: u64, pieces: usize) -> usize {
    let mut size = 0;
    while size < pieces && cells.pow(size as u32 + 1) <= MAX_ENTRIES {
        size += 1;
    }
    size
}

/// `groups` groups of balanced sizes: each starts from the first free piece in `order` and
/// takes, one at a time, the free piece whose goal is nearest (summed Manhattan distance) to
/// the goals of those it holds, the earlier in `order` on ties.
fn grow(puzzle: &Puzzle, order: &[usize], groups: usize) -> Vec<Vec<usize>> {
    let geometry = puzzle.geometry();
    let goals = puzzle.goal_tops();
    let distance = |a: usize, b: usize| geometry.manhattan(goals[a], goals[b]);
    let mut free: Vec<usize> = order.to_vec();
    let (base, larger) = (order.len() / groups, order.len() % groups);
    (0..groups)
        .map(|group| {
            let size = base + usize::from(group < larger);
            let mut members = vec![free.remove(0)];
            while members.len() < size {
                let (at, _) = free
                    .iter()
                    .enumerate()
                    .min_by_key(|&(at, &piece)| {
                        let near: u32 = members.iter().map(|&m| distance(m, piece)).sum();
                        (near, at)
                    })
                    .expect("enough free pieces for every group");
                members.push(free.remove(at));
            }
            members.sort_unstable();
            members
        })
        .collect()
}
