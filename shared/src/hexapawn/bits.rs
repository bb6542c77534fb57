//! Bitboard helpers for any board size (bit `row * cols + col` is a square), and the hash
//! table keyed by two bitboards that HER's brain and the solver use.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::Dims;
use super::board::Square;

/// A table keyed by [`Position::key`](super::Position::key). Self-play looks a box up on every ply, and the
/// standard SipHash took a third of its time; keys are not chosen by an attacker here.
pub(crate) type KeyMap<V> = HashMap<u128, V, BuildHasherDefault<KeyHasher>>;

/// Hashes a `u128` key with one folded 64 x 64 -> 128-bit multiplication, which mixes every
/// input bit into the high and low bits the hash table uses.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write_u128(&mut self, key: u128) {
        let product = u128::from(key as u64 ^ 0x243F_6A88_85A3_08D3)
            * u128::from((key >> 64) as u64 ^ 0x1319_8A2E_0370_7344);
        self.0 = self.0.rotate_left(26) ^ product as u64 ^ (product >> 64) as u64;
    }

    /// Tables hash only `u128` keys; other input is taken 16 bytes at a time all the same.
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(16) {
            let mut word = [0u8; 16];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u128(u128::from_le_bytes(word));
        }
    }
}

/// Every square of the board.
pub(crate) const fn board_mask(dims: Dims) -> u64 {
    if dims.squares() == 64 {
        u64::MAX
    } else {
        (1 << dims.squares()) - 1
    }
}

/// The squares of one row.
pub(crate) const fn row_mask(dims: Dims, row: u8) -> u64 {
    ((1 << dims.cols()) - 1) << (row as u32 * dims.cols() as u32)
}

/// The squares of one column.
pub(crate) const fn col_mask(dims: Dims, col: u8) -> u64 {
    let mut mask = 0;
    let mut row = 0;
    while row < dims.rows() {
        mask |= Square::new(col, row).bit(dims);
        row += 1;
    }
    mask
}

/// The bitboard turned upside down: row r goes to row rows - 1 - r.
pub(crate) fn flip_rows(bits: u64, dims: Dims) -> u64 {
    let cols = dims.cols() as u32;
    let row_bits = (1u64 << cols) - 1;
    (0..dims.rows() as u32).fold(0, |flipped, row| {
        let line = (bits >> (row * cols)) & row_bits;
        flipped | line << ((dims.rows() as u32 - 1 - row) * cols)
    })
}

/// The bitboard's left-right mirror image: column c goes to column cols - 1 - c.
pub(crate) fn mirror_cols(bits: u64, dims: Dims) -> u64 {
    let cols = dims.cols() as u32;
    let row_bits = (1u64 << cols) - 1;
    (0..dims.rows() as u32).fold(0, |mirrored, row| {
        let line = (bits >> (row * cols)) & row_bits;
        mirrored | (line.reverse_bits() >> (64 - cols)) << (row * cols)
    })
}
