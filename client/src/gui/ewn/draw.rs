//! Drawing an EWN game: the checkered 10x10 board with row and column labels, the removed
//! square dark and crossed, the pieces as numbered tokens (the target red), and under the board
//! the dice strip with the current die marked and the move number against the limit.

use macroquad::color::Color;
use macroquad::shapes::draw_rectangle_lines;
use macroquad::shapes::{draw_circle, draw_circle_lines, draw_line, draw_rectangle};
use parlor_shared::ewn::{BOARD_SIZE, EwnGame, PIECES, SQUARES, Status};

use super::layout::{EwnLayout, square_rect};
use crate::gui::canvas::canvas_width;
use crate::gui::widgets::{
    DIM_TEXT, GOOD_TEXT, TEXT, TEXT_SIZE, text_at, text_width, wrapped_label,
};
use crate::gui::widgets::{measure, side_panel_x};

/// The target piece's token. Sampled by the window test beside its digit.
pub const TARGET_PIECE: Color = Color::new(0.86, 0.10, 0.10, 1.0);
/// The other pieces' tokens.
pub const PIECE: Color = Color::new(0.95, 0.93, 0.86, 1.0);
/// The removed square. Sampled by the window test at the middle of its left edge.
pub const REMOVED_SQUARE: Color = Color::new(0.06, 0.06, 0.07, 1.0);
const LIGHT_SQUARE: Color = Color::new(0.80, 0.70, 0.55, 1.0);
const DARK_SQUARE: Color = Color::new(0.66, 0.54, 0.40, 1.0);
/// Square 0, the goal.
const GOAL_SQUARE: Color = Color::new(0.93, 0.80, 0.30, 1.0);
/// A square the selected piece may step to.
pub const LEGAL_SQUARE: Color = Color::new(0.55, 0.78, 0.45, 1.0);
/// A square the selected piece may step to that takes the target: the move loses.
pub const LOSING_SQUARE: Color = Color::new(0.35, 0.12, 0.14, 1.0);
/// The ring around a piece the die lets move.
const MOVABLE_RING: Color = Color::new(0.20, 0.55, 0.95, 1.0);
const SELECTED_RING: Color = Color::new(0.10, 0.85, 0.30, 1.0);
const LAST_MOVE: Color = Color::new(0.95, 0.55, 0.10, 1.0);
const PIECE_EDGE: Color = Color::new(0.20, 0.16, 0.12, 1.0);
const CROSS: Color = Color::new(0.55, 0.20, 0.20, 1.0);
const CURRENT_DIE: Color = Color::new(0.95, 0.80, 0.20, 1.0);
const DIE: Color = Color::new(0.85, 0.86, 0.88, 1.0);
const SPENT_DIE: Color = Color::new(0.36, 0.38, 0.42, 1.0);
const DIE_TEXT: Color = Color::new(0.10, 0.10, 0.12, 1.0);

/// What to show on top of the pieces.
#[derive(Clone, Debug, Default)]
pub struct EwnMarks {
    /// Pieces the die lets move (ringed).
    pub movable: Vec<u8>,
    /// The piece picked to move.
    pub selected: Option<u8>,
    /// Squares the picked piece may step to.
    pub legal: Vec<u8>,
    /// Of those, the square where it would take the target, which loses the puzzle.
    pub loses: Option<u8>,
    /// The square the last move went to.
    pub last_to: Option<u8>,
    /// The square the last move came from, and how far its piece has come from there
    /// (`crate::gui::arrival`); `None` draws it in place.
    pub moving: Option<(u8, f32)>,
}

/// Draws the board, pieces, dice and move line of `game`.
pub fn draw_ewn(layout: EwnLayout, game: &EwnGame, marks: &EwnMarks) {
    let blocked = game.level().rules().blocked;
    draw_labels(layout);
    for square in 0..SQUARES {
        let rect = square_rect(layout, square);
        let (row, col) = (square / BOARD_SIZE, square % BOARD_SIZE);
        let background = if square == blocked {
            REMOVED_SQUARE
        } else if marks.loses == Some(square) {
            LOSING_SQUARE
        } else if marks.legal.contains(&square) {
            LEGAL_SQUARE
        } else if square == 0 {
            GOAL_SQUARE
        } else if (row + col) % 2 == 0 {
            LIGHT_SQUARE
        } else {
            DARK_SQUARE
        };
        draw_rectangle(rect.x, rect.y, rect.w, rect.h, background);
        if square == blocked {
            let inset = rect.w * 0.2;
            let (x0, y0, x1, y1) = (
                rect.x + inset,
                rect.y + inset,
                rect.x + rect.w - inset,
                rect.y + rect.h - inset,
            );
            draw_line(x0, y0, x1, y1, 3.0, CROSS);
            draw_line(x0, y1, x1, y0, 3.0, CROSS);
        }
        if marks.last_to == Some(square) {
            draw_rectangle_lines(
                rect.x + 1.0,
                rect.y + 1.0,
                rect.w - 2.0,
                rect.h - 2.0,
                3.0,
                LAST_MOVE,
            );
        }
    }
    let pieces = game.state().pieces;
    for piece in 1..=PIECES {
        if let Some(square) = pieces.square_of(piece) {
            draw_piece(layout, game, marks, piece, square);
        }
    }
    draw_dice(layout, game);
}

fn draw_piece(layout: EwnLayout, game: &EwnGame, marks: &EwnMarks, piece: u8, square: u8) {
    let mut rect = square_rect(layout, square);
    if let (Some((from, progress)), true) = (marks.moving, marks.last_to == Some(square)) {
        let start = square_rect(layout, from);
        rect.x = start.x + (rect.x - start.x) * progress;
        rect.y = start.y + (rect.y - start.y) * progress;
    }
    let (cx, cy) = (rect.x + rect.w / 2.0, rect.y + rect.h / 2.0);
    let radius = rect.w * 0.36;
    let fill = if piece == game.level().target() {
        TARGET_PIECE
    } else {
        PIECE
    };
    draw_circle(cx, cy, radius, fill);
    draw_circle_lines(cx, cy, radius, 2.0, PIECE_EDGE);
    if marks.selected == Some(piece) {
        draw_circle_lines(cx, cy, radius + 4.0, 4.0, SELECTED_RING);
    } else if marks.movable.contains(&piece) {
        draw_circle_lines(cx, cy, radius + 4.0, 3.0, MOVABLE_RING);
    }
    let text = piece.to_string();
    let size = (rect.w * 0.5).max(12.0);
    let dims = measure(&text, size);
    let color = if piece == game.level().target() {
        PIECE
    } else {
        DIE_TEXT
    };
    // The digit is centred; the token's own colour shows left and right of it (the window test
    // samples there).
    text_at(
        &text,
        cx - dims.width / 2.0,
        cy + dims.height / 2.0,
        size,
        color,
    );
}

fn draw_labels(layout: EwnLayout) {
    for index in 0..BOARD_SIZE {
        let offset = f32::from(index) * layout.cell + layout.cell / 2.0;
        let col = index.to_string();
        text_at(
            &col,
            layout.left + offset - text_width(&col) / 2.0,
            layout.top - 10.0,
            TEXT_SIZE,
            DIM_TEXT,
        );
        let row = (index * BOARD_SIZE).to_string();
        let x = layout.left - 8.0 - text_width(&row);
        text_at(&row, x, layout.top + offset + 6.0, TEXT_SIZE, DIM_TEXT);
    }
}

/// The dice strip (used dice grey, the current one yellow, dice past the limit faint) and the
/// line under it: move number, limit, die and status.
fn draw_dice(layout: EwnLayout, game: &EwnGame) {
    let turn = game.state().turn;
    let limit = game.level().rules().max_moves;
    let playing = game.status() == Status::Playing;
    for (index, die) in game.level().dice().iter().enumerate() {
        let rect = layout.die_rect(index);
        let current = index == turn && playing;
        let (fill, text_color) = die_colors(index, turn, limit, current);
        match fill {
            Some(fill) => draw_rectangle(rect.x, rect.y, rect.w, rect.h, fill),
            None => draw_rectangle_lines(rect.x, rect.y, rect.w, rect.h, 1.0, DIM_TEXT),
        }
        if current {
            draw_rectangle_lines(
                rect.x - 2.0,
                rect.y - 2.0,
                rect.w + 4.0,
                rect.h + 4.0,
                2.0,
                TEXT,
            );
        }
        let text = die.to_string();
        let x = rect.x + (rect.w - text_width(&text)) / 2.0;
        text_at(&text, x, rect.y + rect.h * 0.75, TEXT_SIZE, text_color);
    }
    let y = layout.die_rect(0).y + layout.die_rect(0).h + 26.0;
    let (line, color) = status_line(game);
    // Left of the side panel: a game-over line takes two lines there.
    let width = side_panel_x(canvas_width()) - layout.left - 12.0;
    wrapped_label(&line, layout.left, y, width, color);
}

/// The fill of die `index` (none: only an outline) and its digit's colour: the current die
/// yellow, the spent ones grey with light digits, those still to come light with dark digits,
/// and those past the move limit only outlined, their digits dim on the window's background.
fn die_colors(index: usize, turn: usize, limit: usize, current: bool) -> (Option<Color>, Color) {
    if current {
        (Some(CURRENT_DIE), DIE_TEXT)
    } else if index < turn {
        (Some(SPENT_DIE), TEXT)
    } else if index < limit {
        (Some(DIE), DIE_TEXT)
    } else {
        (None, DIM_TEXT)
    }
}

/// "Move 3 / limit 6 - target 2 - die 5: move 4 or 6", or how the game ended.
pub fn status_line(game: &EwnGame) -> (String, Color) {
    let state = game.state();
    let level = game.level();
    let head = format!(
        "Move {} / limit {} - target piece {}",
        state.turn,
        level.rules().max_moves,
        level.target()
    );
    match game.status() {
        Status::Playing => {
            let die = level.die(state).unwrap_or(0);
            let movable: Vec<String> = level
                .movable(state)
                .as_slice()
                .iter()
                .map(u8::to_string)
                .collect();
            let text = format!("{head} - die {die}: move {}", movable.join(" or "));
            (text, TEXT)
        }
        Status::Won => (format!("{head} - solved!"), GOOD_TEXT),
        status => (format!("{head} - not solved: {status}"), DIM_TEXT),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::ewn::{EwnMove, Rules, parse_level};

    #[test]
    fn every_die_digit_reads_well_on_its_die() {
        use crate::gui::widgets::{BACKGROUND, contrast};
        for index in 0..8 {
            for turn in 0..8 {
                let (fill, text) = die_colors(index, turn, 4, index == turn);
                let ratio = contrast(text, fill.unwrap_or(BACKGROUND));
                assert!(ratio > 4.5, "die {index} at turn {turn}: {ratio}");
            }
        }
        assert_eq!(die_colors(6, 2, 4, false).0, None, "past the limit");
    }

    #[test]
    fn the_status_line_names_the_die_and_movable_pieces_then_the_result() {
        let text = include_str!("../../../../levels/ewn/level1.txt");
        let game = EwnGame::new(parse_level(text, Rules::default()).unwrap());
        let (line, _) = status_line(&game);
        assert_eq!(line, "Move 0 / limit 6 - target piece 2 - die 3: move 3");
        let moved = game.play(EwnMove { piece: 3, to: 33 }).unwrap();
        assert!(status_line(&moved).0.starts_with("Move 1 / limit 6"));
    }
}
