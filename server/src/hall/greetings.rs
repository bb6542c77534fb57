//! Which greeting of each player is the latest on this node, for the second look a new name
//! takes in a cluster (`Hall::show_new_name_everywhere`): a player who says `Hello` again
//! within that time, their name changed once more, must not see the earlier name back, even
//! for a moment. Each greeting's look takes its entry away if it is still the latest, and a
//! later greeting's look takes the later one: only greetings of the last few seconds are held.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use parlor_shared::identity::PlayerId;

#[derive(Default)]
pub struct Greetings {
    next: AtomicU64,
    latest: Mutex<HashMap<PlayerId, u64>>,
}

impl Greetings {
    /// Notes a greeting of `player`; its number.
    pub fn greeted(&self, player: PlayerId) -> u64 {
        let greeting = self.next.fetch_add(1, Ordering::Relaxed);
        crate::lock(&self.latest).insert(player, greeting);
        greeting
    }

    /// Whether `greeting` is still `player`'s latest here; it is forgotten if it is.
    pub fn take_if_latest(&self, player: PlayerId, greeting: u64) -> bool {
        let mut latest = crate::lock(&self.latest);
        let is_latest = latest.get(&player) == Some(&greeting);
        if is_latest {
            latest.remove(&player);
        }
        is_latest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_latest_greeting_of_a_player_looks_again_and_then_nothing_is_held() {
        let greetings = Greetings::default();
        let (ada, bob) = (PlayerId(1), PlayerId(2));
        let first = greetings.greeted(ada);
        let of_bob = greetings.greeted(bob);
        let second = greetings.greeted(ada);
        assert!(
            !greetings.take_if_latest(ada, first),
            "a later greeting came"
        );
        assert!(
            greetings.take_if_latest(bob, of_bob),
            "another player's is theirs"
        );
        assert!(greetings.take_if_latest(ada, second));
        assert!(!greetings.take_if_latest(ada, second), "taken once");
        assert!(crate::lock(&greetings.latest).is_empty());
    }
}
