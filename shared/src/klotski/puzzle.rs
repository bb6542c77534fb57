//! The rules: a board of numbered pieces (single numbers and blocks), its positions, its moves
//! and its goal.
//!
//! A piece is named by its top-left number (its label). Pieces are kept sorted by label, and a
//! position is the top-left cell of every piece in that order; the blanks are whatever no piece
//! covers. The goal is the picture 1..K row-major followed by the blanks.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::grid::{Dir, Geometry, MAX_CELLS, Shape, Step};

/// One piece: its label (top-left number), shape and the numbers it carries, row-major within
/// the shape (`numbers[..shape.area()]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub label: u16,
    pub shape: Shape,
    pub numbers: [u16; 4],
}

impl Piece {
    /// The numbers the piece carries.
    pub fn numbers(&self) -> &[u16] {
        &self.numbers[..self.shape.area()]
    }
}

/// One step: the piece with this top-left number moves one cell towards `dir`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    pub label: u16,
    pub dir: Dir,
}

impl Move {
    /// The same piece stepping back.
    pub fn back(self) -> Move {
        Move {
            label: self.label,
            dir: self.dir.opposite(),
        }
    }
}

/// The seed's form: `x S`, e.g. `16 U`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.label, self.dir)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveSyntaxError {
    #[error("{0:?} is not a move: expected a number and one of L, R, U, D, e.g. \"16 U\"")]
    Form(String),
    #[error("{0:?} is not a move: no piece has a number above {max}", max = u16::MAX)]
    NumberTooLarge(String),
}

impl FromStr for Move {
    type Err = MoveSyntaxError;

    fn from_str(text: &str) -> Result<Move, MoveSyntaxError> {
        let bad = || MoveSyntaxError::Form(text.to_string());
        let mut words = text.split_whitespace();
        let (Some(label), Some(dir), None) = (words.next(), words.next(), words.next()) else {
            return Err(bad());
        };
        let label = label
            .parse()
            .map_err(|_| match label.bytes().all(|b| b.is_ascii_digit()) {
                true => MoveSyntaxError::NumberTooLarge(text.to_string()),
                false => bad(),
            })?;
        let mut letters = dir.chars();
        let (Some(letter), None) = (letters.next(), letters.next()) else {
            return Err(bad());
        };
        let dir = Dir::from_letter(letter.to_ascii_uppercase()).ok_or_else(bad)?;
        Ok(Move { label, dir })
    }
}

/// Why a move cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("no piece has top-left number {0}")]
    UnknownPiece(u16),
    #[error("{0} would leave the board")]
    OffBoard(Move),
    #[error("{0} is blocked: the cells it moves into are not all blank")]
    Blocked(Move),
}

/// Why a board cannot be built (the parser turns these into line-numbered errors).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    #[error(
        "a board of {rows} x {cols} is refused: rows and columns must be at least 1 and the board at most {MAX_CELLS} cells"
    )]
    Size { rows: u64, cols: u64 },
    /// Only a board sent whole (over the wire) can have this: the parser reads each row's
    /// numbers as it goes.
    #[error("a board of {rows} x {cols} has {} cells, but {numbers} numbers were given", rows * cols)]
    CellCount {
        rows: u64,
        cols: u64,
        numbers: usize,
    },
    #[error(
        "number {number} is out of range: with {count} numbers on the board they must be 1..={count}"
    )]
    OutOfRange {
        cell: usize,
        number: u64,
        count: usize,
    },
    /// `first_row` and `first_col` count from 1.
    #[error("number {number} is repeated (it is also in row {first_row}, column {first_col})")]
    Repeated {
        cell: usize,
        number: u16,
        first_row: usize,
        first_col: usize,
    },
    #[error("block {label}: no such number on the board")]
    UnknownLabel { block: usize, label: u64 },
    #[error("block {label} is given twice")]
    RepeatedBlock { block: usize, label: u16 },
    #[error("block {label} ({shape}) does not fit: it would stick out of the board")]
    Outside {
        block: usize,
        label: u16,
        shape: Shape,
    },
    #[error("block {label} ({shape}) does not fit its cells: it would cover a blank")]
    CoversBlank {
        block: usize,
        label: u16,
        shape: Shape,
    },
    #[error("block {label} ({shape}) overlaps block {other}")]
    Overlap {
        block: usize,
        label: u16,
        shape: Shape,
        other: u16,
    },
}

/// The places of all pieces: the top-left cell of each, in label order, and the covered cells.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    tops: Vec<u8>,
    occupied: u64,
}

impl Position {
    /// Top-left cell of each piece, in the puzzle's piece order.
    pub fn tops(&self) -> &[u8] {
        &self.tops
    }

    /// The cells covered by pieces (bit `i` = cell `i`).
    pub fn occupied(&self) -> u64 {
        self.occupied
    }
}

/// A board with its pieces and start position: everything the rules need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    geometry: Geometry,
    pieces: Vec<Piece>,
    start: Position,
}

impl Puzzle {
    /// A puzzle from its numbers (`grid`, row-major, 0 = blank) and blocks (label and shape);
    /// every number not in a block is a single.
    pub fn new(
        rows: u32,
        cols: u32,
        grid: &[u64],
        blocks: &[(u64, Shape)],
    ) -> Result<Puzzle, LayoutError> {
        let cells = rows as usize * cols as usize;
        if rows == 0
            || cols == 0
            || rows > MAX_CELLS as u32
            || cols > MAX_CELLS as u32
            || cells > MAX_CELLS
        {
            return Err(LayoutError::Size {
                rows: rows.into(),
                cols: cols.into(),
            });
        }
        if grid.len() != cells {
            return Err(LayoutError::CellCount {
                rows: rows.into(),
                cols: cols.into(),
                numbers: grid.len(),
            });
        }
        let geometry = Geometry::new(rows as u8, cols as u8);
        let count = grid.iter().filter(|&&number| number != 0).count();
        // cell_of[n] = the cell holding number n.
        let mut cell_of = vec![None::<u8>; count + 1];
        for (cell, &number) in grid.iter().enumerate() {
            if number == 0 {
                continue;
            }
            if number > count as u64 {
                return Err(LayoutError::OutOfRange {
                    cell,
                    number,
                    count,
                });
            }
            if let Some(first) = cell_of[number as usize] {
                return Err(LayoutError::Repeated {
                    cell,
                    number: number as u16,
                    first_row: usize::from(first) / cols as usize + 1,
                    first_col: usize::from(first) % cols as usize + 1,
                });
            }
            cell_of[number as usize] = Some(cell as u8);
        }
        // owner[cell] = the block covering it, by its index in `blocks`.
        let mut owner = [None::<usize>; MAX_CELLS];
        let mut pieces = Vec::with_capacity(count);
        for (block, &(label, shape)) in blocks.iter().enumerate() {
            let Some(&Some(top)) = usize::try_from(label)
                .ok()
                .filter(|&l| l > 0)
                .and_then(|l| cell_of.get(l))
            else {
                return Err(LayoutError::UnknownLabel { block, label });
            };
            let label = label as u16;
            if blocks[..block]
                .iter()
                .any(|&(other, _)| other == u64::from(label))
            {
                return Err(LayoutError::RepeatedBlock { block, label });
            }
            let Some(footprint) = geometry.footprint(shape, top) else {
                return Err(LayoutError::Outside {
                    block,
                    label,
                    shape,
                });
            };
            let mut numbers = [0u16; 4];
            for (slot, cell) in cells_of(footprint).enumerate() {
                if grid[usize::from(cell)] == 0 {
                    return Err(LayoutError::CoversBlank {
                        block,
                        label,
                        shape,
                    });
                }
                if let Some(other) = owner[usize::from(cell)] {
                    let other = blocks[other].0 as u16;
                    return Err(LayoutError::Overlap {
                        block,
                        label,
                        shape,
                        other,
                    });
                }
                owner[usize::from(cell)] = Some(block);
                numbers[slot] = grid[usize::from(cell)] as u16;
            }
            pieces.push((
                Piece {
                    label,
                    shape,
                    numbers,
                },
                top,
            ));
        }
        for (cell, &number) in grid.iter().enumerate() {
            if number != 0 && owner[cell].is_none() {
                let piece = Piece {
                    label: number as u16,
                    shape: Shape::Single,
                    numbers: [number as u16, 0, 0, 0],
                };
                pieces.push((piece, cell as u8));
            }
        }
        pieces.sort_by_key(|(piece, _)| piece.label);
        let (pieces, tops): (Vec<Piece>, Vec<u8>) = pieces.into_iter().unzip();
        let mut puzzle = Puzzle {
            geometry,
            pieces,
            start: Position {
                tops: Vec::new(),
                occupied: 0,
            },
        };
        puzzle.start = puzzle.position(tops);
        Ok(puzzle)
    }

    /// The same pieces starting from `start` (which must come from this puzzle).
    pub fn restarted(&self, start: Position) -> Puzzle {
        Puzzle {
            geometry: self.geometry.clone(),
            pieces: self.pieces.clone(),
            start,
        }
    }

    /// The position with these top-left cells (in piece order, all pieces fitting the board).
    pub(crate) fn position(&self, tops: Vec<u8>) -> Position {
        let occupied = self
            .pieces
            .iter()
            .zip(&tops)
            .map(|(piece, &top)| self.geometry.footprint(piece.shape, top).unwrap_or(0))
            .fold(0, |all, cells| all | cells);
        Position { tops, occupied }
    }

    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    pub fn rows(&self) -> u8 {
        self.geometry.rows()
    }

    pub fn cols(&self) -> u8 {
        self.geometry.cols()
    }

    /// The pieces, sorted by label.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    /// K: how many numbers the board holds.
    pub fn number_count(&self) -> usize {
        self.pieces.iter().map(|piece| piece.shape.area()).sum()
    }

    pub fn blank_count(&self) -> usize {
        self.geometry.cells() - self.number_count()
    }

    /// The piece index of a label.
    pub fn piece_index(&self, label: u16) -> Option<usize> {
        self.pieces
            .binary_search_by_key(&label, |piece| piece.label)
            .ok()
    }

    /// The top-left cell of each piece when its label sits where the goal puts that number.
    pub fn goal_tops(&self) -> Vec<u8> {
        self.pieces
            .iter()
            .map(|piece| (piece.label - 1) as u8)
            .collect()
    }

    /// The numbers on every cell, row-major (0 = blank).
    pub fn grid(&self, position: &Position) -> Vec<u16> {
        let mut grid = vec![0; self.geometry.cells()];
        for (piece, &top) in self.pieces.iter().zip(&position.tops) {
            let footprint = self.geometry.footprint(piece.shape, top).unwrap_or(0);
            for (slot, cell) in cells_of(footprint).enumerate() {
                grid[usize::from(cell)] = piece.numbers[slot];
            }
        }
        grid
    }

    /// Whether the board shows 1..K row-major followed by the blanks.
    pub fn is_goal(&self, position: &Position) -> bool {
        let count = self.number_count();
        self.grid(position)
            .iter()
            .enumerate()
            .all(|(cell, &number)| usize::from(number) == if cell < count { cell + 1 } else { 0 })
    }

    /// The step piece `piece` at `top` would take towards `dir`, if it stays on the board.
    #[inline]
    pub fn step(&self, piece: usize, top: u8, dir: Dir) -> Option<Step> {
        self.geometry.step(self.pieces[piece].shape, top, dir)
    }

    /// The position after `mv`, or why it cannot be made.
    pub fn apply(&self, position: &Position, mv: Move) -> Result<Position, MoveError> {
        let piece = self
            .piece_index(mv.label)
            .ok_or(MoveError::UnknownPiece(mv.label))?;
        let step = self
            .step(piece, position.tops[piece], mv.dir)
            .ok_or(MoveError::OffBoard(mv))?;
        if step.enter & position.occupied != 0 {
            return Err(MoveError::Blocked(mv));
        }
        let mut next = position.clone();
        next.tops[piece] = step.to;
        next.occupied = (next.occupied & !step.leave) | step.enter;
        Ok(next)
    }

    /// Every move that can be made from `position`, by label then direction.
    pub fn legal_moves(&self, position: &Position) -> Vec<Move> {
        let mut moves = Vec::new();
        for (index, piece) in self.pieces.iter().enumerate() {
            for dir in Dir::ALL {
                if let Some(step) = self.step(index, position.tops[index], dir)
                    && step.enter & position.occupied == 0
                {
                    moves.push(Move {
                        label: piece.label,
                        dir,
                    });
                }
            }
        }
        moves
    }

    /// The position after playing `moves` from the start, or the first move that fails (its
    /// 0-based index and why).
    pub fn replay(&self, moves: &[Move]) -> Result<Position, (usize, MoveError)> {
        moves
            .iter()
            .enumerate()
            .try_fold(self.start.clone(), |position, (index, &mv)| {
                self.apply(&position, mv).map_err(|error| (index, error))
            })
    }

    /// The puzzle in the input format (start position), ending with a newline.
    pub fn to_text(&self) -> String {
        let grid = self.grid(&self.start);
        let cols = usize::from(self.cols());
        let mut text = format!("{} {}\n", self.rows(), self.cols());
        for row in grid.chunks(cols) {
            let numbers: Vec<String> = row.iter().map(u16::to_string).collect();
            text += &numbers.join(" ");
            text.push('\n');
        }
        let blocks: Vec<&Piece> = self
            .pieces
            .iter()
            .filter(|piece| piece.shape != Shape::Single)
            .collect();
        text += &format!("{}\n", blocks.len());
        for piece in blocks {
            text += &format!("{} {}\n", piece.label, piece.shape);
        }
        text
    }
}

/// The cells of a mask, lowest first.
pub fn cells_of(mut mask: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let cell = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            cell
        })
    })
}
