//! Where the EWN board sits on the screen and which square a pixel belongs to. Pure functions
//! of the screen size, so tests (and the window test) can compute every square's place.

use macroquad::math::Rect;
use parlor_shared::ewn::{BOARD_SIZE, DICE_LEN, SQUARES};

use crate::gui::board_cursor::Grid;
use crate::gui::widgets::{SIDE_PANEL_WIDTH, TOP_BAR_HEIGHT};

/// Room left of and above the board for the row and column labels.
const LABEL_BAND: f32 = 30.0;
/// Room under the board for the dice strip and the move line.
pub const INFO_BAND: f32 = 96.0;
/// Margin around everything.
const MARGIN: f32 = 12.0;
/// The board never shrinks below this square size.
const MIN_CELL: f32 = 8.0;

/// The 10x10 grid's top-left corner and the side of one square, in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EwnLayout {
    pub left: f32,
    pub top: f32,
    pub cell: f32,
}

impl EwnLayout {
    /// Side of the whole grid.
    pub fn side(&self) -> f32 {
        self.cell * f32::from(BOARD_SIZE)
    }

    /// The squares, for the keyboard's cursor.
    pub fn grid(&self) -> Grid {
        Grid {
            left: self.left,
            top: self.top,
            cell: self.cell,
            cols: BOARD_SIZE,
            rows: BOARD_SIZE,
        }
    }

    /// Width of one die box in the strip under the board (all dice fit the board's width).
    pub fn die_width(&self) -> f32 {
        (self.side() / DICE_LEN as f32).floor()
    }

    /// The box of die `index` (0-based) in the strip under the board.
    pub fn die_rect(&self, index: usize) -> Rect {
        let w = self.die_width();
        Rect::new(
            self.left + index as f32 * w,
            self.top + self.side() + 14.0,
            w - 2.0,
            w.max(16.0),
        )
    }
}

/// The board's place on a `screen_w` x `screen_h` screen: the largest whole-pixel squares that
/// fit left of the side panel, below the top bar and above the dice strip.
pub fn ewn_layout(screen_w: f32, screen_h: f32) -> EwnLayout {
    let area_w = (screen_w - SIDE_PANEL_WIDTH).max(0.0);
    let fit_w = area_w - LABEL_BAND - 2.0 * MARGIN;
    let fit_h = screen_h - TOP_BAR_HEIGHT - LABEL_BAND - INFO_BAND - MARGIN;
    let size = f32::from(BOARD_SIZE);
    let cell = (fit_w.min(fit_h) / size).floor().max(MIN_CELL);
    let side = cell * size;
    EwnLayout {
        left: (LABEL_BAND + ((area_w - LABEL_BAND - side) / 2.0).max(0.0)).floor(),
        top: (TOP_BAR_HEIGHT + LABEL_BAND + ((fit_h - side) / 2.0).max(0.0)).floor(),
        cell,
    }
}

/// The screen rectangle of `square` (0..99 row-major, square 0 top-left).
pub fn square_rect(layout: EwnLayout, square: u8) -> Rect {
    let (row, col) = (square / BOARD_SIZE, square % BOARD_SIZE);
    Rect::new(
        layout.left + f32::from(col) * layout.cell,
        layout.top + f32::from(row) * layout.cell,
        layout.cell,
        layout.cell,
    )
}

/// The centre pixel of `square`.
pub fn square_center(layout: EwnLayout, square: u8) -> (f32, f32) {
    let rect = square_rect(layout, square);
    (rect.x + rect.w / 2.0, rect.y + rect.h / 2.0)
}

/// The square under (`x`, `y`), or `None` off the grid. Each square owns its top and left
/// edges, so every on-board pixel belongs to exactly one square.
pub fn square_at(layout: EwnLayout, x: f32, y: f32) -> Option<u8> {
    let col = ((x - layout.left) / layout.cell).floor();
    let row = ((y - layout.top) / layout.cell).floor();
    let size = f32::from(BOARD_SIZE);
    if !(0.0..size).contains(&col) || !(0.0..size).contains(&row) {
        return None;
    }
    let square = row as u8 * BOARD_SIZE + col as u8;
    (square < SQUARES).then_some(square)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_fits_left_of_the_panel_with_room_for_the_dice() {
        let layout = ewn_layout(1024.0, 768.0);
        assert!(layout.cell >= 40.0, "{layout:?}");
        assert!(layout.left + layout.side() <= 1024.0 - SIDE_PANEL_WIDTH);
        assert!(layout.top >= TOP_BAR_HEIGHT + LABEL_BAND);
        let last_die = layout.die_rect(DICE_LEN - 1);
        assert!(last_die.x + last_die.w <= layout.left + layout.side());
        assert!(last_die.y + last_die.h <= 768.0);
    }

    #[test]
    fn every_square_centre_maps_back_to_its_square() {
        let layout = ewn_layout(1024.0, 768.0);
        for square in 0..SQUARES {
            let (x, y) = square_center(layout, square);
            assert_eq!(square_at(layout, x, y), Some(square));
        }
        let zero = square_rect(layout, 0);
        assert_eq!((zero.x, zero.y), (layout.left, layout.top));
        let nine = square_rect(layout, 9);
        assert_eq!(nine.y, layout.top);
        assert!(nine.x > zero.x);
        let ten = square_rect(layout, 10);
        assert_eq!((ten.x, ten.y), (layout.left, layout.top + layout.cell));
    }

    #[test]
    fn points_off_the_grid_are_no_square() {
        let layout = ewn_layout(1024.0, 768.0);
        let side = layout.side();
        assert_eq!(square_at(layout, layout.left - 1.0, layout.top), None);
        assert_eq!(square_at(layout, layout.left, layout.top - 0.5), None);
        assert_eq!(square_at(layout, layout.left + side, layout.top), None);
        assert_eq!(square_at(layout, layout.left, layout.top + side), None);
        assert_eq!(square_at(layout, f32::NAN, f32::NAN), None);
        assert_eq!(square_at(layout, layout.left, layout.top), Some(0));
        let corner = (layout.left + side - 0.5, layout.top + side - 0.5);
        assert_eq!(square_at(layout, corner.0, corner.1), Some(99));
    }

    #[test]
    fn a_tiny_screen_still_gives_a_positive_board() {
        let layout = ewn_layout(100.0, 100.0);
        assert_eq!(layout.cell, MIN_CELL);
        assert!(layout.left >= 0.0 && layout.top >= 0.0);
    }
}
