//! The static evaluation: the window heuristic, latent fours, and who wins the zugzwang at the
//! end of the game.
//!
//! Every row fills from the walls inward, so a row's empty cells are one interval and a cell
//! becomes playable only once a neighbour in its row is filled. A latent four (a cell that
//! would complete a five but is not yet playable) can therefore never be blocked directly: the
//! opponent may not play either neighbour of it (the owner would complete the five), and so
//! every cell of its row from one neighbour to the other, with any latent four of the same
//! side between, is locked to the opponent. The owner may release a latent four at any time
//! by playing a neighbour, which forces the block and leaves the far neighbour free again: a
//! release changes the parity of the free cells once. When the free cells run out, the side
//! to move must release one of its own fours or enter the other side's locked cells and lose;
//! the one who runs out of releases first loses, like Connect Four's odd and even threats.

use parlor_shared::cave::{COL_A, COL_H};

use super::Score;
use crate::ai::cave_lines::{five_completions, window_score};

/// Worth of a cell that would complete a five but is not yet a legal placement.
pub const LATENT_FOUR: Score = 40;
/// Worth of winning the end-of-game zugzwang as the latent fours stand now.
pub const ZUGZWANG: Score = 1000;

/// Cells next to the given cells in their rows.
fn beside(cells: u64) -> u64 {
    ((cells << 1) & !COL_A) | ((cells >> 1) & !COL_H)
}

/// The empty cells the opponent of the owner of `threats` may not enter: in each row, the span
/// from the leftmost to the rightmost neighbour of a latent four.
pub fn locked_cells(threats: u64, empty: u64) -> u64 {
    let hull = (threats | beside(threats)) & empty;
    let mut locked = 0;
    for row in 0..8 {
        let cells = (hull >> (8 * row)) & 0xFF;
        if cells != 0 {
            let (low, high) = (cells.trailing_zeros(), 63 - cells.leading_zeros());
            let span = ((1u64 << (high + 1)) - 1) & !((1u64 << low) - 1);
            locked |= span << (8 * row);
        }
    }
    locked & empty
}

/// Who wins the zugzwang, from the side to move: +1, -1 or 0 (a tie, or nobody threatens).
///
/// `free` cells outside every locked span are played one each in turn; the side on move when
/// they run out (the side to move now when `free` is even) must spend a release, then the other
/// side, and so on. The mover at that point wins with two releases more than the other side,
/// loses with fewer, and ties otherwise (the last release leaves nothing locked).
pub fn zugzwang(free: u32, my_fours: u32, their_fours: u32) -> Score {
    if my_fours == 0 && their_fours == 0 {
        return 0;
    }
    let (mover, other, sign) = if free.is_multiple_of(2) {
        (my_fours, their_fours, 1)
    } else {
        (their_fours, my_fours, -1)
    };
    if mover >= other + 2 {
        sign
    } else if other > mover {
        -sign
    } else {
        0
    }
}

/// The static value for the side to move.
pub fn evaluate(mine: u64, theirs: u64, legal: u64) -> Score {
    let empty = !(mine | theirs);
    let my_fours = five_completions(mine, theirs) & !legal;
    let their_fours = five_completions(theirs, mine) & !legal;
    let locked = locked_cells(my_fours, empty) | locked_cells(their_fours, empty);
    let free = (empty & !locked).count_ones();
    let (m, t) = (my_fours.count_ones(), their_fours.count_ones());
    window_score(mine, theirs)
        + LATENT_FOUR * (m as Score - t as Score)
        + ZUGZWANG * zugzwang(free, m, t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::cave_prover::test_position;

    #[test]
    fn a_latent_four_locks_its_neighbours_and_the_span_between() {
        let bit = |s: &str| s.parse::<parlor_shared::cave::Square>().unwrap().bit();
        let empty = !0u64;
        assert_eq!(
            locked_cells(bit("d3"), empty),
            bit("c3") | bit("d3") | bit("e3")
        );
        assert_eq!(
            locked_cells(bit("c3") | bit("g3"), empty),
            ["b3", "c3", "d3", "e3", "f3", "g3", "h3"]
                .iter()
                .fold(0, |b, s| b | bit(s))
        );
    }

    #[test]
    fn one_four_wins_the_zugzwang_only_when_the_other_side_must_move_last() {
        // Three cells locked, the rest free: with an even count of free cells, the side to
        // move is on move when they run out.
        assert_eq!(zugzwang(4, 0, 1), -1, "I must enter the other side's cells");
        assert_eq!(zugzwang(4, 1, 0), 0, "my release leaves nothing locked");
        assert_eq!(zugzwang(3, 1, 0), 1, "the other side must enter mine");
        assert_eq!(zugzwang(3, 0, 1), 0);
        assert_eq!(
            zugzwang(4, 2, 0),
            1,
            "one release turns the parity, one four stays"
        );
        assert_eq!(
            zugzwang(4, 1, 1),
            0,
            "one release each, then nothing is locked"
        );
        assert_eq!(zugzwang(4, 1, 2), -1);
        assert_eq!(zugzwang(4, 0, 0), 0);
    }

    #[test]
    fn white_sees_the_zugzwang_of_blacks_latent_four() {
        // Black's b1..b4 wants b5, which is not placeable while a5 and c5 are empty: whoever
        // fills a5 or c5 opens it. With one latent four, Black wins the end-of-game parity.
        let position = test_position("a3 a1 b1 a2 b2 a4 b3 h8 b4");
        let me = position.to_move();
        let (mine, theirs) = (position.bricks(me), position.bricks(me.other()));
        let legal = position.anchored_empty_cells();
        let fours = five_completions(theirs, mine) & !legal;
        assert_eq!(
            fours,
            "b5".parse::<parlor_shared::cave::Square>().unwrap().bit()
        );
        let free = (!(mine | theirs) & !locked_cells(fours, !(mine | theirs))).count_ones();
        assert_eq!(zugzwang(free, 0, 1), -1);
        assert!(evaluate(mine, theirs, legal) < -ZUGZWANG / 2);
    }
}
