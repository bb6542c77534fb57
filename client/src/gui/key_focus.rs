//! Reaching the window's controls with the keyboard: Tab puts a ring on the next control the
//! frame draws (buttons, toggles and text fields, in drawing order; Shift+Tab the one before),
//! and Enter or Space presses the button that has it; a text field that gets it takes the
//! keyboard. The controls are immediate-mode (drawn anew each frame, kept nowhere), so the ring
//! remembers its control by its place in the drawing order and its top-left corner: when either
//! no longer matches (another screen came), the ring goes. A mouse click takes it away too,
//! unless it lands on a text field, which then has it.

use std::cell::RefCell;

use macroquad::color::Color;
use macroquad::input::{KeyCode, is_key_down, is_key_pressed};
use macroquad::math::{Rect, Vec2, vec2};
use macroquad::shapes::draw_rectangle_lines;

/// The ring's colour: bright against the buttons and the background.
const RING: Color = Color::new(1.0, 0.85, 0.2, 1.0);

/// This frame's keys that move the ring or press what it is on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RingKeys {
    /// Tab: the next control.
    pub next: bool,
    /// Shift+Tab: the one before.
    pub back: bool,
    /// Enter or Space: press the control with the ring.
    pub press: bool,
}

impl RingKeys {
    pub fn pressed() -> RingKeys {
        let tab = is_key_pressed(KeyCode::Tab);
        let shift = is_key_down(KeyCode::LeftShift) || is_key_down(KeyCode::RightShift);
        RingKeys {
            next: tab && !shift,
            back: tab && shift,
            press: is_key_pressed(KeyCode::Enter)
                || is_key_pressed(KeyCode::KpEnter)
                || is_key_pressed(KeyCode::Space),
        }
    }
}

/// What a control's frame learns of the ring.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Focus {
    /// The control has the ring.
    pub ringed: bool,
    /// The ring came to it this frame (Tab).
    pub arrived: bool,
    /// Enter or Space pressed it this frame.
    pub pressed: bool,
    /// Tab moved the ring this frame (a field without it then lets the keyboard go).
    pub moved: bool,
}

/// The control with the ring: its place among the frame's controls and its top-left corner
/// (`None` the frame Tab brought the ring, until the control at that place is drawn).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Ringed {
    index: usize,
    corner: Option<Vec2>,
}

#[derive(Debug, Default)]
struct Ring {
    ringed: Option<Ringed>,
    /// Controls drawn so far this frame (at its start: in the last frame).
    drawn: usize,
    /// Whether the ringed control was drawn this frame.
    found: bool,
    /// Whether a text field held the keyboard this frame, and in the last one: Enter and
    /// Space are then the field's (a field that took the keyboard by itself, its turn come,
    /// while the ring stood on Leave, must not have Enter leave the room too).
    typing: bool,
    typed_before: bool,
    keys: RingKeys,
}

thread_local! {
    static RING_STATE: RefCell<Ring> = RefCell::new(Ring::default());
}

/// Starts a frame with its `keys`, and whether the mouse `clicked`.
pub fn start_frame(keys: RingKeys, clicked: bool) {
    RING_STATE.with_borrow_mut(|ring| ring.start_frame(keys, clicked));
}

/// A button or toggle drawn at `rect`: whether it has the ring, and whether it is pressed.
pub fn control(rect: Rect) -> Focus {
    RING_STATE.with_borrow_mut(|ring| ring.control(rect, false))
}

/// A text field drawn at `rect`, `clicked` this frame, holding the keyboard (`typing`) as the
/// frame began: a click gives it the ring.
pub fn field(rect: Rect, clicked: bool, typing: bool) -> Focus {
    RING_STATE.with_borrow_mut(|ring| {
        ring.typing |= typing;
        ring.control(rect, clicked)
    })
}

/// Draws the ring around `rect`.
pub fn draw_ring(rect: Rect) {
    draw_rectangle_lines(
        rect.x - 3.0,
        rect.y - 3.0,
        rect.w + 6.0,
        rect.h + 6.0,
        2.0,
        RING,
    );
}

impl Ring {
    fn start_frame(&mut self, keys: RingKeys, clicked: bool) {
        if !self.found || clicked {
            self.ringed = None;
        }
        let count = self.drawn;
        if (keys.next || keys.back) && count > 0 {
            let index = match (self.ringed.map(|ringed| ringed.index), keys.back) {
                (None, false) => 0,
                (None, true) => count - 1,
                (Some(index), false) => (index + 1) % count,
                (Some(index), true) => (index + count - 1) % count,
            };
            self.ringed = Some(Ringed {
                index,
                corner: None,
            });
        }
        self.keys = keys;
        self.drawn = 0;
        self.found = false;
        self.typed_before = std::mem::take(&mut self.typing);
    }

    fn control(&mut self, rect: Rect, clicked: bool) -> Focus {
        let index = self.drawn;
        self.drawn += 1;
        let corner = vec2(rect.x, rect.y);
        let unringed = Focus {
            moved: self.keys.next || self.keys.back,
            ..Focus::default()
        };
        if clicked {
            self.ringed = Some(Ringed {
                index,
                corner: Some(corner),
            });
            self.found = true;
            return Focus {
                ringed: true,
                ..unringed
            };
        }
        let Some(ringed) = self.ringed.filter(|ringed| ringed.index == index) else {
            return unringed;
        };
        let arrived = ringed.corner.is_none();
        if ringed.corner.is_some_and(|at| at.distance(corner) > 0.5) {
            // Another control stands at that place now.
            self.ringed = None;
            return unringed;
        }
        self.ringed = Some(Ringed {
            index,
            corner: Some(corner),
        });
        self.found = true;
        Focus {
            ringed: true,
            arrived,
            pressed: self.keys.press && !arrived && !self.typed_before,
            ..unringed
        }
    }
}

#[cfg(test)]
mod tests;
