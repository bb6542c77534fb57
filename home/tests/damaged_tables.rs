//! A search that finds its kept tables damaged or foreign builds them again and replaces the
//! file; it never trusts it. Its own process, since the table store is the process's.

use parlor_engines::klotski::{GenerateOptions, generate};
use parlor_engines::klotski::{
    HeuristicKind, Method, SolveOptions, TableSpec, Verdict, build_tables, set_table_store, solve,
};
use parlor_home::klotski_tables::TableCache;
use parlor_shared::klotski::Puzzle;

fn solved_length(puzzle: &Puzzle, method: Method) -> usize {
    let options = SolveOptions {
        method,
        heuristic: HeuristicKind::PatternDatabases,
        ..SolveOptions::default()
    };
    match solve(puzzle, &options).verdict {
        Verdict::Solved {
            moves,
            proved_shortest: true,
        } => moves.len(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn damaged_or_foreign_table_files_are_built_again_not_trusted() {
    let folder = tempfile::tempdir().unwrap();
    let cache = TableCache::new(folder.path());
    // 3x3: a damaged file (one byte of a table changed); 2x4: another program's file.
    let nine = TableSpec::on_demand(3, 3);
    let good = build_tables(&nine, &|_| {});
    let slices: Vec<&[u8]> = good.iter().map(Vec::as_slice).collect();
    let nine_file = cache.write(&nine, &slices).unwrap();
    let mut bytes = std::fs::read(&nine_file).unwrap();
    let middle = 4096 + (bytes.len() - 4096) / 2;
    bytes[middle] ^= 0x11;
    std::fs::write(&nine_file, &bytes).unwrap();
    let eight = TableSpec::on_demand(2, 4);
    let eight_file = cache.file(&eight);
    std::fs::write(&eight_file, b"another program's file ".repeat(400)).unwrap();

    set_table_store(Box::new(TableCache::new(folder.path())));
    // A* with the tables against breadth-first search, which uses none.
    for (rows, cols, spec) in [(3, 3, &nine), (2, 4, &eight)] {
        let board = generate(&GenerateOptions {
            rows,
            cols,
            seed: 7,
            ..GenerateOptions::default()
        })
        .unwrap();
        assert_eq!(
            solved_length(&board, Method::Astar),
            solved_length(&board, Method::Bfs),
            "{}",
            board.to_text()
        );
        let kept = cache.map(spec).expect("built again and kept");
        let tables: Vec<Vec<u8>> = kept.tables().iter().map(|table| table.to_vec()).collect();
        assert_eq!(tables, build_tables(spec, &|_| {}), "{}", spec.label());
    }
}
