//! Numeric Klotski's solvers, over the rules of `parlor_shared::klotski`:
//!
//! - [`solve`] answers: cheap proofs of `No` (`parlor_shared::klotski::prove_unsolvable`), then
//!   a search chosen by [`Method`] (BFS, bidirectional BFS, A*, IDA* with a transposition
//!   table, anytime weighted A*) guided by Manhattan distance, linear conflicts or additive
//!   pattern databases (7-8 with reflection on 4x4, kept by the program's [`TableStore`]).
//! - [`generate`] makes random solvable (or, on request, unsolvable) puzzles.

mod blocks_pdb;
mod generate;
mod heuristic;
mod key;
mod parallel;
mod pdb;
mod search;
mod solve;

pub use generate::{GenerateError, GenerateOptions, generate};
pub use heuristic::HeuristicKind;
pub use pdb::{
    BuildProgress, MAX_CELLS as MAX_TABLE_CELLS, TableData, TableSpec, TableStore, build_tables,
    set_table_store,
};
pub use search::SearchStats;
pub use solve::{Method, Report, SolveOptions, Verdict, positions_within, prepare, solve};

#[cfg(test)]
mod tests;
