//! Board geometry: piece shapes, directions, and the cell masks a piece covers and sweeps.
//!
//! Cells are numbered row-major from 0 and a set of cells is a `u64` bit mask, so a board has
//! at most [`MAX_CELLS`] cells. Every step a shape can take from every cell is computed once,
//! which makes a legality check one `AND` with the occupied cells.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The most cells a board may have: one bit per cell in a `u64`.
pub const MAX_CELLS: usize = 64;

/// The shapes a piece may have: a single number, or numbers tied into a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Shape {
    /// 1x1: one number.
    Single,
    /// 1x2: one row, two columns.
    Wide,
    /// 2x1: two rows, one column.
    Tall,
    /// 2x2.
    Square,
}

impl Shape {
    pub const ALL: [Shape; 4] = [Shape::Single, Shape::Wide, Shape::Tall, Shape::Square];

    /// The shape of a block `rows*cols`, if it is one of the allowed ones.
    pub fn from_dims(rows: u32, cols: u32) -> Option<Shape> {
        match (rows, cols) {
            (1, 1) => Some(Shape::Single),
            (1, 2) => Some(Shape::Wide),
            (2, 1) => Some(Shape::Tall),
            (2, 2) => Some(Shape::Square),
            _ => None,
        }
    }

    /// A block's shape written `R*C` (or `RxC`): 2*2, 1*2 or 2*1; a 1x1 tile is no block.
    pub fn parse_block(text: &str) -> Option<Shape> {
        let (rows, cols) = text.split_once(['*', 'x', 'X'])?;
        Shape::from_dims(rows.parse().ok()?, cols.parse().ok()?)
            .filter(|&shape| shape != Shape::Single)
    }

    pub fn height(self) -> u8 {
        match self {
            Shape::Single | Shape::Wide => 1,
            Shape::Tall | Shape::Square => 2,
        }
    }

    pub fn width(self) -> u8 {
        match self {
            Shape::Single | Shape::Tall => 1,
            Shape::Wide | Shape::Square => 2,
        }
    }

    pub fn area(self) -> usize {
        usize::from(self.height() * self.width())
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Written as in the input: rows `*` columns.
impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}*{}", self.height(), self.width())
    }
}

/// The direction a piece moves in, one cell per step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Dir {
    Left,
    Right,
    Up,
    Down,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::Left, Dir::Right, Dir::Up, Dir::Down];

    /// The seed's letter: L, R, U or D.
    pub fn letter(self) -> char {
        match self {
            Dir::Left => 'L',
            Dir::Right => 'R',
            Dir::Up => 'U',
            Dir::Down => 'D',
        }
    }

    pub fn from_letter(letter: char) -> Option<Dir> {
        Dir::ALL.into_iter().find(|dir| dir.letter() == letter)
    }

    pub fn opposite(self) -> Dir {
        match self {
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
        }
    }

    /// (row, column) change.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::Left => (0, -1),
            Dir::Right => (0, 1),
            Dir::Up => (-1, 0),
            Dir::Down => (1, 0),
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// One step of a shape from a cell: where its top-left lands, the cells it moves into (all of
/// which must be blank) and the cells it leaves blank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub to: u8,
    pub enter: u64,
    pub leave: u64,
}

/// A board's size with every shape's footprint and steps precomputed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    rows: u8,
    cols: u8,
    /// `footprints[shape][cell]`: the cells a shape covers with its top-left at `cell`.
    footprints: [Vec<Option<u64>>; 4],
    /// `steps[shape][cell * 4 + dir]`.
    steps: [Vec<Option<Step>>; 4],
}

impl Geometry {
    /// The geometry of a `rows x cols` board; the caller keeps `rows * cols <= MAX_CELLS`.
    pub fn new(rows: u8, cols: u8) -> Geometry {
        let cells = usize::from(rows) * usize::from(cols);
        debug_assert!(rows > 0 && cols > 0 && cells <= MAX_CELLS);
        let footprint = |shape: Shape, row: i32, col: i32| -> Option<u64> {
            let (height, width) = (i32::from(shape.height()), i32::from(shape.width()));
            let inside = row >= 0
                && col >= 0
                && row + height <= i32::from(rows)
                && col + width <= i32::from(cols);
            inside.then(|| {
                let mut mask = 0u64;
                for r in row..row + height {
                    for c in col..col + width {
                        mask |= 1 << (r * i32::from(cols) + c);
                    }
                }
                mask
            })
        };
        let footprints = Shape::ALL.map(|shape| {
            (0..cells)
                .map(|cell| {
                    let (row, col) = (cell / usize::from(cols), cell % usize::from(cols));
                    footprint(shape, row as i32, col as i32)
                })
                .collect()
        });
        let steps = Shape::ALL.map(|shape| {
            let mut steps = Vec::with_capacity(cells * 4);
            for cell in 0..cells {
                let (row, col) = (
                    (cell / usize::from(cols)) as i32,
                    (cell % usize::from(cols)) as i32,
                );
                for dir in Dir::ALL {
                    let (dr, dc) = dir.delta();
                    let step = match (
                        footprint(shape, row, col),
                        footprint(shape, row + dr, col + dc),
                    ) {
                        (Some(from), Some(to)) => Some(Step {
                            to: ((row + dr) * i32::from(cols) + col + dc) as u8,
                            enter: to & !from,
                            leave: from & !to,
                        }),
                        _ => None,
                    };
                    steps.push(step);
                }
            }
            steps
        });
        Geometry {
            rows,
            cols,
            footprints,
            steps,
        }
    }

    pub fn rows(&self) -> u8 {
        self.rows
    }

    pub fn cols(&self) -> u8 {
        self.cols
    }

    pub fn cells(&self) -> usize {
        usize::from(self.rows) * usize::from(self.cols)
    }

    /// Every cell of the board.
    pub fn full_mask(&self) -> u64 {
        if self.cells() == MAX_CELLS {
            u64::MAX
        } else {
            (1u64 << self.cells()) - 1
        }
    }

    pub fn row_of(&self, cell: u8) -> u8 {
        cell / self.cols
    }

    pub fn col_of(&self, cell: u8) -> u8 {
        cell % self.cols
    }

    /// The cells `shape` covers with its top-left at `cell`, or `None` if it sticks out.
    pub fn footprint(&self, shape: Shape, cell: u8) -> Option<u64> {
        self.footprints[shape.index()][usize::from(cell)]
    }

    /// The step of `shape` from `cell` towards `dir`, or `None` if it would leave the board.
    #[inline]
    pub fn step(&self, shape: Shape, cell: u8, dir: Dir) -> Option<Step> {
        self.steps[shape.index()][usize::from(cell) * 4 + dir.index()]
    }

    /// Steps between two top-left cells (one cell per step, ignoring other pieces).
    pub fn manhattan(&self, a: u8, b: u8) -> u32 {
        let rows = u32::from(self.row_of(a).abs_diff(self.row_of(b)));
        let cols = u32::from(self.col_of(a).abs_diff(self.col_of(b)));
        rows + cols
    }
}
