//! Line facts shared by the Magnetic Cave engines: the 96 five-cell windows, the window
//! heuristic, and the cells that would complete a five.

use std::sync::OnceLock;

use parlor_shared::cave::{Position, Square};

/// Value of a window holding 0..=4 bricks of one side and none of the other.
pub const WINDOW_WEIGHT: [i32; 5] = [0, 1, 8, 64, 512];

/// All 96 five-cell windows of the board, as bitmasks.
pub fn windows() -> &'static [u64; 96] {
    static WINDOWS: OnceLock<[u64; 96]> = OnceLock::new();
    WINDOWS.get_or_init(|| {
        let mut masks = Vec::with_capacity(96);
        let cell = |c: i32, r: i32| 1u64 << (r * 8 + c);
        for r in 0..8 {
            for c in 0..8 {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (-1, 1)] {
                    let (end_c, end_r) = (c + 4 * dc, r + 4 * dr);
                    if (0..8).contains(&end_c) && (0..8).contains(&end_r) {
                        masks.push((0..5).fold(0, |m, i| m | cell(c + i * dc, r + i * dr)));
                    }
                }
            }
        }
        masks
            .try_into()
            .expect("an 8x8 board has 96 five-cell windows")
    })
}

/// The line heuristic for `mine` against `theirs`: windows only one side occupies count, the
/// fuller the more.
pub fn window_score(mine: u64, theirs: u64) -> i32 {
    windows().iter().fold(0, |score, &window| {
        let (m, t) = ((mine & window).count_ones(), (theirs & window).count_ones());
        match (m, t) {
            (0, 0) => score,
            (m, 0) => score + WINDOW_WEIGHT[m.min(4) as usize],
            (0, t) => score - WINDOW_WEIGHT[t.min(4) as usize],
            _ => score,
        }
    })
}

/// How much placing a brick of `mine` on `square` (an empty cell) raises
/// [`window_score`]`(mine, theirs)`. Only the windows through the cell change, at most 20 of
/// the 96, so move ordering asks this instead of scoring every child whole.
pub fn placement_gain(mine: u64, theirs: u64, square: Square) -> i32 {
    windows_through(square).iter().fold(0, |gain, &window| {
        let (m, t) = ((mine & window).count_ones(), (theirs & window).count_ones());
        match (m, t) {
            // Mine only (or empty): one brick fuller.
            (m, 0) => {
                gain + WINDOW_WEIGHT[(m + 1).min(4) as usize] - WINDOW_WEIGHT[m.min(4) as usize]
            }
            // Theirs only: the window stops counting for them.
            (0, t) => gain + WINDOW_WEIGHT[t.min(4) as usize],
            _ => gain,
        }
    })
}

/// The five-cell windows that hold `square`.
fn windows_through(square: Square) -> &'static [u64] {
    static THROUGH: OnceLock<Vec<Vec<u64>>> = OnceLock::new();
    let through = THROUGH.get_or_init(|| {
        (0..64)
            .map(|cell| {
                let bit = 1u64 << cell;
                windows().iter().copied().filter(|w| w & bit != 0).collect()
            })
            .collect()
    });
    &through[usize::from(square.index())]
}

/// The line heuristic from the point of view of the side to move.
pub fn evaluate(position: &Position) -> i32 {
    let me = position.to_move();
    window_score(position.bricks(me), position.bricks(me.other()))
}

/// Line directions as (bit shift, cells where a five in that direction may start): starting
/// columns are limited so that no five wraps round a row edge.
const DIRECTIONS: [(u32, u64); 4] = [
    (1, 0x0F0F_0F0F_0F0F_0F0F), // horizontal, starts in columns a..d
    (8, u64::MAX),              // vertical
    (9, 0x0F0F_0F0F_0F0F_0F0F), // up and to the right
    (7, 0xF0F0_F0F0_F0F0_F0F0), // up and to the left, starts in columns e..h
];

/// Empty cells where `mine` would complete a five (whether or not they are legal yet).
///
/// Shifted bitboards: for each direction and each place `gap` of the missing cell in a five,
/// the starts whose other four cells are mine and whose `gap` cell is empty.
pub fn five_completions(mine: u64, theirs: u64) -> u64 {
    let empty = !(mine | theirs);
    let mut cells = 0;
    for (shift, starts) in DIRECTIONS {
        let along = |k: u32| mine >> (k * shift);
        for gap in 0..5 {
            let others = (0..5)
                .filter(|&k| k != gap)
                .fold(starts, |acc, k| acc & along(k));
            cells |= (others & (empty >> (gap * shift))) << (gap * shift);
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use parlor_shared::cave::{Square, has_five, squares_of};
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #[test]
        fn completions_are_exactly_the_empty_cells_that_make_five(
            mine_cells in prop::collection::vec(0u8..64, 0..24),
            their_cells in prop::collection::vec(0u8..64, 0..24),
        ) {
            let bits = |cells: &[u8]| cells.iter().fold(0u64, |b, &c| b | 1 << c);
            let mine = bits(&mine_cells);
            let theirs = bits(&their_cells) & !mine;
            let empty = !(mine | theirs);
            let expected = squares_of(empty)
                .filter(|s: &Square| has_five(mine | s.bit()))
                .fold(0, |cells, s| cells | s.bit());
            // Only cells that complete five *without* already having five elsewhere matter to
            // the engines, but the definition holds in general when `mine` has no five yet.
            prop_assume!(!has_five(mine));
            prop_assert_eq!(five_completions(mine, theirs), expected);
        }

        #[test]
        fn a_placements_gain_is_the_change_in_the_whole_score(
            mine_cells in prop::collection::vec(0u8..64, 0..24),
            their_cells in prop::collection::vec(0u8..64, 0..24),
            cell in 0u8..64,
        ) {
            let bits = |cells: &[u8]| cells.iter().fold(0u64, |b, &c| b | 1 << c);
            let mine = bits(&mine_cells);
            let theirs = bits(&their_cells) & !mine;
            let square = Square::from_index(cell).unwrap();
            prop_assume!((mine | theirs) & square.bit() == 0);
            prop_assert_eq!(
                placement_gain(mine, theirs, square),
                window_score(mine | square.bit(), theirs) - window_score(mine, theirs)
            );
        }
    }
}
