//! Two clicks for what cannot be undone (closing a room): the first click turns the button
//! into "Sure? …" for a few seconds, a bar along its foot showing the time left, and only a
//! second click within them acts. A click on another button of the same kind starts over
//! there.

use macroquad::color::Color;
use macroquad::math::Rect;
use macroquad::shapes::draw_rectangle;

use super::pacing;

/// The bar of the time left to confirm: the gold of a button that asks.
const TIME_LEFT: Color = Color::new(0.85, 0.65, 0.25, 1.0);

/// How long a first click waits for its second, in seconds.
pub const CONFIRM_SECONDS: f64 = 4.0;
/// What a button says before its words while it waits for the second click.
pub const SURE: &str = "Sure? ";

/// Which button, if any, waits for its second click, and since when.
#[derive(Debug)]
pub struct Confirmation<K> {
    armed: Option<(K, f64)>,
}

impl<K> Default for Confirmation<K> {
    fn default() -> Confirmation<K> {
        Confirmation { armed: None }
    }
}

impl<K: PartialEq + Copy> Confirmation<K> {
    /// Whether `key`'s button waits for its second click at `now` (seconds).
    pub fn is_armed(&self, key: K, now: f64) -> bool {
        self.armed
            .is_some_and(|(armed, since)| armed == key && now - since < CONFIRM_SECONDS)
    }

    /// The text `key`'s button shows at `now`: `text`, or "Sure? `text`" while armed.
    pub fn text(&self, key: K, text: &str, now: f64) -> String {
        if self.is_armed(key, now) {
            format!("{SURE}{text}")
        } else {
            text.to_string()
        }
    }

    /// What is left of the time `key`'s button waits for its second click at `now`, from 1
    /// (just asked) to 0, or `None` when it does not wait.
    pub fn time_left(&self, key: K, now: f64) -> Option<f32> {
        let (_, since) = self.armed.filter(|_| self.is_armed(key, now))?;
        Some((1.0 - (now - since) / CONFIRM_SECONDS) as f32)
    }

    /// Along the foot of `key`'s button at `rect`, while it waits: a bar that shrinks as its
    /// time runs out, so that "Sure?" going away does not come as a surprise. (Inside the
    /// button: outside, it would cross the keyboard's ring or the button below.)
    pub fn draw_time_left(&self, key: K, rect: Rect, now: f64) {
        if let Some(left) = self.time_left(key, now) {
            draw_rectangle(rect.x, rect.bottom() - 3.0, rect.w * left, 3.0, TIME_LEFT);
            pacing::animating();
        }
    }

    /// A click on `key`'s button at `now`: true when it is the second click in time (and the
    /// button starts over), else the first.
    pub fn click(&mut self, key: K, now: f64) -> bool {
        if self.is_armed(key, now) {
            self.armed = None;
            true
        } else {
            self.armed = Some((key, now));
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_left_runs_from_one_to_nothing_for_the_button_that_asks() {
        let mut restarting = Confirmation::default();
        assert_eq!(restarting.time_left(3, 0.0), None);
        restarting.click(3, 10.0);
        assert_eq!(restarting.time_left(3, 10.0), Some(1.0));
        let half = restarting
            .time_left(3, 10.0 + CONFIRM_SECONDS / 2.0)
            .unwrap();
        assert!((half - 0.5).abs() < 1e-6, "{half}");
        assert_eq!(
            restarting.time_left(4, 11.0),
            None,
            "another version's button"
        );
        assert_eq!(restarting.time_left(3, 10.0 + CONFIRM_SECONDS), None);
    }

    #[test]
    fn only_a_second_click_in_time_on_the_same_button_acts() {
        let mut closing = Confirmation::default();
        assert_eq!(closing.text(7, "Close", 0.0), "Close");
        assert!(!closing.click(7, 10.0), "a first click only asks");
        assert_eq!(closing.text(7, "Close", 11.0), "Sure? Close");
        assert_eq!(
            closing.text(8, "Close", 11.0),
            "Close",
            "other rooms are not asked"
        );
        assert!(closing.click(7, 12.0), "the second click acts");
        assert_eq!(
            closing.text(7, "Close", 12.0),
            "Close",
            "and the button starts over"
        );
        assert!(!closing.click(7, 13.0));

        // Too late: the second click is a first one again.
        assert!(!closing.click(7, 13.0 + CONFIRM_SECONDS));
        assert!(closing.click(7, 14.0 + CONFIRM_SECONDS));

        // A click elsewhere moves the question there.
        assert!(!closing.click(7, 30.0));
        assert!(!closing.click(8, 31.0));
        assert!(
            !closing.click(7, 32.0),
            "room 7 was asked again, not confirmed"
        );
        assert!(closing.click(7, 33.0));
    }
}
