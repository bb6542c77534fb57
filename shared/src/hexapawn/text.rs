//! Positions, squares and moves as text.
//!
//! - A square is a column letter and a row number, chess style: `a1` is White's back-row left
//!   corner, row 1 is White's back row and Black's pawns start on the last row.
//! - A move is `from-to` for a straight step (`a1-a2`) and `fromxto` for a capture (`b2xc3`).
//!   Reading accepts either separator, or none (`b2c3`), since the squares alone say which it
//!   is; writing always uses `-` for steps and `x` for captures.
//! - A position's one-line text lists the rows from the last (top) to row 1, separated by `/`,
//!   with `W` and `B` for pawns and `.` for empty squares, then a space and `w` or `b` for the
//!   side to move: the 3x3 start is `BBB/.../WWW w`.
//! - `Display` on a position draws it for the console with row numbers and column letters.

use std::fmt;
use std::str::FromStr;

use super::board::{Move, Position, Square};
use super::{COLS, Dims, HexapawnError, ROWS, Side};

impl fmt::Display for Square {
    /// A square off every board (a client may send any numbers) is written as its numbers: it
    /// has no name, and its refusal must still say what was sent.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.col < *COLS.end() && self.row < *ROWS.end() {
            write!(f, "{}{}", (b'a' + self.col) as char, self.row + 1)
        } else {
            write!(f, "(column {}, row {})", self.col, self.row)
        }
    }
}

impl FromStr for Square {
    type Err = HexapawnError;

    /// `a1` .. `h8` (upper-case letters too).
    fn from_str(text: &str) -> Result<Square, HexapawnError> {
        let bad = || HexapawnError::BadSquareText(text.to_string());
        let mut chars = text.chars();
        let letter = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
        if !('a'..='h').contains(&letter) {
            return Err(bad());
        }
        let row: u8 = chars.as_str().parse().map_err(|_| bad())?;
        if !(1..=8).contains(&row) {
            return Err(bad());
        }
        Ok(Square::new(letter as u8 - b'a', row - 1))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let separator = if self.is_capture() { 'x' } else { '-' };
        write!(f, "{}{separator}{}", self.from, self.to)
    }
}

impl FromStr for Move {
    type Err = HexapawnError;

    /// `a1-a2`, `b2xc3`, `b2c3` (spaces around the separator are allowed).
    fn from_str(text: &str) -> Result<Move, HexapawnError> {
        let bad = || HexapawnError::BadMoveText(text.to_string());
        let compact: String = text
            .chars()
            .filter(|c| !c.is_whitespace() && !matches!(c, '-' | 'x' | 'X' | ':'))
            .collect();
        // The second square starts at the second letter.
        let split = compact
            .char_indices()
            .skip(1)
            .find(|(_, c)| c.is_ascii_alphabetic())
            .map(|(at, _)| at)
            .ok_or_else(bad)?;
        let (from, to) = compact.split_at(split);
        Ok(Move::new(
            from.parse().map_err(|_| bad())?,
            to.parse().map_err(|_| bad())?,
        ))
    }
}

/// The rows of a board from the top row down, separated by `/`, with the given letters for
/// White's and Black's pawns.
pub(crate) fn rows_text(position: &Position, white: char, black: char) -> String {
    let dims = position.dims();
    let mut text = String::with_capacity(dims.squares() as usize + dims.rows() as usize);
    push_rows_text(&mut text, position, white, black);
    text
}

/// Appends [`rows_text`] to `text`.
pub(crate) fn push_rows_text(text: &mut String, position: &Position, white: char, black: char) {
    let dims = position.dims();
    for row in (0..dims.rows()).rev() {
        for col in 0..dims.cols() {
            text.push(match position.pawn_at(Square::new(col, row)) {
                Some(Side::White) => white,
                Some(Side::Black) => black,
                None => '.',
            });
        }
        if row > 0 {
            text.push('/');
        }
    }
}

/// Reads what [`rows_text`] writes: the board's size and both bitboards (White's, Black's).
pub(crate) fn parse_rows(
    text: &str,
    white: char,
    black: char,
) -> Result<(Dims, u64, u64), HexapawnError> {
    let bad = |why: String| HexapawnError::BadPositionText(format!("{}: {why}", quoted(text)));
    let lines: Vec<&str> = text.split('/').collect();
    let rows = u8::try_from(lines.len()).map_err(|_| bad("too many rows".to_string()))?;
    let cols =
        u8::try_from(lines[0].chars().count()).map_err(|_| bad("too many columns".to_string()))?;
    let dims = Dims::new(rows, cols).map_err(|error| bad(error.to_string()))?;
    let (mut white_bits, mut black_bits) = (0, 0);
    for (top_down, line) in lines.iter().enumerate() {
        if line.chars().count() != cols as usize {
            return Err(bad(format!("every row needs {cols} squares")));
        }
        let row = rows - 1 - top_down as u8;
        for (col, symbol) in line.chars().enumerate() {
            let bit = Square::new(col as u8, row).bit(dims);
            match symbol {
                '.' => {}
                _ if symbol == white => white_bits |= bit,
                _ if symbol == black => black_bits |= bit,
                _ => {
                    return Err(bad(format!(
                        "{symbol:?} is not a square; use {white}, {black} or ."
                    )));
                }
            }
        }
    }
    Ok((dims, white_bits, black_bits))
}

impl Position {
    /// The one-line text, e.g. `BBB/.../WWW w` (see the module documentation).
    pub fn to_text(&self) -> String {
        let side = match self.to_move() {
            Side::White => 'w',
            Side::Black => 'b',
        };
        format!("{} {side}", rows_text(self, 'W', 'B'))
    }

    /// Reads [`Position::to_text`]'s form.
    pub fn from_text(text: &str) -> Result<Position, HexapawnError> {
        let bad = |why: &str| HexapawnError::BadPositionText(format!("{}: {why}", quoted(text)));
        let (board, side) = text
            .trim()
            .split_once(' ')
            .ok_or_else(|| bad("write the rows, a space, then w or b for the side to move"))?;
        let to_move = match side.trim() {
            "w" | "W" => Side::White,
            "b" | "B" => Side::Black,
            _ => return Err(bad("the side to move is w or b")),
        };
        let (dims, white, black) = parse_rows(board, 'W', 'B')?;
        Position::from_bitboards(dims, white, black, to_move)
    }
}

impl fmt::Display for Position {
    /// The console picture: row numbers on the left, column letters below, whose move it is.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dims = self.dims();
        for row in (0..dims.rows()).rev() {
            write!(f, "{:>2} ", row + 1)?;
            for col in 0..dims.cols() {
                let symbol = match self.pawn_at(Square::new(col, row)) {
                    Some(Side::White) => 'W',
                    Some(Side::Black) => 'B',
                    None => '.',
                };
                write!(f, " {symbol}")?;
            }
            writeln!(f)?;
        }
        write!(f, "   ")?;
        for col in 0..dims.cols() {
            write!(f, " {}", (b'a' + col) as char)?;
        }
        writeln!(f)
    }
}

/// The most characters of a position's text an error quotes.
const QUOTED_CHARS: usize = 40;

/// `text` quoted for an error, its start only when long (a brain file's key may be megabytes,
/// and the error would then be too long to send).
fn quoted(text: &str) -> String {
    let count = text.chars().count();
    if count <= QUOTED_CHARS {
        return format!("{text:?}");
    }
    let start: String = text.chars().take(QUOTED_CHARS).collect();
    format!("{start:?}… ({count} characters)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_bad_text_is_quoted_by_its_start_only() {
        let long = "x".repeat(5_000_000);
        let error = Position::from_text(&long).unwrap_err().to_string();
        assert!(error.len() < 200, "{} bytes", error.len());
        assert!(error.contains("(5000000 characters)"), "{error}");
        let short = Position::from_text("xyz").unwrap_err().to_string();
        assert!(short.contains("\"xyz\""), "{short}");
    }
}
