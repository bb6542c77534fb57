//! Numeric Klotski (SPEC §4): numbers 1..K on an n x m board with one or more blanks, some
//! numbers tied into 2x2, 1x2 or 2x1 blocks; a step slides one piece one cell into blanks; the
//! goal shows 1..K row-major, then the blanks.
//!
//! - [`parse_puzzle`] reads the seed's input format and explains what is wrong with bad input.
//! - [`Puzzle`] holds the rules: positions, legal moves, the goal, replaying a solution.
//! - [`solve`] answers: cheap proofs of `No` ([`Unsolvable`]), then a search chosen by
//!   [`Method`] (BFS, bidirectional BFS, A*, IDA* with a transposition table, anytime weighted
//!   A*) guided by Manhattan distance, linear conflicts or additive pattern databases.
//! - [`generate`] makes random solvable (or, on request, unsolvable) puzzles.

mod generate;
mod grid;
mod heuristic;
mod invariants;
mod key;
mod parse;
mod pdb;
mod puzzle;
mod room;
mod search;
mod solve;

pub use generate::{GenerateError, GenerateOptions, generate};
pub use grid::{Dir, Geometry, MAX_CELLS, Shape, Step};
pub use heuristic::HeuristicKind;
pub use invariants::{Axis, Unsolvable, prove_unsolvable};
pub use parse::{ParseError, Problem, parse_puzzle};
pub use puzzle::{LayoutError, Move, MoveError, MoveSyntaxError, Piece, Position, Puzzle};
pub use room::{
    GiveUpReason, KlotskiBoard, KlotskiGame, KlotskiMove, KlotskiMoveError, KlotskiStatus,
    MAX_STEPS,
};
pub use search::SearchStats;
pub use solve::{Method, Report, SolveOptions, Verdict, positions_within, prepare, solve};

#[cfg(test)]
mod tests;
