//! A Numeric Klotski board on the screen: where each cell sits (a pure function of the board's
//! size and the rectangle it is given), which piece a pixel belongs to, and the drawing: 1x1
//! tiles and blocks as one piece each carrying its numbers, blanks empty, and one piece
//! optionally part-way through a slide.

use macroquad::color::Color;
use macroquad::math::Rect;
use macroquad::shapes::{draw_rectangle, draw_rectangle_lines};
use parlor_shared::klotski::{Dir, Piece, Position, Puzzle, Shape};

use crate::gui::widgets::{measure, text_at};

/// An empty cell. Sampled by the window test where the blanks must be.
pub const BLANK: Color = Color::new(0.10, 0.11, 0.14, 1.0);
/// A 1x1 tile. Sampled by the window test beside the number.
pub const TILE: Color = Color::new(0.93, 0.87, 0.74, 1.0);
/// A 1x2, 2x1 or 2x2 block.
pub const BLOCK: Color = Color::new(0.60, 0.76, 0.92, 1.0);
/// Around the grid.
const FRAME: Color = Color::new(0.34, 0.36, 0.42, 1.0);
const PIECE_EDGE: Color = Color::new(0.24, 0.20, 0.16, 1.0);
/// The outline of the piece that moved last (or is moving).
const MOVING_EDGE: Color = Color::new(0.95, 0.55, 0.10, 1.0);
const NUMBER: Color = Color::new(0.12, 0.12, 0.14, 1.0);

/// The frame drawn around the grid, in pixels.
const FRAME_WIDTH: f32 = 4.0;
/// Cells never shrink below this, nor grow beyond the largest size (a 2x2 board would
/// otherwise fill the window with four tiles).
const MIN_CELL: f32 = 6.0;
const MAX_CELL: f32 = 120.0;

/// Where a `rows` x `cols` grid sits: its top-left corner and the side of one cell, in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardLayout {
    pub left: f32,
    pub top: f32,
    pub cell: f32,
    pub rows: u8,
    pub cols: u8,
}

/// The largest whole-pixel cells (up to a limit) for which the grid and its frame fit in
/// `area`, centred there.
pub fn board_layout(rows: u8, cols: u8, area: Rect) -> BoardLayout {
    let (rows_f, cols_f) = (f32::from(rows.max(1)), f32::from(cols.max(1)));
    let fit_w = (area.w - 2.0 * FRAME_WIDTH) / cols_f;
    let fit_h = (area.h - 2.0 * FRAME_WIDTH) / rows_f;
    let cell = fit_w.min(fit_h).floor().clamp(MIN_CELL, MAX_CELL);
    BoardLayout {
        left: (area.x + ((area.w - cell * cols_f) / 2.0).max(0.0)).floor(),
        top: (area.y + ((area.h - cell * rows_f) / 2.0).max(0.0)).floor(),
        cell,
        rows,
        cols,
    }
}

impl BoardLayout {
    /// The whole grid, without the frame.
    pub fn bounds(&self) -> Rect {
        Rect::new(
            self.left,
            self.top,
            self.cell * f32::from(self.cols),
            self.cell * f32::from(self.rows),
        )
    }

    /// The screen rectangle of `cell` (row-major from 0, as in the puzzle).
    pub fn cell_rect(&self, cell: u8) -> Rect {
        self.piece_rect(Shape::Single, cell)
    }

    /// The rectangle a piece of `shape` covers with its top-left at `top`.
    pub fn piece_rect(&self, shape: Shape, top: u8) -> Rect {
        let cols = self.cols.max(1);
        let (row, col) = (top / cols, top % cols);
        Rect::new(
            self.left + f32::from(col) * self.cell,
            self.top + f32::from(row) * self.cell,
            f32::from(shape.width()) * self.cell,
            f32::from(shape.height()) * self.cell,
        )
    }

    /// The cell under (`x`, `y`), or `None` off the grid. Each cell owns its top and left
    /// edges, so every pixel of the grid belongs to exactly one cell.
    pub fn cell_at(&self, x: f32, y: f32) -> Option<u8> {
        let col = ((x - self.left) / self.cell).floor();
        let row = ((y - self.top) / self.cell).floor();
        let inside = (0.0..f32::from(self.cols)).contains(&col)
            && (0.0..f32::from(self.rows)).contains(&row);
        inside.then(|| row as u8 * self.cols + col as u8)
    }
}

/// The label (top-left number) of the piece under (`x`, `y`) in `position`, or `None` on a
/// blank or off the grid.
pub fn piece_at(
    layout: &BoardLayout,
    puzzle: &Puzzle,
    position: &Position,
    x: f32,
    y: f32,
) -> Option<u16> {
    let cell = layout.cell_at(x, y)?;
    puzzle
        .pieces()
        .iter()
        .zip(position.tops())
        .find(|(piece, top)| {
            puzzle
                .geometry()
                .footprint(piece.shape, **top)
                .is_some_and(|cells| cells & (1 << cell) != 0)
        })
        .map(|(piece, _)| piece.label)
}

/// The piece that moved last, possibly part-way through its slide: the position drawn is the
/// one after piece `label` moved one cell towards `dir`; at `progress` 0 the piece is still a
/// whole cell back, at 1 it is in place (and still outlined).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion {
    pub label: u16,
    pub dir: Dir,
    pub progress: f32,
}

impl Motion {
    /// How far, in cells (columns, rows), the piece is drawn from its place in the position.
    pub fn offset(&self) -> (f32, f32) {
        let (rows, cols) = self.dir.delta();
        let behind = 1.0 - self.progress.clamp(0.0, 1.0);
        (-(cols as f32) * behind, -(rows as f32) * behind)
    }
}

/// Draws `position` of `puzzle` in `layout`: the frame, blank cells, then every piece; with
/// `motion`, its piece is drawn where the slide has got to, on top of the others, outlined.
pub fn draw_board(
    layout: &BoardLayout,
    puzzle: &Puzzle,
    position: &Position,
    motion: Option<Motion>,
) {
    draw_grid(layout);
    let placed = puzzle.pieces().iter().zip(position.tops().iter().copied());
    let moving = motion.map(|motion| motion.label);
    for (piece, top) in placed.clone() {
        if Some(piece.label) != moving {
            draw_piece(layout, piece, top, (0.0, 0.0), PIECE_EDGE);
        }
    }
    if motion.is_some_and(|motion| motion.progress < 1.0) {
        crate::gui::pacing::animating();
    }
    if let Some(motion) = motion
        && let Some((piece, top)) = placed.clone().find(|(p, _)| p.label == motion.label)
    {
        draw_piece(layout, piece, top, motion.offset(), MOVING_EDGE);
    }
}

/// Draws the goal picture of `puzzle` in `layout`: every piece where the goal puts its label.
pub fn draw_goal(layout: &BoardLayout, puzzle: &Puzzle) {
    draw_grid(layout);
    for (piece, top) in goal_placement(puzzle) {
        draw_piece(layout, &piece, top, (0.0, 0.0), PIECE_EDGE);
    }
}

/// The goal picture as pieces and their top-left cells: number n on cell n - 1. A block whose
/// numbers cannot sit together in the goal (a puzzle proved `No` for that) is shown as its
/// numbers on their own, so the picture is always 1..K.
pub fn goal_placement(puzzle: &Puzzle) -> Vec<(Piece, u8)> {
    let geometry = puzzle.geometry();
    let mut placed = Vec::new();
    for piece in puzzle.pieces() {
        let top = (piece.label - 1) as u8;
        let fits = geometry.footprint(piece.shape, top).is_some_and(|cells| {
            let goal_numbers = (0..64u16).filter(|cell| cells & (1 << cell) != 0);
            goal_numbers
                .map(|cell| cell + 1)
                .eq(piece.numbers().iter().copied())
        });
        if fits {
            placed.push((*piece, top));
        } else {
            for &number in piece.numbers() {
                let single = Piece {
                    label: number,
                    shape: Shape::Single,
                    numbers: [number, 0, 0, 0],
                };
                placed.push((single, (number - 1) as u8));
            }
        }
    }
    placed
}

/// The frame and every cell blank.
fn draw_grid(layout: &BoardLayout) {
    let bounds = layout.bounds();
    draw_rectangle(
        bounds.x - FRAME_WIDTH,
        bounds.y - FRAME_WIDTH,
        bounds.w + 2.0 * FRAME_WIDTH,
        bounds.h + 2.0 * FRAME_WIDTH,
        FRAME,
    );
    draw_rectangle(bounds.x, bounds.y, bounds.w, bounds.h, BLANK);
}

/// One piece with its top-left at `top`, shifted by `offset` cells, inset so that neighbouring
/// pieces stay apart; each number sits in the middle of its own cell.
fn draw_piece(layout: &BoardLayout, piece: &Piece, top: u8, offset: (f32, f32), edge: Color) {
    let base = layout.piece_rect(piece.shape, top);
    let rect = Rect::new(
        base.x + offset.0 * layout.cell,
        base.y + offset.1 * layout.cell,
        base.w,
        base.h,
    );
    let gap = (layout.cell * 0.04).max(1.0);
    let fill = if piece.shape == Shape::Single {
        TILE
    } else {
        BLOCK
    };
    let (x, y, w, h) = (
        rect.x + gap,
        rect.y + gap,
        rect.w - 2.0 * gap,
        rect.h - 2.0 * gap,
    );
    draw_rectangle(x, y, w, h, fill);
    let thickness = if edge == MOVING_EDGE { 5.0 } else { 1.5 };
    draw_rectangle_lines(x, y, w, h, thickness, edge);
    let size = (layout.cell * 0.42).max(10.0);
    let width = usize::from(piece.shape.width());
    for (slot, number) in piece.numbers().iter().enumerate() {
        let (row, col) = (slot / width, slot % width);
        let cx = rect.x + (col as f32 + 0.5) * layout.cell;
        let cy = rect.y + (row as f32 + 0.5) * layout.cell;
        let text = number.to_string();
        let dims = measure(&text, size);
        let (tx, ty) = (cx - dims.width / 2.0, cy + dims.offset_y / 2.0);
        text_at(&text, tx.round(), ty.round(), size, NUMBER);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::klotski::parse_puzzle;

    /// 3x4 with a 2x1 block 6/10 and a 2x2 block 3/4/7/8, blanks on cells 8 and 10.
    const BLOCKS: &str = "3 4\n6 2 3 4\n10 1 7 8\n0 5 0 9\n2\n6 2*1\n3 2*2\n";

    fn layout_3x4() -> BoardLayout {
        board_layout(3, 4, Rect::new(10.0, 20.0, 400.0, 300.0))
    }

    #[test]
    fn the_grid_fits_its_area_centred_in_whole_pixels() {
        let layout = layout_3x4();
        let bounds = layout.bounds();
        assert_eq!(layout.cell, 97.0, "{layout:?}");
        assert!(bounds.x >= 10.0 + FRAME_WIDTH && bounds.right() <= 410.0 - FRAME_WIDTH);
        assert!(bounds.y >= 20.0 + FRAME_WIDTH && bounds.bottom() <= 320.0 - FRAME_WIDTH);
        assert_eq!(layout.left, layout.left.floor());
        // Centred: the same room left and right.
        let (left, right) = (bounds.x - 10.0, 410.0 - bounds.right());
        assert!((left - right).abs() <= 1.0, "{left} {right}");
    }

    #[test]
    fn tiny_boards_stop_growing_and_tiny_areas_keep_a_positive_cell() {
        let big = board_layout(2, 2, Rect::new(0.0, 0.0, 1000.0, 1000.0));
        assert_eq!(big.cell, MAX_CELL);
        let small = board_layout(8, 8, Rect::new(0.0, 0.0, 10.0, 10.0));
        assert_eq!(small.cell, MIN_CELL);
    }

    #[test]
    fn every_cell_centre_maps_back_to_its_cell_and_edges_belong_to_one_cell() {
        let layout = layout_3x4();
        for cell in 0..12 {
            let rect = layout.cell_rect(cell);
            let centre = rect.center();
            assert_eq!(layout.cell_at(centre.x, centre.y), Some(cell));
            assert_eq!(layout.cell_at(rect.x, rect.y), Some(cell));
        }
        let five = layout.cell_rect(5);
        assert_eq!(
            (five.x, five.y),
            (layout.left + layout.cell, layout.top + layout.cell)
        );
        let bounds = layout.bounds();
        assert_eq!(layout.cell_at(bounds.x - 0.5, bounds.y), None);
        assert_eq!(layout.cell_at(bounds.x, bounds.y - 0.5), None);
        assert_eq!(layout.cell_at(bounds.right(), bounds.y), None);
        assert_eq!(layout.cell_at(bounds.x, bounds.bottom()), None);
        assert_eq!(layout.cell_at(f32::NAN, f32::NAN), None);
    }

    #[test]
    fn a_block_covers_its_cells_on_screen() {
        let layout = layout_3x4();
        let square = layout.piece_rect(Shape::Square, 2);
        let (first, last) = (layout.cell_rect(2), layout.cell_rect(7));
        assert_eq!((square.x, square.y), (first.x, first.y));
        assert_eq!(
            (square.right(), square.bottom()),
            (last.right(), last.bottom())
        );
    }

    #[test]
    fn the_hit_test_names_the_piece_under_any_of_its_cells_and_nothing_on_blanks() {
        let puzzle = parse_puzzle(BLOCKS).unwrap();
        let layout = layout_3x4();
        let at = |cell: u8| {
            let c = layout.cell_rect(cell).center();
            piece_at(&layout, &puzzle, puzzle.start(), c.x, c.y)
        };
        // Row 0: 6 (block top), 2, 3 (2x2), 3; row 1: 6 (block bottom), 1, 3, 3; row 2: blank, 5,
        // blank, 9.
        let expected = [
            Some(6),
            Some(2),
            Some(3),
            Some(3),
            Some(6),
            Some(1),
            Some(3),
            Some(3),
            None,
            Some(5),
            None,
            Some(9),
        ];
        for (cell, want) in expected.into_iter().enumerate() {
            assert_eq!(at(cell as u8), want, "cell {cell}");
        }
        let outside = layout.bounds();
        assert_eq!(
            piece_at(&layout, &puzzle, puzzle.start(), outside.x - 1.0, outside.y),
            None
        );
    }

    #[test]
    fn a_slide_starts_one_cell_back_and_ends_in_place() {
        let motion = |dir, progress| Motion {
            label: 1,
            dir,
            progress,
        };
        assert_eq!(motion(Dir::Right, 0.0).offset(), (-1.0, 0.0));
        assert_eq!(motion(Dir::Up, 0.0).offset(), (0.0, 1.0));
        assert_eq!(motion(Dir::Down, 0.25).offset(), (0.0, -0.75));
        assert_eq!(motion(Dir::Left, 1.0).offset(), (0.0, 0.0));
        assert_eq!(motion(Dir::Left, 7.0).offset(), (0.0, 0.0));
    }

    #[test]
    fn the_goal_puts_each_label_on_its_number_and_splits_blocks_that_cannot_fit() {
        let puzzle = parse_puzzle(BLOCKS).unwrap();
        let goal: Vec<(u16, Shape, u8)> = goal_placement(&puzzle)
            .into_iter()
            .map(|(piece, top)| (piece.label, piece.shape, top))
            .collect();
        assert!(goal.contains(&(3, Shape::Square, 2)));
        assert!(goal.contains(&(6, Shape::Tall, 5)));
        assert!(goal.contains(&(9, Shape::Single, 8)));
        assert_eq!(goal.len(), puzzle.pieces().len());
        // Block 1 1*2 carrying 1 and 3: 1 and 3 are not side by side in the goal.
        let split = parse_puzzle("2 2\n1 3\n2 0\n1\n1 1*2\n").unwrap();
        let mut goal: Vec<(u16, Shape, u8)> = goal_placement(&split)
            .into_iter()
            .map(|(piece, top)| (piece.label, piece.shape, top))
            .collect();
        goal.sort();
        assert_eq!(
            goal,
            [
                (1, Shape::Single, 0),
                (2, Shape::Single, 1),
                (3, Shape::Single, 2)
            ]
        );
    }
}
