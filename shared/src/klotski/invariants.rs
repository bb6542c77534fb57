//! Cheap proofs that a puzzle has no solution, tried before any search.
//!
//! Each is a property every move keeps and the goal has, so a start without it can never reach
//! the goal. When none applies the searches decide, by finding a solution or by exhausting the
//! reachable positions.

use std::fmt;

use super::grid::Shape;
use super::puzzle::Puzzle;

/// Which way a piece can never move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    /// Up or down: the piece stays in its rows.
    Vertical,
    /// Left or right: the piece stays in its columns.
    Horizontal,
}

/// A proof that the goal cannot be reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unsolvable {
    /// The block's numbers are not side by side in the goal picture, so no place of the block
    /// shows them in order.
    BlockShape { label: u16, shape: Shape },
    /// With one blank every move is a swap (a 1x1 tile) or a 3-cycle (a 1x2 or 2x1 block into the
    /// blank), so the permutation's parity always equals the parity of the blank's distance from
    /// its goal cell; the start breaks that.
    Parity,
    /// The piece can never move along this axis (the board is too narrow or there are too few
    /// blanks beside it), yet its goal is elsewhere along it.
    Immovable { label: u16, axis: Axis },
    /// Every position reachable from the start (or, for bidirectional search, from the goal)
    /// was searched and none is the goal; `positions` is how many the search counted (IDA*
    /// counts the expansions of its last round, which may visit a position more than once).
    Exhausted { positions: u64 },
}

impl fmt::Display for Unsolvable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unsolvable::BlockShape { label, shape } => write!(
                f,
                "block {label} ({shape}) carries numbers that are not side by side in the goal"
            ),
            Unsolvable::Parity => write!(
                f,
                "one blank and the wrong permutation parity for the blank's distance to its goal"
            ),
            Unsolvable::Immovable { label, axis } => {
                let (way, place) = match axis {
                    Axis::Vertical => ("up or down", "row"),
                    Axis::Horizontal => ("left or right", "column"),
                };
                write!(
                    f,
                    "piece {label} can never move {way}, and its goal is in another {place}"
                )
            }
            Unsolvable::Exhausted { positions } => write!(
                f,
                "every reachable position was searched ({positions} counted) and none is the goal"
            ),
        }
    }
}

/// The first cheap proof of unsolvability that applies, if any.
pub fn prove_unsolvable(puzzle: &Puzzle) -> Option<Unsolvable> {
    block_shapes(puzzle)
        .or_else(|| immovable(puzzle))
        .or_else(|| parity(puzzle))
}

/// A block's numbers must be the goal's numbers under its shape: x, x+1 for 1x2 (x not at a
/// row's end), x, x+cols for 2x1, and both for 2x2.
fn block_shapes(puzzle: &Puzzle) -> Option<Unsolvable> {
    let cols = u16::from(puzzle.cols());
    puzzle.pieces().iter().find_map(|piece| {
        let x = piece.label;
        let expected: &[u16] = match piece.shape {
            Shape::Single => return None,
            Shape::Wide => &[x, x + 1],
            Shape::Tall => &[x, x + cols],
            Shape::Square => &[x, x + 1, x + cols, x + cols + 1],
        };
        let at_row_end = (x - 1) % cols == cols - 1;
        let fits = piece.numbers() == expected && !(piece.shape.width() == 2 && at_row_end);
        (!fits).then_some(Unsolvable::BlockShape {
            label: x,
            shape: piece.shape,
        })
    })
}

/// Moving up or down needs the board taller than the piece and as many blanks as the piece is
/// wide; left or right, wider than the piece and as many blanks as it is tall.
fn immovable(puzzle: &Puzzle) -> Option<Unsolvable> {
    let geometry = puzzle.geometry();
    let blanks = puzzle.blank_count();
    let tops = puzzle.start().tops();
    puzzle.pieces().iter().zip(tops).find_map(|(piece, &top)| {
        let goal = (piece.label - 1) as u8;
        let (height, width) = (piece.shape.height(), piece.shape.width());
        let vertical = geometry.rows() > height && blanks >= usize::from(width);
        let horizontal = geometry.cols() > width && blanks >= usize::from(height);
        let axis = if !vertical && geometry.row_of(top) != geometry.row_of(goal) {
            Axis::Vertical
        } else if !horizontal && geometry.col_of(top) != geometry.col_of(goal) {
            Axis::Horizontal
        } else {
            return None;
        };
        Some(Unsolvable::Immovable {
            label: piece.label,
            axis,
        })
    })
}

/// The one-blank parity rule (see [`Unsolvable::Parity`]).
fn parity(puzzle: &Puzzle) -> Option<Unsolvable> {
    if puzzle.blank_count() != 1 {
        return None;
    }
    let grid = puzzle.grid(puzzle.start());
    let last = grid.len() - 1;
    // target[cell] = where the cell's content belongs: number n in cell n - 1, the blank last.
    let target: Vec<usize> = grid
        .iter()
        .map(|&number| {
            if number == 0 {
                last
            } else {
                usize::from(number) - 1
            }
        })
        .collect();
    let mut seen = vec![false; grid.len()];
    let mut transpositions = 0;
    for start in 0..grid.len() {
        let mut cell = start;
        let mut length = 0usize;
        while !seen[cell] {
            seen[cell] = true;
            cell = target[cell];
            length += 1;
        }
        transpositions += length.saturating_sub(1);
    }
    let blank = grid.iter().position(|&number| number == 0)? as u8;
    let distance = puzzle.geometry().manhattan(blank, last as u8) as usize;
    (transpositions % 2 != distance % 2).then_some(Unsolvable::Parity)
}
