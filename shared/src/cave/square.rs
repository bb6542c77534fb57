//! Cells of the 8x8 cave, named chess style: columns `a`..`h` from the left wall to the right
//! wall, rows `1`..`8` from the bottom row to the top row.

use std::fmt;
use std::str::FromStr;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Side length of the cave.
pub const SIZE: u8 = 8;

/// One cell; its index is `row * 8 + col` with row 0 at the bottom and column 0 at the left wall,
/// which is also its bit in a [`super::Position`] bitboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The cell at `col` (0 = a) and `row` (0 = row 1), or `None` off the board.
    pub const fn new(col: u8, row: u8) -> Option<Square> {
        if col < SIZE && row < SIZE {
            Some(Square(row * SIZE + col))
        } else {
            None
        }
    }

    /// The cell with bit index `index` (0..64).
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < SIZE * SIZE {
            Some(Square(index))
        } else {
            None
        }
    }

    pub const fn index(self) -> u8 {
        self.0
    }

    pub const fn col(self) -> u8 {
        self.0 % SIZE
    }

    pub const fn row(self) -> u8 {
        self.0 / SIZE
    }

    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// All 64 cells, bottom row first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SIZE * SIZE).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col()) as char, self.row() + 1)
    }
}

/// Why a typed cell name was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseSquareError {
    #[error("a cell is a column letter a-h and a row digit 1-8, like d4; got {0:?}")]
    Malformed(String),
    #[error("column {0:?} is not one of a-h")]
    Column(char),
    #[error("row {0:?} is not one of 1-8")]
    Row(char),
}

/// A written game's cell that does not read: which move (from 0) and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("move {}: {error}", .index + 1)]
pub struct ParseMovesError {
    pub index: usize,
    pub error: ParseSquareError,
}

/// The cells of a game written as names separated by spaces or commas (`"a1 h8, b1"`). Says
/// nothing of whether they make a legal game: that is [`crate::cave::Position::from_moves`].
pub fn parse_moves(text: &str) -> Result<Vec<Square>, ParseMovesError> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|word| !word.is_empty())
        .enumerate()
        .map(|(index, word)| {
            word.parse()
                .map_err(|error| ParseMovesError { index, error })
        })
        .collect()
}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses `d4`, `D4` or ` d4 ` (case-insensitive, surrounding spaces ignored).
    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        let trimmed = text.trim();
        let mut chars = trimmed.chars();
        let (Some(col), Some(row), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(ParseSquareError::Malformed(trimmed.to_string()));
        };
        let col_index = match col.to_ascii_lowercase() {
            c @ 'a'..='h' => c as u8 - b'a',
            _ => return Err(ParseSquareError::Column(col)),
        };
        let row_index = match row {
            r @ '1'..='8' => r as u8 - b'1',
            _ => return Err(ParseSquareError::Row(row)),
        };
        Ok(Square(row_index * SIZE + col_index))
    }
}

/// In JSON a cell is its name (`"d4"`), so people can type moves; in bincode it is one byte.
impl Serialize for Square {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            serializer.collect_str(self)
        } else {
            serializer.serialize_u8(self.0)
        }
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Square, D::Error> {
        struct SquareVisitor;
        impl Visitor<'_> for SquareVisitor {
            type Value = Square;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a cell name like \"d4\" or an index 0..64")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Square, E> {
                text.parse().map_err(E::custom)
            }
            fn visit_u64<E: de::Error>(self, index: u64) -> Result<Square, E> {
                u8::try_from(index)
                    .ok()
                    .and_then(Square::from_index)
                    .ok_or_else(|| E::custom(format!("cell index {index} is not in 0..64")))
            }
        }
        if deserializer.is_human_readable() {
            deserializer.deserialize_any(SquareVisitor)
        } else {
            deserializer.deserialize_u8(SquareVisitor)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_for_every_cell() {
        for square in Square::all() {
            assert_eq!(square.to_string().parse::<Square>(), Ok(square));
        }
    }

    #[test]
    fn corners_follow_chess_convention() {
        assert_eq!("a1".parse::<Square>().unwrap(), Square::new(0, 0).unwrap());
        assert_eq!("H8".parse::<Square>().unwrap(), Square::new(7, 7).unwrap());
        assert_eq!(" h1 ".parse::<Square>().unwrap().index(), 7);
        assert_eq!("a8".parse::<Square>().unwrap().index(), 56);
    }

    #[test]
    fn bad_names_say_why() {
        assert_eq!("i1".parse::<Square>(), Err(ParseSquareError::Column('i')));
        assert_eq!("a9".parse::<Square>(), Err(ParseSquareError::Row('9')));
        assert_eq!("a0".parse::<Square>(), Err(ParseSquareError::Row('0')));
        assert!(matches!(
            "".parse::<Square>(),
            Err(ParseSquareError::Malformed(_))
        ));
        assert!(matches!(
            "a10".parse::<Square>(),
            Err(ParseSquareError::Malformed(_))
        ));
        assert!(matches!(
            "é".parse::<Square>(),
            Err(ParseSquareError::Malformed(_))
        ));
    }

    #[test]
    fn json_uses_names_and_accepts_indices() {
        let square: Square = "d4".parse().unwrap();
        assert_eq!(serde_json::to_string(&square).unwrap(), "\"d4\"");
        assert_eq!(serde_json::from_str::<Square>("\"D4\"").unwrap(), square);
        assert_eq!(serde_json::from_str::<Square>("27").unwrap(), square);
        assert!(serde_json::from_str::<Square>("64").is_err());
        assert!(serde_json::from_str::<Square>("\"z9\"").is_err());
    }
}
