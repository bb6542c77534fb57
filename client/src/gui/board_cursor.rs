//! Playing a board from the keyboard: an arrow key puts a cursor on the board's squares and
//! moves it, and Enter or Space acts on the square under it as a click there would. One thing
//! has the keyboard at a time: an arrow key takes the ring from a button (`key_focus`), and
//! Tab, Escape or a mouse click take the cursor away.

use macroquad::color::Color;
use macroquad::input::{KeyCode, is_key_pressed};
use macroquad::math::{Rect, Vec2, vec2};
use macroquad::shapes::draw_rectangle_lines;

use super::key_focus;
use super::widgets::Input;

/// The dark edge inside the cursor.
const CURSOR_EDGE: Color = Color::new(0.05, 0.10, 0.20, 1.0);

/// A board's squares on screen: the top-left corner, the side of a square, and how many
/// columns and rows (as drawn: row 0 at the top).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    pub left: f32,
    pub top: f32,
    pub cell: f32,
    pub cols: u8,
    pub rows: u8,
}

/// A square of a [`Grid`]: its column from the left and its row from the top.
pub type Cell = (u8, u8);

impl Grid {
    pub fn rect(&self, (col, row): Cell) -> Rect {
        Rect::new(
            self.left + f32::from(col) * self.cell,
            self.top + f32::from(row) * self.cell,
            self.cell,
            self.cell,
        )
    }

    /// The middle of `cell`, where a press of the cursor "clicks".
    pub fn centre(&self, cell: Cell) -> Vec2 {
        let rect = self.rect(cell);
        vec2(rect.x + rect.w / 2.0, rect.y + rect.h / 2.0)
    }

    fn clamp(&self, (col, row): Cell) -> Cell {
        (
            col.min(self.cols.saturating_sub(1)),
            row.min(self.rows.saturating_sub(1)),
        )
    }
}

/// This frame's keys for the cursor.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CursorKeys {
    /// An arrow key: columns right and rows down.
    pub step: Option<(i8, i8)>,
    /// Enter or Space.
    pub press: bool,
    /// Tab, Escape or a mouse click: the cursor goes.
    pub hide: bool,
}

impl CursorKeys {
    /// The keys pressed this frame, with whether the mouse `clicked`.
    pub fn pressed(clicked: bool) -> CursorKeys {
        let step = [
            (KeyCode::Left, (-1, 0)),
            (KeyCode::Right, (1, 0)),
            (KeyCode::Up, (0, -1)),
            (KeyCode::Down, (0, 1)),
        ]
        .into_iter()
        .find(|&(key, _)| is_key_pressed(key))
        .map(|(_, step)| step);
        CursorKeys {
            step,
            press: [KeyCode::Enter, KeyCode::KpEnter, KeyCode::Space]
                .into_iter()
                .any(is_key_pressed),
            hide: clicked || is_key_pressed(KeyCode::Tab) || is_key_pressed(KeyCode::Escape),
        }
    }
}

/// The cursor of one board: on a square, or hidden until an arrow key is pressed.
#[derive(Debug, Default)]
pub struct BoardCursor {
    at: Option<Cell>,
}

/// Where a board's frame acts ([`BoardCursor::frame`]), and whether the cursor came or moved
/// (a hint on what Enter does is then due).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aim {
    pub at: Option<Vec2>,
    pub moved: bool,
}

/// What the cursor did this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CursorPlay {
    Nothing,
    /// It came or moved: a hint on what to do next is due.
    Moved,
    /// Enter or Space on a square: act there as a click would, at this point.
    Pressed(Vec2),
}

impl BoardCursor {
    /// Reads this frame's keys on `grid`: the first arrow key puts the cursor on `start` and
    /// the next move it (it stops at the edges); `keys_free` says no button has the ring and
    /// no text field the keyboard, so that Enter is the board's.
    pub fn update(
        &mut self,
        keys: CursorKeys,
        grid: Grid,
        start: Cell,
        keys_free: bool,
    ) -> CursorPlay {
        if keys.hide {
            self.at = None;
            return CursorPlay::Nothing;
        }
        if let Some((right, down)) = keys.step {
            let moved = |at: u8, by: i8| at.saturating_add_signed(by);
            self.at = Some(grid.clamp(match self.at {
                None => start,
                Some(at) => {
                    let (col, row) = grid.clamp(at);
                    (moved(col, right), moved(row, down))
                }
            }));
            return CursorPlay::Moved;
        }
        match self.at {
            Some(at) if keys.press && keys_free => CursorPlay::Pressed(grid.centre(grid.clamp(at))),
            _ => CursorPlay::Nothing,
        }
    }

    /// A board's frame of the cursor on `grid` (starting at `start`): reads this frame's keys,
    /// takes the cursor away once the game is `over`, draws it, and says where the frame acts:
    /// at Enter's square, or where the mouse clicked (the two never come together: a click
    /// hides the cursor).
    pub fn frame(&mut self, input: &Input, grid: Grid, start: Cell, over: bool) -> Aim {
        let play = self.read_keys(grid, start, input.clicked);
        if over {
            self.hide();
        }
        self.draw(grid);
        Aim {
            at: match play {
                CursorPlay::Pressed(point) => Some(point),
                _ => input.clicked.then_some(input.mouse),
            },
            moved: play == CursorPlay::Moved,
        }
    }

    /// [`update`](Self::update) with this frame's keys: an arrow key takes the ring from a
    /// button.
    fn read_keys(&mut self, grid: Grid, start: Cell, clicked: bool) -> CursorPlay {
        let play = self.update(
            CursorKeys::pressed(clicked),
            grid,
            start,
            key_focus::keys_free(),
        );
        if play == CursorPlay::Moved {
            key_focus::let_go();
        }
        play
    }

    /// Takes the cursor away (the game is over: nothing is left to press).
    fn hide(&mut self) {
        self.at = None;
    }

    /// Draws the cursor on `grid`, if shown: in the keyboard ring's colour, inside its square
    /// (over the board's own marks, not its neighbours') and thicker than a button's ring, with
    /// a dark edge inside it so that it shows on light squares and green marks alike.
    fn draw(&self, grid: Grid) {
        if let Some(at) = self.at {
            let rect = grid.rect(grid.clamp(at));
            let width = (grid.cell / 12.0).clamp(2.0, 4.0);
            let (x, y) = (rect.x + width / 2.0, rect.y + width / 2.0);
            draw_rectangle_lines(x, y, rect.w - width, rect.h - width, width, key_focus::RING);
            let (inner, edge) = (width * 1.5, 2.0);
            let (w, h) = (rect.w - 2.0 * inner, rect.h - 2.0 * inner);
            draw_rectangle_lines(rect.x + inner, rect.y + inner, w, h, edge, CURSOR_EDGE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRID: Grid = Grid {
        left: 100.0,
        top: 50.0,
        cell: 40.0,
        cols: 3,
        rows: 2,
    };

    fn step(right: i8, down: i8) -> CursorKeys {
        CursorKeys {
            step: Some((right, down)),
            ..CursorKeys::default()
        }
    }

    const PRESS: CursorKeys = CursorKeys {
        step: None,
        press: true,
        hide: false,
    };

    #[test]
    fn the_first_arrow_shows_the_cursor_at_its_start_and_the_next_move_it_within_the_board() {
        let mut cursor = BoardCursor::default();
        assert_eq!(
            cursor.update(PRESS, GRID, (1, 1), true),
            CursorPlay::Nothing,
            "no cursor yet: Enter is nobody's"
        );
        assert_eq!(
            cursor.update(step(1, 0), GRID, (1, 1), true),
            CursorPlay::Moved
        );
        assert_eq!(cursor.at, Some((1, 1)), "shown where it starts, not moved");
        cursor.update(step(1, 0), GRID, (1, 1), true);
        cursor.update(step(1, 0), GRID, (1, 1), true);
        assert_eq!(cursor.at, Some((2, 1)), "stops at the right edge");
        cursor.update(step(0, -1), GRID, (1, 1), true);
        cursor.update(step(0, -1), GRID, (1, 1), true);
        assert_eq!(cursor.at, Some((2, 0)), "stops at the top");
        for _ in 0..4 {
            cursor.update(step(-1, 0), GRID, (1, 1), true);
        }
        assert_eq!(cursor.at, Some((0, 0)), "stops at the left edge");
    }

    #[test]
    fn enter_presses_the_middle_of_the_square_under_the_cursor_unless_a_button_has_the_keys() {
        let mut cursor = BoardCursor::default();
        cursor.update(step(0, 1), GRID, (2, 1), true);
        let CursorPlay::Pressed(point) = cursor.update(PRESS, GRID, (0, 0), true) else {
            panic!("Enter on the board presses");
        };
        assert_eq!(
            point,
            vec2(200.0, 110.0),
            "the middle of the third column's second row"
        );
        assert_eq!(
            cursor.update(PRESS, GRID, (0, 0), false),
            CursorPlay::Nothing,
            "a ringed button or a text field has Enter"
        );
        let hide = CursorKeys {
            hide: true,
            ..PRESS
        };
        assert_eq!(cursor.update(hide, GRID, (0, 0), true), CursorPlay::Nothing);
        assert_eq!(cursor.at, None, "Tab, Escape or a click take it away");
    }

    #[test]
    fn a_cursor_left_beyond_a_smaller_board_stays_on_it() {
        let mut cursor = BoardCursor::default();
        let big = Grid {
            cols: 8,
            rows: 8,
            ..GRID
        };
        for _ in 0..8 {
            cursor.update(step(1, 1), big, (0, 0), true);
        }
        assert_eq!(cursor.at, Some((7, 7)));
        let CursorPlay::Pressed(point) = cursor.update(PRESS, GRID, (0, 0), true) else {
            panic!("presses");
        };
        assert_eq!(
            point,
            GRID.centre((2, 1)),
            "the nearest square of the smaller board"
        );
        cursor.update(step(-1, 0), GRID, (0, 0), true);
        assert_eq!(cursor.at, Some((1, 1)));
    }
}
