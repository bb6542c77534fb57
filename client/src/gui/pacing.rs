//! When the window draws. macroquad draws frame after frame as fast as it can: an idle lobby
//! took more than a whole core under software OpenGL. So the loop sleeps before each frame
//! (`wake.rs`), woken at once by the person's input or by the network, and otherwise by the
//! pacer's timer:
//! - **awake** (the person did something in the last [`AWAKE_AFTER_INPUT`], or something on
//!   screen moves): a frame every [`AWAKE_FRAME`] at most, smooth;
//! - **quiet** otherwise, where input wakes the window (X11): a frame every [`QUIET_FRAME`],
//!   often enough for what changes with time alone (a notice that expires, a confirmation that
//!   lapses, the lobby's refresh);
//! - where input cannot wake it (no X connection found), the window must look at its input
//!   itself: **asleep**, a frame every [`ASLEEP_FRAME`], so a click after a quiet spell is
//!   answered within a tenth of a second; **deep asleep** once nothing has happened for
//!   [`DEEP_SLEEP_AFTER`], every [`DEEP_ASLEEP_FRAME`].
//!
//! Each frame redraws the whole window, a few milliseconds under software OpenGL, so an idle
//! window costs in proportion to its frames. A network event ends any sleep at once.
//!
//! A frame that draws motion (a piece sliding) says so with [`animating`], wherever it is drawn;
//! its next frame then comes awake.

use std::cell::Cell;
use std::time::{Duration, Instant};

use macroquad::input::{MouseButton, get_keys_down, get_keys_pressed, is_mouse_button_down};
use macroquad::math::Vec2;
use macroquad::time::get_time;
use macroquad::window::{screen_height, screen_width};

use super::wake::{Sleeper, Woken};
use super::widgets::Input;
use crate::net::EventReceiver;

/// The shortest time between awake frames: 60 frames a second.
pub const AWAKE_FRAME: Duration = Duration::from_micros(16_667);
/// The longest wait between quiet frames when input wakes the window.
pub const QUIET_FRAME: Duration = Duration::from_secs(1);
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
    /// The longest wait between quiet frames when input ends a sleep by itself (`wake.rs`
    /// found the X connection); `None` when it does not.
    quiet_frame: Option<Duration>,
}

impl Pacer {
    /// The pacer of a window whose input ends its sleeps, drawing every `quiet_frame` when
    /// quiet, or (`None`) of one whose input does not.
    pub fn new(quiet_frame: Option<Duration>) -> Pacer {
        Pacer {
            quiet_frame,
            ..Pacer::default()
        }
    }

    /// After a frame drawn at `now` (seconds) with `input`: how long the loop may sleep before the
    /// next frame. `busy` keeps the window awake whatever it saw: a scripted run, which must
    /// not wait, or a sleep ended by input, which miniquad hands to the frame after this one.
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

    /// The pacing rule: awake after input and while animating, else quiet where input wakes
    /// the window, else asleep, and deeper asleep after a long quiet spell.
    fn wait(&mut self, now: f64, acted: bool, animating: bool) -> Duration {
        if acted {
            self.awake_until = now + AWAKE_AFTER_INPUT;
        }
        if acted || animating {
            self.last_active = now;
        }
        if animating || now < self.awake_until {
            AWAKE_FRAME
        } else if let Some(quiet_frame) = self.quiet_frame {
            quiet_frame
        } else if now - self.last_active < DEEP_SLEEP_AFTER {
            ASLEEP_FRAME
        } else {
            DEEP_ASLEEP_FRAME
        }
    }
}

/// The window loop's clock: sleeps before each frame for as long as the pacer said after the
/// last one, so that what a frame draws is shown at once, not after the sleep.
pub struct FrameClock {
    sleeper: Sleeper,
    pacer: Pacer,
    /// How long after `last_start` the next frame may come.
    wait: Duration,
    last_start: Instant,
    woken_by_input: bool,
}

impl FrameClock {
    /// The clock of the window it is made in (see [`Sleeper::find`]), drawing every
    /// `quiet_frame` when quiet if input wakes the window.
    pub fn new(quiet_frame: Duration) -> FrameClock {
        let sleeper = Sleeper::find();
        FrameClock {
            pacer: Pacer::new(sleeper.input_wakes().then_some(quiet_frame)),
            sleeper,
            wait: Duration::ZERO,
            last_start: Instant::now(),
            woken_by_input: false,
        }
    }

    /// Sleeps until the next frame is due, or input or a `network` event comes first.
    pub fn before_frame(&mut self, network: Option<&EventReceiver>) {
        let timeout = self.wait.saturating_sub(self.last_start.elapsed());
        self.woken_by_input = self.sleeper.sleep(network, timeout) == Woken::Input;
        self.last_start = Instant::now();
    }

    /// After a frame drawn with `input`; `busy` as in [`Pacer::after_frame`].
    pub fn after_frame(&mut self, input: &Input, busy: bool) {
        let busy = busy || self.woken_by_input;
        self.wait = self.pacer.after_frame(get_time(), input, busy);
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
    fn where_input_wakes_the_window_a_quiet_one_draws_once_a_second() {
        let mut pacer = Pacer::new(Some(QUIET_FRAME));
        assert_eq!(pacer.wait(5.0, false, false), QUIET_FRAME);
        assert_eq!(pacer.wait(5.1, true, false), AWAKE_FRAME, "a click");
        assert_eq!(pacer.wait(5.2, false, true), AWAKE_FRAME, "a piece slides");
        let later = 5.1 + AWAKE_AFTER_INPUT + DEEP_SLEEP_AFTER;
        assert_eq!(
            pacer.wait(later, false, false),
            QUIET_FRAME,
            "no deeper sleep"
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
