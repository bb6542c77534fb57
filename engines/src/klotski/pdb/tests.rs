//! The tables against plain searches that share no code with them: each group's table against
//! a 0-1 breadth-first search over (placement, blank) with the blank moving for free through
//! other tiles, and the reflected bound against the true distance of every 3x3 position and of
//! 15-puzzles near the goal.

use std::collections::{HashMap, VecDeque};

use proptest::prelude::*;

use super::rank::{cell_bits, nibble, rank};
use super::*;

/// Fewest moves of the group's tiles (goal cells `goals`) home, for every placement, by a 0-1
/// breadth-first search over (cells of the group's tiles, blank's cell) from the goal.
fn plain_distances(rows: usize, cols: usize, goals: &[u8]) -> HashMap<Vec<u8>, u32> {
    let cells = rows * cols;
    let start = (goals.to_vec(), (cells - 1) as u8);
    let mut best: HashMap<(Vec<u8>, u8), u32> = HashMap::from([(start.clone(), 0)]);
    let mut queue = VecDeque::from([(start, 0u32)]);
    while let Some(((tiles, blank), cost)) = queue.pop_front() {
        if best[&(tiles.clone(), blank)] < cost {
            continue;
        }
        let (row, col) = (usize::from(blank) / cols, usize::from(blank) % cols);
        let mut next = Vec::new();
        if row > 0 {
            next.push(blank as usize - cols);
        }
        if row + 1 < rows {
            next.push(blank as usize + cols);
        }
        if col > 0 {
            next.push(blank as usize - 1);
        }
        if col + 1 < cols {
            next.push(blank as usize + 1);
        }
        for cell in next {
            let mut moved = tiles.clone();
            let step = match moved.iter().position(|&tile| usize::from(tile) == cell) {
                Some(slot) => {
                    moved[slot] = blank;
                    1
                }
                None => 0,
            };
            let state = (moved, cell as u8);
            if best.get(&state).is_none_or(|&known| known > cost + step) {
                best.insert(state.clone(), cost + step);
                if step == 0 {
                    queue.push_front((state, cost));
                } else {
                    queue.push_back((state, cost + 1));
                }
            }
        }
    }
    let mut by_placement: HashMap<Vec<u8>, u32> = HashMap::new();
    for ((tiles, _), cost) in best {
        let entry = by_placement.entry(tiles).or_insert(cost);
        *entry = (*entry).min(cost);
    }
    by_placement
}

#[test]
fn every_table_agrees_with_a_plain_search_of_its_group() {
    let specs = [
        TableSpec::on_demand(3, 3),
        TableSpec::on_demand(2, 4),
        TableSpec::on_demand(2, 3),
        TableSpec::new(4, 4, vec![vec![9, 13, 14], vec![0, 5, 10, 15 - 1]]),
        // Boards of more than 16 cells: 5-bit cells and 32-bit regions.
        TableSpec::new(5, 5, vec![vec![12, 18, 23], vec![0, 6, 24 - 1]]),
        TableSpec::new(3, 6, vec![vec![5, 11, 16], vec![0, 1]]),
    ];
    for spec in specs {
        let (rows, cols) = (usize::from(spec.rows), usize::from(spec.cols));
        let tables = build_tables(&spec, &|_| {});
        for (group, goals) in spec.groups().iter().enumerate() {
            let distances = plain_distances(rows, cols, goals);
            // A group of every tile meets only the placements of the goal's parity.
            let reachable = match goals.len() == rows * cols - 1 {
                true => spec.placements()[group] / 2,
                false => spec.placements()[group],
            };
            assert_eq!(distances.len(), reachable, "{}", spec.label());
            for (tiles, moves) in distances {
                let bits = cell_bits((rows * cols) as u32);
                let placement = (tiles.iter().enumerate()).fold(0, |packed, (slot, &cell)| {
                    packed | u32::from(cell) << (bits * slot as u32)
                });
                let manhattan: u32 = (tiles.iter().zip(goals))
                    .map(|(&cell, &goal)| {
                        let (cell, goal) = (usize::from(cell), usize::from(goal));
                        ((cell / cols).abs_diff(goal / cols) + (cell % cols).abs_diff(goal % cols))
                            as u32
                    })
                    .sum();
                let entry = nibble(
                    &tables[group],
                    rank(placement, goals.len(), (rows * cols) as u32),
                );
                assert_eq!(
                    u32::from(entry),
                    ((moves - manhattan) / 2).min(15),
                    "{} group {group}, tiles at {tiles:?}",
                    spec.label()
                );
            }
        }
    }
}

/// The databases of `spec`, built now.
fn databases(spec: TableSpec) -> PatternDatabases {
    let data = TableData::built(build_tables(&spec, &|_| {}));
    PatternDatabases::new(spec, data)
}

/// Each tile's cell (piece `i` is tile `i + 1`) on a board given cell by cell (0 the blank).
fn tops_of(board: &[u8]) -> Vec<u8> {
    let mut tops = vec![0; board.len() - 1];
    for (cell, &tile) in board.iter().enumerate() {
        if tile != 0 {
            tops[usize::from(tile) - 1] = cell as u8;
        }
    }
    tops
}

/// The board mirrored across the main diagonal, each tile renamed to the tile whose goal is
/// the mirror of its goal.
fn reflected(board: &[u8], side: usize) -> Vec<u8> {
    let mirror = |cell: usize| (cell % side) * side + cell / side;
    let mut out = vec![0; board.len()];
    for (cell, &tile) in board.iter().enumerate() {
        out[mirror(cell)] = match tile {
            0 => 0,
            tile => mirror(usize::from(tile) - 1) as u8 + 1,
        };
    }
    out
}

#[test]
fn on_three_by_three_the_reflected_bound_never_overestimates_and_reflection_keeps_distances() {
    let goal: Vec<u8> = vec![1, 2, 3, 4, 5, 6, 7, 8, 0];
    let distance = distances(&goal, 3, None);
    assert_eq!(distance.len(), 181_440);
    let databases = databases(TableSpec::on_demand(3, 3));
    let lookup = databases.lookup();
    let mut reflection_helped = 0;
    for (board, &moves) in &distance {
        assert_eq!(distance[&reflected(board, 3)], moves, "{board:?}");
        let indices = lookup.indices(&tops_of(board));
        assert!(
            lookup.value(&indices) <= moves,
            "{board:?}: {indices:?}, {moves} moves"
        );
        if indices.reflected_extra > indices.direct_extra {
            reflection_helped += 1;
        }
    }
    assert!(reflection_helped > 10_000, "{reflection_helped}");
}

/// The 15-puzzle after a walk of `choices` from the goal, cell by cell.
fn walked(choices: &[u8]) -> Vec<u8> {
    let mut board: Vec<u8> = (1..16).chain([0]).collect();
    let mut blank = 15usize;
    for &choice in choices {
        let around: Vec<usize> = (0..16)
            .filter(|&cell: &usize| {
                (cell / 4).abs_diff(blank / 4) + (cell % 4).abs_diff(blank % 4) == 1
            })
            .collect();
        let cell = around[usize::from(choice) % around.len()];
        board.swap(cell, blank);
        blank = cell;
    }
    board
}

/// Distances from `start` of the square boards of side `side` (cell by cell, 0 the blank), by
/// breadth-first search over whole boards: all of them, or those up to `goal`'s.
fn distances(start: &[u8], side: usize, goal: Option<&[u8]>) -> HashMap<Vec<u8>, u32> {
    let mut seen = HashMap::from([(start.to_vec(), 0u32)]);
    let mut queue = VecDeque::from([start.to_vec()]);
    while let Some(board) = queue.pop_front() {
        if Some(board.as_slice()) == goal {
            break;
        }
        let blank = board.iter().position(|&tile| tile == 0).unwrap();
        for cell in 0..side * side {
            if (cell / side).abs_diff(blank / side) + (cell % side).abs_diff(blank % side) == 1 {
                let mut next = board.clone();
                next.swap(cell, blank);
                if !seen.contains_key(&next) {
                    seen.insert(next.clone(), seen[&board] + 1);
                    queue.push_back(next);
                }
            }
        }
    }
    seen
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn on_the_fifteen_puzzle_the_reflected_bound_never_overestimates(
        choices in prop::collection::vec(any::<u8>(), 0..=14),
    ) {
        static SMALL: OnceLock<PatternDatabases> = OnceLock::new();
        let databases = SMALL.get_or_init(|| databases(TableSpec::on_demand(4, 4)));
        let lookup = databases.lookup();
        let board = walked(&choices);
        let goal: Vec<u8> = (1..16).chain([0]).collect();
        let moves = distances(&board, 4, Some(&goal))[&goal];
        let indices = lookup.indices(&tops_of(&board));
        prop_assert!(lookup.value(&indices) <= moves, "{:?}: {:?}, {} moves", board, indices, moves);
        // The reflected board is as far, and its own bound no nearer the truth than this one.
        let mirror = lookup.indices(&tops_of(&reflected(&board, 4)));
        prop_assert_eq!(lookup.value(&mirror), lookup.value(&indices));
    }
}

#[test]
fn the_kept_splits_cover_every_tile_once_and_are_never_built_in_a_search() {
    for (spec, tiles) in [
        (TableSpec::seven_eight(), 15u8),
        (TableSpec::six_six_six_six(), 24),
    ] {
        let mut covered: Vec<u8> = spec.groups().concat();
        covered.sort_unstable();
        assert_eq!(covered, (0..tiles).collect::<Vec<_>>(), "{}", spec.label());
        assert!(!spec.built_in_search(), "{}", spec.label());
        let (rows, cols) = (spec.rows, spec.cols);
        assert_eq!(TableSpec::all(rows, cols)[0], spec);
    }
    // What a search builds when they are missing: groups of about a second's build each.
    for (rows, cols, name) in [(4, 4, "6-6-3"), (5, 5, "5-5-5-5-4"), (4, 5, "5-5-5-4")] {
        let spec = TableSpec::on_demand(rows, cols);
        assert_eq!(spec.name(), name);
        assert!(spec.built_in_search(), "{}", spec.label());
    }
}
