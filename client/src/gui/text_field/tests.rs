//! A text field's editing, driven without a window: focus by click, Tab or typing, Escape and
//! Enter, what a click elsewhere keeps, and the caret.

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
    delete: false,
    escape: false,
    enter: false,
    left: false,
    right: false,
    home: false,
    end: false,
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
    assert_eq!((name.text.as_str(), event), ("Ada", FieldEvent::PutBack));
    let (name, event) = edited(TextField::entered_with_enter("Ada"), "", NO_KEYS);
    assert_eq!(
        (name.text.as_str(), event),
        ("Ada", FieldEvent::None),
        "nothing changed, nothing to say"
    );
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
    for (field, kept, told) in [
        (TextField::new("100"), "1007", FieldEvent::None),
        (
            TextField::entered_with_enter("Ada"),
            "Ada",
            FieldEvent::PutBack,
        ),
    ] {
        let mut field = field;
        field.edit(&typing("X"), NO_KEYS, arrived, FIELD_RECT);
        assert!(field.is_focused(), "the ring brought the keyboard");
        assert!(!field.text.contains('X'), "not typed before it came");
        field.edit(&typing("7"), NO_KEYS, ringed, FIELD_RECT);
        let left = field.edit(&typing(""), NO_KEYS, tabbed_on, FIELD_RECT);
        assert_eq!(left, told);
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

#[test]
fn the_caret_moves_and_typing_backspace_and_delete_work_where_it_is() {
    let mut field = TextField::new("Robo");
    field.edit(&click(50.0), NO_KEYS, NO_RING, FIELD_RECT);
    let key = |keys: FieldKeys| (typing(""), keys);
    let steps = [
        key(FieldKeys {
            left: true,
            ..NO_KEYS
        }),
        key(FieldKeys {
            left: true,
            ..NO_KEYS
        }),
        (typing("X"), NO_KEYS),
        key(FieldKeys {
            delete: true,
            ..NO_KEYS
        }),
        key(FieldKeys {
            home: true,
            ..NO_KEYS
        }),
        (typing("é"), NO_KEYS),
        key(FieldKeys {
            backspace: true,
            ..NO_KEYS
        }),
        key(FieldKeys {
            backspace: true,
            ..NO_KEYS
        }),
        key(FieldKeys {
            right: true,
            ..NO_KEYS
        }),
        (typing("!"), NO_KEYS),
        key(FieldKeys {
            end: true,
            ..NO_KEYS
        }),
        (typing("?"), NO_KEYS),
    ];
    let texts: Vec<String> = (steps.iter())
        .map(|(input, keys)| {
            field.edit(input, *keys, NO_RING, FIELD_RECT);
            field.text.clone()
        })
        .collect();
    let expected = [
        "Robo", "Robo", "RoXbo", "RoXo", "RoXo", "éRoXo", "RoXo", "RoXo", "RoXo", "R!oXo", "R!oXo",
        "R!oXo?",
    ];
    assert_eq!(texts, expected, "Backspace at the start takes nothing");
    // Taking the keyboard again puts the caret at the end.
    field.edit(&click(500.0), NO_KEYS, NO_RING, FIELD_RECT);
    field.edit(&click(50.0), NO_KEYS, NO_RING, FIELD_RECT);
    field.edit(&typing("."), NO_KEYS, NO_RING, FIELD_RECT);
    assert_eq!(field.text, "R!oXo?.");
}
