//! When the window draws. macroquad draws frame after frame as fast as it can: an idle lobby
//! took more than a whole core under software OpenGL. So the loop paces itself:
//! - **awake** (the person did something in the last [`AWAKE_AFTER_INPUT`], or something on
//!   screen moves): a frame every [`AWAKE_FRAME`] at most, smooth;
//! - **asleep** otherwise: the loop waits up to [`ASLEEP_FRAME`] for the network between
//!   frames, and draws at once when an event arrives (see `App::wait_for_network`); the
//!   window's input is looked at every [`ASLEEP_FRAME`], so a click after a quiet spell is
//!   answered within a tenth of a second, and the frames after it are awake;
//! - **deep asleep** once nothing has happened for [`DEEP_SLEEP_AFTER`]: the wait grows to
//!   [`DEEP_ASLEEP_FRAME`]. Each frame redraws the whole window, a few milliseconds under
//!   software OpenGL, so an idle window costs in proportion to its frames; a network event
//!   still ends the wait at once, and the first click after a long quiet spell is answered
//!   within a fifth of a second.
//!
//! A frame that draws motion (a piece sliding) says so with [`animating`], wherever it is drawn;
//! its next frame then comes awake.

use std::cell::Cell;
use std::time::Duration;

use macroquad::input::{MouseButton, get_keys_down, get_keys_pressed, is_mouse_button_down};
use macroquad::math::Vec2;
use macroquad::window::{screen_height, screen_width};

use super::widgets::Input;

/// The shortest time between awake frames: 60 frames a second.
pub const AWAKE_FRAME: Duration = Duration::from_micros(16_667);
/// The longest wait between frames while asleep (input is looked at this often).
pub const ASLEEP_FRAME: Duration = Duration::from_millis(100);
/// How long the window stays awake after the person's last input, in seconds: hover marks and
/// typing stay smooth, and a move's answer is drawn at once.
pub const AWAKE_AFTER_INPUT: f64 = 1.0;
/// How long after the last input or motion the window sleeps deeper, in seconds.
pub const DEEP_SLEEP_AFTER: f64 = 10.0;
/// The longest wait between frames in deep sleep.
pub const DEEP_ASLEEP_FRAME: Duration = Duration::from_millis(200);

thread_local! {
    /// Whether the frame being drawn shows motion (macroquad draws on one thread).
    static ANIMATING: Cell<bool> = const { Cell::new(false) };
}

/// The frame being drawn shows motion: the next one should come soon.
pub fn animating() {
    ANIMATING.set(true);
}

/// Whether the frame being drawn shows motion so far (the mark stays for the pacer): a
/// screenshot waits until nothing moves.
pub fn is_animating() -> bool {
    ANIMATING.get()
}

/// Takes the frame's [`animating`] mark.
fn take_animating() -> bool {
    ANIMATING.replace(false)
}

/// What the loop knows between frames: since when it is asleep, and what the last frame saw.
#[derive(Debug, Default)]
pub struct Pacer {
    /// Awake until this time (macroquad's seconds).
    awake_until: f64,
    /// When the person last did something or something last moved (macroquad's seconds).
    last_active: f64,
    /// The pointer and the window's size at the last frame, to see them change.
    last_mouse: Vec2,
    last_size: (f32, f32),
}

impl Pacer {
    /// After a frame drawn at `now` (seconds) with `input`: how long the loop may wait for the
    /// network before the next frame. `busy` keeps the window awake whatever it saw (a
    /// scripted run, which must not wait).
    pub fn after_frame(&mut self, now: f64, input: &Input, busy: bool) -> Duration {
        let size = (screen_width(), screen_height());
        let acted = input.clicked
            || !input.typed.is_empty()
            || input.wheel != 0.0
            || input.mouse != self.last_mouse
            || size != self.last_size
            || is_mouse_button_down(MouseButton::Left)
            || !get_keys_down().is_empty()
            || !get_keys_pressed().is_empty();
        self.last_mouse = input.mouse;
        self.last_size = size;
        self.wait(now, acted || busy, take_animating())
    }

    /// The pacing rule: awake after input and while animating, else asleep, and deeper asleep
    /// after a long quiet spell.
    fn wait(&mut self, now: f64, acted: bool, animating: bool) -> Duration {
        if acted {
            self.awake_until = now + AWAKE_AFTER_INPUT;
        }
        if acted || animating {
            self.last_active = now;
        }
        if animating || now < self.awake_until {
            AWAKE_FRAME
        } else if now - self.last_active < DEEP_SLEEP_AFTER {
            ASLEEP_FRAME
        } else {
            DEEP_ASLEEP_FRAME
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_keeps_the_window_awake_for_a_while_and_motion_while_it_lasts() {
        let mut pacer = Pacer::default();
        assert_eq!(
            pacer.wait(5.0, false, false),
            ASLEEP_FRAME,
            "nothing happens since the window opened"
        );
        assert_eq!(pacer.wait(10.1, true, false), AWAKE_FRAME, "a click");
        assert_eq!(pacer.wait(10.9, false, false), AWAKE_FRAME, "just after it");
        assert_eq!(
            pacer.wait(10.1 + AWAKE_AFTER_INPUT, false, false),
            ASLEEP_FRAME
        );
        assert_eq!(pacer.wait(20.0, false, true), AWAKE_FRAME, "a piece slides");
        assert_eq!(
            pacer.wait(20.2, false, false),
            ASLEEP_FRAME,
            "and has arrived"
        );
        let quiet = 20.0 + DEEP_SLEEP_AFTER;
        assert_eq!(
            pacer.wait(quiet, false, false),
            DEEP_ASLEEP_FRAME,
            "a long quiet spell"
        );
        assert_eq!(
            pacer.wait(quiet + 1.0, true, false),
            AWAKE_FRAME,
            "woken by a click"
        );
        assert_eq!(
            pacer.wait(quiet + 3.0, false, false),
            ASLEEP_FRAME,
            "dozing again"
        );
    }

    #[test]
    fn the_animating_mark_lasts_one_frame() {
        assert!(!take_animating());
        animating();
        assert!(take_animating());
        assert!(!take_animating());
    }
}
