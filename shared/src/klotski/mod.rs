//! Numeric Klotski (SPEC §4): numbers 1..K on an n x m board with one or more blanks, some
//! numbers tied into 2x2, 1x2 or 2x1 blocks; a step slides one piece one cell into blanks; the
//! goal shows 1..K row-major, then the blanks.
//!
//! - [`parse_puzzle`] reads the seed's input format and explains what is wrong with bad input.
//! - [`Puzzle`] holds the rules: positions, legal moves, the goal, replaying a solution.
//! - [`prove_unsolvable`] gives cheap proofs of `No` ([`Unsolvable`]): block shape, parity,
//!   immovable pieces.
//!
//! The solvers and the generator are `parlor_engines::klotski`'s.

mod board;
mod grid;
mod invariants;
mod parse;
mod puzzle;
mod room;

pub use board::KlotskiBoard;
pub use grid::{Dir, Geometry, MAX_CELLS, Shape, Step};
pub use invariants::{Axis, Unsolvable, prove_unsolvable};
pub use parse::{ParseError, Problem, parse_puzzle};
pub use puzzle::{
    LayoutError, Move, MoveError, MoveSyntaxError, Piece, Position, Puzzle, cells_of,
};
pub use room::{
    GiveUpReason, KlotskiGame, KlotskiMove, KlotskiMoveError, KlotskiStatus, MAX_STEPS,
};

#[cfg(test)]
mod tests;
