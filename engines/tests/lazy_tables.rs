//! A trivial board never loads or builds tables; a hard one asks the store once. Its own
//! process, since the table store is the process's.

use std::sync::atomic::{AtomicUsize, Ordering};

use parlor_engines::klotski::{
    HeuristicKind, SolveOptions, TableData, TableSpec, TableStore, Verdict, set_table_store, solve,
};
use parlor_shared::klotski::parse_puzzle;

static LOADS: AtomicUsize = AtomicUsize::new(0);
static SAVES: AtomicUsize = AtomicUsize::new(0);

/// A store that keeps nothing and counts what it is asked.
struct Counting;

impl TableStore for Counting {
    fn load(&self, _: &TableSpec) -> Result<TableData, String> {
        LOADS.fetch_add(1, Ordering::SeqCst);
        Err("not kept".into())
    }

    fn save(&self, _: &TableSpec, _: &TableData) {
        SAVES.fetch_add(1, Ordering::SeqCst);
    }

    fn note(&self, _: &str) {}
}

#[test]
fn a_trivial_board_never_loads_or_builds_tables_and_a_hard_one_does_once() {
    set_table_store(Box::new(Counting));
    let one_slide = parse_puzzle("4 4\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 0 15\n0\n").unwrap();
    let report = solve(&one_slide, &SolveOptions::default());
    assert!(matches!(report.verdict, Verdict::Solved { ref moves, .. } if moves.len() == 1));
    assert_eq!(report.heuristic, Some(HeuristicKind::Conflicts));
    assert_eq!(report.tables, None);
    assert_eq!(
        (LOADS.load(Ordering::SeqCst), SAVES.load(Ordering::SeqCst)),
        (0, 0)
    );

    // Korf's first 15-puzzle (57 moves) needs them: the 7-8 ones are asked for and missing,
    // so the small ones are asked for, built and given to the store.
    let hard = parse_puzzle("4 4\n13 6 8 12\n15 14 0 10\n11 7 4 5\n9 1 3 2\n0\n").unwrap();
    // Whether it is solved in the time does not matter here (the build is not timed).
    let quick = SolveOptions {
        budget: std::time::Duration::from_millis(200),
        ..SolveOptions::default()
    };
    let report = solve(&hard, &quick);
    assert_eq!(report.tables.as_deref(), Some("4x4 6-6-3"));
    assert_eq!(
        (LOADS.load(Ordering::SeqCst), SAVES.load(Ordering::SeqCst)),
        (2, 1)
    );
}
