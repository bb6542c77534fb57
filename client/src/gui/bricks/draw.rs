//! Drawing the Dropping Bricks tower at its [`TowerLayout`]: floors known safe in green, floors
//! known to break in red, the open ones neutral, a brick where a drop waits for its answer, and
//! labels for the scale and for min safe / max safe.

use macroquad::color::Color;
use macroquad::math::Rect;
use macroquad::shapes::{draw_line, draw_rectangle, draw_rectangle_lines};
use parlor_shared::bricks::BricksGame;

use super::layout::{Column, TowerLayout, scale_labels, short_height, spread_labels};
use crate::gui::widgets::{DIM_TEXT, TEXT, label, measure, text_at, text_width};

/// Floors known to be safe (1..=min safe). Sampled by the window test.
pub const SAFE_FLOOR: Color = Color::new(0.28, 0.62, 0.34, 1.0);
/// Floors known to break (max safe + 1..=H).
pub const BROKEN_FLOOR: Color = Color::new(0.80, 0.27, 0.24, 1.0);
/// Floors whose outcome is still open.
pub const OPEN_FLOOR: Color = Color::new(0.56, 0.57, 0.62, 1.0);
/// The brick of a drop waiting for its answer.
pub const PENDING_BRICK: Color = Color::new(0.93, 0.66, 0.18, 1.0);
/// Text of the min safe label, readable on the background.
pub const SAFE_TEXT: Color = Color::new(0.45, 0.85, 0.50, 1.0);
/// Text of the max safe label.
pub const BROKEN_TEXT: Color = Color::new(1.0, 0.50, 0.45, 1.0);
/// Text of the pending drop's label.
pub const PENDING_TEXT: Color = Color::new(1.0, 0.78, 0.35, 1.0);
const FLOOR_LINE: Color = Color::new(0.20, 0.21, 0.25, 0.6);
const COLUMN_EDGE: Color = Color::new(0.85, 0.85, 0.85, 1.0);
const GROUND: Color = Color::new(0.45, 0.35, 0.24, 1.0);
const BRICK_EDGE: Color = Color::new(0.35, 0.20, 0.08, 1.0);
const HOVER_MARK: Color = Color::new(1.0, 1.0, 1.0, 0.9);
const PICK_MARK: Color = Color::new(1.0, 0.85, 0.2, 1.0);
const ZOOM_LINK: Color = Color::new(0.75, 0.78, 0.85, 0.7);
/// Scale labels are smaller than body text, to fit beside narrow columns.
const SCALE_TEXT_SIZE: f32 = 16.0;
/// From a column's edge to its labels' text.
const LABEL_INDENT: f32 = 8.0;

/// What to show on top of the floors for the agent's seat.
#[derive(Clone, Copy, Debug, Default)]
pub struct TowerMarks {
    /// An open floor under the pointer that a click would pick.
    pub hovered: Option<u64>,
    /// The open height typed in the drop field.
    pub picked: Option<u64>,
    /// How far the pending drop's brick has fallen (`crate::gui::arrival`); `None` is on its
    /// floor.
    pub falling: Option<f32>,
}

/// What a column is for. Beside a close-up, the whole tower is an overview: too coarse for
/// marks, it gets only its scale, on its left; the column in detail gets the marks and labels
/// on its right.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ColumnRole {
    Overview,
    Detail,
}

/// Draws the title, the column(s) and their labels.
pub fn draw_tower(layout: &TowerLayout, game: &BricksGame, marks: &TowerMarks) {
    let height = game.setup().height;
    let whole = &layout.whole;
    // The title starts 50 pixels left of the whole column and ends before the status card.
    let title_x = whole.rect.x - 50.0;
    let room = layout.right - title_x - 20.0;
    let title = [
        format!("Tower: heights 1 to {height}"),
        format!("Heights 1 to {height}"),
    ]
    .into_iter()
    .find(|title| text_width(title) <= room)
    .unwrap_or_else(|| format!("Heights 1 to {}", short_height(height, height)));
    label(&title, title_x, whole.rect.y - 18.0, TEXT);
    match &layout.close_up {
        None => draw_column(whole, game, marks, ColumnRole::Detail, layout.right),
        Some(close_up) => {
            draw_column(whole, game, marks, ColumnRole::Overview, layout.right);
            draw_zoom_link(whole, close_up);
            draw_column(close_up, game, marks, ColumnRole::Detail, layout.right);
        }
    }
}

/// Draws one column and its labels; a detail column's labels end before `right`.
fn draw_column(
    column: &Column,
    game: &BricksGame,
    marks: &TowerMarks,
    role: ColumnRole,
    right: f32,
) {
    let r = column.rect;
    let state = game.state();
    draw_rectangle(r.x, r.y, r.w, r.h, OPEN_FLOOR);
    if state.min_safe() >= column.low {
        let top = column.edge_y(state.min_safe());
        draw_rectangle(r.x, top, r.w, r.y + r.h - top, SAFE_FLOOR);
    }
    if state.max_safe() < column.high {
        let bottom = column.edge_y(state.max_safe());
        draw_rectangle(r.x, r.y, r.w, bottom - r.y, BROKEN_FLOOR);
    }
    if column.shows_single_floors() {
        for floor in column.low..column.high {
            let y = column.edge_y(floor);
            draw_line(r.x, y, r.x + r.w, y, 1.0, FLOOR_LINE);
        }
    }
    draw_rectangle_lines(r.x, r.y, r.w, r.h, 2.0, COLUMN_EDGE);
    if column.low == 1 {
        draw_rectangle(r.x - 10.0, r.y + r.h, r.w + 20.0, 8.0, GROUND);
    }
    if role == ColumnRole::Overview {
        for height in scale_labels(column, &[]) {
            let y = column.label_y(height);
            let text = short_height(height, column.high);
            draw_scale_label(column, role, y, y, &text, DIM_TEXT);
        }
        return;
    }
    let in_column = |height: &u64| (column.low..=column.high).contains(height);
    if let Some(height) = marks.hovered.filter(in_column) {
        outline_floor(column, height, HOVER_MARK);
    }
    if let Some(height) = marks.picked.filter(in_column) {
        outline_floor(column, height, PICK_MARK);
    }
    if let Some(height) = game.pending_drop().filter(in_column) {
        draw_pending_brick(column, height, marks.falling);
    }
    let marked = marked_labels(column, game, marks);
    let at: Vec<f32> = marked.iter().map(|(h, ..)| column.label_y(*h)).collect();
    let spread = spread_labels(&at, r.y + r.h);
    for height in scale_labels(column, &spread) {
        let y = column.label_y(height);
        let text = short_height(height, column.high);
        draw_scale_label(column, role, y, y, &text, DIM_TEXT);
    }
    let room = right - (r.x + r.w + LABEL_INDENT);
    for ((height, roles, color), (y, label_y)) in marked.iter().zip(at.into_iter().zip(spread)) {
        let number = short_height(*height, column.high);
        let text = fitting_label(&number, roles, room, scale_text_width);
        draw_scale_label(column, role, y, label_y, &text, *color);
    }
}

fn scale_text_width(text: &str) -> f32 {
    measure(text, SCALE_TEXT_SIZE).width
}

/// The label of a marked height that fits `room` as measured by `width`: the height with
/// every role it has ("649 max safe, drop"), else with its first role, else with that role's
/// short word ("649 max"), else the height alone (its colour still says which it is).
fn fitting_label(
    number: &str,
    roles: &[&'static str],
    room: f32,
    width: impl Fn(&str) -> f32,
) -> String {
    let first = roles.first().copied().unwrap_or_default();
    let short = match first {
        "min safe" => "min",
        "max safe" => "max",
        "click to pick" => "pick",
        "your drop" => "yours",
        other => other,
    };
    [
        format!("{number} {}", roles.join(", ")),
        format!("{number} {first}"),
        format!("{number} {short}"),
    ]
    .into_iter()
    .find(|text| width(text) <= room)
    .unwrap_or_else(|| number.to_string())
}

/// The heights labelled with what they are: min safe, max safe (or S once they meet), the
/// pending drop, and the floor the agent points at or typed; each height once, with every
/// role it has, even when they coincide.
fn marked_labels(
    column: &Column,
    game: &BricksGame,
    marks: &TowerMarks,
) -> Vec<(u64, Vec<&'static str>, Color)> {
    let state = game.state();
    let mut roles: Vec<(u64, &str, Color)> = if state.min_safe() == state.max_safe() {
        vec![(state.min_safe(), "= S", SAFE_TEXT)]
    } else {
        vec![
            (state.min_safe(), "min safe", SAFE_TEXT),
            (state.max_safe(), "max safe", BROKEN_TEXT),
        ]
    };
    if let Some(height) = game.pending_drop() {
        roles.push((height, "drop", PENDING_TEXT));
    }
    if let Some(height) = marks.picked {
        roles.push((height, "your drop", PICK_MARK));
    }
    if let Some(height) = marks.hovered {
        roles.push((height, "click to pick", HOVER_MARK));
    }
    let mut labels: Vec<(u64, Vec<&str>, Color)> = Vec::new();
    for (height, role, color) in roles {
        // The height just below the column is labelled at its bottom edge (0 is the ground).
        if !(column.low - 1..=column.high).contains(&height) {
            continue;
        }
        match labels.iter_mut().find(|(at, ..)| *at == height) {
            Some((_, roles, _)) => roles.push(role),
            None => labels.push((height, vec![role], color)),
        }
    }
    labels
}

/// A label for the height at `y`, written at `label_y` (moved off a neighbour's label), with
/// a leader from the column's edge.
fn draw_scale_label(
    column: &Column,
    role: ColumnRole,
    y: f32,
    label_y: f32,
    text: &str,
    color: Color,
) {
    let size = measure(text, SCALE_TEXT_SIZE);
    let r = column.rect;
    let (edge_x, end_x, x) = match role {
        ColumnRole::Overview => (r.x, r.x - 5.0, r.x - LABEL_INDENT - size.width),
        ColumnRole::Detail => (r.x + r.w, r.x + r.w + 5.0, r.x + r.w + LABEL_INDENT),
    };
    draw_line(edge_x, y, end_x, label_y, 1.0, color);
    let baseline = label_y + size.offset_y / 2.0;
    text_at(text, x.round(), baseline.round(), SCALE_TEXT_SIZE, color);
}

/// A frame around a floor, or a line across it when the floor is too thin to frame.
fn outline_floor(column: &Column, height: u64, color: Color) {
    let rect = column.floor_rect(height);
    if rect.h >= 4.0 {
        draw_rectangle_lines(
            rect.x - 2.0,
            rect.y - 1.0,
            rect.w + 4.0,
            rect.h + 2.0,
            3.0,
            color,
        );
    } else {
        let y = rect.y + rect.h / 2.0;
        draw_line(rect.x - 6.0, y, rect.x + rect.w + 6.0, y, 3.0, color);
    }
}

/// The brick of the drop waiting for its answer, centred on its floor; `falling` of the way
/// down from the column's top while it falls.
fn draw_pending_brick(column: &Column, height: u64, falling: Option<f32>) {
    let (x, floor_y) = column.floor_center(height);
    let top = column.rect.y;
    let y = falling.map_or(floor_y, |progress| top + (floor_y - top) * progress);
    let w = (column.rect.w * 0.6).min(48.0);
    let h = column.floor_pixels().clamp(10.0, 18.0);
    let brick = Rect::new(x - w / 2.0, y - h / 2.0, w, h);
    draw_rectangle(brick.x, brick.y, brick.w, brick.h, PENDING_BRICK);
    draw_rectangle_lines(brick.x, brick.y, brick.w, brick.h, 2.0, BRICK_EDGE);
}

/// Which part of the whole tower the close-up magnifies: a frame on the whole column and lines
/// to the close-up's corners.
fn draw_zoom_link(whole: &Column, close_up: &Column) {
    let top = whole.edge_y(close_up.high);
    let bottom = whole.edge_y(close_up.low - 1).max(top + 3.0);
    let w = whole.rect;
    draw_rectangle_lines(
        w.x - 3.0,
        top - 2.0,
        w.w + 6.0,
        bottom - top + 4.0,
        2.0,
        ZOOM_LINK,
    );
    let c = close_up.rect;
    draw_line(w.x + w.w + 3.0, top - 2.0, c.x, c.y, 1.0, ZOOM_LINK);
    draw_line(
        w.x + w.w + 3.0,
        bottom + 2.0,
        c.x,
        c.y + c.h,
        1.0,
        ZOOM_LINK,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn distance(a: Color, b: Color) -> f32 {
        (a.r - b.r).abs() + (a.g - b.g).abs() + (a.b - b.b).abs()
    }

    #[test]
    fn the_floor_colours_are_far_apart() {
        let colours = [SAFE_FLOOR, BROKEN_FLOOR, OPEN_FLOOR, PENDING_BRICK];
        for (i, a) in colours.iter().enumerate() {
            for b in &colours[i + 1..] {
                assert!(distance(*a, *b) > 0.35, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn a_marked_label_gives_up_words_before_it_runs_out_of_its_room() {
        let eight_per_char = |text: &str| 8.0 * text.chars().count() as f32;
        let roles = ["max safe", "click to pick"];
        let fit = |room| fitting_label("649", &roles, room, eight_per_char);
        assert_eq!(fit(400.0), "649 max safe, click to pick");
        assert_eq!(fit(26.0 * 8.0), "649 max safe");
        assert_eq!(fit(12.0 * 8.0), "649 max safe");
        assert_eq!(fit(11.0 * 8.0), "649 max");
        assert_eq!(fit(7.0 * 8.0), "649 max");
        assert_eq!(fit(6.0 * 8.0), "649", "the number even when nothing fits");
        assert_eq!(fit(0.0), "649");
        let one = fitting_label("12", &["drop"], 7.0 * 8.0, eight_per_char);
        assert_eq!(one, "12 drop");
    }
}
