//! What the Numeric Klotski window tests share: the course board they play, and the colour
//! each cell of a board drawn on a screenshot must show (tile, block or blank).

use std::path::{Path, PathBuf};

use macroquad::color::Color;
use macroquad::math::Rect;
use parlor_client::gui::klotski::{BLANK, BLOCK, TILE, board_layout};
use parlor_shared::klotski::{Puzzle, Shape, parse_puzzle};

use super::{Screenshot, close_to};

/// 3x4 with a 2x1 block (6/10), a 2x2 block (3/4/7/8) and two blanks; 17 steps.
pub const LEVEL: &str = "lunaqu4kez_extra_04.in";

/// The level file `name` of `levels/klotski/`.
pub fn level(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../levels/klotski")
        .join(name)
}

pub fn level_puzzle() -> Puzzle {
    parse_puzzle(&std::fs::read_to_string(level(LEVEL)).unwrap()).unwrap()
}

/// The goal's numbers row-major: 1..K, then blanks.
pub fn goal_grid(puzzle: &Puzzle) -> Vec<u16> {
    let count = puzzle.number_count() as u16;
    (1..=count)
        .chain(std::iter::repeat(0))
        .take(usize::from(puzzle.rows()) * usize::from(puzzle.cols()))
        .collect()
}

/// The colour each cell must show when the board reads `grid` (row-major, 0 = blank).
pub fn expected_colors(puzzle: &Puzzle, grid: &[u16]) -> Vec<Color> {
    let shape_of = |number: u16| {
        let piece = puzzle
            .pieces()
            .iter()
            .find(|p| p.numbers().contains(&number));
        piece.expect("every number is on a piece").shape
    };
    grid.iter()
        .map(|&number| match number {
            0 => BLANK,
            n if shape_of(n) == Shape::Single => TILE,
            _ => BLOCK,
        })
        .collect()
}

/// Whether each cell of the board drawn in `area` shows its `expected` colour: the colour a
/// fifth of a cell in from its left edge (inside any piece, clear of its outline and of the
/// number in the middle).
pub fn shown_colors(
    shot: &Screenshot,
    puzzle: &Puzzle,
    expected: &[Color],
    area: Rect,
) -> Vec<bool> {
    let layout = board_layout(puzzle.rows(), puzzle.cols(), area);
    expected
        .iter()
        .enumerate()
        .map(|(cell, &want)| {
            let rect = layout.cell_rect(cell as u8);
            close_to(
                shot.pixel(rect.x + rect.w * 0.2, rect.y + rect.h / 2.0),
                want,
            )
        })
        .collect()
}

/// The cells of the board drawn in `area` that do not show the colours of `grid`.
pub fn wrong_cells(shot: &Screenshot, puzzle: &Puzzle, grid: &[u16], area: Rect) -> Vec<usize> {
    let shown = shown_colors(shot, puzzle, &expected_colors(puzzle, grid), area);
    (0..grid.len()).filter(|&cell| !shown[cell]).collect()
}
