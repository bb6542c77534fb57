//! Where the six pieces stand: one square per piece, or captured.

use std::fmt;

use super::board::SQUARES;

/// Number of pieces; they are numbered 1..=PIECES.
pub const PIECES: u8 = 6;
/// The position written for a captured (or absent) piece in level and moves files.
pub const CAPTURED: i8 = -1;

/// Why six numbers are not a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("{0} is not a square: squares are 0..99, and -1 marks a captured piece")]
    OffBoard(i64),
    #[error("pieces {first} and {second} both stand on square {square}")]
    SharedSquare { first: u8, second: u8, square: u8 },
}

/// The squares of pieces 1..6 (index 0 is piece 1); [`CAPTURED`] for a piece off the board.
///
/// Live pieces always stand on distinct squares of the board; the constructor checks it, so
/// the rules never meet two pieces on one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pieces {
    squares: [i8; PIECES as usize],
}

impl Pieces {
    /// Pieces from the six numbers of a file line, checked: each -1 or a square 0..99, and no
    /// square held twice.
    pub fn from_numbers(numbers: [i64; PIECES as usize]) -> Result<Pieces, PositionError> {
        let mut squares = [CAPTURED; PIECES as usize];
        for (slot, &number) in squares.iter_mut().zip(&numbers) {
            if number != i64::from(CAPTURED) && !(0..i64::from(SQUARES)).contains(&number) {
                return Err(PositionError::OffBoard(number));
            }
            *slot = number as i8;
        }
        let pieces = Pieces { squares };
        for first in 1..=PIECES {
            for second in first + 1..=PIECES {
                if let (Some(a), Some(b)) = (pieces.square_of(first), pieces.square_of(second))
                    && a == b
                {
                    return Err(PositionError::SharedSquare {
                        first,
                        second,
                        square: a,
                    });
                }
            }
        }
        Ok(pieces)
    }

    /// Exactly the pieces of `mask` (bit `p - 1` for piece `p`) alive, on arbitrary squares:
    /// for questions that depend only on which pieces live, like [`super::movable_pieces`]
    /// (the solver's bounds ask them of every set of live pieces).
    pub fn with_live_mask(mask: usize) -> Pieces {
        let squares = std::array::from_fn(|i| {
            if mask & (1 << i) != 0 {
                i as i8
            } else {
                CAPTURED
            }
        });
        Pieces { squares }
    }

    /// The square of `piece` (1..6), or `None` once it is captured (or not a piece at all).
    #[inline]
    pub fn square_of(&self, piece: u8) -> Option<u8> {
        let square = *self.squares.get(usize::from(piece.wrapping_sub(1)))?;
        (square >= 0).then_some(square as u8)
    }

    /// The piece standing on `square`, if any.
    #[inline]
    pub fn piece_on(&self, square: u8) -> Option<u8> {
        (1..=PIECES).find(|&piece| self.square_of(piece) == Some(square))
    }

    #[inline]
    pub fn is_live(&self, piece: u8) -> bool {
        self.square_of(piece).is_some()
    }

    /// The live pieces as a bit set: bit `p - 1` for piece `p`.
    #[inline]
    pub fn live_mask(&self) -> u8 {
        (1..=PIECES)
            .filter(|&piece| self.is_live(piece))
            .fold(0, |mask, piece| mask | 1 << (piece - 1))
    }

    /// The six numbers as written in files (-1 for a captured piece).
    #[inline]
    pub fn numbers(&self) -> [i8; PIECES as usize] {
        self.squares
    }

    /// `piece` moves to `to`; whatever stood there is captured. The caller has checked the move
    /// ([`super::Level::play`] does; the solver makes only king steps from its pieces' squares).
    #[inline]
    pub fn with_move(mut self, piece: u8, to: u8) -> Pieces {
        if let Some(victim) = self.piece_on(to) {
            self.squares[usize::from(victim - 1)] = CAPTURED;
        }
        self.squares[usize::from(piece - 1)] = to as i8;
        self
    }
}

/// The file form: six numbers separated by single spaces, e.g. `21 32 -1 34 23 12`.
impl fmt::Display for Pieces {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, square) in self.squares.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{square}")?;
        }
        Ok(())
    }
}
