//! Klotski's solver tests: an independent brute-force breadth-first search (`brute`) as the
//! reference, the course inputs' answers (`golden`), each kind of proved `No` (`unsolvable`),
//! properties over random puzzles (`properties`), cutting detours (`shortcut`) and a memory cap
//! as positions (`memory`), no tables for a board that needs none (`lazy_tables`), the
//! 15-puzzle's IDA* against the reference (`tiles`), and the searches with the block tables
//! (`block_tables`); the tables' own are in `pdb/tests.rs` and `blocks_pdb/tests.rs`. The
//! parser's are in `parlor_shared::klotski`.

mod block_tables;
mod brute;
mod golden;
mod lazy_tables;
mod memory;
mod properties;
mod shortcut;
mod tiles;
mod unsolvable;

use std::time::Duration;

use parlor_shared::klotski::*;

use super::*;

/// Options that never run out on the small boards of these tests, so no result depends on
/// the machine's speed.
fn unlimited(method: Method) -> SolveOptions {
    SolveOptions {
        method,
        budget: Duration::from_secs(3600),
        max_positions: 4_000_000,
        ..SolveOptions::default()
    }
}

fn puzzle(text: &str) -> Puzzle {
    parse_puzzle(text).unwrap_or_else(|error| panic!("{error}\n{text}"))
}

/// The solution's length if solved, `None` if proved unsolvable; checks that a solution
/// replays to the goal and that an exact method proved it shortest.
fn solved_length(puzzle: &Puzzle, method: Method) -> Option<usize> {
    solved_length_with(puzzle, &unlimited(method))
}

fn solved_length_with(puzzle: &Puzzle, options: &SolveOptions) -> Option<usize> {
    let method = options.method;
    match solve(puzzle, options).verdict {
        Verdict::Solved {
            moves,
            proved_shortest,
        } => {
            let end = puzzle
                .replay(&moves)
                .unwrap_or_else(|(at, error)| panic!("{method}: move {at}: {error}"));
            assert!(
                puzzle.is_goal(&end),
                "{method}: the solution does not end at the goal"
            );
            assert!(
                proved_shortest,
                "{method}: not proved shortest on a small board"
            );
            Some(moves.len())
        }
        Verdict::Unsolvable(_) => None,
        Verdict::Undecided => panic!("{method}: undecided on a small board\n{}", puzzle.to_text()),
    }
}
