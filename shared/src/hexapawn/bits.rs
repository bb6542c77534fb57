//! Bitboard helpers for any board size (bit `row * cols + col` is a square), and the hash
//! table keyed by two bitboards that HER's brain and the solver use.

use std::collections::HashMap;

use super::Dims;
use super::board::Square;

/// A table keyed by [`Position::key`](super::Position::key). Self-play looks a box up on every
/// ply, and the standard SipHash took a third of its time. foldhash is about as fast as a plain
/// multiplication, and its seed is random, so the keys of an imported brain cannot be chosen
/// offline to collide. Nothing walks these tables in their own order (a brain file sorts its
/// boxes), so the seed changes no result.
pub(crate) type KeyMap<V> = HashMap<u128, V, foldhash::fast::RandomState>;

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
