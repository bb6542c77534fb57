//! The kept tables (4x4 7-8, 5x5 6-6-6-6), where they are built (`client klotski tables build
//! [--size 5x5]`, minutes, so not in the ordinary run): `cargo test --release -p parlor-home
//! --test kept_tables -- --ignored`, with PARLOR_HOME as for the client. Fails when they are
//! not built.

use parlor_engines::klotski::{
    HeuristicKind, Method, SolveOptions, TableSpec, Verdict, set_table_store, solve,
};
use parlor_home::Home;
use parlor_home::klotski_tables::TableCache;
use parlor_shared::klotski::{Puzzle, parse_puzzle};

/// The goal of a `side` x `side` board after `steps` of a simple pseudo-random walk of the
/// blank from a seed.
fn walked(side: u8, seed: u64, steps: usize) -> Puzzle {
    let cells = u32::from(side * side);
    let rows: Vec<String> = (0..side)
        .map(|row| {
            let cell = |col: u8| (u32::from(row * side + col) + 1) % cells;
            (0..side)
                .map(|col| cell(col).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let goal = parse_puzzle(&format!("{side} {side}\n{}\n0\n", rows.join("\n"))).unwrap();
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let (mut before, mut now) = (goal.start().clone(), goal.start().clone());
    for _ in 0..steps {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        // Never straight back, so the walk goes somewhere.
        let onward: Vec<_> = (goal.legal_moves(&now).into_iter())
            .map(|step| goal.apply(&now, step).unwrap())
            .filter(|next| *next != before)
            .collect();
        before = std::mem::replace(&mut now, onward[state as usize % onward.len()].clone());
    }
    let end = now;
    goal.restarted(end)
}

fn length(puzzle: &Puzzle, method: Method, heuristic: HeuristicKind) -> (usize, Option<String>) {
    let options = SolveOptions {
        method,
        heuristic,
        budget: std::time::Duration::from_secs(600),
        threads: 2,
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

/// Checks that the kept tables of `spec` give the shortest lengths on walks from the goal, by
/// the general IDA* (through the heuristic) and by the tile search on two threads (through the
/// automatic choice), against IDA* with linear conflicts.
fn kept_tables_give_the_shortest_lengths(spec: TableSpec, walks: u64, longest_walk: usize) {
    let cache = TableCache::new(&Home::locate().unwrap().cache);
    if let Err(why) = cache.map(&spec) {
        panic!(
            "the {} tables are {why}: build them with `client klotski tables build --size {}x{}`",
            spec.label(),
            spec.rows,
            spec.cols
        );
    }
    set_table_store(Box::new(cache));
    for seed in 0..walks {
        let puzzle = walked(spec.rows, seed, 10 + seed as usize % (longest_walk - 9));
        let (plain, _) = length(&puzzle, Method::Idastar, HeuristicKind::Conflicts);
        for method in [Method::Idastar, Method::Auto] {
            let (with_tables, tables) = length(&puzzle, method, HeuristicKind::PatternDatabases);
            // The automatic search answers short walks before it needs tables.
            if method == Method::Idastar {
                assert_eq!(tables.as_deref(), Some(spec.label().as_str()));
            }
            assert_eq!(with_tables, plain, "{method:?}\n{}", puzzle.to_text());
        }
    }
}

#[test]
#[ignore]
fn the_seven_eight_tables_give_the_shortest_lengths_near_the_goal() {
    kept_tables_give_the_shortest_lengths(TableSpec::seven_eight(), 60, 39);
}

#[test]
#[ignore]
fn the_six_six_six_six_tables_give_the_shortest_lengths_near_the_goal() {
    kept_tables_give_the_shortest_lengths(TableSpec::six_six_six_six(), 40, 60);
}
