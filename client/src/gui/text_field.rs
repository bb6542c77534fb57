//! A one-line editable text. It takes keyboard input only while focused (after a click on
//! it), so typing elsewhere in the app never edits it by accident. Left, Right, Home and End
//! move the caret; Backspace and Delete take the character before or after it.

use macroquad::input::{KeyCode, is_key_pressed};
use macroquad::math::Rect;
use macroquad::shapes::{draw_rectangle, draw_rectangle_lines};

use super::key_focus::{self, Focus};
use super::layout_audit;
use super::widgets::{FIELD, FIELD_FOCUS_OUTLINE, Input, TEXT, label, text_width};

pub struct TextField {
    pub text: String,
    focused: bool,
    /// The text when the field took the keyboard: Escape puts it back, and so does a click
    /// elsewhere when the field's text counts only once Enter is pressed.
    before: String,
    /// Whether the text counts only once Enter is pressed (a name to send), rather than being
    /// read when a button beside it is clicked (a form's fields).
    enter_only: bool,
    /// Where typing goes, in characters from the start; `None` at the end, where the field
    /// puts it when it takes the keyboard (and where it stays as a text set from outside
    /// grows).
    caret: Option<usize>,
}

/// What the user did to a text field this frame.
#[derive(Debug, PartialEq, Eq)]
pub enum FieldEvent {
    None,
    /// Enter was pressed while the field had focus.
    Submitted,
    /// A field whose text counts only with Enter was left another way (Tab, a click
    /// elsewhere) with its text changed, and put it back: the change did not count.
    PutBack,
}

/// The keys a field answers, pressed this frame.
#[derive(Clone, Copy, Debug, Default)]
struct FieldKeys {
    backspace: bool,
    delete: bool,
    escape: bool,
    enter: bool,
    left: bool,
    right: bool,
    home: bool,
    end: bool,
}

impl FieldKeys {
    fn pressed() -> FieldKeys {
        FieldKeys {
            backspace: is_key_pressed(KeyCode::Backspace),
            delete: is_key_pressed(KeyCode::Delete),
            escape: is_key_pressed(KeyCode::Escape),
            enter: is_key_pressed(KeyCode::Enter) || is_key_pressed(KeyCode::KpEnter),
            left: is_key_pressed(KeyCode::Left),
            right: is_key_pressed(KeyCode::Right),
            home: is_key_pressed(KeyCode::Home),
            end: is_key_pressed(KeyCode::End),
        }
    }
}

/// Longest text a field accepts; a server address never needs more.
pub const FIELD_MAX_CHARS: usize = 200;

impl TextField {
    /// A field whose text is read when the user acts on it (a form's Create button).
    pub fn new(text: impl Into<String>) -> TextField {
        let text = text.into();
        TextField {
            before: text.clone(),
            text,
            focused: false,
            enter_only: false,
            caret: None,
        }
    }

    /// A field whose text counts only once Enter is pressed: leaving it any other way (Escape,
    /// a click elsewhere) puts back what it showed, so it never shows what was not taken.
    pub fn entered_with_enter(text: impl Into<String>) -> TextField {
        TextField {
            enter_only: true,
            ..TextField::new(text)
        }
    }

    pub fn is_focused(&self) -> bool {
        self.focused
    }

    /// Gives the field the keyboard, e.g. when it becomes the one thing to fill in.
    pub fn focus(&mut self) {
        self.take_focus();
    }

    /// Handles this frame's input and draws the field.
    pub fn update(&mut self, input: &Input, rect: Rect) -> FieldEvent {
        let ring = key_focus::field(rect, input.clicked_in(rect), self.focused);
        let event = self.edit(input, FieldKeys::pressed(), ring, rect);
        self.draw(rect, ring.ringed);
        event
    }

    /// This frame's input and what it learnt of the keyboard's `ring`, without drawing: what
    /// the tests drive.
    fn edit(&mut self, input: &Input, keys: FieldKeys, ring: Focus, rect: Rect) -> FieldEvent {
        // Tab brought the ring (or Enter on the ringed field after it let go): it takes the
        // keyboard; Tab took the ring on: it lets go, as a click elsewhere does.
        if !self.focused && (ring.arrived || ring.pressed) {
            self.take_focus();
            return FieldEvent::None;
        }
        // Typing into the ringed field (after Enter let it go) takes the keyboard back.
        if !self.focused && ring.ringed && !input.typed.is_empty() {
            self.take_focus();
        }
        if self.focused && ring.moved && !ring.ringed {
            return self.leave_unentered();
        }
        if input.clicked {
            match (rect.contains(input.mouse), self.focused) {
                (true, false) => self.take_focus(),
                (false, true) => return self.leave_unentered(),
                _ => {}
            }
        }
        if !self.focused {
            return FieldEvent::None;
        }
        for &c in &input.typed {
            if self.text.chars().count() < FIELD_MAX_CHARS {
                let at = self.caret_at();
                self.text.insert(self.byte_at(at), c);
                self.set_caret(at + 1);
            }
        }
        self.move_caret(keys);
        if keys.escape {
            self.leave(true);
        }
        if keys.enter {
            self.leave(false);
            return FieldEvent::Submitted;
        }
        FieldEvent::None
    }

    /// Puts back the text the field had when it last took the keyboard: after Enter on a text
    /// that was refused, so that the field shows what still holds.
    pub fn put_back(&mut self) {
        self.text.clone_from(&self.before);
    }

    fn take_focus(&mut self) {
        self.focused = true;
        self.caret = None;
        self.before.clone_from(&self.text);
    }

    /// The caret, in characters from the start.
    fn caret_at(&self) -> usize {
        let len = self.text.chars().count();
        self.caret.map_or(len, |at| at.min(len))
    }

    /// Puts the caret before character `at` (at the end past the last one).
    fn set_caret(&mut self, at: usize) {
        self.caret = (at < self.text.chars().count()).then_some(at);
    }

    /// The byte where character `at` starts.
    fn byte_at(&self, at: usize) -> usize {
        (self.text.char_indices().nth(at)).map_or(self.text.len(), |(byte, _)| byte)
    }

    /// This frame's caret keys: moves, and the characters Backspace and Delete take.
    fn move_caret(&mut self, keys: FieldKeys) {
        let at = self.caret_at();
        if keys.backspace && at > 0 {
            self.text.remove(self.byte_at(at - 1));
            self.set_caret(at - 1);
        }
        let at = self.caret_at();
        if keys.delete && at < self.text.chars().count() {
            self.text.remove(self.byte_at(at));
            self.set_caret(at);
        }
        if keys.left {
            self.set_caret(self.caret_at().saturating_sub(1));
        }
        if keys.right {
            self.set_caret(self.caret_at() + 1);
        }
        if keys.home {
            self.set_caret(0);
        }
        if keys.end {
            self.caret = None;
        }
    }

    /// Gives the keyboard up without Enter: a form's field keeps its text, a field whose text
    /// counts only with Enter puts it back (and says so, if it had changed).
    fn leave_unentered(&mut self) -> FieldEvent {
        let changed = self.enter_only && self.text != self.before;
        self.leave(self.enter_only);
        if changed {
            FieldEvent::PutBack
        } else {
            FieldEvent::None
        }
    }

    /// Gives the keyboard up, putting back the text it had when it took it if `undo`.
    fn leave(&mut self, undo: bool) {
        self.focused = false;
        if undo {
            self.text.clone_from(&self.before);
        }
    }

    fn draw(&self, rect: Rect, ringed: bool) {
        layout_audit::control(rect, &self.text, || self.draw_now(rect, ringed));
    }

    fn draw_now(&self, rect: Rect, ringed: bool) {
        draw_rectangle(rect.x, rect.y, rect.w, rect.h, FIELD);
        if self.focused {
            draw_rectangle_lines(rect.x, rect.y, rect.w, rect.h, 2.0, FIELD_FOCUS_OUTLINE);
        } else if ringed {
            key_focus::draw_ring(rect);
        }
        // Of a text too long for the field, show the part around the caret.
        let room = rect.w - 16.0;
        let chars: Vec<char> = self.text.chars().collect();
        let width = |part: &[char]| text_width(&part.iter().collect::<String>());
        let at = self.caret_at();
        let mut start = 0;
        while start < at && width(&chars[start..at]) > room {
            start += 1;
        }
        let mut end = chars.len();
        while end > at && width(&chars[start..end]) > room {
            end -= 1;
        }
        let shown: String = chars[start..end].iter().collect();
        let baseline = rect.y + rect.h - 8.0;
        label(&shown, rect.x + 6.0, baseline, TEXT);
        if self.focused {
            let caret_x = rect.x + 7.0 + width(&chars[start..at]);
            draw_rectangle(caret_x, rect.y + 5.0, 2.0, rect.h - 10.0, TEXT);
        }
    }
}

#[cfg(test)]
mod tests;
