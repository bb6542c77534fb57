//! The block pattern databases in the solver: IDA*, A* and the anytime weighted search with
//! them answer scrambles of boards with blocks and several blanks in as few steps as the
//! reference finds; the weighted search also when its A* rounds may store next to nothing, so
//! that weighted IDA* goes on from each of them. A beam wider than any depth is a
//! breadth-first search, and finds shortest answers.

use std::time::{Duration, Instant};

use super::properties::scrambled;
use super::*;
use crate::klotski::heuristic::Heuristic;
use crate::klotski::key::KeyLayout;
use crate::klotski::search::{Limits, Outcome, SearchStats, Space, beam};

/// Goal pictures whose tables split the pieces into two groups (in each partition): nine
/// pieces or more on twelve cells, where a table holds at most six.
const GOALS: &[&str] = &[
    "3 4\n1 2 3 4\n5 6 7 8\n9 10 0 0\n1\n4 2*1\n",
    "3 4\n1 2 3 4\n5 6 7 8\n9 10 11 0\n1\n1 1*2\n",
    "4 3\n1 2 3\n4 5 6\n7 8 9\n10 0 0\n1\n5 2*1\n",
];

/// Six scrambles of each goal: walks of the goal's legal moves picked by a fixed arithmetic
/// sequence.
fn scrambles() -> impl Iterator<Item = Puzzle> {
    GOALS.iter().enumerate().flat_map(|(board, text)| {
        let goal = puzzle(text);
        (0..6u64).map(move |seed| {
            let choices: Vec<usize> = (0..40u64)
                .map(|step| ((seed * 7919 + step * 104_729 + board as u64) % 97) as usize)
                .collect();
            scrambled(&goal, &choices)
        })
    })
}

#[test]
fn searches_with_block_tables_stay_shortest() {
    let capped = SolveOptions {
        max_positions: 50,
        ..unlimited(Method::Weighted)
    };
    let split = SolveOptions {
        threads: 2,
        ..unlimited(Method::Idastar)
    };
    for start in scrambles() {
        let expected = brute::shortest(&start.to_text());
        for base in [
            unlimited(Method::Idastar),
            split,
            unlimited(Method::Astar),
            capped,
        ] {
            let method = base.method;
            let options = SolveOptions {
                heuristic: HeuristicKind::BlockDatabases,
                ..base
            };
            let report = solve(&start, &options);
            assert_eq!(report.heuristic, Some(HeuristicKind::BlockDatabases));
            assert_eq!(
                solved_length_with(&start, &options),
                expected,
                "{method}\n{}",
                start.to_text()
            );
        }
    }
}

#[test]
fn a_beam_wider_than_any_depth_finds_shortest_answers() {
    for start in scrambles() {
        let layout = KeyLayout::new(start.geometry().cells(), start.pieces().len());
        let space = Space::<1>::new(&start, layout);
        let heuristic = Heuristic::new(&start, HeuristicKind::BlockDatabases);
        let limits = Limits {
            deadline: Instant::now() + Duration::from_secs(3600),
            max_positions: 4_000_000,
        };
        let outcome = beam(
            &space,
            &heuristic,
            1 << 20,
            &limits,
            &mut SearchStats::default(),
        );
        let Outcome::Found { path, .. } = outcome else {
            panic!("no answer\n{}", start.to_text());
        };
        assert_eq!(Some(path.len()), brute::shortest(&start.to_text()));
    }
}
