//! A queue that takes turns between owners: each owner's items wait in a FIFO of their own, and
//! `pop` serves the owners round robin. So an owner with many items queued delays another
//! owner's next item by at most one of theirs for each thread taking items, however many they
//! queue. The AI pool's threads wait on it, a queue per lane, owners being players.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

pub struct FairQueue<K, T> {
    /// Owners with items waiting, in the order their turns come, each once with its own FIFO
    /// (never empty). A list, not a map: the owners with work waiting are few (AI rooms are
    /// capped server-wide), and a list keeps turns and queues from disagreeing.
    turns: Mutex<VecDeque<(K, VecDeque<T>)>>,
    pushed: Condvar,
}

impl<K: PartialEq, T> FairQueue<K, T> {
    pub fn new() -> FairQueue<K, T> {
        FairQueue {
            turns: Mutex::new(VecDeque::new()),
            pushed: Condvar::new(),
        }
    }

    /// Queues `item` after `owner`'s earlier ones. An owner with nothing waiting takes the
    /// last turn, after every owner already waiting.
    pub fn push(&self, owner: K, item: T) {
        let mut turns = self.lock();
        match turns.iter_mut().find(|(waiting, _)| *waiting == owner) {
            Some((_, items)) => items.push_back(item),
            None => turns.push_back((owner, VecDeque::from([item]))),
        }
        drop(turns);
        self.pushed.notify_one();
    }

    /// The first item of the owner whose turn it is (who then goes to the back of the turns
    /// if they have more), waiting for one while the queue is empty.
    pub fn pop(&self) -> T {
        let mut turns = self.lock();
        loop {
            if let Some((owner, mut items)) = turns.pop_front()
                && let Some(item) = items.pop_front()
            {
                if !items.is_empty() {
                    turns.push_back((owner, items));
                }
                return item;
            }
            turns = self
                .pushed
                .wait(turns)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// The turns, also after a panic while they were held: each change to them is one step
    /// on a `VecDeque`, which a panic cannot leave half done.
    fn lock(&self) -> MutexGuard<'_, VecDeque<(K, VecDeque<T>)>> {
        crate::lock(&self.turns)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::*;

    /// Everything queued, popped in the order the queue gives.
    fn drain<K: PartialEq, T>(queue: &FairQueue<K, T>, count: usize) -> Vec<T> {
        (0..count).map(|_| queue.pop()).collect()
    }

    #[test]
    fn a_single_item_is_taken_within_the_next_round_of_a_busy_owner() {
        let queue = FairQueue::new();
        for job in 0..16 {
            queue.push("busy", format!("busy {job}"));
        }
        queue.push("other", "other 0".to_string());
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
            queue.push(owner, item);
        }
        assert_eq!(drain(&queue, 6), ["a1", "b1", "c1", "a2", "b2", "a3"]);
    }

    #[test]
    fn an_owner_whose_queue_ran_dry_comes_back_after_those_waiting() {
        let queue = FairQueue::new();
        queue.push(1, "a1");
        queue.push(2, "b1");
        queue.push(2, "b2");
        assert_eq!(queue.pop(), "a1");
        // Owner 1 left the turns with its last item: it comes back behind owner 2, who has
        // waited meanwhile, not at the head it had.
        queue.push(1, "a2");
        queue.push(2, "b3");
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
        queue.push((), 7);
        assert_eq!(taker.join().unwrap(), 7);
    }
}
