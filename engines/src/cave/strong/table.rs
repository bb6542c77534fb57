//! The transposition table: one entry per bucket, replaced by deeper or newer searches.
//! Win and loss scores are stored relative to the node, so a mate found through another path
//! keeps its true distance.

use super::{Score, WIN_THRESHOLD};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is at least the stored one (a beta cut-off).
    Lower,
    /// The true score is at most the stored one (no move raised alpha).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    key: u64,
    pub score: Score,
    pub depth: i8,
    pub bound: Bound,
    /// The best move in the canonical frame, or `NO_MOVE`.
    pub best: u8,
    /// Which search wrote it, so old entries give way.
    generation: u8,
}

pub const NO_MOVE: u8 = u8::MAX;

pub struct Table {
    entries: Vec<Option<Entry>>,
    generation: u8,
}

/// Scores of wins are stored as distance from the node, not from the root.
fn to_stored(score: Score, ply: i32) -> Score {
    if score >= WIN_THRESHOLD {
        score + ply
    } else if score <= -WIN_THRESHOLD {
        score - ply
    } else {
        score
    }
}

fn from_stored(score: Score, ply: i32) -> Score {
    if score >= WIN_THRESHOLD {
        score - ply
    } else if score <= -WIN_THRESHOLD {
        score + ply
    } else {
        score
    }
}

impl Table {
    /// A table of `1 << bits` entries.
    pub fn new(bits: u32) -> Table {
        Table {
            entries: vec![None; 1 << bits],
            generation: 0,
        }
    }

    /// Marks the start of a new search: entries of older searches are replaced first.
    pub fn next_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.entries.len() - 1)
    }

    /// The entry for `key`, with its score made relative to the root again.
    pub fn probe(&self, key: u64, ply: i32) -> Option<Entry> {
        let entry = self.entries[self.slot(key)]?;
        (entry.key == key).then(|| Entry {
            score: from_stored(entry.score, ply),
            ..entry
        })
    }

    pub fn store(&mut self, key: u64, ply: i32, depth: i8, score: Score, bound: Bound, best: u8) {
        let slot = self.slot(key);
        let keep_old = self.entries[slot].is_some_and(|old| {
            old.generation == self.generation && old.depth > depth && old.key != key
        });
        if !keep_old {
            self.entries[slot] = Some(Entry {
                key,
                score: to_stored(score, ply),
                depth,
                bound,
                best,
                generation: self.generation,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cave::strong::WIN;

    #[test]
    fn win_distances_survive_a_store_at_one_ply_and_a_probe_at_another() {
        let mut table = Table::new(4);
        // A win three plies below the root, found at ply 1: two plies below the node.
        table.store(42, 1, 5, WIN - 3, Bound::Exact, 7);
        let seen = table.probe(42, 4).unwrap();
        assert_eq!(
            seen.score,
            WIN - 6,
            "the same node reached at ply 4 wins at ply 6"
        );
        assert_eq!((seen.best, seen.depth, seen.bound), (7, 5, Bound::Exact));
        assert!(table.probe(43, 1).is_none());
    }

    #[test]
    fn a_shallower_result_of_the_same_search_does_not_evict_a_deeper_one() {
        let mut table = Table::new(1);
        table.store(2, 0, 9, 10, Bound::Exact, 1);
        table.store(4, 0, 3, 20, Bound::Exact, 2);
        assert_eq!(table.probe(2, 0).unwrap().score, 10);
        table.next_generation();
        table.store(4, 0, 3, 20, Bound::Exact, 2);
        assert_eq!(table.probe(4, 0).unwrap().score, 20);
    }
}
