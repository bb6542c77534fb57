//! A Numeric Klotski board as it travels: a client submits one to open a room, and a room's
//! state carries its pieces as one. It is checked by [`Puzzle::new`] whenever one is read back,
//! so a board a client submits is refused with the parser's reason before anything is
//! allocated for it.

use serde::{Deserialize, Serialize};

use super::grid::Shape;
use super::puzzle::{LayoutError, Position, Puzzle};

/// A board as sent over the wire: a client submits one to open a room.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct KlotskiBoard {
    pub rows: u8,
    pub cols: u8,
    /// The numbers row-major, 0 for a blank.
    pub grid: Vec<u16>,
    /// The blocks, each by its top-left number and shape; every other number is a 1x1 tile.
    pub blocks: Vec<(u16, Shape)>,
}

impl KlotskiBoard {
    /// The board of `puzzle` at its start position.
    pub fn of(puzzle: &Puzzle) -> KlotskiBoard {
        KlotskiBoard::at(puzzle, puzzle.start())
    }

    /// The board of `puzzle` with its pieces at `position`.
    pub fn at(puzzle: &Puzzle, position: &Position) -> KlotskiBoard {
        KlotskiBoard {
            rows: puzzle.rows(),
            cols: puzzle.cols(),
            grid: puzzle.grid(position),
            blocks: puzzle
                .pieces()
                .iter()
                .filter(|piece| piece.shape != Shape::Single)
                .map(|piece| (piece.label, piece.shape))
                .collect(),
        }
    }

    /// The puzzle this board starts, or why it is not one.
    pub fn puzzle(&self) -> Result<Puzzle, LayoutError> {
        let grid: Vec<u64> = self.grid.iter().map(|&n| u64::from(n)).collect();
        let blocks: Vec<(u64, Shape)> = self
            .blocks
            .iter()
            .map(|&(label, shape)| (u64::from(label), shape))
            .collect();
        Puzzle::new(u32::from(self.rows), u32::from(self.cols), &grid, &blocks)
    }
}
