//! The drops of a Dropping Bricks game, one per line with its answer ("3. 35 safe"), and a
//! resignation under them ("Answerer resigns"), as the room and replay panels show them in
//! place of Magnetic Cave's move list.

use macroquad::color::Color;
use macroquad::math::Rect;
use macroquad::shapes::draw_rectangle;
use parlor_shared::bricks::{Answer, BricksMove};
use parlor_shared::game::{GameKind, GameMove};

use super::draw::{BROKEN_TEXT, SAFE_TEXT};
use crate::gui::describe;
use crate::gui::move_list::{CURRENT_MOVE, first_shown_line};
use crate::gui::widgets::{DIM_TEXT, Input, LINE_HEIGHT, TEXT, label, text_width};

/// One drop and, once given, its answer, with the index of each in the game's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DropLine {
    pub drop_ply: usize,
    pub height: u64,
    pub answer: Option<(usize, Answer)>,
}

/// The drops of `moves`, in order. Moves of another game are skipped.
pub fn drop_lines(moves: &[GameMove]) -> Vec<DropLine> {
    let mut lines: Vec<DropLine> = Vec::new();
    for (ply, mv) in moves.iter().enumerate() {
        match mv {
            GameMove::Bricks(BricksMove::Drop(height)) => lines.push(DropLine {
                drop_ply: ply,
                height: *height,
                answer: None,
            }),
            GameMove::Bricks(BricksMove::Answer(answer)) => {
                if let Some(line) = lines.last_mut().filter(|line| line.answer.is_none()) {
                    line.answer = Some((ply, *answer));
                }
            }
            _ => {}
        }
    }
    lines
}

/// Draws the drops of `moves` inside `area`; the ply with index `current` is highlighted and
/// kept in view. Returns the index of a ply the user clicked.
pub fn draw_drop_history(
    input: &Input,
    area: Rect,
    moves: &[GameMove],
    current: Option<usize>,
) -> Option<usize> {
    let lines = drop_lines(moves);
    // A resignation, the last move there is, gets a line of its own under the drops.
    let resigned = match moves.last() {
        Some(&GameMove::Resign { seat }) => Some((moves.len() - 1, seat)),
        _ => None,
    };
    if lines.is_empty() && resigned.is_none() {
        label("(no drops yet)", area.x, area.y + LINE_HEIGHT, DIM_TEXT);
        return None;
    }
    let visible = ((area.h / LINE_HEIGHT).floor() as usize).max(1);
    let resign_row = usize::from(resigned.is_some());
    let visible = visible.saturating_sub(resign_row).max(1);
    let focus = current
        .and_then(|ply| {
            lines
                .iter()
                .position(|l| l.drop_ply == ply || l.answer.is_some_and(|(p, _)| p == ply))
        })
        .unwrap_or(0);
    let first = first_shown_line(lines.len(), visible, focus);
    let number_width = text_width(&format!("{}. ", lines.len()));
    let mut clicked = None;
    for (shown, line) in lines.iter().enumerate().skip(first).take(visible) {
        let baseline = area.y + (shown - first + 1) as f32 * LINE_HEIGHT;
        label(&format!("{}.", shown + 1), area.x, baseline, DIM_TEXT);
        let mut x = area.x + number_width;
        let answer = line.answer.map(|(ply, answer)| {
            let color = if answer == Answer::Safe {
                SAFE_TEXT
            } else {
                BROKEN_TEXT
            };
            (ply, answer.to_string(), color)
        });
        let cells = [(line.drop_ply, line.height.to_string(), TEXT)]
            .into_iter()
            .chain(answer);
        for (ply, text, color) in cells {
            let cell = Rect::new(
                x - 3.0,
                baseline - LINE_HEIGHT + 4.0,
                text_width(&text) + 6.0,
                LINE_HEIGHT,
            );
            if current == Some(ply) {
                draw_rectangle(cell.x, cell.y, cell.w, cell.h, CURRENT_MOVE);
            }
            label(
                &text,
                x,
                baseline,
                cell_text_color(color, current == Some(ply)),
            );
            if input.clicked_in(cell) {
                clicked = Some(ply);
            }
            x += cell.w + 6.0;
        }
    }
    if let Some((ply, seat)) = resigned {
        let shown = lines.len().min(visible);
        let baseline = area.y + (shown + 1) as f32 * LINE_HEIGHT;
        let text = describe::resigns(GameKind::Bricks, seat);
        let cell = Rect::new(
            area.x - 3.0,
            baseline - LINE_HEIGHT + 4.0,
            text_width(&text) + 6.0,
            LINE_HEIGHT,
        );
        if current == Some(ply) {
            draw_rectangle(cell.x, cell.y, cell.w, cell.h, CURRENT_MOVE);
        }
        label(&text, area.x, baseline, TEXT);
        if input.clicked_in(cell) {
            clicked = Some(ply);
        }
    }
    clicked
}

/// A cell's text colour: its own (green "safe", red "broken"), but plain text on the current
/// move's gold, where the green and the red are hard to read.
fn cell_text_color(color: Color, current: bool) -> Color {
    if current { TEXT } else { color }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::widgets::{BACKGROUND, contrast};

    #[test]
    fn every_cell_reads_well_on_its_background() {
        for color in [TEXT, SAFE_TEXT, BROKEN_TEXT] {
            assert!(contrast(cell_text_color(color, false), BACKGROUND) > 4.5);
            assert!(contrast(cell_text_color(color, true), CURRENT_MOVE) > 4.5);
        }
        // What the current "safe" looked like before: green on gold, harder to read.
        assert!(contrast(SAFE_TEXT, CURRENT_MOVE) < 4.5);
    }

    #[test]
    fn each_drop_gets_its_answer_and_a_pending_drop_has_none() {
        let moves = [
            GameMove::Bricks(BricksMove::Drop(50)),
            GameMove::Bricks(BricksMove::Answer(Answer::Broken)),
            GameMove::Bricks(BricksMove::Drop(20)),
        ];
        assert_eq!(
            drop_lines(&moves),
            [
                DropLine {
                    drop_ply: 0,
                    height: 50,
                    answer: Some((1, Answer::Broken))
                },
                DropLine {
                    drop_ply: 2,
                    height: 20,
                    answer: None
                },
            ]
        );
        assert!(drop_lines(&[]).is_empty());
    }
}
