//! Placements of a group's tiles as table positions: a perfect hash (the tiles' cells as a
//! number in a falling base: the first tile's cell among all `n`, the second's among the `n - 1`
//! left, ...), so a table of `k` tiles on `n` cells has `n! / (n - k)!` entries, none wasted;
//! and the entries as half bytes.

/// A group's tiles' cells, [`cell_bits`] each, the group's first tile lowest: 4 bits on boards
/// of up to 16 cells (eight tiles fit), 5 on larger ones (six tiles fit).
pub(crate) type Placement = u32;

/// The bits a cell takes in a placement on a board of `cells` cells.
#[inline]
pub(crate) const fn cell_bits(cells: u32) -> u32 {
    if cells <= 16 { 4 } else { 5 }
}

/// The cell of slot `slot` of `placement`, cells of `bits` bits.
#[inline]
pub(crate) fn cell_at(placement: Placement, slot: usize, bits: u32) -> u8 {
    (placement >> (bits * slot as u32) & ((1 << bits) - 1)) as u8
}

/// The table position of `placement` of `tiles` tiles on a board of `cells` cells.
#[inline]
pub(crate) fn rank(placement: Placement, tiles: usize, cells: u32) -> usize {
    if cells > 16 {
        return rank_wide(placement, tiles, cells);
    }
    // How many earlier tiles hold a cell below each cell, half a byte a cell (at most 7): a
    // tile taking cell c adds one to every cell above c. This spares a population count per
    // tile, which the baseline x86-64 instruction set lacks.
    const ONE_EACH: u64 = 0x1111_1111_1111_1111;
    let mut below = 0u64;
    let mut rank = 0u32;
    for slot in 0..tiles {
        let cell = u32::from(cell_at(placement, slot, 4));
        let among_free = cell - (below >> (4 * cell) & 15) as u32;
        rank = rank * (cells - slot as u32) + among_free;
        below += (ONE_EACH << (4 * cell)) << 4;
    }
    rank as usize
}

/// [`rank`] on boards of more than 16 cells, where the counts of [`rank`]'s trick would not fit
/// a word: each tile's earlier tiles below it are counted one by one (a group there has at most
/// six tiles, so fifteen comparisons).
#[inline]
fn rank_wide(placement: Placement, tiles: usize, cells: u32) -> usize {
    let mut taken = [0u32; 8];
    let mut rank = 0u32;
    for slot in 0..tiles {
        let cell = u32::from(cell_at(placement, slot, 5));
        let below = taken[..slot]
            .iter()
            .filter(|&&earlier| earlier < cell)
            .count() as u32;
        rank = rank * (cells - slot as u32) + cell - below;
        taken[slot] = cell;
    }
    rank as usize
}

/// The table position of `placement`'s first `slots` tiles among the placements of those
/// alone: the high part of [`rank`], which those tiles' cells fix.
#[inline]
pub(crate) fn rank_prefix(placement: Placement, slots: usize, cells: u32) -> usize {
    rank(placement, slots, cells)
}

/// Entry `index` of a table of half bytes.
#[inline]
pub(crate) fn nibble(table: &[u8], index: usize) -> u8 {
    table[index >> 1] >> ((index & 1) * 4) & 15
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every placement of `tiles` distinct cells out of `cells`, packed.
    fn placements(tiles: usize, cells: u32) -> Vec<Placement> {
        let bits = cell_bits(cells);
        let mut all = vec![(0u32, 0u32)];
        for slot in 0..tiles {
            all = (all.into_iter())
                .flat_map(|(placement, taken)| {
                    (0..cells)
                        .filter(move |cell| taken & 1 << cell == 0)
                        .map(move |cell| {
                            (placement | cell << (bits * slot as u32), taken | 1 << cell)
                        })
                })
                .collect();
        }
        all.into_iter().map(|(placement, _)| placement).collect()
    }

    #[test]
    fn ranks_number_the_placements_one_to_one_from_zero() {
        for (tiles, cells) in [(1, 4), (3, 9), (4, 9), (3, 16), (2, 25), (4, 20)] {
            let mut ranks: Vec<usize> = placements(tiles, cells)
                .into_iter()
                .map(|placement| rank(placement, tiles, cells))
                .collect();
            ranks.sort_unstable();
            let expected: Vec<usize> = (0..ranks.len()).collect();
            assert_eq!(ranks, expected, "{tiles} tiles on {cells} cells");
        }
    }

    #[test]
    fn nibbles_are_read_low_half_first() {
        let table = [0x21, 0xF3];
        let read: Vec<u8> = (0..4).map(|index| nibble(&table, index)).collect();
        assert_eq!(read, [1, 2, 3, 15]);
    }
}
