//! The tile boards' IDA* (`search/tiles/`) against the reference on classic boards a walk away
//! from the goal, with the small tables of each board size (the 7-8 ones are checked on Korf's
//! 100 by `scripts/korf100.sh`, and by `parlor-home`'s ignored test where they are built), on
//! one thread and split over several, which must give the very same answer.

use std::time::Instant;

use proptest::prelude::*;

use super::super::pdb::{PatternDatabases, Wanted};
use super::super::search::{Limits, Outcome, SearchStats, tiles_idastar_with};
use super::*;

const GOALS: &[&str] = &[
    "4 4\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 0\n0\n",
    "3 3\n1 2 3\n4 5 6\n7 8 0\n0\n",
    "2 4\n1 2 3 4\n5 6 7 0\n0\n",
    "3 4\n1 2 3 4\n5 6 7 8\n9 10 11 0\n0\n",
    "4 5\n1 2 3 4 5\n6 7 8 9 10\n11 12 13 14 15\n16 17 18 19 0\n0\n",
    "5 5\n1 2 3 4 5\n6 7 8 9 10\n11 12 13 14 15\n16 17 18 19 20\n21 22 23 24 0\n0\n",
];

/// Refusing the strings of up to 10 moves from the second round on (in a search, only rounds
/// of millions of positions do).
const AUTOMATON_AT_ONCE: &[(u64, usize)] = &[(0, 10)];

/// A shortest solution by the tile search on `threads` threads with `automata`, checked to
/// solve `start`.
fn tile_search(
    start: &Puzzle,
    threads: usize,
    automata: &[(u64, usize)],
) -> Result<Vec<Move>, TestCaseError> {
    let databases = PatternDatabases::for_puzzle(start, Wanted::Small).expect("a classic board");
    let limits = Limits {
        deadline: Instant::now() + Duration::from_secs(600),
        max_positions: 1,
    };
    let outcome = tiles_idastar_with(
        start,
        &databases,
        &limits,
        threads,
        &mut SearchStats::default(),
        automata,
    );
    let Outcome::Found { path, proved: true } = outcome else {
        return Err(TestCaseError::fail(format!("{outcome:?}")));
    };
    let moves: Vec<Move> = (path.iter())
        .map(|mv| Move {
            label: start.pieces()[mv.piece()].label,
            dir: mv.dir(),
        })
        .collect();
    let end = start
        .replay(&moves)
        .map_err(|(at, error)| TestCaseError::fail(format!("{at}: {error}")))?;
    prop_assert!(start.is_goal(&end));
    Ok(moves)
}

/// The start after a walk from the goal, each step taking move `choice % legal moves`.
fn walked(goal: &Puzzle, choices: &[usize]) -> Puzzle {
    let end = (choices.iter()).fold(goal.start().clone(), |position, &choice| {
        let moves = goal.legal_moves(&position);
        goal.apply(&position, moves[choice % moves.len()]).unwrap()
    });
    goal.restarted(end)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn the_tile_search_finds_the_reference_s_shortest_length_on_any_number_of_threads(
        goal in prop::sample::select(GOALS),
        choices in prop::collection::vec(any::<usize>(), 0..=18),
        threads in 2..=3usize,
    ) {
        let start = walked(&puzzle(goal), &choices);
        let shortest = brute::shortest(&start.to_text());
        let alone = tile_search(&start, 1, &[])?;
        prop_assert_eq!(Some(alone.len()), shortest, "{}", start.to_text());
        prop_assert_eq!(tile_search(&start, threads, &[])?, alone, "{}", start.to_text());
        // Refusing redundant strings loses no shortest solution, and splits as well.
        let refusing = tile_search(&start, 1, AUTOMATON_AT_ONCE)?;
        prop_assert_eq!(Some(refusing.len()), shortest, "{}", start.to_text());
        let split = tile_search(&start, threads, AUTOMATON_AT_ONCE)?;
        prop_assert_eq!(split, refusing, "{}", start.to_text());
    }
}
