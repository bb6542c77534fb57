//! Drawing a Hexapawn board: squares, pawns of both colours, the last move, the picked pawn and
//! its targets, and a matchbox's arrows with each move's chance.

use macroquad::color::Color;
use macroquad::math::{Vec2, vec2};
use macroquad::shapes::{
    draw_circle, draw_circle_lines, draw_line, draw_rectangle, draw_rectangle_lines,
};
use parlor_shared::hexapawn::{BoxView, Move, Position, Side, Square};

use super::layout::{Arrow, HexLayout, tag_points};
use crate::gui::canvas::canvas_width;

use crate::gui::widgets::{DIM_TEXT, first_that_fits, label, measure, side_panel_x, text_at};

pub const LIGHT_SQUARE: Color = Color::new(0.86, 0.80, 0.66, 1.0);
pub const DARK_SQUARE: Color = Color::new(0.62, 0.48, 0.34, 1.0);
pub const WHITE_PAWN: Color = Color::new(0.97, 0.97, 0.95, 1.0);
pub const BLACK_PAWN: Color = Color::new(0.08, 0.08, 0.10, 1.0);
/// A square the picked pawn may go to.
pub const TARGET: Color = Color::new(0.40, 0.72, 0.36, 1.0);
/// The frame around the last move's squares.
pub const LAST_MOVE: Color = Color::new(0.90, 0.20, 0.15, 1.0);
/// An arrow of a move with a bead, and of one without.
pub const BEAD_ARROW: Color = Color::new(0.15, 0.45, 0.95, 1.0);
pub const EMPTY_ARROW: Color = Color::new(0.55, 0.55, 0.58, 0.75);
/// The arrow under the pointer.
const HOVER_ARROW: Color = Color::new(0.95, 0.60, 0.10, 1.0);
const PAWN_EDGE: Color = Color::new(0.45, 0.45, 0.45, 1.0);
const SELECTED: Color = Color::new(0.95, 0.75, 0.15, 1.0);
const LABEL_SIZE: f32 = 18.0;

/// What to show on top of the pawns.
#[derive(Clone, Debug, Default)]
pub struct HexMarks {
    pub last: Option<Move>,
    /// How far the last move's pawn has come from its square (`crate::gui::arrival`); `None`
    /// is in place.
    pub moving: Option<f32>,
    pub selected: Option<Square>,
    pub targets: Vec<Square>,
}

/// The first of `texts` that fits above the board of `layout`, short of the side panel.
pub fn caption(texts: &[&str], layout: HexLayout, color: Color) {
    let width = side_panel_x(canvas_width()) - 10.0 - layout.left;
    label(
        &first_that_fits(texts, width),
        layout.left,
        layout.top - 12.0,
        color,
    );
}

/// Draws `position` at `layout` with its labels and `marks`.
pub fn draw_board(layout: HexLayout, position: &Position, marks: &HexMarks) {
    let dims = layout.dims;
    for row in 0..dims.rows() {
        for col in 0..dims.cols() {
            let square = Square::new(col, row);
            let rect = layout.square_rect(square);
            let fill = if (row + col).is_multiple_of(2) {
                DARK_SQUARE
            } else {
                LIGHT_SQUARE
            };
            draw_rectangle(rect.x, rect.y, rect.w, rect.h, fill);
        }
    }
    draw_labels(layout);
    if let Some(last) = marks.last {
        for square in [last.from, last.to] {
            let rect = layout.square_rect(square);
            let inset = (layout.cell * 0.04).max(2.0);
            let width = (layout.cell * 0.05).max(2.0);
            draw_rectangle_lines(
                rect.x + inset,
                rect.y + inset,
                rect.w - 2.0 * inset,
                rect.h - 2.0 * inset,
                width,
                LAST_MOVE,
            );
        }
    }
    for row in 0..dims.rows() {
        for col in 0..dims.cols() {
            let square = Square::new(col, row);
            if let Some(side) = position.pawn_at(square) {
                let center = match (marks.last, marks.moving) {
                    (Some(last), Some(progress)) if last.to == square => layout
                        .square_center(last.from)
                        .lerp(layout.square_center(square), progress),
                    _ => layout.square_center(square),
                };
                draw_pawn(layout, center, side, marks.selected == Some(square));
            }
        }
    }
    // Over the pawns: a capture's dot is on the pawn it takes.
    for &square in &marks.targets {
        let center = layout.square_center(square);
        draw_circle(center.x, center.y, layout.cell * 0.12, TARGET);
    }
}

/// A pawn: a disc at `center` (its square's, or on its way there) with a rim, ringed when
/// picked.
fn draw_pawn(layout: HexLayout, center: Vec2, side: Side, selected: bool) {
    let radius = layout.cell * 0.32;
    let fill = match side {
        Side::White => WHITE_PAWN,
        Side::Black => BLACK_PAWN,
    };
    draw_circle(center.x, center.y, radius, fill);
    draw_circle_lines(center.x, center.y, radius, 2.0, PAWN_EDGE);
    if selected {
        draw_circle_lines(center.x, center.y, radius + 5.0, 4.0, SELECTED);
    }
}

/// Column letters under the board, row numbers left of it.
fn draw_labels(layout: HexLayout) {
    let dims = layout.dims;
    for col in 0..dims.cols() {
        let rect = layout.square_rect(Square::new(col, 0));
        let text = char::from(b'a' + col).to_string();
        let x = rect.x + rect.w / 2.0 - 4.0;
        text_at(&text, x, rect.y + rect.h + 16.0, LABEL_SIZE, DIM_TEXT);
    }
    for row in 0..dims.rows() {
        let rect = layout.square_rect(Square::new(0, row));
        let text = (row + 1).to_string();
        text_at(
            &text,
            rect.x - 16.0,
            rect.y + rect.h / 2.0 + 5.0,
            LABEL_SIZE,
            DIM_TEXT,
        );
    }
}

/// A matchbox: its board with an arrow per move, blue with a bead and grey without, and each
/// move's chance written on its arrow; `hover` is the arrow under the pointer.
pub fn draw_matchbox(layout: HexLayout, matchbox: &BoxView, hover: Option<Move>) {
    draw_board(layout, &matchbox.position, &HexMarks::default());
    let width = (layout.cell * 0.07).max(2.0);
    // Greyed arrows first, so the live ones are drawn over them where they cross.
    let mut beads = matchbox.beads.clone();
    beads.sort_by_key(|&(_, count)| count > 0);
    let arrows: Vec<(Arrow, Color, String)> = (beads.into_iter())
        .map(|(mv, count)| {
            let color = match (hover == Some(mv), count > 0) {
                (true, _) => HOVER_ARROW,
                (false, true) => BEAD_ARROW,
                (false, false) => EMPTY_ARROW,
            };
            (layout.arrow(mv), color, percent(matchbox.chance(mv)))
        })
        .collect();
    for (arrow, color, _) in &arrows {
        let (tail, head) = (arrow.tail, arrow.head);
        draw_line(tail.x, tail.y, head.x, head.y, width, *color);
        for barb in arrow.barbs(layout.cell * 0.16) {
            draw_line(head.x, head.y, barb.x, barb.y, width, *color);
        }
    }
    // The tags after every arrow, so that no arrow crosses a tag's text.
    let font_size = (layout.cell * 0.2).clamp(12.0, LABEL_SIZE).round();
    let widest = (arrows.iter())
        .map(|(_, _, text)| tag_size(text, font_size).x)
        .fold(0.0, f32::max);
    let size = vec2(widest, tag_size("0", font_size).y);
    let only_arrows: Vec<Arrow> = arrows.iter().map(|(arrow, ..)| *arrow).collect();
    for ((_, color, text), at) in arrows.iter().zip(tag_points(&only_arrows, size)) {
        draw_tag(at, text, font_size, *color);
    }
}

/// A chance as a whole percentage.
fn percent(chance: f64) -> String {
    format!("{:.0}%", chance * 100.0)
}

/// The width and height of the tag of `text` in `font_size`.
fn tag_size(text: &str, font_size: f32) -> Vec2 {
    let size = measure(text, font_size);
    vec2(size.width + 6.0, font_size + 2.0)
}

/// `text` in `font_size` on a small dark tag centred at `at`, its frame in `color`.
fn draw_tag(at: Vec2, text: &str, font_size: f32, color: Color) {
    let Vec2 { x: w, y: h } = tag_size(text, font_size);
    let (x, y) = (at.x - w / 2.0, at.y - h / 2.0);
    draw_rectangle(x, y, w, h, Color::new(0.1, 0.1, 0.12, 0.85));
    draw_rectangle_lines(x, y, w, h, 2.0, color);
    text_at(text, x + 3.0, y + h * 0.75, font_size, WHITE_PAWN);
}
