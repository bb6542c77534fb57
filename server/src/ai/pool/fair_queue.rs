//! A queue that takes turns between owners, in groups: each owner's items wait in a FIFO of
//! their own, the owners of a group take turns within it, and `pop` serves the groups round
//! robin. The AI pool's threads wait on it, a queue per lane; groups are addresses and owners
//! players (identities cost nothing, so one address's many players share the turns of one).
//! So a group with many items queued delays another group's next item by at most one of
//! theirs for each thread taking items, however many they queue and under however many names.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// Keys taking turns, each with what it has waiting (never empty while listed). A list, not a
/// map: the keys with work waiting are few (AI rooms are capped), and a list keeps turns and
/// queues from disagreeing.
struct Turns<K, V>(VecDeque<(K, V)>);

impl<K: PartialEq, V: Default> Turns<K, V> {
    /// What `key` has waiting; a key with nothing waiting takes the last turn.
    fn of(&mut self, key: K) -> &mut V {
        let index = match self.0.iter().position(|(waiting, _)| *waiting == key) {
            Some(index) => index,
            None => {
                self.0.push_back((key, V::default()));
                self.0.len() - 1
            }
        };
        &mut self.0[index].1
    }

    /// Takes from the key whose turn it is with `take`; the key goes to the back of the turns
    /// if it has more (`is_empty` says when it has not).
    fn next<T>(
        &mut self,
        take: impl FnOnce(&mut V) -> Option<T>,
        is_empty: impl Fn(&V) -> bool,
    ) -> Option<T> {
        let (key, mut waiting) = self.0.pop_front()?;
        let item = take(&mut waiting);
        if !is_empty(&waiting) {
            self.0.push_back((key, waiting));
        }
        item
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<K, V> Default for Turns<K, V> {
    fn default() -> Self {
        Turns(VecDeque::new())
    }
}

/// A group's owners and their items.
type Owners<K, T> = Turns<K, VecDeque<T>>;

pub struct FairQueue<G, K, T> {
    turns: Mutex<Turns<G, Owners<K, T>>>,
    pushed: Condvar,
}

impl<G: PartialEq, K: PartialEq, T> FairQueue<G, K, T> {
    pub fn new() -> FairQueue<G, K, T> {
        FairQueue {
            turns: Mutex::new(Turns::default()),
            pushed: Condvar::new(),
        }
    }

    /// Queues `item` after the earlier ones of `owner` in `group`.
    pub fn push(&self, group: G, owner: K, item: T) {
        self.lock().of(group).of(owner).push_back(item);
        self.pushed.notify_one();
    }

    /// The first item of the owner whose turn it is in the group whose turn it is, waiting
    /// for one while the queue is empty.
    pub fn pop(&self) -> T {
        let mut turns = self.lock();
        loop {
            let taken = turns.next(
                |owners| owners.next(VecDeque::pop_front, VecDeque::is_empty),
                Turns::is_empty,
            );
            if let Some(item) = taken {
                return item;
            }
            turns = self
                .pushed
                .wait(turns)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// The turns, also after a panic while they were held: each change to them is a step on
    /// a `VecDeque`, which a panic cannot leave half done.
    fn lock(&self) -> MutexGuard<'_, Turns<G, Owners<K, T>>> {
        crate::lock(&self.turns)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::*;

    /// Everything queued, popped in the order the queue gives.
    fn drain<G: PartialEq, K: PartialEq, T>(queue: &FairQueue<G, K, T>, count: usize) -> Vec<T> {
        (0..count).map(|_| queue.pop()).collect()
    }

    #[test]
    fn a_single_item_is_taken_within_the_next_round_of_a_busy_owner() {
        let queue = FairQueue::new();
        for job in 0..16 {
            queue.push((), "busy", format!("busy {job}"));
        }
        queue.push((), "other", "other 0".to_string());
        let order = drain(&queue, 17);
        assert_eq!(order[..2], ["busy 0", "other 0"]);
        let busy: Vec<String> = (1..16).map(|job| format!("busy {job}")).collect();
        assert_eq!(
            order[2..],
            busy,
            "the busy owner's jobs in the order queued"
        );
    }

    #[test]
    fn owners_take_turns_each_in_the_order_they_queued() {
        let queue = FairQueue::new();
        for (owner, item) in [
            (1, "a1"),
            (1, "a2"),
            (2, "b1"),
            (1, "a3"),
            (3, "c1"),
            (2, "b2"),
        ] {
            queue.push((), owner, item);
        }
        assert_eq!(drain(&queue, 6), ["a1", "b1", "c1", "a2", "b2", "a3"]);
    }

    #[test]
    fn an_owner_whose_queue_ran_dry_comes_back_after_those_waiting() {
        let queue = FairQueue::new();
        queue.push((), 1, "a1");
        queue.push((), 2, "b1");
        queue.push((), 2, "b2");
        assert_eq!(queue.pop(), "a1");
        // Owner 1 left the turns with its last item: it comes back behind owner 2, who has
        // waited meanwhile, not at the head it had.
        queue.push((), 1, "a2");
        queue.push((), 2, "b3");
        assert_eq!(drain(&queue, 4), ["b1", "a2", "b2", "b3"]);
    }

    #[test]
    fn pop_waits_for_an_item_pushed_later() {
        let queue = Arc::new(FairQueue::new());
        let taker = {
            let queue = Arc::clone(&queue);
            std::thread::spawn(move || queue.pop())
        };
        std::thread::sleep(Duration::from_millis(50));
        assert!(!taker.is_finished(), "popped from an empty queue");
        queue.push((), (), 7);
        assert_eq!(taker.join().unwrap(), 7);
    }

    #[test]
    fn a_group_of_many_owners_takes_one_turn_among_the_groups() {
        let queue = FairQueue::new();
        // Four players at one address with four jobs each, then one player elsewhere.
        for player in 0..4 {
            for job in 0..4 {
                queue.push("flood", player, format!("flood {player}.{job}"));
            }
        }
        queue.push("elsewhere", 9, "mine".to_string());
        let order = drain(&queue, 17);
        assert_eq!(order[..2], ["flood 0.0", "mine"]);
        // Within the address its players still take turns.
        assert_eq!(
            order[2..6],
            ["flood 1.0", "flood 2.0", "flood 3.0", "flood 0.1"]
        );
    }
}
