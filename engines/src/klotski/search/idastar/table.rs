//! IDA*'s transposition table, shared by the threads of a round: per position, the smallest g
//! at which this round reached it. Each bucket has a lock of its own, so two threads meet only
//! when they reach the same bucket at once; uncontended, the lock costs less than the cache miss
//! of reading the bucket at all.

use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::klotski::key::{Packed, hash_of};

/// Slots of the table at most (16 bytes each for one-word positions) on boards with one
/// blank. Small on purpose: on random 15-puzzles a table of 2^22 slots saved 1% of the
/// positions and cost 50% more time in cache misses than this one.
const SLOTS_MAX: usize = 1 << 19;
/// The same on boards with several blanks, whose independent moves commute into many
/// transpositions: on the 5x6 sample (three blanks) 2^23 slots reached a bound in 90 s that
/// 2^19 needed 30 minutes and forty times the positions for.
const SLOTS_MAX_BLANKS: usize = 1 << 23;

#[derive(Clone, Copy)]
struct Slot<const W: usize> {
    key: Packed<W>,
    g: u16,
    round: u16,
}

/// Buckets of two: the first keeps the shallowest position that fell in the bucket this round,
/// the second the latest other one.
pub(super) struct Table<const W: usize> {
    buckets: Vec<Mutex<[Slot<W>; 2]>>,
    mask: u64,
}

impl<const W: usize> Table<W> {
    pub fn new(max_positions: usize, blanks: usize) -> Table<W> {
        let most = if blanks > 1 {
            SLOTS_MAX_BLANKS
        } else {
            SLOTS_MAX
        };
        let len = max_positions.clamp(1 << 10, most).next_power_of_two() / 2;
        let empty = Slot {
            key: Packed([0; W]),
            g: 0,
            round: 0,
        };
        Table {
            buckets: (0..len).map(|_| Mutex::new([empty; 2])).collect(),
            mask: len as u64 - 1,
        }
    }

    pub fn len(&self) -> usize {
        self.buckets.len() * 2
    }

    /// A bucket; a thread that panicked holding it left it whole (slots are written whole).
    fn bucket(&self, key: &Packed<W>) -> MutexGuard<'_, [Slot<W>; 2]> {
        self.buckets[(hash_of(key) & self.mask) as usize]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// The round after `round` (1 and up; slots start at round 0, never current). Wrapping
    /// around clears the table, so an old slot is never mistaken for a current one. Called
    /// between rounds, when no thread is searching.
    pub fn next_round(&self, round: u16) -> u16 {
        if round == u16::MAX {
            for bucket in &self.buckets {
                let mut bucket = bucket.lock().unwrap_or_else(PoisonError::into_inner);
                bucket.iter_mut().for_each(|slot| slot.round = 0);
            }
            return 1;
        }
        round + 1
    }

    /// Whether `key` was reached this round at `g` or earlier; if not, remembers it at `g`.
    /// With several threads the earlier visit may still be under way: it searches all that
    /// this one would, so pruning this one loses nothing once the round is over.
    #[inline]
    pub fn seen(&self, key: &Packed<W>, g: u32, round: u16) -> bool {
        let mut bucket = self.bucket(key);
        let holds = |slot: &Slot<W>| slot.round == round && slot.key == *key;
        if holds(&bucket[0]) {
            if u32::from(bucket[0].g) <= g {
                return true;
            }
            bucket[0].g = g as u16;
            return false;
        }
        if holds(&bucket[1]) && u32::from(bucket[1].g) <= g {
            return true;
        }
        // New to the bucket, or reached earlier than the second slot says: either way the
        // second slot is overwritten below.
        let fresh = Slot {
            key: *key,
            g: g as u16,
            round,
        };
        if bucket[0].round != round || g <= u32::from(bucket[0].g) {
            bucket[1] = bucket[0];
            bucket[0] = fresh;
        } else {
            bucket[1] = fresh;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position reached near the start outlives any number of deeper ones in its bucket, and
    /// a position is pruned only when reached again no earlier than it was, in the same round.
    #[test]
    fn the_table_keeps_the_shallowest_position_of_a_round() {
        let table = Table::<1>::new(1 << 10, 3);
        let round = table.next_round(0);
        let near = Packed([7]);
        assert!(!table.seen(&near, 2, round));
        assert!(table.seen(&near, 2, round));
        assert!(table.seen(&near, 3, round));
        assert!(
            !table.seen(&near, 1, round),
            "reached earlier: searched again"
        );
        assert!(table.seen(&near, 1, round));
        for key in 100..100_000 {
            assert!(!table.seen(&Packed([key]), 5, round));
        }
        assert!(table.seen(&near, 1, round), "evicted by deeper positions");
        let next = table.next_round(round);
        assert!(!table.seen(&near, 3, next), "a new round remembers nothing");
    }

    /// Wrapping around the round counter forgets every slot, so a slot of round 1 from long ago
    /// is not taken for the new round 1.
    #[test]
    fn wrapping_the_rounds_around_clears_the_table() {
        let table = Table::<1>::new(1 << 10, 3);
        let key = Packed([42]);
        assert!(!table.seen(&key, 4, 1));
        let round = table.next_round(u16::MAX);
        assert_eq!(round, 1);
        assert!(!table.seen(&key, 4, round));
    }
}
