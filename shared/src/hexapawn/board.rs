//! The rules: squares, moves, the fixed-capacity move list and the position with its two
//! bitboards. Bit `row * cols + col` is the square in that row (row 0 is White's back row,
//! "row 1" to people) and column (0 is column a).

use serde::{Deserialize, Serialize};

use super::bits::{board_mask, col_mask, flip_rows, mirror_cols, row_mask};
use super::{Dims, HexapawnError, Side};

/// The most legal moves a position can have: at most 8 pawns a side, each with a straight step
/// and two captures.
pub const MAX_MOVES: usize = 24;

/// A square by column (0 = a) and row (0 = row 1, White's back row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Square {
    pub col: u8,
    pub row: u8,
}

impl Square {
    pub const fn new(col: u8, row: u8) -> Square {
        Square { col, row }
    }

    pub(crate) const fn is_on(self, dims: Dims) -> bool {
        self.col < dims.cols() && self.row < dims.rows()
    }

    /// The square's bit; only meaningful when the square is on the board.
    pub(crate) const fn bit(self, dims: Dims) -> u64 {
        1 << (self.row as u32 * dims.cols() as u32 + self.col as u32)
    }

    pub(crate) const fn flipped(self, dims: Dims) -> Square {
        Square::new(self.col, dims.rows() - 1 - self.row)
    }

    pub(crate) const fn mirrored(self, dims: Dims) -> Square {
        Square::new(dims.cols() - 1 - self.col, self.row)
    }
}

/// A pawn's step from one square to another. Whether it captures follows from the geometry: a
/// diagonal step always captures, a straight one never does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    pub const fn is_capture(self) -> bool {
        self.from.col != self.to.col
    }

    /// The same move seen with the board turned upside down (the other side's point of view).
    pub(crate) const fn flipped(self, dims: Dims) -> Move {
        Move::new(self.from.flipped(dims), self.to.flipped(dims))
    }

    /// The same move in the left-right mirror image of the board.
    pub(crate) const fn mirrored(self, dims: Dims) -> Move {
        Move::new(self.from.mirrored(dims), self.to.mirrored(dims))
    }
}

/// The legal moves of a position, in a fixed array: generating them never allocates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: u8,
}

impl MoveList {
    const fn new() -> MoveList {
        let nowhere = Square::new(0, 0);
        MoveList {
            moves: [Move::new(nowhere, nowhere); MAX_MOVES],
            len: 0,
        }
    }

    fn push(&mut self, mv: Move) {
        self.moves[self.len as usize] = mv;
        self.len += 1;
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];

    fn deref(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }
}

/// Why and by whom a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WinReason {
    /// A pawn of the winner reached the far row.
    ReachedFarRow,
    /// The loser has no pawns left.
    NoPawnsLeft,
    /// The loser is to move and has no legal move.
    NoLegalMove,
}

/// Whether the game goes on, or who won it and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Status {
    Playing,
    Won { winner: Side, reason: WinReason },
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Status::Playing => f.write_str("the game goes on"),
            Status::Won { winner, reason } => {
                let loser = winner.other();
                match reason {
                    WinReason::ReachedFarRow => {
                        write!(f, "{winner} wins: a pawn reached the far row")
                    }
                    WinReason::NoPawnsLeft => write!(f, "{winner} wins: {loser} has no pawns left"),
                    WinReason::NoLegalMove => {
                        write!(f, "{winner} wins: {loser} is to move and has no legal move")
                    }
                }
            }
        }
    }
}

/// A Hexapawn position: where each side's pawns stand and who is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "PositionData", into = "PositionData")]
pub struct Position {
    dims: Dims,
    white: u64,
    black: u64,
    to_move: Side,
}

/// A position as it travels: checked when it arrives, so no malformed board gets in.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct PositionData {
    pub dims: Dims,
    pub white: u64,
    pub black: u64,
    pub to_move: Side,
}

impl TryFrom<PositionData> for Position {
    type Error = HexapawnError;

    fn try_from(data: PositionData) -> Result<Position, HexapawnError> {
        Position::from_bitboards(data.dims, data.white, data.black, data.to_move)
    }
}

impl From<Position> for PositionData {
    fn from(position: Position) -> PositionData {
        PositionData {
            dims: position.dims,
            white: position.white,
            black: position.black,
            to_move: position.to_move,
        }
    }
}

impl Position {
    /// The opening: one pawn per column on each back row, White to move.
    pub const fn start(dims: Dims) -> Position {
        Position {
            dims,
            white: row_mask(dims, 0),
            black: row_mask(dims, dims.rows() - 1),
            to_move: Side::White,
        }
    }

    /// A position from its bitboards, refused when pawns overlap, stand off the board, or a side
    /// has more pawns than there are columns.
    pub fn from_bitboards(
        dims: Dims,
        white: u64,
        black: u64,
        to_move: Side,
    ) -> Result<Position, HexapawnError> {
        let bad = |why: String| Err(HexapawnError::BadPositionText(why));
        if (white | black) & !board_mask(dims) != 0 {
            return bad(format!("a pawn stands off the {dims} board"));
        }
        if white & black != 0 {
            return bad("two pawns stand on one square".to_string());
        }
        for (side, pawns) in [(Side::White, white), (Side::Black, black)] {
            if pawns.count_ones() > dims.cols() as u32 {
                return bad(format!(
                    "{side} has {} pawns; a side starts with one per column, {}",
                    pawns.count_ones(),
                    dims.cols()
                ));
            }
        }
        Ok(Position {
            dims,
            white,
            black,
            to_move,
        })
    }

    pub const fn dims(&self) -> Dims {
        self.dims
    }

    pub const fn to_move(&self) -> Side {
        self.to_move
    }

    /// The bitboard of one side's pawns.
    pub const fn pawns(&self, side: Side) -> u64 {
        match side {
            Side::White => self.white,
            Side::Black => self.black,
        }
    }

    /// Whose pawn stands on `square`, if any.
    pub fn pawn_at(&self, square: Square) -> Option<Side> {
        if !square.is_on(self.dims) {
            return None;
        }
        let bit = square.bit(self.dims);
        if self.white & bit != 0 {
            Some(Side::White)
        } else if self.black & bit != 0 {
            Some(Side::Black)
        } else {
            None
        }
    }

    /// The row a side's pawns are heading for.
    pub const fn far_row(&self, side: Side) -> u8 {
        match side {
            Side::White => self.dims.rows() - 1,
            Side::Black => 0,
        }
    }

    /// The targets of the side to move's pawns by direction, as bitboards of destination
    /// squares: (captures towards column a, straight steps, captures towards the last column).
    fn targets(&self) -> (u64, u64, u64) {
        let dims = self.dims;
        let cols = dims.cols() as u32;
        let empty = !(self.white | self.black) & board_mask(dims);
        let (own, enemy) = (self.pawns(self.to_move), self.pawns(self.to_move.other()));
        let leftward = own & !col_mask(dims, 0);
        let rightward = own & !col_mask(dims, dims.cols() - 1);
        match self.to_move {
            Side::White => (
                (leftward << (cols - 1)) & enemy,
                (own << cols) & empty,
                (rightward << (cols + 1)) & enemy,
            ),
            Side::Black => (
                (leftward >> (cols + 1)) & enemy,
                (own >> cols) & empty,
                (rightward >> (cols - 1)) & enemy,
            ),
        }
    }

    /// Whether the side to move has a legal move, ignoring whether the game is already over.
    pub fn has_move(&self) -> bool {
        let (left, straight, right) = self.targets();
        left | straight | right != 0
    }

    /// Every move the side to move could make, ignoring whether the game is already over;
    /// ordered by the pawn's square, then towards column a, straight, towards the last column.
    pub fn moves(&self) -> MoveList {
        let mut list = MoveList::new();
        let (left, straight, right) = self.targets();
        let forward: i8 = match self.to_move {
            Side::White => 1,
            Side::Black => -1,
        };
        let cols = self.dims.cols();
        let mut pawns = self.pawns(self.to_move);
        while pawns != 0 {
            let index = pawns.trailing_zeros() as u8;
            pawns &= pawns - 1;
            let from = Square::new(index % cols, index / cols);
            let row = from.row.wrapping_add_signed(forward);
            for (col_step, targets) in [(-1, left), (0, straight), (1, right)] {
                let to = Square::new(from.col.wrapping_add_signed(col_step), row);
                if to.is_on(self.dims) && targets & to.bit(self.dims) != 0 {
                    list.push(Move::new(from, to));
                }
            }
        }
        list
    }

    /// The legal moves: none once the game is over.
    pub fn legal_moves(&self) -> MoveList {
        if self.status() == Status::Playing {
            self.moves()
        } else {
            MoveList::new()
        }
    }

    /// Whether the game is over, and if so who won and why. The side that moved last wins when
    /// it reached the far row, when the side to move has no pawns, or when it has no move.
    pub fn status(&self) -> Status {
        let last = self.to_move.other();
        let won = |reason| Status::Won {
            winner: last,
            reason,
        };
        if self.pawns(last) & row_mask(self.dims, self.far_row(last)) != 0 {
            won(WinReason::ReachedFarRow)
        } else if self.pawns(self.to_move) == 0 {
            won(WinReason::NoPawnsLeft)
        } else if !self.has_move() {
            won(WinReason::NoLegalMove)
        } else {
            Status::Playing
        }
    }

    /// Why `mv` is not legal here, or `Ok` when it is.
    pub fn check(&self, mv: Move) -> Result<(), HexapawnError> {
        let status = self.status();
        if status != Status::Playing {
            return Err(HexapawnError::GameOver(status));
        }
        let illegal = |reason| Err(HexapawnError::IllegalMove { mv, reason });
        if !mv.from.is_on(self.dims) || !mv.to.is_on(self.dims) {
            return illegal("that square is off the board");
        }
        match self.pawn_at(mv.from) {
            None => return illegal("there is no pawn on the starting square"),
            Some(side) if side != self.to_move => {
                return illegal("that pawn belongs to the other side");
            }
            Some(_) => {}
        }
        let forward_row = mv.from.row as i16
            + match self.to_move {
                Side::White => 1,
                Side::Black => -1,
            };
        if mv.to.row as i16 != forward_row {
            return illegal("a pawn moves exactly one row forward");
        }
        match (mv.from.col.abs_diff(mv.to.col), self.pawn_at(mv.to)) {
            (0, None) => Ok(()),
            (0, Some(_)) => illegal("a pawn moves straight only onto an empty square"),
            (1, Some(side)) if side != self.to_move => Ok(()),
            (1, _) => illegal("a pawn moves diagonally only to capture an enemy pawn"),
            _ => illegal("a pawn moves at most one column sideways"),
        }
    }

    /// The position after `mv`, which must be legal.
    pub fn play(&self, mv: Move) -> Result<Position, HexapawnError> {
        self.check(mv)?;
        Ok(self.play_unchecked(mv))
    }

    /// The position after `mv`, for moves known to be legal (from [`Position::moves`] or a
    /// matchbox built from it): the hot path of self-play.
    #[inline]
    pub fn play_unchecked(&self, mv: Move) -> Position {
        let (from, to) = (mv.from.bit(self.dims), mv.to.bit(self.dims));
        let mut next = *self;
        match self.to_move {
            Side::White => {
                next.white = (self.white & !from) | to;
                next.black = self.black & !to;
            }
            Side::Black => {
                next.black = (self.black & !from) | to;
                next.white = self.white & !to;
            }
        }
        next.to_move = self.to_move.other();
        next
    }

    /// The position seen by the side to move as if it were White: turned upside down with the
    /// colours swapped when Black is to move. The rules are symmetric, so both are the same
    /// game situation; HER and the solver keep one entry for the two.
    pub fn mover_view(&self) -> Position {
        match self.to_move {
            Side::White => *self,
            Side::Black => Position {
                dims: self.dims,
                white: flip_rows(self.black, self.dims),
                black: flip_rows(self.white, self.dims),
                to_move: Side::White,
            },
        }
    }

    /// The left-right mirror image.
    pub fn mirrored(&self) -> Position {
        Position {
            white: mirror_cols(self.white, self.dims),
            black: mirror_cols(self.black, self.dims),
            ..*self
        }
    }

    /// Both bitboards in one number: a cheap key for tables of positions of one size and one
    /// side to move (HER's boxes, the solver's table).
    #[inline]
    pub const fn key(&self) -> u128 {
        self.white as u128 | (self.black as u128) << 64
    }

    /// The position, White to move, whose [`Position::key`] is `key`; the key must come from a
    /// position of this size (it is not checked again).
    pub(crate) const fn from_key(dims: Dims, key: u128) -> Position {
        Position {
            dims,
            white: key as u64,
            black: (key >> 64) as u64,
            to_move: Side::White,
        }
    }
}
