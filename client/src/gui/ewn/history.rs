//! EWN's list of moves: one numbered move per line ("3. piece 4 to 23"), in two columns, the
//! current move highlighted and kept in view; a click picks a move.

use macroquad::math::Rect;
use macroquad::shapes::draw_rectangle;
use parlor_shared::game::GameMove;

use crate::gui::move_list::{CURRENT_MOVE, first_shown_line};
use crate::gui::widgets::{DIM_TEXT, Input, LINE_HEIGHT, TEXT, label};

const COLUMN_GAP: f32 = 12.0;

/// Draws `moves` inside `area`; returns the index of a move the user clicked.
pub fn draw_ewn_moves(
    input: &Input,
    area: Rect,
    moves: &[GameMove],
    current: Option<usize>,
) -> Option<usize> {
    if moves.is_empty() {
        label("(no moves yet)", area.x, area.y + LINE_HEIGHT, DIM_TEXT);
        return None;
    }
    let column_width = (area.w - COLUMN_GAP) / 2.0;
    let per_column = ((area.h / LINE_HEIGHT).floor() as usize).max(1);
    let first = first_shown_line(moves.len(), 2 * per_column, current.unwrap_or(0));
    let mut clicked = None;
    for (shown, index) in (first..moves.len()).take(2 * per_column).enumerate() {
        let x = area.x + (shown / per_column) as f32 * (column_width + COLUMN_GAP);
        let baseline = area.y + ((shown % per_column) + 1) as f32 * LINE_HEIGHT;
        let cell = Rect::new(
            x - 3.0,
            baseline - LINE_HEIGHT + 4.0,
            column_width,
            LINE_HEIGHT,
        );
        if current == Some(index) {
            draw_rectangle(cell.x, cell.y, cell.w, cell.h, CURRENT_MOVE);
        }
        let text = match &moves[index] {
            GameMove::Ewn(mv) => format!("{}. {} -> {}", index + 1, mv.piece, mv.to),
            other => format!("{}. {other}", index + 1),
        };
        label(&text, x, baseline, TEXT);
        if input.clicked_in(cell) {
            clicked = Some(index);
        }
    }
    clicked
}
