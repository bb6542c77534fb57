//! Two clicks for what cannot be undone (closing a room): the first click turns the button
//! into "Sure? …" for a few seconds, and only a second click within them acts. A click on
//! another button of the same kind starts over there.

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
