//! What the region search ([`super::regions`]) learnt about each region position: fewer moves
//! than `at_least` cannot win from it, `at_most` can.
//!
//! A hash map that grows with the search, up to a cap past which it starts again empty: a lost
//! memory only costs a search again, and easy levels (the generator solves thousands) pay for
//! no table they do not fill.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use super::regions::Regions;

/// Positions remembered before the memory starts again: about 120 bytes each, some 40 MB in
/// all with the map's spare room, past the 150,000 the hardest of 500,000 random boards needs.
const CAPACITY: usize = 1 << 18;

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

/// A region position as the memory's key.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    regions: Regions,
    turn: u8,
}

/// The key folded to one word by multiplying: hashing the 97 bytes whole cost a fifth of the
/// solver's time.
impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let folded = self
            .regions
            .iter()
            .fold(u64::from(self.turn), |acc, &region| {
                let high = ((region >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                let halves = region as u64 ^ high;
                (acc ^ halves)
                    .wrapping_mul(0xBF58_476D_1CE4_E5B9)
                    .rotate_left(29)
            });
        state.write_u64(folded);
    }
}

pub struct RegionMemory {
    known: HashMap<Key, Known, foldhash::fast::FixedState>,
}

impl RegionMemory {
    pub fn new() -> RegionMemory {
        RegionMemory {
            known: HashMap::default(),
        }
    }

    pub fn recall(&self, regions: &Regions, turn: usize) -> Known {
        self.known
            .get(&Key {
                regions: *regions,
                turn: turn as u8,
            })
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
            .entry(Key {
                regions: *regions,
                turn: turn as u8,
            })
            .or_insert(NOTHING_KNOWN);
        if won {
            known.at_most = known.at_most.min(allowed);
        } else {
            known.at_least = known.at_least.max(allowed + 1);
        }
    }
}
