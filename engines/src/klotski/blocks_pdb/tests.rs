//! The tables against exact distances: every position of small boards with blocks and two or
//! three blanks, its true distance found by a breadth-first search from the goal over real
//! positions. A table that over-estimates anywhere fails `never_over_estimate`.

use std::collections::{HashMap, VecDeque};

use parlor_shared::klotski::{Position, Puzzle, parse_puzzle};

use super::BlockDatabases;
use super::build::Group;
use super::choose::{group_distance, improved_for_start, start_value};

/// Goal pictures with blocks and several blanks, small enough to search whole.
const BOARDS: &[&str] = &[
    // A 2x1 block, two blanks.
    "3 3\n1 2 3\n4 5 6\n7 0 0\n1\n1 2*1\n",
    // A 2x2 block, three blanks.
    "3 4\n1 2 3 4\n5 6 7 8\n9 0 0 0\n1\n2 2*2\n",
    // A 1x2 and a 2x1 block, two blanks.
    "3 4\n1 2 3 4\n5 6 7 8\n9 10 0 0\n2\n1 1*2\n4 2*1\n",
    // Singles only, three blanks.
    "2 5\n1 2 3 4 5\n6 7 0 0 0\n0\n",
];

/// Every position reachable from the goal with its distance (moves are reversible, so the
/// distance from the goal is the distance to it).
fn distances(puzzle: &Puzzle) -> HashMap<Position, u32> {
    let goal = puzzle.start().clone();
    assert!(puzzle.is_goal(&goal), "the boards are given solved");
    let mut distance = HashMap::from([(goal.clone(), 0)]);
    let mut queue = VecDeque::from([goal]);
    while let Some(position) = queue.pop_front() {
        let here = distance[&position];
        for mv in puzzle.legal_moves(&position) {
            let next = puzzle.apply(&position, mv).unwrap();
            distance.entry(next.clone()).or_insert_with(|| {
                queue.push_back(next);
                here + 1
            });
        }
    }
    distance
}

fn board(text: &str) -> Puzzle {
    parse_puzzle(text).unwrap()
}

#[test]
fn never_over_estimate() {
    for text in BOARDS {
        let puzzle = board(text);
        let distance = distances(&puzzle);
        for size in 1..puzzle.pieces().len() {
            let tables = BlockDatabases::with_group_size(&puzzle, size).unwrap();
            let mut above_manhattan = 0;
            for (position, &exact) in &distance {
                let bound = tables.value(&tables.indices(position.tops()));
                assert!(
                    bound <= exact,
                    "{}: h {bound} > distance {exact} at {:?}\n{text}",
                    tables.label(),
                    position.tops()
                );
                let manhattan: u32 = (puzzle.pieces().iter().zip(position.tops()))
                    .map(|(piece, &top)| puzzle.geometry().manhattan(top, (piece.label - 1) as u8))
                    .sum();
                assert!(bound >= manhattan, "tables below Manhattan\n{text}");
                above_manhattan += u32::from(bound > manhattan);
            }
            // Groups of two or more see their pieces in each other's way somewhere.
            assert!(
                size == 1 || above_manhattan > 0,
                "{}\n{text}",
                tables.label()
            );
        }
    }
}

#[test]
fn one_group_of_every_piece_is_exact() {
    // With no other pieces the abstraction is the puzzle itself.
    for text in BOARDS {
        let puzzle = board(text);
        let tables = BlockDatabases::with_group_size(&puzzle, puzzle.pieces().len()).unwrap();
        for (position, &exact) in &distances(&puzzle) {
            assert_eq!(tables.value(&tables.indices(position.tops())), exact);
        }
    }
}

#[test]
fn a_move_updates_the_indices_as_a_fresh_lookup_would() {
    for text in BOARDS {
        let puzzle = board(text);
        let tables = BlockDatabases::with_group_size(&puzzle, 2).unwrap();
        for position in distances(&puzzle).keys() {
            let indices = tables.indices(position.tops());
            for mv in puzzle.legal_moves(position) {
                let next = puzzle.apply(position, mv).unwrap();
                let piece = puzzle.piece_index(mv.label).unwrap();
                let (from, to) = (position.tops()[piece], next.tops()[piece]);
                let moved = tables.moved(&indices, piece, from, to);
                assert_eq!(moved, tables.indices(next.tops()), "{text}");
                // Consistent: one move changes the bound by one.
                assert_eq!(tables.value(&moved).abs_diff(tables.value(&indices)), 1);
            }
        }
    }
}

#[test]
fn the_sample_gets_six_different_partitions_of_five_groups() {
    let puzzle = board(include_str!(
        "../../../../levels/klotski/mahynotch_test_2_spec_sample.in"
    ));
    let partitions = super::partitions(&puzzle).unwrap();
    assert_eq!(partitions.len(), 6);
    // The first two are grown from opposite corners: the goal's first piece and its last.
    let last = puzzle.pieces().len() - 1;
    assert!(partitions[0][0].contains(&0) && partitions[1][0].contains(&last));
    for (at, groups) in partitions.iter().enumerate() {
        assert!(!partitions[..at].contains(groups), "{groups:?} twice");
        let sizes: Vec<usize> = groups.iter().map(Vec::len).collect();
        assert_eq!(sizes, [5, 5, 5, 4, 4]);
        let mut pieces: Vec<usize> = groups.concat();
        pieces.sort_unstable();
        assert_eq!(pieces, (0..puzzle.pieces().len()).collect::<Vec<_>>());
    }
}

#[test]
fn one_group_makes_one_partition() {
    for text in BOARDS {
        let puzzle = board(text);
        let whole = super::partition::partitions_of(&puzzle, puzzle.pieces().len()).unwrap();
        assert_eq!(whole.len(), 1, "{text}");
    }
}

#[test]
fn a_groups_start_value_is_its_tables_entry() {
    for text in BOARDS {
        let puzzle = board(text);
        let count = puzzle.pieces().len();
        for members in [vec![0, 1], vec![0, count - 1], (0..count.min(3)).collect()] {
            let group = Group::of(&puzzle, &members);
            let table = group.table();
            // A few thousand positions: each one's A* allocates anew.
            for position in distances(&puzzle).keys().take(3000) {
                let tops: Vec<u8> = members.iter().map(|&p| position.tops()[p]).collect();
                let entry = table[group.index_of(&tops) as usize];
                let found = group_distance(&group, &tops, usize::MAX);
                assert_eq!(found, u32::from(entry), "{members:?} at {tops:?}\n{text}");
            }
        }
    }
}

#[test]
fn groups_chosen_for_the_sample_start_higher_and_hold_every_piece_once() {
    let puzzle = board(include_str!(
        "../../../../levels/klotski/mahynotch_test_2_spec_sample.in"
    ));
    let start_sum = |groups: &[Vec<usize>]| -> u32 {
        groups.iter().map(|group| start_value(&puzzle, group)).sum()
    };
    for grown in super::partitions(&puzzle).unwrap() {
        let chosen = improved_for_start(&puzzle, grown.clone());
        assert!(
            start_sum(&chosen) > start_sum(&grown),
            "{chosen:?} starts no higher than {grown:?}"
        );
        let sizes = |groups: &[Vec<usize>]| groups.iter().map(Vec::len).collect::<Vec<_>>();
        assert_eq!(sizes(&chosen), sizes(&grown));
        let mut pieces = chosen.concat();
        pieces.sort_unstable();
        assert_eq!(pieces, (0..puzzle.pieces().len()).collect::<Vec<_>>());
    }
}
