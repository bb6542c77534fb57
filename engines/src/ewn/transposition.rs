//! The solver's memory of failures: "from these pieces at this turn, no win within r moves".
//!
//! One `u64` per slot and a slot per hash, overwritten on collision: a lost entry only costs a
//! search again, and a fixed size keeps memory flat however long a search runs.

use parlor_shared::ewn::{PIECES, Pieces};

/// Bits of a key: 7 per piece (square 0..99, 100 when captured) and 5 for the turn (0..30).
const KEY_BITS: u32 = 7 * PIECES as u32 + 5;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;

pub struct Transposition {
    slots: Vec<u64>,
    shift: u32,
}

/// The packed (pieces, turn) a slot is keyed by.
pub fn key(pieces: &Pieces, turn: usize) -> u64 {
    let squares = pieces.numbers().iter().fold(0u64, |acc, &square| {
        acc << 7 | u64::from(if square < 0 { 100 } else { square as u8 })
    });
    squares << 5 | turn as u64
}

impl Transposition {
    /// A table of `2^bits` slots (8 bytes each).
    pub fn new(bits: u32) -> Transposition {
        Transposition {
            slots: vec![0; 1 << bits],
            shift: 64 - bits,
        }
    }

    /// The same memories in a table of `2^bits` slots.
    pub fn resized(&self, bits: u32) -> Transposition {
        let mut bigger = Transposition::new(bits);
        for &entry in self.slots.iter().filter(|&&entry| entry != 0) {
            let slot = bigger.slot(entry & KEY_MASK);
            bigger.slots[slot] = entry;
        }
        bigger
    }

    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// The most moves known not to be enough from `key`, if remembered.
    pub fn failed_within(&self, key: u64) -> Option<u8> {
        let entry = self.slots[self.slot(key)];
        (entry != 0 && entry & KEY_MASK == key).then(|| (entry >> KEY_BITS) as u8 - 1)
    }

    /// Remembers that `moves` moves from `key` do not win.
    pub fn remember_failure(&mut self, key: u64, moves: u8) {
        let slot = self.slot(key);
        self.slots[slot] = key | (u64::from(moves) + 1) << KEY_BITS;
    }
}
