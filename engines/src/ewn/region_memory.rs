//! What the region search ([`super::regions`]) learnt about each region position: fewer moves
//! than `at_least` cannot win from it, `at_most` can.
//!
//! A hash map that grows with the search, up to a cap past which it starts again empty: a lost
//! memory only costs a search again, and easy levels (the generator solves thousands) pay for
//! no table they do not fill.

use std::collections::HashMap;

use super::regions::Regions;

/// Positions remembered before the memory starts again (about 120 bytes each).
const CAPACITY: usize = 1 << 19;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known {
    /// Fewer moves than this do not win.
    pub at_least: u8,
    /// This many moves win.
    pub at_most: u8,
}

const NOTHING_KNOWN: Known = Known {
    at_least: 0,
    at_most: u8::MAX,
};

pub struct RegionMemory {
    known: HashMap<(Regions, u8), Known, foldhash::fast::FixedState>,
}

impl RegionMemory {
    pub fn new() -> RegionMemory {
        RegionMemory {
            known: HashMap::default(),
        }
    }

    pub fn recall(&self, regions: &Regions, turn: usize) -> Known {
        self.known
            .get(&(*regions, turn as u8))
            .copied()
            .unwrap_or(NOTHING_KNOWN)
    }

    /// Remembers that `allowed` moves from `regions` at `turn` win (`won`) or do not.
    pub fn learn(&mut self, regions: &Regions, turn: usize, allowed: u8, won: bool) {
        if self.known.len() >= CAPACITY {
            self.known.clear();
        }
        let known = self
            .known
            .entry((*regions, turn as u8))
            .or_insert(NOTHING_KNOWN);
        if won {
            known.at_most = known.at_most.min(allowed);
        } else {
            known.at_least = known.at_least.max(allowed + 1);
        }
    }
}
