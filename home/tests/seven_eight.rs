//! The kept 4x4 7-8 tables, where they are built (`client klotski tables build`, a minute or
//! more, so not in the ordinary run): `cargo test --release -p parlor-home --test seven_eight
//! -- --ignored`, with PARLOR_HOME as for the client. Fails when they are not built.

use parlor_engines::klotski::{
    HeuristicKind, Method, SolveOptions, TableSpec, Verdict, set_table_store, solve,
};
use parlor_home::Home;
use parlor_home::klotski_tables::TableCache;
use parlor_shared::klotski::{Puzzle, parse_puzzle};

/// The goal after `walk` (a simple pseudo-random walk of the blank from a seed).
fn walked(seed: u64, steps: usize) -> Puzzle {
    let goal = parse_puzzle("4 4\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 0\n0\n").unwrap();
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let end = (0..steps).fold(goal.start().clone(), |position, _| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let moves = goal.legal_moves(&position);
        goal.apply(&position, moves[state as usize % moves.len()])
            .unwrap()
    });
    goal.restarted(end)
}

fn length(puzzle: &Puzzle, method: Method, heuristic: HeuristicKind) -> (usize, Option<String>) {
    let options = SolveOptions {
        method,
        heuristic,
        budget: std::time::Duration::from_secs(600),
        ..SolveOptions::default()
    };
    let report = solve(puzzle, &options);
    match report.verdict {
        Verdict::Solved {
            moves,
            proved_shortest: true,
        } => (moves.len(), report.tables),
        other => panic!("{other:?}\n{}", puzzle.to_text()),
    }
}

#[test]
#[ignore]
fn the_seven_eight_tables_give_the_shortest_lengths_near_the_goal() {
    let cache = TableCache::new(&Home::locate().unwrap().cache);
    if let Err(why) = cache.map(&TableSpec::seven_eight()) {
        panic!("the 7-8 tables are {why}: build them with `client klotski tables build`");
    }
    set_table_store(Box::new(cache));
    for seed in 0..60 {
        let puzzle = walked(seed, 10 + (seed as usize % 30));
        let (with_tables, tables) =
            length(&puzzle, Method::Idastar, HeuristicKind::PatternDatabases);
        assert_eq!(tables.as_deref(), Some("4x4 7-8"));
        let (plain, _) = length(&puzzle, Method::Idastar, HeuristicKind::Conflicts);
        assert_eq!(with_tables, plain, "{}", puzzle.to_text());
    }
}
