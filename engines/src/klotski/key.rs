//! Compact positions for the searches' tables: every piece's top-left cell packed into
//! `W` 64-bit words (4 bits a piece on boards of up to 16 cells, 6 bits on 64 cells), so a
//! 15-puzzle position is one `u64` and the seed's 5x6 sample two.

use std::hash::{BuildHasherDefault, Hash, Hasher};

/// A packed position: `W` words of top-left cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Packed<const W: usize>(pub [u64; W]);

impl<const W: usize> Hash for Packed<W> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for word in self.0 {
            state.write_u64(word);
        }
    }
}

/// Where each piece's cell sits in a packed position.
#[derive(Clone, Copy, Debug)]
pub struct KeyLayout {
    bits: u32,
    per_word: usize,
    pieces: usize,
}

impl KeyLayout {
    pub fn new(cells: usize, pieces: usize) -> KeyLayout {
        let bits = usize::BITS - (cells.max(2) - 1).leading_zeros();
        KeyLayout {
            bits,
            per_word: 64 / bits as usize,
            pieces,
        }
    }

    /// Words needed for all pieces.
    pub fn words(&self) -> usize {
        self.pieces.div_ceil(self.per_word).max(1)
    }

    #[inline]
    fn slot(&self, piece: usize) -> (usize, u32) {
        (
            piece / self.per_word,
            (piece % self.per_word) as u32 * self.bits,
        )
    }

    pub fn pack<const W: usize>(&self, tops: &[u8]) -> Packed<W> {
        let mut words = [0u64; W];
        for (piece, &top) in tops.iter().enumerate() {
            let (word, shift) = self.slot(piece);
            words[word] |= u64::from(top) << shift;
        }
        Packed(words)
    }

    pub fn unpack<const W: usize>(&self, key: &Packed<W>, tops: &mut [u8]) {
        let mask = (1u64 << self.bits) - 1;
        for (piece, top) in tops.iter_mut().enumerate().take(self.pieces) {
            let (word, shift) = self.slot(piece);
            *top = ((key.0[word] >> shift) & mask) as u8;
        }
    }

    /// `key` with `piece` moved from cell `from` to cell `to`.
    #[inline]
    pub fn moved<const W: usize>(
        &self,
        key: &Packed<W>,
        piece: usize,
        from: u8,
        to: u8,
    ) -> Packed<W> {
        let (word, shift) = self.slot(piece);
        let mut next = *key;
        next.0[word] ^= u64::from(from ^ to) << shift;
        next
    }
}

/// A fast hasher for packed positions (the standard SipHash costs more than a whole expansion).
/// Words are mixed by multiplication and the result finished with a murmur-style avalanche, so
/// the table's low and high bits both depend on every piece.
#[derive(Default, Clone, Copy)]
pub struct PositionHasher(u64);

impl Hasher for PositionHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(23) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    #[inline]
    fn finish(&self) -> u64 {
        let mut hash = self.0;
        hash ^= hash >> 33;
        hash = hash.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        hash ^ hash >> 33
    }
}

pub type BuildPositionHasher = BuildHasherDefault<PositionHasher>;
pub type PositionMap<K, V> = std::collections::HashMap<K, V, BuildPositionHasher>;

/// The hash of a packed position, for fixed-size tables.
#[inline]
pub fn hash_of<const W: usize>(key: &Packed<W>) -> u64 {
    let mut hasher = PositionHasher::default();
    key.hash(&mut hasher);
    hasher.finish()
}
