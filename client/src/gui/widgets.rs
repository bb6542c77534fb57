//! Small immediate-mode widgets: each frame a screen calls them with that frame's [`Input`] and
//! they draw themselves and report clicks. No retained widget tree is needed for a few buttons.

use macroquad::color::Color;
use macroquad::input::{
    KeyCode, MouseButton, get_char_pressed, is_key_down, is_mouse_button_pressed, mouse_position,
    mouse_wheel,
};
use macroquad::math::{Rect, Vec2, vec2};
use macroquad::shapes::draw_rectangle;
use macroquad::text::{
    TextDimensions, draw_text, load_ttf_font_from_bytes, measure_text, set_default_font,
};

use super::canvas::to_canvas;
use super::describe::{fit_by, wrap_by};
use super::fallback_fonts::{self, Source};
use super::{key_focus, layout_audit};

/// The window's background.
pub const BACKGROUND: Color = Color::new(0.16, 0.18, 0.22, 1.0);
/// Ordinary text.
pub const TEXT: Color = Color::new(0.92, 0.92, 0.90, 1.0);
/// Secondary text: hints, descriptions, counts.
pub const DIM_TEXT: Color = Color::new(0.62, 0.64, 0.68, 1.0);
/// Errors and refusals.
pub const ERROR_TEXT: Color = Color::new(1.0, 0.45, 0.40, 1.0);
/// Good news: connected, you won.
pub const GOOD_TEXT: Color = Color::new(0.50, 0.85, 0.50, 1.0);
/// A panel behind a group of widgets.
pub const PANEL: Color = Color::new(0.21, 0.23, 0.28, 1.0);

const BUTTON: Color = Color::new(0.30, 0.36, 0.48, 1.0);
const BUTTON_HOVER: Color = Color::new(0.40, 0.48, 0.64, 1.0);
const BUTTON_SELECTED: Color = Color::new(0.55, 0.42, 0.20, 1.0);
const BUTTON_DISABLED: Color = Color::new(0.25, 0.26, 0.29, 1.0);
pub const FIELD: Color = Color::new(0.10, 0.11, 0.14, 1.0);
pub const FIELD_FOCUS_OUTLINE: Color = Color::new(0.55, 0.70, 1.0, 1.0);

/// Height of the bar across the top of every screen (title, connection, messages).
pub const TOP_BAR_HEIGHT: f32 = 60.0;
/// Width of the panel right of the board (turn, seats, moves, buttons).
pub const SIDE_PANEL_WIDTH: f32 = 330.0;

/// The x where the side panel starts on a screen `screen_w` wide.
pub fn side_panel_x(screen_w: f32) -> f32 {
    (screen_w - SIDE_PANEL_WIDTH).max(0.0)
}

/// Text size of body text and buttons.
pub const TEXT_SIZE: f32 = 16.0;
/// Text size of headings.
pub const HEADING_SIZE: f32 = 24.0;
/// Height of a button or text field.
pub const BUTTON_HEIGHT: f32 = 28.0;
/// Vertical distance between lines of body text.
pub const LINE_HEIGHT: f32 = 22.0;

/// One frame's mouse and keyboard input, read once so that the typed-character queue is
/// drained every frame (even when no text field is shown) and a click is seen by every widget.
pub struct Input {
    pub mouse: Vec2,
    /// The left button went down this frame.
    pub clicked: bool,
    /// Printable characters typed this frame, in order.
    pub typed: Vec<char>,
    /// Vertical wheel movement this frame; positive scrolls up.
    pub wheel: f32,
}

impl Input {
    pub fn gather() -> Input {
        let (x, y) = mouse_position();
        // A shortcut (Ctrl+A, Cmd+C) types nothing; AltGr, which some layouts report as Ctrl
        // with Alt, still types its characters.
        let held = |keys: [KeyCode; 2]| keys.into_iter().any(is_key_down);
        let shortcut = (held([KeyCode::LeftControl, KeyCode::RightControl])
            || held([KeyCode::LeftSuper, KeyCode::RightSuper]))
            && !held([KeyCode::LeftAlt, KeyCode::RightAlt]);
        let typed = std::iter::from_fn(get_char_pressed)
            .filter(|c| !c.is_control() && !shortcut)
            .collect();
        Input {
            mouse: to_canvas(vec2(x, y)),
            clicked: is_mouse_button_pressed(MouseButton::Left),
            typed,
            wheel: mouse_wheel().1,
        }
    }

    pub fn clicked_in(&self, rect: Rect) -> bool {
        self.clicked && rect.contains(self.mouse)
    }

    /// Moves a list's first shown row with the wheel while the pointer is over `area`,
    /// keeping `total` rows of which `visible` fit on screen.
    pub fn scroll(&self, first_row: &mut usize, area: Rect, total: usize, visible: usize) {
        if area.contains(self.mouse) {
            if self.wheel > 0.0 {
                *first_row = first_row.saturating_sub(1);
            } else if self.wheel < 0.0 {
                *first_row += 1;
            }
        }
        *first_row = (*first_row).min(total.saturating_sub(visible));
    }
}

/// Makes the embedded DejaVu Sans the window's font (`crate::font`); the library's own pixel
/// font stays if it cannot be loaded. Called once the window is open.
pub fn use_window_font() {
    match load_ttf_font_from_bytes(crate::font::DEJAVU_SANS) {
        Ok(font) => set_default_font(font),
        Err(error) => tracing::warn!("the window font did not load: {error}"),
    }
}

/// Draws `text` at `size` with its baseline at `y`; returns the width drawn. Every text of the
/// window is drawn here, so the layout tests see it (`layout_audit`). Letters the window's
/// font lacks are drawn in a font of the machine's that has them (`fallback_fonts`).
pub fn text_at(text: &str, x: f32, y: f32, size: f32, color: Color) -> f32 {
    let mut parts: Vec<TextDimensions> = Vec::new();
    for (run, source) in fallback_fonts::runs_of(text) {
        let left = x + parts.iter().map(|part| part.width).sum::<f32>();
        parts.push(match source {
            Source::Window => draw_text(run, left, y, size, color),
            Source::Fallback(font) => fallback_fonts::draw_run(run, font, left, y, size, color),
        });
    }
    let drawn = side_by_side(&parts);
    let top = y - drawn.offset_y;
    layout_audit::note_text(Rect::new(x, top, drawn.width, drawn.height), text);
    drawn.width
}

/// What [`text_at`] would draw `text` over at `size`.
pub fn measure(text: &str, size: f32) -> TextDimensions {
    let parts: Vec<TextDimensions> = (fallback_fonts::runs_of(text).into_iter())
        .map(|(run, source)| match source {
            Source::Window => measure_text(run, None, size as u16, 1.0),
            Source::Fallback(font) => fallback_fonts::measure_run(run, font, size),
        })
        .collect();
    side_by_side(&parts)
}

/// The extent of texts drawn one after the other on one baseline.
fn side_by_side(parts: &[TextDimensions]) -> TextDimensions {
    let above = parts.iter().map(|part| part.offset_y).fold(0.0, f32::max);
    let below = (parts.iter())
        .map(|part| part.height - part.offset_y)
        .fold(0.0, f32::max);
    TextDimensions {
        width: parts.iter().map(|part| part.width).sum(),
        height: above + below,
        offset_y: above,
    }
}

/// Draws `text` with its baseline at `y`; returns the width drawn.
pub fn label(text: &str, x: f32, y: f32, color: Color) -> f32 {
    text_at(text, x, y, TEXT_SIZE, color)
}

pub fn heading(text: &str, x: f32, y: f32) {
    text_at(text, x, y, HEADING_SIZE, TEXT);
}

/// A heading no wider than `max_width`: at heading size when it fits, else smaller (down to
/// body size), and cut with "..." when even that is too wide.
pub fn heading_fit(text: &str, x: f32, y: f32, max_width: f32) {
    let full = measure(text, HEADING_SIZE).width;
    if full <= max_width {
        return heading(text, x, y);
    }
    let size = (HEADING_SIZE * max_width / full).floor().max(TEXT_SIZE);
    let fitted = fit_by(text, max_width, |text| measure(text, size).width);
    text_at(&fitted, x, y, size, TEXT);
}

/// A heading no wider than `width`: at heading size when it fits, else at body size in up to
/// `max_lines` lines, the last cut with "..." if need be (a long title keeps its words, where
/// [`heading_fit`] would keep one line). Returns the baseline of its last line.
pub fn heading_lines(text: &str, x: f32, y: f32, width: f32, max_lines: usize) -> f32 {
    if measure(text, HEADING_SIZE).width <= width {
        heading(text, x, y);
        return y;
    }
    let lines = wrap_to_width(text, width);
    let shown = lines.len().min(max_lines.max(1));
    let mut baseline = y;
    for (index, line) in lines.iter().take(shown).enumerate() {
        baseline = y + index as f32 * LINE_HEIGHT;
        let line = if index + 1 == shown && shown < lines.len() {
            fit_to_width(&lines[index..].join(" "), width)
        } else {
            line.clone()
        };
        label(&line, x, baseline, TEXT);
    }
    baseline
}

/// Width of `text` at body size, for laying out what follows it.
pub fn text_width(text: &str) -> f32 {
    measure(text, TEXT_SIZE).width
}

/// `text` cut with "..." to fit `width` at body size.
pub fn fit_to_width(text: &str, width: f32) -> String {
    fit_by(text, width, text_width)
}

/// The first of `texts` (longest first, say) that fits `width` at body size, or the last cut
/// with "..." to fit.
pub fn first_that_fits(texts: &[&str], width: f32) -> String {
    let fitting = texts.iter().find(|text| text_width(text) <= width);
    fitting.map_or_else(
        || fit_to_width(texts[texts.len() - 1], width),
        |text| text.to_string(),
    )
}

/// `text` broken at spaces into lines that fit `width` at body size.
pub fn wrap_to_width(text: &str, width: f32) -> Vec<String> {
    wrap_by(text, |line| text_width(line) <= width)
}

/// Draws `text` in lines that fit `width`, the first with its baseline at `y`; returns the
/// baseline under the last line.
pub fn wrapped_label(text: &str, x: f32, y: f32, width: f32, color: Color) -> f32 {
    let mut y = y;
    for line in wrap_to_width(text, width) {
        label(&line, x, y, color);
        y += LINE_HEIGHT;
    }
    y
}

/// The width a button needs for `text`.
pub fn button_width(text: &str) -> f32 {
    text_width(text) + 20.0
}

/// Draws a button sized to its text at (`x`, `y`) and returns whether it was clicked. Laying
/// out rows of buttons is common enough to size them here.
pub fn button_at(input: &Input, x: f32, y: f32, text: &str) -> bool {
    button(
        input,
        Rect::new(x, y, button_width(text), BUTTON_HEIGHT),
        text,
    )
}

/// Draws a button and returns whether it was clicked this frame.
pub fn button(input: &Input, rect: Rect, text: &str) -> bool {
    draw_button(input, rect, text, ButtonLook::Normal)
}

/// A button of a choice group: drawn highlighted when `selected`.
pub fn toggle(input: &Input, rect: Rect, text: &str, selected: bool) -> bool {
    let look = if selected {
        ButtonLook::Selected
    } else {
        ButtonLook::Normal
    };
    draw_button(input, rect, text, look)
}

/// A button that is shown greyed out and ignores clicks when `enabled` is false, so the
/// layout does not jump when an action becomes (un)available.
pub fn button_enabled(input: &Input, rect: Rect, text: &str, enabled: bool) -> bool {
    let look = if enabled {
        ButtonLook::Normal
    } else {
        ButtonLook::Disabled
    };
    draw_button(input, rect, text, look)
}

/// A row of toggles from (`x`, `y`), one per option and sized to its text; a click makes its
/// option `chosen`.
pub fn choice_row<T: Copy + PartialEq>(
    input: &Input,
    x: f32,
    y: f32,
    options: &[(T, &str)],
    chosen: &mut T,
) {
    let mut left = x;
    for &(option, text) in options {
        let rect = Rect::new(left, y, button_width(text) + 6.0, BUTTON_HEIGHT);
        if toggle(input, rect, text, *chosen == option) {
            *chosen = option;
        }
        left += rect.w + 6.0;
    }
}

/// Where a lobby form lays itself out: from `top` down at `x` within `width`, with its Create
/// button on the row at `create_y`, which stays put however the rows above it change.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FormArea {
    pub x: f32,
    pub top: f32,
    pub width: f32,
    pub create_y: f32,
}

/// A lobby form's "Create room" button on its row, with the first of `hints` (longest
/// first) that fits beside it; whether it was clicked.
pub fn create_room_button(input: &Input, area: &FormArea, enabled: bool, hints: &[&str]) -> bool {
    let text = "Create room";
    let rect = Rect::new(area.x, area.create_y, button_width(text), BUTTON_HEIGHT);
    // A part of its own, so that F6 reaches it past the form's many choices.
    key_focus::part();
    if !hints.is_empty() {
        let room = area.x + area.width - rect.right() - 10.0;
        label(
            &first_that_fits(hints, room),
            rect.right() + 10.0,
            area.create_y + 19.0,
            DIM_TEXT,
        );
    }
    button_enabled(input, rect, text, enabled)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ButtonLook {
    Normal,
    Selected,
    Disabled,
}

fn draw_button(input: &Input, rect: Rect, text: &str, look: ButtonLook) -> bool {
    layout_audit::control(rect, text, || draw_button_now(input, rect, text, look))
}

fn draw_button_now(input: &Input, rect: Rect, text: &str, look: ButtonLook) -> bool {
    let focus = key_focus::control(rect, text, look != ButtonLook::Disabled);
    let hovered = rect.contains(input.mouse);
    let fill = match look {
        ButtonLook::Disabled => BUTTON_DISABLED,
        ButtonLook::Selected => BUTTON_SELECTED,
        ButtonLook::Normal if hovered => BUTTON_HOVER,
        ButtonLook::Normal => BUTTON,
    };
    draw_rectangle(rect.x, rect.y, rect.w, rect.h, fill);
    let text_color = if look == ButtonLook::Disabled {
        DIM_TEXT
    } else {
        TEXT
    };
    let width = text_width(text);
    // Centre on the capital height so every button's baseline sits at the same place.
    let capital = measure("H", TEXT_SIZE);
    let x = rect.x + (rect.w - width) / 2.0;
    let y = rect.y + (rect.h + capital.height) / 2.0;
    text_at(text, x.round(), y.round(), TEXT_SIZE, text_color);
    if focus.ringed {
        key_focus::draw_ring(rect);
    }
    look != ButtonLook::Disabled && ((input.clicked && hovered) || focus.pressed)
}

/// The contrast ratio of two colours as WCAG defines it, from 1 (the same) to 21 (black on
/// white); body text wants about 4.5. Tests check the colours with it.
#[cfg(test)]
pub fn contrast(a: Color, b: Color) -> f32 {
    let linear = |c: f32| {
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let luminance = |c: Color| 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b);
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contrast_runs_from_one_to_twenty_one() {
        assert!(
            (contrast(
                Color::new(0.0, 0.0, 0.0, 1.0),
                Color::new(1.0, 1.0, 1.0, 1.0)
            ) - 21.0)
                .abs()
                < 0.01
        );
        assert!((contrast(TEXT, TEXT) - 1.0).abs() < 1e-6);
        assert!(contrast(TEXT, BACKGROUND) > 10.0);
    }
}
