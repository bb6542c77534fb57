//! Hexapawn (SPEC §5): pawns on an R x C board (3x3 by default, 4x4 "Octapawn", up to 8x8).
//! Each side starts with one pawn per column on its back row and White (the human) moves first.
//! A pawn steps straight forward onto an empty square or diagonally forward onto an enemy pawn,
//! capturing it. A side wins when one of its pawns reaches the far row, when the other side has
//! no pawns left, or when the other side is to move and has no legal move. There are no draws.
//!
//! The rules (`board`, bitboard helpers in `bits`) are pure functions of a [`Position`], two
//! `u64` bitboards, and generate moves into a fixed-capacity [`MoveList`] without allocating.
//! On top of them: HER the matchbox learner (`her`), its brain's JSON form (`brain_json`), and
//! the auto mode and the check that HER can no longer lose (`modes`). The exact solver, the
//! perfect "exploiter" and the training against it are engines: `parlor_engines::hexapawn`. Slow and fast mode are single turns of HER: [`Brain::matchbox`] shows the box,
//! [`Her::choose`] with [`Pick::Forced`] or [`Pick::Random`] moves.

mod bits;
mod board;
mod brain_json;
mod brain_ref;
mod her;
mod modes;
mod room;
mod text;

pub use board::{MAX_MOVES, Move, MoveList, Position, PositionData, Square, Status, WinReason};
pub use brain_json::{BRAIN_FORMAT, BRAIN_FORMAT_VERSION, BrainFile};
pub use brain_ref::{BrainOwner, BrainRef, HALL, brain_title, check_new_brain_name};
pub use her::{BeadView, Brain, Her, HerChoice, HerResult, MatchboxView, Pick};
pub use modes::{
    AutoConfig, AutoMatch, AutoReport, CURVE_WINDOW, CurvePoint, HerStats, MAX_BRAIN_BOXES,
    RoundResult, is_unbeatable,
};
pub use room::{
    BoxView, HER_SEAT, HexGame, HexMove, HexSetup, MAX_BRAIN_NAME, MAX_CURVE_POINTS,
    MAX_MATCH_ROUNDS, MAX_PLY_MS, MatchSetup, MatchView, PERSON_SEAT, PERSON_SIDE, Pace, PlayMode,
    check_brain_name, thin_curve,
};

use serde::{Deserialize, Serialize};

/// The fewest and most rows a board may have: fewer than 3 would start pawns on the far row.
pub const ROWS: std::ops::RangeInclusive<u8> = 3..=8;
/// The fewest and most columns a board may have (8 x 8 fills a `u64`).
pub const COLS: std::ops::RangeInclusive<u8> = 1..=8;

/// Why a board, a move, a position text or a brain is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HexapawnError {
    #[error("a board has 3 to 8 rows and 1 to 8 columns, not {rows}x{cols}")]
    BadSize { rows: u8, cols: u8 },
    #[error("{0:?} is not a board size; write it as ROWSxCOLS, e.g. 3x3 or 4x4")]
    BadSizeText(String),
    #[error("{0:?} is not a move; write it as from-to, e.g. a1-a2, or b2xc3 for a capture")]
    BadMoveText(String),
    #[error("{0:?} is not a square; write a column letter and a row number, e.g. b2")]
    BadSquareText(String),
    #[error("{0}")]
    BadPositionText(String),
    #[error("illegal move {mv}: {reason}")]
    IllegalMove { mv: Move, reason: &'static str },
    #[error("the game is over: {0}")]
    GameOver(Status),
    #[error("HER's matchbox has no bead left for {0}")]
    NoBead(Move),
    #[error("{0}")]
    BadBrain(String),
    #[error("this is for {expected} boards, not {found}")]
    WrongSize { expected: Dims, found: Dims },
    #[error("the exact solver gave up after {0} positions; the board is too large")]
    TooLargeToSolve(usize),
}

/// The board's size: rows (White's back row is row 1) by columns (a, b, c, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "(u8, u8)", into = "(u8, u8)")]
pub struct Dims {
    rows: u8,
    cols: u8,
}

impl Dims {
    /// Gardner's Hexapawn.
    pub const HEXAPAWN: Dims = Dims { rows: 3, cols: 3 };
    /// Octapawn.
    pub const OCTAPAWN: Dims = Dims { rows: 4, cols: 4 };

    pub fn new(rows: u8, cols: u8) -> Result<Dims, HexapawnError> {
        if ROWS.contains(&rows) && COLS.contains(&cols) {
            Ok(Dims { rows, cols })
        } else {
            Err(HexapawnError::BadSize { rows, cols })
        }
    }

    pub const fn rows(self) -> u8 {
        self.rows
    }

    pub const fn cols(self) -> u8 {
        self.cols
    }

    pub(crate) const fn squares(self) -> u32 {
        self.rows as u32 * self.cols as u32
    }
}

impl Default for Dims {
    fn default() -> Dims {
        Dims::HEXAPAWN
    }
}

impl TryFrom<(u8, u8)> for Dims {
    type Error = HexapawnError;

    fn try_from((rows, cols): (u8, u8)) -> Result<Dims, HexapawnError> {
        Dims::new(rows, cols)
    }
}

impl From<Dims> for (u8, u8) {
    fn from(dims: Dims) -> (u8, u8) {
        (dims.rows, dims.cols)
    }
}

impl std::fmt::Display for Dims {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl std::str::FromStr for Dims {
    type Err = HexapawnError;

    /// `RxC`, e.g. `3x3` or `4x4` (an `X` or `*` works too).
    fn from_str(text: &str) -> Result<Dims, HexapawnError> {
        let bad = || HexapawnError::BadSizeText(text.to_string());
        let (rows, cols) = text.trim().split_once(['x', 'X', '*']).ok_or_else(bad)?;
        let rows = rows.trim().parse().map_err(|_| bad())?;
        let cols = cols.trim().parse().map_err(|_| bad())?;
        Dims::new(rows, cols)
    }
}

/// The two sides. White (the human in the seed) starts on row 1 and moves first, up the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub const fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Side::White => "White",
            Side::Black => "Black",
        }
    }

    /// 0 for White, 1 for Black: an index into per-side arrays.
    pub const fn index(self) -> usize {
        match self {
            Side::White => 0,
            Side::Black => 1,
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests;
