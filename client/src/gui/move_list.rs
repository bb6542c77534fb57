//! The numbered list of a game's moves ("1. a1 h1"), as the room and replay screens show it.

use macroquad::color::Color;
use macroquad::math::Rect;
use macroquad::shapes::draw_rectangle;
use parlor_shared::game::GameMove;

use super::widgets::{DIM_TEXT, Input, LINE_HEIGHT, TEXT, label, text_width};

/// The background of the current move, also in Dropping Bricks' drop list.
pub const CURRENT_MOVE: Color = Color::new(0.55, 0.42, 0.20, 1.0);
const COLUMN_GAP: f32 = 16.0;

/// The first numbered line to show when `visible` of `total` lines fit: the line `focus`
/// leads, unless that would leave empty space below the last line.
pub fn first_shown_line(total: usize, visible: usize, focus: usize) -> usize {
    focus.min(total.saturating_sub(visible))
}

/// Draws `moves` two plies per line, in two columns inside `area`; the ply with index
/// `current` (0-based) is highlighted and kept in view; with none the list starts at the top.
/// Returns the index of a ply the user clicked.
pub fn draw_move_list(
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
    let lines_per_column = ((area.h / LINE_HEIGHT).floor() as usize).max(1);
    let total_lines = moves.len().div_ceil(2);
    let first = first_shown_line(
        total_lines,
        2 * lines_per_column,
        current.map_or(0, |ply| ply / 2),
    );
    let number_width = text_width("00. ");
    let ply_width = text_width("h8 ");
    let mut clicked = None;
    for (shown, line) in (first..total_lines).take(2 * lines_per_column).enumerate() {
        let x = area.x + (shown / lines_per_column) as f32 * (column_width + COLUMN_GAP);
        let baseline = area.y + ((shown % lines_per_column) + 1) as f32 * LINE_HEIGHT;
        label(&format!("{}.", line + 1), x, baseline, DIM_TEXT);
        for ply in [2 * line, 2 * line + 1] {
            let Some(mv) = moves.get(ply) else { break };
            let cell = Rect::new(
                x + number_width + (ply % 2) as f32 * ply_width - 3.0,
                baseline - LINE_HEIGHT + 4.0,
                ply_width,
                LINE_HEIGHT,
            );
            if current == Some(ply) {
                draw_rectangle(cell.x, cell.y, cell.w, cell.h, CURRENT_MOVE);
            }
            label(&mv.to_string(), cell.x + 3.0, baseline, TEXT);
            if input.clicked_in(cell) {
                clicked = Some(ply);
            }
        }
    }
    clicked
}

#[cfg(test)]
mod tests {
    use super::first_shown_line;

    #[test]
    fn short_lists_start_at_the_top() {
        assert_eq!(first_shown_line(5, 10, 0), 0);
        assert_eq!(first_shown_line(5, 10, 4), 0);
        assert_eq!(first_shown_line(0, 10, 0), 0);
    }

    #[test]
    fn long_lists_scroll_to_the_focus_but_not_past_the_end() {
        assert_eq!(first_shown_line(32, 10, 0), 0);
        assert_eq!(first_shown_line(32, 10, 15), 15);
        assert_eq!(first_shown_line(32, 10, 25), 22);
        assert_eq!(first_shown_line(32, 10, 31), 22);
    }
}
