//! A board the cheap bound settles at once is answered without pattern databases: building or
//! loading them would cost more than the whole search.

use super::*;

#[test]
fn a_board_one_slide_from_solved_is_answered_without_tables() {
    let near = puzzle("4 4\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 0 15\n0\n");
    let report = solve(&near, &SolveOptions::default());
    assert_eq!(
        report.heuristic,
        Some(HeuristicKind::Conflicts),
        "the tables were asked for"
    );
    match report.verdict {
        Verdict::Solved {
            moves,
            proved_shortest,
        } => assert!(moves.len() == 1 && proved_shortest, "{moves:?}"),
        other => panic!("{other:?}"),
    }
    // A method or heuristic chosen by name is run as asked.
    let chosen = SolveOptions {
        method: Method::Idastar,
        ..SolveOptions::default()
    };
    assert_eq!(
        solve(&near, &chosen).heuristic,
        Some(HeuristicKind::PatternDatabases)
    );
}
