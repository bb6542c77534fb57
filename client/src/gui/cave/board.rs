//! The Magnetic Cave board: where it sits on the screen, which cell a pixel belongs to, and how
//! it is drawn. Layout and hit-testing are pure functions of the screen size so that tests (and
//! the window test, which clicks and samples pixels) can compute where every cell is.

use macroquad::color::Color;
use macroquad::math::Rect;
use macroquad::shapes::{draw_line, draw_rectangle, draw_rectangle_lines};
use parlor_shared::cave::{Player, Position, SIZE, Square};

use crate::gui::widgets::{SIDE_PANEL_WIDTH, TEXT, TEXT_SIZE, TOP_BAR_HEIGHT, text_at, text_width};

/// A black brick (■). Sampled by the window test at a cell's centre.
pub const BLACK_BRICK: Color = Color::new(0.1, 0.1, 0.1, 1.0);
/// A white brick (□).
pub const WHITE_BRICK: Color = Color::new(0.95, 0.95, 0.95, 1.0);
/// An empty cell: a mid tone, clearly different from both brick colours.
pub const EMPTY_CELL: Color = Color::new(0.55, 0.42, 0.30, 1.0);
/// An empty cell where the player to move (you) may place a brick.
pub const LEGAL_CELL: Color = Color::new(0.62, 0.74, 0.42, 1.0);
/// The background of the cells of a winning five.
pub const WINNING_CELL: Color = Color::new(0.95, 0.75, 0.15, 1.0);
/// The frame around the last move.
pub const LAST_MOVE_MARK: Color = Color::new(0.90, 0.12, 0.12, 1.0);
const GRID_LINE: Color = Color::new(0.36, 0.26, 0.17, 1.0);
const WALL: Color = Color::new(0.46, 0.46, 0.52, 1.0);
const WALL_MORTAR: Color = Color::new(0.30, 0.30, 0.35, 1.0);
const BLACK_BRICK_EDGE: Color = Color::new(0.35, 0.35, 0.35, 1.0);
const WHITE_BRICK_EDGE: Color = Color::new(0.25, 0.25, 0.25, 1.0);

/// Thickness of the cave's side walls.
const WALL_WIDTH: f32 = 14.0;
/// Room beside the board on each side for a wall, the row labels and a margin.
const SIDE_SPACE: f32 = 56.0;
/// Room above and below the board for the column labels.
const LABEL_BAND: f32 = 30.0;
/// Room left under the lower labels.
const BOTTOM_MARGIN: f32 = 10.0;
/// The board never shrinks below this cell size, however small the window.
const MIN_CELL: f32 = 8.0;
/// Bricks are drawn this fraction of a cell in from each cell edge.
const BRICK_INSET: f32 = 0.1;

/// Where the 8x8 grid is on screen: its top-left corner and the side of one cell, in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardLayout {
    pub left: f32,
    pub top: f32,
    pub cell: f32,
}

impl BoardLayout {
    /// Side of the whole grid.
    pub fn side(&self) -> f32 {
        self.cell * f32::from(SIZE)
    }
}

/// The board's place for a screen of `screen_w` x `screen_h`: the largest whole-pixel cells
/// that fit left of the side panel and below the top bar, centred in that area.
pub fn board_layout(screen_w: f32, screen_h: f32) -> BoardLayout {
    let area_w = (screen_w - SIDE_PANEL_WIDTH).max(0.0);
    let fit_w = area_w - 2.0 * SIDE_SPACE;
    let fit_h = screen_h - TOP_BAR_HEIGHT - 2.0 * LABEL_BAND - BOTTOM_MARGIN;
    let cell = (fit_w.min(fit_h) / f32::from(SIZE)).floor().max(MIN_CELL);
    let side = cell * f32::from(SIZE);
    BoardLayout {
        left: ((area_w - side) / 2.0).floor().max(0.0),
        top: (TOP_BAR_HEIGHT + LABEL_BAND + ((fit_h - side) / 2.0).max(0.0)).floor(),
        cell,
    }
}

/// The screen rectangle of `square`; row 8 is at the top, column a at the left.
pub fn cell_rect(layout: BoardLayout, square: Square) -> Rect {
    let rows_from_top = f32::from(SIZE - 1 - square.row());
    Rect::new(
        layout.left + f32::from(square.col()) * layout.cell,
        layout.top + rows_from_top * layout.cell,
        layout.cell,
        layout.cell,
    )
}

/// The centre pixel of `square`.
pub fn cell_center(layout: BoardLayout, square: Square) -> (f32, f32) {
    let rect = cell_rect(layout, square);
    (rect.x + rect.w / 2.0, rect.y + rect.h / 2.0)
}

/// The cell under the point (`x`, `y`), or `None` off the grid. Each cell owns its top and left
/// edges, so every on-board pixel belongs to exactly one cell.
pub fn square_at(layout: BoardLayout, x: f32, y: f32) -> Option<Square> {
    let col = ((x - layout.left) / layout.cell).floor();
    let rows_from_top = ((y - layout.top) / layout.cell).floor();
    let size = f32::from(SIZE);
    if !(0.0..size).contains(&col) || !(0.0..size).contains(&rows_from_top) {
        return None;
    }
    Square::new(col as u8, SIZE - 1 - rows_from_top as u8)
}

/// What to show on top of the bricks.
#[derive(Clone, Copy, Debug, Default)]
pub struct BoardMarks {
    /// Cells to highlight as playable (a bitboard).
    pub legal: u64,
    pub last_move: Option<Square>,
    pub winning_line: Option<[Square; 5]>,
    /// A faint brick where the pointer would place one.
    pub preview: Option<(Square, Player)>,
    /// How far the last move's brick has come (`crate::gui::arrival`): it slides in from the
    /// side wall nearer its cell. `None` is in place.
    pub entering: Option<f32>,
}

/// Draws walls, labels, cells and bricks of `position` at `layout`.
pub fn draw_board(layout: BoardLayout, position: &Position, marks: &BoardMarks) {
    draw_walls(layout);
    draw_labels(layout);
    for square in Square::all() {
        let rect = cell_rect(layout, square);
        let background = if marks
            .winning_line
            .is_some_and(|line| line.contains(&square))
        {
            WINNING_CELL
        } else if marks.legal & square.bit() != 0 {
            LEGAL_CELL
        } else {
            EMPTY_CELL
        };
        draw_rectangle(rect.x, rect.y, rect.w, rect.h, background);
        if let Some(player) = position.at(square) {
            let entering = marks.entering.filter(|_| marks.last_move == Some(square));
            draw_brick(sliding_in(layout, square, rect, entering), player, 1.0);
        } else if let Some((_, player)) = marks.preview.filter(|&(at, _)| at == square) {
            draw_brick(rect, player, 0.45);
        }
    }
    draw_grid(layout);
    if let Some(square) = marks.last_move {
        let rect = cell_rect(layout, square);
        draw_rectangle_lines(
            rect.x + 2.0,
            rect.y + 2.0,
            rect.w - 4.0,
            rect.h - 4.0,
            4.0,
            LAST_MOVE_MARK,
        );
    }
}

/// Where a brick of `square` (its cell `rect`) is drawn `progress` of the way in from the side
/// wall nearer it: the wall's outside at 0, its cell at 1.
fn sliding_in(layout: BoardLayout, square: Square, rect: Rect, progress: Option<f32>) -> Rect {
    let Some(progress) = progress else {
        return rect;
    };
    let row = square.row();
    let wall_x = if square.col() < SIZE / 2 {
        cell_rect(layout, Square::new(0, row).expect("column 0")).x - rect.w
    } else {
        cell_rect(layout, Square::new(SIZE - 1, row).expect("the last column")).right()
    };
    Rect {
        x: wall_x + (rect.x - wall_x) * progress,
        ..rect
    }
}

/// A brick filling `rect` less a margin, with `alpha` for previews.
fn draw_brick(rect: Rect, player: Player, alpha: f32) {
    let inset = (rect.w * BRICK_INSET).round();
    let (fill, edge) = match player {
        Player::Black => (BLACK_BRICK, BLACK_BRICK_EDGE),
        Player::White => (WHITE_BRICK, WHITE_BRICK_EDGE),
    };
    let (x, y, w, h) = (
        rect.x + inset,
        rect.y + inset,
        rect.w - 2.0 * inset,
        rect.h - 2.0 * inset,
    );
    draw_rectangle(x, y, w, h, Color { a: alpha, ..fill });
    draw_rectangle_lines(x, y, w, h, 2.0, Color { a: alpha, ..edge });
}

/// A small brick used as the colour key of a player in text (the font has no ■ or □ glyph).
/// (`x`, `baseline`) is where the text would start; returns the width taken.
pub fn draw_swatch(x: f32, baseline: f32, player: Player) -> f32 {
    let side = 14.0;
    draw_brick(
        Rect::new(x - 2.0, baseline - side - 1.0, side + 4.0, side + 4.0),
        player,
        1.0,
    );
    side + 8.0
}

fn draw_grid(layout: BoardLayout) {
    let side = layout.side();
    for line in 0..=SIZE {
        let offset = f32::from(line) * layout.cell;
        let (x, y) = (layout.left + offset, layout.top + offset);
        draw_line(x, layout.top, x, layout.top + side, 2.0, GRID_LINE);
        draw_line(layout.left, y, layout.left + side, y, 2.0, GRID_LINE);
    }
}

/// The side walls the bricks lean on: blocks with mortar lines, half a cell tall.
fn draw_walls(layout: BoardLayout) {
    let side = layout.side();
    for x in [layout.left - WALL_WIDTH, layout.left + side] {
        draw_rectangle(x, layout.top - 4.0, WALL_WIDTH, side + 8.0, WALL);
        let courses = 2 * SIZE;
        for course in 1..courses {
            let y = layout.top + f32::from(course) * side / f32::from(courses);
            draw_line(x, y, x + WALL_WIDTH, y, 1.0, WALL_MORTAR);
        }
    }
}

/// Column letters above and below, row numbers outside both walls (row 8 at the top).
fn draw_labels(layout: BoardLayout) {
    let side = layout.side();
    // Cells of the diagonal a1..h8 give one column centre and one row centre each.
    for square in (0..SIZE).filter_map(|index| Square::new(index, index)) {
        let (center_x, center_y) = cell_center(layout, square);
        let name = square.to_string();
        let (letter, number) = name.split_at(1);
        let x = center_x - text_width(letter) / 2.0;
        text_at(letter, x, layout.top - 10.0, TEXT_SIZE, TEXT);
        text_at(letter, x, layout.top + side + 24.0, TEXT_SIZE, TEXT);
        let baseline = center_y + 6.0;
        let left_x = layout.left - WALL_WIDTH - 10.0 - text_width(number);
        text_at(number, left_x, baseline, TEXT_SIZE, TEXT);
        text_at(
            number,
            layout.left + side + WALL_WIDTH + 10.0,
            baseline,
            TEXT_SIZE,
            TEXT,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::widgets::side_panel_x;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn layout_for_the_fixed_window_is_whole_pixels_and_fits_beside_the_panel() {
        let layout = board_layout(1024.0, 768.0);
        assert_eq!(
            layout,
            BoardLayout {
                left: 59.0,
                top: 121.0,
                cell: 72.0
            }
        );
        assert!(layout.left - SIDE_SPACE >= 0.0);
        assert!(layout.left + layout.side() + SIDE_SPACE <= side_panel_x(1024.0));
        assert!(layout.top - LABEL_BAND >= TOP_BAR_HEIGHT);
        assert!(layout.top + layout.side() + LABEL_BAND <= 768.0);
    }

    #[test]
    fn row_one_is_at_the_bottom_and_column_a_at_the_left() {
        let layout = board_layout(1024.0, 768.0);
        assert_eq!(
            cell_rect(layout, sq("a8")),
            Rect::new(59.0, 121.0, 72.0, 72.0)
        );
        assert_eq!(cell_center(layout, sq("a1")), (95.0, 661.0));
        assert_eq!(cell_center(layout, sq("h1")), (599.0, 661.0));
        assert_eq!(cell_center(layout, sq("h8")), (599.0, 157.0));
    }

    #[test]
    fn every_cell_centre_and_corner_hits_its_own_cell() {
        for layout in [
            board_layout(1024.0, 768.0),
            board_layout(800.0, 600.0),
            board_layout(1920.0, 1080.0),
        ] {
            for square in Square::all() {
                let (x, y) = cell_center(layout, square);
                assert_eq!(square_at(layout, x, y), Some(square));
                let rect = cell_rect(layout, square);
                assert_eq!(square_at(layout, rect.x, rect.y), Some(square));
                let inner = (rect.x + rect.w - 0.01, rect.y + rect.h - 0.01);
                assert_eq!(square_at(layout, inner.0, inner.1), Some(square));
            }
        }
    }

    #[test]
    fn points_off_the_grid_hit_nothing() {
        let layout = board_layout(1024.0, 768.0);
        let (left, top, side) = (layout.left, layout.top, layout.side());
        for (x, y) in [
            (left - 0.5, top + 10.0),
            (left + side, top + 10.0),
            (left + 10.0, top - 0.5),
            (left + 10.0, top + side),
            (-5.0, -5.0),
            (f32::NAN, 100.0),
            (f32::INFINITY, f32::NEG_INFINITY),
        ] {
            assert_eq!(square_at(layout, x, y), None, "({x}, {y})");
        }
    }

    #[test]
    fn a_tiny_window_still_gets_a_usable_board() {
        let layout = board_layout(100.0, 50.0);
        assert_eq!(layout.cell, MIN_CELL);
        let (x, y) = cell_center(layout, sq("d4"));
        assert_eq!(square_at(layout, x, y), Some(sq("d4")));
    }

    #[test]
    fn the_three_cell_colours_are_far_apart() {
        let distance =
            |a: Color, b: Color| (a.r - b.r).abs() + (a.g - b.g).abs() + (a.b - b.b).abs();
        assert!(distance(BLACK_BRICK, EMPTY_CELL) > 0.9);
        assert!(distance(WHITE_BRICK, EMPTY_CELL) > 0.9);
        assert!(distance(LEGAL_CELL, EMPTY_CELL) > 0.2);
    }
}
