//! The numbered lists of a game's moves, as the room and replay screens show them: two plies
//! per line ("1. a1 h1") for Magnetic Cave, one move per line ("3. 9 L") for the games whose
//! moves read best one by one. Both fill two columns and keep the current move in view.

use macroquad::color::Color;
use macroquad::math::Rect;
use macroquad::shapes::draw_rectangle;
use parlor_shared::game::{GameKind, GameMove, turn_numbers};
use parlor_shared::klotski::KlotskiMove;

use super::describe;
use super::widgets::{DIM_TEXT, Input, LINE_HEIGHT, TEXT, fit_to_width, label, text_width};

/// The background of the current move, also in Dropping Bricks' drop list; dark enough for
/// the body text on it (see the test).
pub const CURRENT_MOVE: Color = Color::new(0.50, 0.38, 0.17, 1.0);

/// The first numbered line to show when `visible` of `total` lines fit: the line `focus`
/// leads, unless that would leave empty space below the last line.
pub fn first_shown_line(total: usize, visible: usize, focus: usize) -> usize {
    focus.min(total.saturating_sub(visible))
}

/// [`first_shown_line`] where lines above the first shown are told of in a slot of their own:
/// the first line to show and how many slots the note takes (0 when nothing is above). A note
/// of one line would take that line's slot: the line is shown instead.
pub fn lines_shown(total: usize, visible: usize, focus: usize) -> (usize, usize) {
    match first_shown_line(total, visible, focus) {
        first if first == 0 || visible < 2 => (first, 0),
        _ => match first_shown_line(total, visible - 1, focus) {
            1 => (0, 0),
            first => (first, 1),
        },
    }
}

/// Two columns of numbered lines inside an area.
struct Columns {
    area: Rect,
    gap: f32,
    width: f32,
    lines_per_column: usize,
}

impl Columns {
    fn new(area: Rect, gap: f32) -> Columns {
        Columns {
            area,
            gap,
            width: (area.w - gap) / 2.0,
            lines_per_column: ((area.h / LINE_HEIGHT).floor() as usize).max(1),
        }
    }

    /// The lines to show of `total` with line `focus` in view, each with its left edge and
    /// baseline. Lines hidden above are counted in the first slot ("... 4 earlier"), drawn
    /// here, so that a list scrolled to its end does not look like a whole one.
    fn shown(&self, total: usize, focus: usize) -> impl Iterator<Item = (usize, f32, f32)> + '_ {
        let visible = 2 * self.lines_per_column;
        let (first, note) = lines_shown(total, visible, focus);
        if note > 0 {
            let text = fit_to_width(&format!("... {first} earlier"), self.width);
            label(&text, self.area.x, self.area.y + LINE_HEIGHT, DIM_TEXT);
        }
        (first..total)
            .take(visible - note)
            .enumerate()
            .map(move |(shown, line)| {
                let shown = shown + note;
                let column = (shown / self.lines_per_column) as f32;
                let x = self.area.x + column * (self.width + self.gap);
                let row = (shown % self.lines_per_column + 1) as f32;
                (line, x, self.area.y + row * LINE_HEIGHT)
            })
    }
}

/// A clickable cell of a list line, highlighted when it holds the current move.
fn move_cell(input: &Input, cell: Rect, is_current: bool, text: &str, baseline: f32) -> bool {
    if is_current {
        draw_rectangle(cell.x, cell.y, cell.w, cell.h, CURRENT_MOVE);
    }
    label(text, cell.x + 3.0, baseline, TEXT);
    input.clicked_in(cell)
}

/// Says so in an empty list ("yet" would be wrong for a game that ended without a move, such
/// as a puzzle solved at the start); true when there is nothing else to draw.
fn empty(area: Rect, moves: &[GameMove]) -> bool {
    if moves.is_empty() {
        label("(no moves)", area.x, area.y + LINE_HEIGHT, DIM_TEXT);
    }
    moves.is_empty()
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
    if empty(area, moves) {
        return None;
    }
    let columns = Columns::new(area, 16.0);
    let number_width = text_width("00. ");
    let ply_width = text_width("h8 ");
    let mut clicked = None;
    let focus = current.map_or(0, |ply| ply / 2);
    for (line, x, baseline) in columns.shown(moves.len().div_ceil(2), focus) {
        label(&format!("{}.", line + 1), x, baseline, DIM_TEXT);
        for ply in [2 * line, 2 * line + 1] {
            let Some(mv) = moves.get(ply) else { break };
            // A resignation may come on the other side's turn: it names its side.
            let text = match mv {
                GameMove::Resign { seat } => describe::resigns(GameKind::Cave, *seat),
                mv => mv.to_string(),
            };
            // A cell fits a square's name; a resignation, the last ply there is, takes what it
            // needs.
            let cell = Rect::new(
                x + number_width + (ply % 2) as f32 * ply_width - 3.0,
                baseline - LINE_HEIGHT + 4.0,
                ply_width.max(text_width(&text) + 6.0),
                LINE_HEIGHT,
            );
            if move_cell(input, cell, current == Some(ply), &text, baseline) {
                clicked = Some(ply);
            }
        }
    }
    clicked
}

/// Draws `moves` one numbered move per line ("3. 9 L"; EWN's as "3. 4 -> 23"; a Klotski give-up
/// as "gave up"), each cut to its column, in two columns inside `area`, the move `current`
/// highlighted and kept in view; returns a clicked move.
pub fn draw_one_move_per_line(
    input: &Input,
    area: Rect,
    moves: &[GameMove],
    current: Option<usize>,
) -> Option<usize> {
    if empty(area, moves) {
        return None;
    }
    let columns = Columns::new(area, 12.0);
    let mut clicked = None;
    let numbers = turn_numbers(moves);
    for (index, x, baseline) in columns.shown(moves.len(), current.unwrap_or(0)) {
        let cell = Rect::new(
            x - 3.0,
            baseline - LINE_HEIGHT + 4.0,
            columns.width,
            LINE_HEIGHT,
        );
        // A move is numbered as its game counts it: an undo, a restart or a give-up is no
        // turn, and the turn after an undo takes the undone one's number.
        let text = match (&moves[index], numbers[index]) {
            (GameMove::Klotski(KlotskiMove::GiveUp(_)), _) => "gave up".to_string(),
            (GameMove::Ewn(mv), Some(number)) => format!("{number}. {} -> {}", mv.piece, mv.to),
            (other, Some(number)) => format!("{number}. {other}"),
            (other, None) => other.to_string(),
        };
        let text = fit_to_width(&text, cell.w - 3.0);
        if move_cell(input, cell, current == Some(index), &text, baseline) {
            clicked = Some(index);
        }
    }
    clicked
}

#[cfg(test)]
mod tests {
    use super::{first_shown_line, lines_shown};

    #[test]
    fn lines_hidden_above_are_told_of_in_the_first_slot() {
        // A Klotski room's 38 steps in 34 slots, the last in view: steps 6 to 38 and a note
        // of the five above them.
        assert_eq!(lines_shown(38, 34, 37), (5, 1));
        // Nothing above: no note.
        assert_eq!(lines_shown(38, 34, 0), (0, 0));
        assert_eq!(lines_shown(20, 34, 19), (0, 0));
        // The line in focus stays in view after the note.
        let (first, note) = lines_shown(100, 10, 50);
        assert!(first <= 50 && 50 < first + 10 - note);
        assert_eq!(
            lines_shown(5, 1, 4),
            (4, 0),
            "one slot is left for the line itself"
        );
        // "... 1 earlier" would stand where that one line fits.
        assert_eq!(lines_shown(10, 4, 1), (0, 0));
        assert_eq!(lines_shown(10, 4, 2), (2, 1));
    }

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
