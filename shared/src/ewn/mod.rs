//! EinStein würfelt nicht! puzzle (SPEC §1): one player, a 10x10 board with one removed square,
//! pieces 1..6, a fixed dice sequence deciding which pieces may move, and a target piece to
//! bring to square 0 in as few moves as possible.
//!
//! Everything here is a pure function of a [`Level`] and a [`State`]: the console simulator, the
//! moves.txt checker, the solver and the generator all use these same rules. The solver and the
//! generator are `parlor_engines::ewn`'s.

mod board;
mod check;
mod course;
mod format;
mod pieces;
mod room;
mod rules;

pub use board::{BOARD_SIZE, DEFAULT_BLOCKED, SQUARES, chebyshev, chebyshev_to_corner, neighbours};
pub use check::{Checked, check_moves};
pub use format::{FileError, LineProblem, MovesFile, parse_level, parse_moves};
pub use pieces::{CAPTURED, PIECES, Pieces, PositionError};
pub use room::{EwnGame, EwnMove, LevelSpec, MAX_MOVES_MADE, SpecError, TakebackError};
pub use rules::{
    DICE_LEN, Level, LevelError, LossReason, Move, MoveError, PieceList, Rules, State, Status,
    movable_pieces,
};

#[cfg(test)]
mod tests;
