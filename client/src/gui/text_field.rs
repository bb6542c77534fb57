//! A one-line editable text. It takes keyboard input only while focused (after a click on
//! it), so typing elsewhere in the app never edits it by accident.

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
}

/// What the user did to a text field this frame.
#[derive(Debug, PartialEq, Eq)]
pub enum FieldEvent {
    None,
    /// Enter was pressed while the field had focus.
    Submitted,
}

/// The keys a field answers, pressed this frame.
#[derive(Clone, Copy, Debug, Default)]
struct FieldKeys {
    backspace: bool,
    escape: bool,
    enter: bool,
}

impl FieldKeys {
    fn pressed() -> FieldKeys {
        FieldKeys {
            backspace: is_key_pressed(KeyCode::Backspace),
            escape: is_key_pressed(KeyCode::Escape),
            enter: is_key_pressed(KeyCode::Enter) || is_key_pressed(KeyCode::KpEnter),
        }
    }
}

/// Longest text a field accepts; a server address never needs more.
const FIELD_MAX_CHARS: usize = 200;

impl TextField {
    /// A field whose text is read when the user acts on it (a form's Create button).
    pub fn new(text: impl Into<String>) -> TextField {
        let text = text.into();
        TextField {
            before: text.clone(),
            text,
            focused: false,
            enter_only: false,
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
            self.leave(self.enter_only);
            return FieldEvent::None;
        }
        if input.clicked {
            match (rect.contains(input.mouse), self.focused) {
                (true, false) => self.take_focus(),
                (false, true) => self.leave(self.enter_only),
                _ => {}
            }
        }
        if !self.focused {
            return FieldEvent::None;
        }
        for &c in &input.typed {
            if self.text.chars().count() < FIELD_MAX_CHARS {
                self.text.push(c);
            }
        }
        if keys.backspace {
            self.text.pop();
        }
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
        self.before.clone_from(&self.text);
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
        // Show the end of a text too long for the field, where the caret is.
        let room = rect.w - 16.0;
        let mut shown = self.text.as_str();
        while text_width(shown) > room && !shown.is_empty() {
            let mut chars = shown.chars();
            chars.next();
            shown = chars.as_str();
        }
        let baseline = rect.y + rect.h - 8.0;
        let width = label(shown, rect.x + 6.0, baseline, TEXT);
        if self.focused {
            let caret_x = rect.x + 7.0 + width;
            draw_rectangle(caret_x, rect.y + 5.0, 2.0, rect.h - 10.0, TEXT);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use macroquad::math::vec2;

    const FIELD_RECT: Rect = Rect {
        x: 10.0,
        y: 10.0,
        w: 100.0,
        h: 20.0,
    };

    fn click(x: f32) -> Input {
        Input {
            mouse: vec2(x, 20.0),
            clicked: true,
            typed: Vec::new(),
            wheel: 0.0,
        }
    }

    fn typing(text: &str) -> Input {
        Input {
            typed: text.chars().collect(),
            clicked: false,
            ..click(0.0)
        }
    }

    const NO_RING: Focus = Focus {
        ringed: false,
        arrived: false,
        pressed: false,
        moved: false,
    };
    const NO_KEYS: FieldKeys = FieldKeys {
        backspace: false,
        escape: false,
        enter: false,
    };
    const ESCAPE: FieldKeys = FieldKeys {
        escape: true,
        ..NO_KEYS
    };
    const ENTER: FieldKeys = FieldKeys {
        enter: true,
        ..NO_KEYS
    };
    const BACKSPACE: FieldKeys = FieldKeys {
        backspace: true,
        ..NO_KEYS
    };

    /// Clicks in, types `text`, and leaves with `keys` (or, with no key, a click elsewhere).
    fn edited(mut field: TextField, text: &str, keys: FieldKeys) -> (TextField, FieldEvent) {
        assert_eq!(
            field.edit(&click(50.0), NO_KEYS, NO_RING, FIELD_RECT),
            FieldEvent::None
        );
        assert!(field.is_focused());
        field.edit(&typing(text), NO_KEYS, NO_RING, FIELD_RECT);
        let event = if keys.escape || keys.enter {
            field.edit(&typing(""), keys, NO_RING, FIELD_RECT)
        } else {
            field.edit(&click(500.0), NO_KEYS, NO_RING, FIELD_RECT)
        };
        assert!(!field.is_focused());
        (field, event)
    }

    #[test]
    fn escape_puts_back_the_text_the_field_had() {
        for field in [TextField::new("Ada"), TextField::entered_with_enter("Ada")] {
            let (field, event) = edited(field, "X", ESCAPE);
            assert_eq!((field.text.as_str(), event), ("Ada", FieldEvent::None));
        }
    }

    #[test]
    fn enter_submits_what_was_typed() {
        for field in [TextField::new("Ada"), TextField::entered_with_enter("Ada")] {
            let (field, event) = edited(field, "X", ENTER);
            assert_eq!(
                (field.text.as_str(), event),
                ("AdaX", FieldEvent::Submitted)
            );
        }
    }

    /// A click elsewhere leaves a form's field as typed (its button reads it), but puts back
    /// a field whose text counts only with Enter: it must not show a name never sent.
    #[test]
    fn a_click_elsewhere_keeps_a_form_field_and_puts_back_an_enter_only_one() {
        let (form, _) = edited(TextField::new("100"), "0", NO_KEYS);
        assert_eq!(form.text, "1000");
        let (name, event) = edited(TextField::entered_with_enter("Ada"), "X", NO_KEYS);
        assert_eq!((name.text.as_str(), event), ("Ada", FieldEvent::None));
    }

    #[test]
    fn a_refused_entry_is_put_back() {
        let mut field = TextField::new("ws://a:1");
        field.edit(&click(50.0), NO_KEYS, NO_RING, FIELD_RECT);
        for _ in 0..8 {
            field.edit(&typing(""), BACKSPACE, NO_RING, FIELD_RECT);
        }
        assert_eq!(
            field.edit(&typing(""), ENTER, NO_RING, FIELD_RECT),
            FieldEvent::Submitted
        );
        assert_eq!(field.text, "");
        field.put_back();
        assert_eq!(field.text, "ws://a:1");
    }

    #[test]
    fn an_unfocused_field_takes_no_typing() {
        let mut field = TextField::new("Ada");
        field.edit(&typing("X"), ENTER, NO_RING, FIELD_RECT);
        assert_eq!(field.text, "Ada");
        assert!(!field.is_focused());
    }

    #[test]
    fn tab_brings_the_keyboard_to_a_field_and_takes_it_on_keeping_a_forms_text() {
        let arrived = Focus {
            ringed: true,
            arrived: true,
            ..NO_RING
        };
        let ringed = Focus {
            arrived: false,
            ..arrived
        };
        let tabbed_on = Focus {
            moved: true,
            ..NO_RING
        };
        for (field, kept) in [
            (TextField::new("100"), "1007"),
            (TextField::entered_with_enter("Ada"), "Ada"),
        ] {
            let mut field = field;
            field.edit(&typing("X"), NO_KEYS, arrived, FIELD_RECT);
            assert!(field.is_focused(), "the ring brought the keyboard");
            assert!(!field.text.contains('X'), "not typed before it came");
            field.edit(&typing("7"), NO_KEYS, ringed, FIELD_RECT);
            field.edit(&typing(""), NO_KEYS, tabbed_on, FIELD_RECT);
            assert!(!field.is_focused(), "Tab took it on");
            assert_eq!(
                field.text, kept,
                "a form keeps it, an Enter-only field does not"
            );
        }
        // Enter on the ringed field after it let go takes the keyboard again, and submits
        // nothing.
        let mut field = TextField::new("100");
        field.edit(&typing(""), ESCAPE, NO_RING, FIELD_RECT);
        let pressed = Focus {
            pressed: true,
            ..ringed
        };
        let event = field.edit(&typing(""), ENTER, pressed, FIELD_RECT);
        assert_eq!(event, FieldEvent::None);
        assert!(field.is_focused());
    }

    #[test]
    fn typing_into_the_ringed_field_after_enter_let_it_go_takes_the_keyboard_back() {
        let ringed = Focus {
            ringed: true,
            ..NO_RING
        };
        let mut field = TextField::entered_with_enter("Ada");
        field.edit(&typing(""), NO_KEYS, ringed, FIELD_RECT);
        assert!(!field.is_focused(), "ringed, nothing typed");
        field.edit(&typing("!"), NO_KEYS, ringed, FIELD_RECT);
        assert!(field.is_focused());
        assert_eq!(field.text, "Ada!");
    }
}
