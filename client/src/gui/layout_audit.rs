//! What a frame drew where, for the layout tests: every text and every control (button, text
//! field) as a rectangle, so a test can run the real window at several sizes and find text
//! drawn over text, controls over controls, and anything cut off by the window's edge.
//!
//! Off unless the hidden `--layout-report` option turns it on: then each frame starts a fresh
//! list, and the list of the frame that is saved as a screenshot is written out as JSON with
//! the problems [`problems`] finds in it.

use std::cell::RefCell;

use macroquad::math::Rect;
use serde::{Deserialize, Serialize};

/// One thing drawn: a text, or a control with its label inside it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Drawn {
    pub kind: Kind,
    /// x, y, width, height in window pixels.
    pub rect: [f32; 4],
    pub text: String,
    /// The control a text is the label of: its index in the frame's list.
    pub inside: Option<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    Text,
    Control,
}

/// What the layout report file holds.
#[derive(Debug, Serialize, Deserialize)]
pub struct Report {
    pub screen: [f32; 2],
    pub problems: Vec<String>,
    pub drawn: Vec<Drawn>,
}

#[derive(Default)]
struct Log {
    drawn: Vec<Drawn>,
    /// The control whose label is being drawn.
    open_control: Option<usize>,
}

thread_local! {
    static LOG: RefCell<Option<Log>> = const { RefCell::new(None) };
}

/// Starts recording, from the next frame on.
pub fn enable() {
    LOG.with(|log| *log.borrow_mut() = Some(Log::default()));
}

/// Forgets the previous frame's list (when recording).
pub fn start_frame() {
    LOG.with(|log| {
        if let Some(log) = log.borrow_mut().as_mut() {
            *log = Log::default();
        }
    });
}

/// Notes a text drawn in `rect` (when recording).
pub fn note_text(rect: Rect, text: &str) {
    LOG.with(|log| {
        if let Some(log) = log.borrow_mut().as_mut() {
            let inside = log.open_control;
            log.drawn.push(Drawn {
                kind: Kind::Text,
                rect: [rect.x, rect.y, rect.w, rect.h],
                text: text.to_string(),
                inside,
            });
        }
    });
}

/// Notes a control in `rect` whose label `draw_label` draws (when recording).
pub fn control<T>(rect: Rect, label: &str, draw_label: impl FnOnce() -> T) -> T {
    LOG.with(|log| {
        if let Some(log) = log.borrow_mut().as_mut() {
            log.drawn.push(Drawn {
                kind: Kind::Control,
                rect: [rect.x, rect.y, rect.w, rect.h],
                text: label.to_string(),
                inside: None,
            });
            log.open_control = Some(log.drawn.len() - 1);
        }
    });
    let drawn = draw_label();
    LOG.with(|log| {
        if let Some(log) = log.borrow_mut().as_mut() {
            log.open_control = None;
        }
    });
    drawn
}

/// The frame's list so far (empty when not recording).
pub fn frame() -> Vec<Drawn> {
    LOG.with(|log| {
        log.borrow()
            .as_ref()
            .map(|log| log.drawn.clone())
            .unwrap_or_default()
    })
}

/// How far two things may run into each other before it counts: antialiased edges and the
/// descent of one line touching the capitals of the next are not overlaps a person sees.
const SLACK: f32 = 2.0;

/// What is wrong with a frame's layout on a `screen` (width, height) window: things cut off
/// by its edge, texts over texts or over controls they are not the label of, controls over
/// controls, and labels that spill out of their control.
pub fn problems(drawn: &[Drawn], screen: [f32; 2]) -> Vec<String> {
    let mut found = Vec::new();
    let shown = |item: &Drawn| format!("{:?} {:?} at {:?}", item.kind, item.text, item.rect);
    // An empty text shows nothing; an empty text field is still there.
    let blank = |item: &Drawn| item.kind == Kind::Text && item.text.trim().is_empty();
    for item in drawn.iter().filter(|item| !blank(item)) {
        let [x, y, w, h] = item.rect;
        if x < -SLACK || y < -SLACK || x + w > screen[0] + SLACK || y + h > screen[1] + SLACK {
            found.push(format!("cut off by the window's edge: {}", shown(item)));
        }
    }
    for (i, a) in drawn.iter().enumerate() {
        if let Some(control) = a.inside.and_then(|index| drawn.get(index))
            && !contains(control.rect, a.rect)
        {
            found.push(format!("label spills out of its control: {}", shown(a)));
        }
        for (j, b) in drawn.iter().enumerate().skip(i + 1) {
            let related = a.inside == Some(j)
                || b.inside == Some(i)
                || (a.inside.is_some() && a.inside == b.inside);
            if related || blank(a) || blank(b) {
                continue;
            }
            let [across, down] = overlap_sides(a.rect, b.rect);
            if across > SLACK && down > SLACK {
                found.push(format!("{} overlaps {}", shown(a), shown(b)));
            }
        }
    }
    found
}

/// How far two rectangles overlap across and down (zero or less when apart).
fn overlap_sides(a: [f32; 4], b: [f32; 4]) -> [f32; 2] {
    let across = (a[0] + a[2]).min(b[0] + b[2]) - a[0].max(b[0]);
    let down = (a[1] + a[3]).min(b[1] + b[3]) - a[1].max(b[1]);
    [across, down]
}

/// Whether `outer` holds `inner`, give or take [`SLACK`].
fn contains(outer: [f32; 4], inner: [f32; 4]) -> bool {
    inner[0] >= outer[0] - SLACK
        && inner[1] >= outer[1] - SLACK
        && inner[0] + inner[2] <= outer[0] + outer[2] + SLACK
        && inner[1] + inner[3] <= outer[1] + outer[3] + SLACK
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(rect: [f32; 4], text: &str, inside: Option<usize>) -> Drawn {
        Drawn {
            kind: Kind::Text,
            rect,
            text: text.into(),
            inside,
        }
    }

    fn control(rect: [f32; 4], label: &str) -> Drawn {
        Drawn {
            kind: Kind::Control,
            rect,
            text: label.into(),
            inside: None,
        }
    }

    #[test]
    fn texts_on_texts_controls_on_controls_and_the_edge_are_found_and_labels_are_not() {
        let screen = [800.0, 600.0];
        let fine = [
            control([10.0, 10.0, 100.0, 28.0], "Join"),
            text([20.0, 16.0, 60.0, 16.0], "Join", Some(0)),
            text([10.0, 50.0, 200.0, 16.0], "0 watching", None),
            // The next line, its capitals touching the descent above.
            text([10.0, 65.0, 200.0, 16.0], "Not solved", None),
        ];
        assert_eq!(problems(&fine, screen), Vec::<String>::new());

        let run_into = [
            text([10.0, 50.0, 120.0, 16.0], "0 watching", None),
            text([100.0, 52.0, 100.0, 16.0], "Not solved", None),
        ];
        let found = problems(&run_into, screen);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("\"0 watching\"") && found[0].contains("overlaps"));

        let buttons = [
            control([10.0, 10.0, 100.0, 28.0], "Join"),
            control([90.0, 20.0, 100.0, 28.0], "Watch"),
        ];
        assert_eq!(problems(&buttons, screen).len(), 1);
        let over_button = [
            control([10.0, 10.0, 100.0, 28.0], "Join"),
            text([50.0, 15.0, 100.0, 16.0], "a hint", None),
        ];
        assert_eq!(problems(&over_button, screen).len(), 1);

        let cut = [text([750.0, 10.0, 100.0, 16.0], "too far right", None)];
        assert!(problems(&cut, screen)[0].contains("cut off"));
        let below = [control([10.0, 590.0, 100.0, 28.0], "Leave")];
        assert!(problems(&below, screen)[0].contains("cut off"));

        let spilling = [
            control([10.0, 10.0, 40.0, 28.0], "Join"),
            text([12.0, 16.0, 80.0, 16.0], "Join the room", Some(0)),
        ];
        assert!(problems(&spilling, screen)[0].contains("spills"));
    }
}
