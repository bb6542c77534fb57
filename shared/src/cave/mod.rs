//! Magnetic Cave (SPEC §3): 8x8, bricks go against a side wall or directly beside another brick,
//! five in a row of one colour wins, a full board without five is a tie.
//!
//! Everything here is a pure function of a [`Position`]; the position is two bitboards, so the
//! rules, the server, the client and the AI all share one cheap representation.

mod square;
mod text;

pub use square::{ParseMovesError, ParseSquareError, SIZE, Square, parse_moves};

use serde::{Deserialize, Serialize};

/// Cells in column a (against the left wall).
pub const COL_A: u64 = 0x0101_0101_0101_0101;
/// Cells in column h (against the right wall).
pub const COL_H: u64 = COL_A << 7;
/// Cells in columns a..d: where a horizontal or up-right five can start.
const COLS_A_TO_D: u64 = 0x0F0F_0F0F_0F0F_0F0F;
/// Cells in columns e..h: where an up-left five can start.
const COLS_E_TO_H: u64 = 0xF0F0_F0F0_F0F0_F0F0;
const FULL: u64 = u64::MAX;

/// The two sides. Black (■) moves first, White (□) second; seat 0 is Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Player {
    Black,
    White,
}

impl Player {
    pub const fn other(self) -> Player {
        match self {
            Player::Black => Player::White,
            Player::White => Player::Black,
        }
    }

    /// The seat index of this side: 0 for Black, 1 for White.
    pub const fn seat(self) -> u8 {
        match self {
            Player::Black => 0,
            Player::White => 1,
        }
    }

    pub const fn symbol(self) -> char {
        match self {
            Player::Black => '■',
            Player::White => '□',
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    Win(Player),
    Tie,
}

/// Why a placement was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("the game is over")]
    GameOver,
    #[error("{0} is already taken")]
    Occupied(Square),
    #[error("{0} is not against a side wall (column a or h) nor directly beside a brick")]
    NotAnchored(Square),
}

/// A position: the bricks of both sides, whose turn it is, and the side that resigned, if one
/// did.
///
/// On the wire it is the two bitboards, the side to move and the side that resigned (absent,
/// read as none, in positions written before resigning existed); JSON adds a `board` picture
/// (row 8 first, `X` Black, `O` White, `.` empty) for people reading frames, ignored when read
/// back.
/// What is read is checked as [`Position::from_bitboards`] checks it, and the side to move it
/// names must be the one the brick counts give.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(try_from = "PositionWire")]
pub struct Position {
    black: u64,
    white: u64,
    to_move: Player,
    resigned: Option<Player>,
}

/// A position as it arrives, in the same shape: a peer may send any numbers, so bricks that
/// overlap, counts no game reaches, or a side to move the counts disagree with are refused.
#[derive(Deserialize)]
#[serde(rename = "Position")]
struct PositionWire {
    black: u64,
    white: u64,
    to_move: Player,
    #[serde(default)]
    resigned: Option<Player>,
}

impl TryFrom<PositionWire> for Position {
    type Error = String;

    fn try_from(wire: PositionWire) -> Result<Position, String> {
        let position = Position::from_bitboards(wire.black, wire.white).ok_or(
            "no game has these bricks: they overlap, or Black has neither as many as White nor \
             one more",
        )?;
        if position.to_move != wire.to_move {
            return Err(format!(
                "{:?} is to move with these bricks, not {:?}",
                position.to_move, wire.to_move
            ));
        }
        Ok(Position {
            resigned: wire.resigned,
            ..position
        })
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::new()
    }
}

impl Position {
    /// The empty cave with Black to move.
    pub const fn new() -> Position {
        Position {
            black: 0,
            white: 0,
            to_move: Player::Black,
            resigned: None,
        }
    }

    /// A position from raw bitboards, or `None` when they overlap. The side to move is derived
    /// from the brick counts (Black moves when the counts are equal), so it cannot disagree.
    pub fn from_bitboards(black: u64, white: u64) -> Option<Position> {
        if black & white != 0 {
            return None;
        }
        let to_move = match black.count_ones().checked_sub(white.count_ones()) {
            Some(0) => Player::Black,
            Some(1) => Player::White,
            _ => return None,
        };
        Some(Position {
            black,
            white,
            to_move,
            resigned: None,
        })
    }

    /// The position after `moves` from the empty cave.
    pub fn from_moves(moves: &[Square]) -> Result<Position, (usize, MoveError)> {
        moves
            .iter()
            .enumerate()
            .try_fold(Position::new(), |position, (ply, &square)| {
                position.play(square).map_err(|error| (ply, error))
            })
    }

    pub const fn to_move(&self) -> Player {
        self.to_move
    }

    pub const fn bricks(&self, player: Player) -> u64 {
        match player {
            Player::Black => self.black,
            Player::White => self.white,
        }
    }

    pub const fn occupied(&self) -> u64 {
        self.black | self.white
    }

    pub fn brick_count(&self) -> u32 {
        self.occupied().count_ones()
    }

    /// Who owns the brick on `square`, if any.
    pub fn at(&self, square: Square) -> Option<Player> {
        if self.black & square.bit() != 0 {
            Some(Player::Black)
        } else if self.white & square.bit() != 0 {
            Some(Player::White)
        } else {
            None
        }
    }

    /// Empty cells where a brick may go: against a wall or directly left or right of a brick,
    /// ignoring whether the game is over (see [`Position::legal_moves`]).
    pub fn anchored_empty_cells(&self) -> u64 {
        anchored_cells(self.occupied())
    }

    /// The cells the side to move may play, as a bitboard; empty once the board decides the
    /// game (a resigned game takes no move either: [`Position::play`] refuses it).
    pub fn legal_moves(&self) -> u64 {
        if self.outcome().is_some() {
            0
        } else {
            self.anchored_empty_cells()
        }
    }

    /// The legal cells in index order.
    pub fn legal_squares(&self) -> impl Iterator<Item = Square> + use<> {
        squares_of(self.legal_moves())
    }

    pub fn is_legal(&self, square: Square) -> bool {
        self.legal_moves() & square.bit() != 0
    }

    /// Checks a placement without making it.
    pub fn check(&self, square: Square) -> Result<(), MoveError> {
        if self.result().is_some() {
            Err(MoveError::GameOver)
        } else if self.occupied() & square.bit() != 0 {
            Err(MoveError::Occupied(square))
        } else if self.anchored_empty_cells() & square.bit() == 0 {
            Err(MoveError::NotAnchored(square))
        } else {
            Ok(())
        }
    }

    /// The position after the side to move places a brick on `square`.
    pub fn play(&self, square: Square) -> Result<Position, MoveError> {
        self.check(square)?;
        Ok(self.play_unchecked(square))
    }

    /// Places a brick without checking legality; for searches that generate legal moves.
    pub fn play_unchecked(&self, square: Square) -> Position {
        let mut next = *self;
        match self.to_move {
            Player::Black => next.black |= square.bit(),
            Player::White => next.white |= square.bit(),
        }
        next.to_move = self.to_move.other();
        next
    }

    /// The position after `side` resigns, on its turn or not; refused once the game is over.
    pub fn resign(&self, side: Player) -> Result<Position, MoveError> {
        if self.result().is_some() {
            return Err(MoveError::GameOver);
        }
        Ok(Position {
            resigned: Some(side),
            ..*self
        })
    }

    /// The side that resigned, if one did.
    pub const fn resigned(&self) -> Option<Player> {
        self.resigned
    }

    /// The game's result: the other side's win when one resigned, else what the board says
    /// ([`Position::outcome`]).
    pub fn result(&self) -> Option<Outcome> {
        match self.resigned {
            Some(side) => Some(Outcome::Win(side.other())),
            None => self.outcome(),
        }
    }

    /// The result on the board, once there is one (a resignation is not on the board: see
    /// [`Position::result`]; the searches, which never meet one, look only here). Only the
    /// side that just moved can have made a five, but both are checked so that any position
    /// (say, one built from bitboards) is judged right.
    pub fn outcome(&self) -> Option<Outcome> {
        if has_five(self.black) {
            Some(Outcome::Win(Player::Black))
        } else if has_five(self.white) {
            Some(Outcome::Win(Player::White))
        } else if self.occupied() == FULL {
            Some(Outcome::Tie)
        } else {
            None
        }
    }

    /// The cells of a five in a row, if either side has one (for highlighting a win).
    pub fn winning_line(&self) -> Option<[Square; 5]> {
        [self.black, self.white].into_iter().find_map(five_cells)
    }
}

impl Serialize for Position {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let readable = serializer.is_human_readable();
        let mut fields = serializer.serialize_struct("Position", if readable { 5 } else { 4 })?;
        fields.serialize_field("black", &self.black)?;
        fields.serialize_field("white", &self.white)?;
        fields.serialize_field("to_move", &self.to_move)?;
        fields.serialize_field("resigned", &self.resigned)?;
        if readable {
            fields.serialize_field("board", &self.picture_rows())?;
        }
        fields.end()
    }
}

impl Position {
    /// One string per row, row 8 first: `X` Black, `O` White, `.` empty.
    pub fn picture_rows(&self) -> Vec<String> {
        (0..SIZE)
            .rev()
            .map(|row| {
                (0..SIZE)
                    .map(
                        |col| match self.at(Square::new(col, row).expect("in range")) {
                            Some(Player::Black) => 'X',
                            Some(Player::White) => 'O',
                            None => '.',
                        },
                    )
                    .collect()
            })
            .collect()
    }
}

/// The cells directly left and right of `bits` in their rows, none across a wall: the ones a
/// brick there makes legal placements.
#[inline]
pub const fn beside_in_row(bits: u64) -> u64 {
    // `<< 1` marks each cell's right-hand neighbour; from column h it would wrap to the next
    // row's column a, which the mask drops. `>> 1` likewise for the left.
    ((bits << 1) & !COL_A) | ((bits >> 1) & !COL_H)
}

/// The empty cells of a board with `occupied` cells where a brick may go: against a wall or
/// directly left or right of a brick. For searches that keep bare bitboards; a [`Position`]
/// has [`Position::anchored_empty_cells`].
#[inline]
pub const fn anchored_cells(occupied: u64) -> u64 {
    (COL_A | COL_H | beside_in_row(occupied)) & !occupied
}

/// The cells of a bitboard in index order.
pub fn squares_of(mut bits: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let index = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        Square::from_index(index)
    })
}

/// The four line directions as (bit shift, cells where a five in that direction may start).
const DIRECTIONS: [(u32, u64); 4] = [
    (1, COLS_A_TO_D), // horizontal, to the right
    (8, FULL),        // vertical, upwards
    (9, COLS_A_TO_D), // diagonal, up and to the right
    (7, COLS_E_TO_H), // diagonal, up and to the left
];

/// The start cells of every five in `bits` along the direction `(shift, starts)`.
fn five_starts(bits: u64, (shift, starts): (u32, u64)) -> u64 {
    // Restricting the start column keeps each five inside one row band, so no shift wraps.
    bits & (bits >> shift)
        & (bits >> (2 * shift))
        & (bits >> (3 * shift))
        & (bits >> (4 * shift))
        & starts
}

/// Whether `bits` holds five in a row in any direction.
pub fn has_five(bits: u64) -> bool {
    DIRECTIONS
        .iter()
        .any(|&direction| five_starts(bits, direction) != 0)
}

fn five_cells(bits: u64) -> Option<[Square; 5]> {
    DIRECTIONS.iter().find_map(|&(shift, starts)| {
        let first = five_starts(bits, (shift, starts));
        (first != 0).then(|| {
            let start = first.trailing_zeros();
            std::array::from_fn(|i| Square::from_index((start + i as u32 * shift) as u8).unwrap())
        })
    })
}

#[cfg(test)]
mod tests;
