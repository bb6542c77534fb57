//! Reaching the window's controls with the keyboard: Tab puts a ring on the next control the
//! frame draws (buttons, toggles and text fields, in drawing order; Shift+Tab the one before),
//! and Enter or Space presses the button that has it; a text field that gets it takes the
//! keyboard. The controls are immediate-mode (drawn anew each frame, kept nowhere), so the ring
//! remembers its control by its place in the drawing order, where it stood and its words, or,
//! in a list's row, by what the row shows ([`scoped`]) and its words: when that no longer
//! matches (another screen came, the row went, Resign became Play again), the ring goes. A
//! mouse click or Escape takes it away too; a click on a text field gives it the ring. Tab
//! passes over a button drawn disabled. An arrow key on a board takes the ring away as well:
//! the board's cursor (`board_cursor`) has the keyboard then. A screen may be drawn in parts
//! ([`part`]: the lobby's form, our games, the rooms, the stored games): F6 brings the ring to
//! the first control of the next part (Shift+F6 the part before), so that a list far down the
//! drawing order is a key away.

use std::cell::RefCell;
use std::hash::{DefaultHasher, Hash, Hasher};

use macroquad::color::Color;
use macroquad::input::{KeyCode, is_key_down, is_key_pressed};
use macroquad::math::Rect;
use macroquad::shapes::draw_rectangle_lines;

use super::confirm::SURE;

/// The ring's colour: bright against the buttons and the background, and unlike the boards'
/// marks (the gold of a winning line, a picked floor).
pub const RING: Color = Color::new(0.4, 0.85, 1.0, 1.0);

/// This frame's keys that move the ring or press what it is on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RingKeys {
    /// Tab: the next control.
    pub next: bool,
    /// Shift+Tab: the one before.
    pub back: bool,
    /// Enter or Space: press the control with the ring.
    pub press: bool,
    /// Escape: the ring goes.
    pub escape: bool,
    /// F6: the first control of the next part of the screen.
    pub next_part: bool,
    /// Shift+F6: the first control of the part before.
    pub back_part: bool,
}

impl RingKeys {
    pub fn pressed() -> RingKeys {
        let tab = is_key_pressed(KeyCode::Tab);
        let f6 = is_key_pressed(KeyCode::F6);
        let shift = is_key_down(KeyCode::LeftShift) || is_key_down(KeyCode::RightShift);
        RingKeys {
            next: tab && !shift,
            back: tab && shift,
            next_part: f6 && !shift,
            back_part: f6 && shift,
            press: is_key_pressed(KeyCode::Enter)
                || is_key_pressed(KeyCode::KpEnter)
                || is_key_pressed(KeyCode::Space),
            escape: is_key_pressed(KeyCode::Escape),
        }
    }
}

/// What a control's frame learns of the ring.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Focus {
    /// The control has the ring.
    pub ringed: bool,
    /// The ring came to it this frame (Tab or F6).
    pub arrived: bool,
    /// Enter or Space pressed it this frame.
    pub pressed: bool,
    /// Tab or F6 moved the ring this frame (a field without it then lets the keyboard go).
    pub moved: bool,
}

/// What a list's row shows, for the ring to know the row's controls by: the list's kind and
/// the id of its item (`("room", 12)`).
pub type Scope = (&'static str, u64);

/// Where a control was drawn: its place in the frame's drawing order, its rectangle, the
/// scope it was drawn in with its place there, and its words (a hash of them, as
/// [`words_of`] reads them).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Place {
    index: usize,
    rect: Rect,
    scope: Option<(Scope, usize)>,
    words: u64,
}

/// A control's words, for the ring to know it by: a button asking "Sure? Resign" is the
/// Resign button still, and Play again drawn where Resign was is another.
fn words_of(label: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    label.strip_prefix(SURE).unwrap_or(label).hash(&mut hasher);
    hasher.finish()
}

impl Place {
    /// Whether `now` is the control that was drawn at `self` a frame before: with the same
    /// words, and in a scope, the same scope and place there, wherever the row went; else the
    /// same place in the drawing order at the same spot (its left or its right edge, so that a
    /// button whose words grow, "Sure? Close", keeps the ring).
    fn same_control(&self, now: &Place) -> bool {
        if self.words != now.words {
            return false;
        }
        match (self.scope, now.scope) {
            (Some(was), Some(is)) => was == is,
            (None, None) => {
                let near = |a: f32, b: f32| (a - b).abs() < 0.5;
                let (a, b) = (self.rect, now.rect);
                self.index == now.index
                    && near(a.y, b.y)
                    && (near(a.x, b.x) || near(a.x + a.w, b.x + b.w))
            }
            _ => false,
        }
    }
}

/// The control with the ring: its place in the last drawing order, and where it was drawn
/// (`None` the frame Tab brought the ring, until the control at that place is drawn).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Ringed {
    index: usize,
    place: Option<Place>,
}

#[derive(Debug, Default)]
struct Ring {
    ringed: Option<Ringed>,
    /// Whether each control drawn so far this frame was enabled, in drawing order (at the
    /// frame's start: those of the last frame), for Tab to pass over the disabled ones.
    enabled: Vec<bool>,
    /// Where each part of the screen begins in `enabled` (at the frame's start: the last
    /// frame's), for F6.
    parts: Vec<usize>,
    /// The scope controls are drawn in now, and how many were drawn in it so far.
    scope: Option<Scope>,
    in_scope: usize,
    /// Whether the ringed control was drawn this frame.
    found: bool,
    /// Whether this frame's Escape took the ring from a control: it did nothing else.
    escape_took_ring: bool,
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

/// A button or toggle drawn at `rect` with `label`, `enabled` or not: whether it has the
/// ring, and whether it is pressed.
pub fn control(rect: Rect, label: &str, enabled: bool) -> Focus {
    RING_STATE.with_borrow_mut(|ring| ring.control(rect, label, false, enabled))
}

/// A text field drawn at `rect`, `clicked` this frame, holding the keyboard (`typing`) as the
/// frame began: a click gives it the ring.
pub fn field(rect: Rect, clicked: bool, typing: bool) -> Focus {
    RING_STATE.with_borrow_mut(|ring| {
        ring.typing |= typing;
        ring.control(rect, "", clicked, true)
    })
}

/// Whether the keyboard is free for a board this frame: no control has the ring and no text
/// field held the keyboard as the frame began.
pub fn keys_free() -> bool {
    RING_STATE.with_borrow(Ring::keys_free)
}

/// Whether this frame's Escape went to taking the ring away, so that a screen that Escape
/// closes stays.
pub fn escape_took_ring() -> bool {
    RING_STATE.with_borrow(|ring| ring.escape_took_ring)
}

/// A board took the keyboard (an arrow key moved its cursor): the ring goes.
pub fn let_go() {
    RING_STATE.with_borrow_mut(Ring::let_go);
}

/// The controls drawn from now on make a new part of the screen, for F6.
pub fn part() {
    RING_STATE.with_borrow_mut(|ring| {
        let next = ring.enabled.len();
        ring.parts.push(next);
    });
}

/// Whether a control has the ring: the keyboard is in use, and a screen may say which keys
/// do what.
pub fn ring_shown() -> bool {
    RING_STATE.with_borrow(|ring| ring.ringed.is_some())
}

/// Draws a list's row with `draw`, its controls known by `scope`, so that the ring stays on
/// a row's control when the list moves under it (a room made above it, or the list moved).
pub fn scoped<T>(scope: Scope, draw: impl FnOnce() -> T) -> T {
    RING_STATE.with_borrow_mut(|ring| {
        ring.scope = Some(scope);
        ring.in_scope = 0;
    });
    let drawn = draw();
    RING_STATE.with_borrow_mut(|ring| ring.scope = None);
    drawn
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
    fn keys_free(&self) -> bool {
        self.ringed.is_none() && !self.typed_before
    }

    fn let_go(&mut self) {
        self.ringed = None;
    }

    fn start_frame(&mut self, keys: RingKeys, clicked: bool) {
        self.escape_took_ring = keys.escape && self.found && self.ringed.is_some();
        if !self.found || clicked || keys.escape {
            self.ringed = None;
        }
        let enabled = std::mem::take(&mut self.enabled);
        let parts = std::mem::take(&mut self.parts);
        let from = self.ringed.map(|ringed| ringed.index);
        let target = if keys.next || keys.back {
            Some(tab_target(&enabled, from, keys.back))
        } else if keys.next_part || keys.back_part {
            Some(part_target(&enabled, &parts, from, keys.back_part))
        } else {
            None
        };
        if let Some(target) = target {
            self.ringed = target.map(|index| Ringed { index, place: None });
        }
        self.keys = keys;
        self.found = false;
        self.typed_before = std::mem::take(&mut self.typing);
    }

    fn control(&mut self, rect: Rect, label: &str, clicked: bool, enabled: bool) -> Focus {
        let index = self.enabled.len();
        self.enabled.push(enabled);
        let scope = self.scope.map(|scope| {
            self.in_scope += 1;
            (scope, self.in_scope - 1)
        });
        let place = Place {
            index,
            rect,
            scope,
            words: words_of(label),
        };
        let keys = self.keys;
        let unringed = Focus {
            moved: keys.next || keys.back || keys.next_part || keys.back_part,
            ..Focus::default()
        };
        if clicked {
            self.ringed = Some(Ringed {
                index,
                place: Some(place),
            });
            self.found = true;
            return Focus {
                ringed: true,
                ..unringed
            };
        }
        let Some(ringed) = self.ringed else {
            return unringed;
        };
        let arrived = ringed.place.is_none();
        let ours = match ringed.place {
            None => ringed.index == index,
            Some(was) => was.same_control(&place),
        };
        if !ours || self.found {
            return unringed;
        }
        self.ringed = Some(Ringed {
            index,
            place: Some(place),
        });
        self.found = true;
        Focus {
            ringed: true,
            arrived,
            pressed: self.keys.press && !arrived && !self.typed_before && enabled,
            ..unringed
        }
    }
}

/// The control Tab brings the ring to from the one at `from` (`back`: Shift+Tab), among the
/// last frame's controls, passing over the disabled ones; none when no control is enabled.
fn tab_target(enabled: &[bool], from: Option<usize>, back: bool) -> Option<usize> {
    around(enabled.len(), from, back).find(|&index| enabled[index])
}

/// The `count` places in the order Tab (`back`: Shift+Tab) visits them from `from`, which
/// comes last; from nowhere, the first place first (the last, going back).
fn around(count: usize, from: Option<usize>, back: bool) -> impl Iterator<Item = usize> {
    (1..=count).map(move |step| match (from, back) {
        (None, false) => step - 1,
        (None, true) => count - step,
        (Some(index), false) => (index + step) % count,
        (Some(index), true) => (index + count - step) % count,
    })
}

/// The control F6 brings the ring to from the one at `from` (`back`: Shift+F6): the first
/// enabled control of the next part (of the part before) that has one, among the last frame's
/// controls, whose parts begin at `parts`. Controls drawn before the first part make a part
/// of their own.
fn part_target(
    enabled: &[bool],
    parts: &[usize],
    from: Option<usize>,
    back: bool,
) -> Option<usize> {
    let mut starts: Vec<usize> = std::iter::once(0).chain(parts.iter().copied()).collect();
    starts.dedup();
    starts.retain(|&start| start < enabled.len());
    let count = starts.len();
    let first_enabled = |part: usize| {
        let end = starts.get(part + 1).copied().unwrap_or(enabled.len());
        (starts[part]..end).find(|&index| enabled[index])
    };
    let here = from.map(|from| starts.iter().rposition(|&start| start <= from).unwrap_or(0));
    around(count, here, back).find_map(first_enabled)
}

#[cfg(test)]
mod tests;
