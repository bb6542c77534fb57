//! The release game: who wins the zugzwang at the end of the game, played out exactly over the
//! latent fours (see `eval`'s module comment for why the fours decide it).
//!
//! The model. Every row fills from the walls inward, so its empty cells are one interval and
//! only its two ends can be played. In a row with latent fours, only the first and the last
//! four can be reached: the cells in front of a four's neighbour (its front) may be played by
//! either side, and then a side may play the neighbour of its own four (a release), which
//! forces the block and frees the cells up to the next four's neighbour as that end's new
//! front (or, after the row's last four, its far neighbour and the other end's front, which
//! nothing locks any more). A four right beside the blocked one is then playable at once, for
//! the side on move: its own (or a shared one) wins; the other side's it must block, which
//! passes the move and goes on along the row. A four of both sides is released by nobody, as
//! its neighbour loses to either. The cells of rows without fours are a pool either side may
//! play, of which only the parity matters (a side can answer a tempo with a tempo). A side on
//! move with no cell and no release left must enter the other side's cells and loses; with no
//! four left, the board fills and the game is tied.
//!
//! So rows with both sides' fours count, which a count of releases could not do: with a four
//! of each side two columns apart, the side that must release first frees the cell between
//! them, beside the other side's four, and loses.
//!
//! It leaves out that new bricks make new fours: this is an evaluation, and the search sees
//! the rest.

use std::cell::RefCell;
use std::collections::HashMap;

use super::Score;
use super::zobrist::splitmix;

/// Who wins the release game, for the side to move: +1, -1 or 0 (a tie), given its latent
/// fours `mine`, the other side's `theirs` (a cell may be in both) and the `empty` cells.
pub fn zugzwang(mine: u64, theirs: u64, empty: u64) -> Score {
    let fours = mine | theirs;
    if fours == 0 {
        return 0;
    }
    let mut fronts = 0;
    let mut pool = 0;
    for row in 0..8 {
        let (in_row, empty_in_row) = ((fours >> (8 * row)) & 0xFF, (empty >> (8 * row)) & 0xFF);
        if in_row == 0 {
            pool += empty_in_row.count_ones();
            continue;
        }
        // A latent four's neighbours are empty, so the interval reaches past both ends.
        let (first, last) = (in_row.trailing_zeros(), 63 - in_row.leading_zeros());
        let (low, high) = (
            empty_in_row.trailing_zeros(),
            63 - empty_in_row.leading_zeros(),
        );
        fronts |= u64::from(first.saturating_sub(low + 1)) << (8 * row);
        fronts |= u64::from(high.saturating_sub(last + 1)) << (8 * row + 4);
    }
    let start = State {
        left: fours,
        fronts,
        pool_odd: pool % 2 == 1,
        mover: ME,
    };
    let key = (mine, theirs, start.fronts, start.pool_odd);
    let slot = slot(key);
    CACHE.with_borrow_mut(|cache| {
        if let Some((cached, value)) = cache[slot]
            && cached == key
        {
            return Score::from(value);
        }
        let mut game = ReleaseGame {
            fours: [mine, theirs],
            memo: HashMap::new(),
        };
        let value = game.value(start);
        // Cut short, the value is unknown: called a tie.
        let value = if game.memo.len() > MAX_STATES {
            0
        } else {
            value
        };
        cache[slot] = Some((key, value));
        Score::from(value)
    })
}

/// Past this many states, the release game gives up (and calls it a tie): the evaluation must
/// stay quick however many fours a position holds.
const MAX_STATES: usize = 1 << 16;

/// The searches ask about the same fours again and again: the answers are kept per thread.
const CACHE_BITS: u32 = 12;

/// What an answer is kept under: both sides' fours, the fronts and the pool's parity.
type Key = (u64, u64, u64, bool);

thread_local! {
    static CACHE: RefCell<Vec<Option<(Key, i8)>>> = RefCell::new(vec![None; 1 << CACHE_BITS]);
}

fn slot((mine, theirs, fronts, pool_odd): Key) -> usize {
    let hash = splitmix(mine ^ splitmix(theirs ^ splitmix(fronts)) ^ u64::from(pool_odd));
    (hash >> (64 - CACHE_BITS)) as usize
}

/// The side to move at the start: index 0 of `ReleaseGame::fours`.
const ME: usize = 0;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct State {
    /// The fours not yet blocked.
    left: u64,
    /// How many cells are in front of each row's first four (the low 4 bits of its byte)
    /// and its last four (the high 4 bits).
    fronts: u64,
    pool_odd: bool,
    mover: usize,
}

impl State {
    fn front(&self, row: u32, rightwards: bool) -> u64 {
        let shift = 8 * row + if rightwards { 0 } else { 4 };
        (self.fronts >> shift) & 0xF
    }

    fn set_front(&mut self, row: u32, rightwards: bool, cells: u64) {
        let shift = 8 * row + if rightwards { 0 } else { 4 };
        self.fronts = (self.fronts & !(0xF << shift)) | (cells << shift);
    }

    fn passed(mut self) -> State {
        self.mover = 1 - self.mover;
        self
    }
}

struct ReleaseGame {
    /// Each side's latent fours.
    fours: [u64; 2],
    /// Values already found, for the side to move.
    memo: HashMap<State, i8>,
}

/// Where a release and the blocks it forces leave the game.
enum AfterRelease {
    Won(usize),
    Goes(State),
}

impl ReleaseGame {
    /// The value of `state` for the side to move.
    fn value(&mut self, state: State) -> i8 {
        if let Some(&value) = self.memo.get(&state) {
            return value;
        }
        if self.memo.len() > MAX_STATES {
            return 0;
        }
        let mut best = None;
        if state.pool_odd {
            let tempo = State {
                pool_odd: false,
                ..state
            };
            best = Some(-self.value(tempo.passed()));
        }
        for row in 0..8 {
            let in_row = state.left & (0xFF << (8 * row));
            if in_row == 0 {
                continue;
            }
            let ends = [
                (in_row.trailing_zeros(), true),
                (63 - in_row.leading_zeros(), false),
            ];
            for (square, rightwards) in ends {
                if best == Some(1) {
                    break;
                }
                let front = state.front(row, rightwards);
                let value = if front > 0 {
                    let mut next = state;
                    next.set_front(row, rightwards, front - 1);
                    -self.value(next.passed())
                } else if self.is_only(state.mover, square) {
                    match self.release(state, square, rightwards) {
                        AfterRelease::Won(side) if side == state.mover => 1,
                        AfterRelease::Won(_) => -1,
                        AfterRelease::Goes(next) if next.mover == state.mover => self.value(next),
                        AfterRelease::Goes(next) => -self.value(next),
                    }
                } else {
                    continue;
                };
                best = best.max(Some(value));
            }
        }
        // Without a move, the side to move must enter the other side's cells, or the board
        // is full.
        let value = best.unwrap_or(if state.left == 0 { 0 } else { -1 });
        self.memo.insert(state, value);
        value
    }

    /// Whether the four on `square` is `side`'s and not the other side's too.
    fn is_only(&self, side: usize, square: u32) -> bool {
        let bit = 1u64 << square;
        self.fours[side] & bit != 0 && self.fours[1 - side] & bit == 0
    }

    /// The side to move releases its four on `square`, the first (`rightwards`) or the last of
    /// its row.
    fn release(&self, mut state: State, square: u32, rightwards: bool) -> AfterRelease {
        let row = square / 8;
        let mut blocked = square;
        loop {
            state.left &= !(1u64 << blocked);
            let in_row = state.left & (0xFF << (8 * row));
            if in_row == 0 {
                // The far neighbour and the far front are anybody's now.
                let freed = 1 + state.front(row, !rightwards);
                state.set_front(row, !rightwards, 0);
                state.pool_odd ^= freed % 2 == 1;
                return AfterRelease::Goes(state);
            }
            let next = if rightwards {
                in_row.trailing_zeros()
            } else {
                63 - in_row.leading_zeros()
            };
            let apart = next.abs_diff(blocked);
            if apart >= 2 {
                state.set_front(row, rightwards, u64::from(apart - 2));
                return AfterRelease::Goes(state);
            }
            // The next four is playable now, for the side to move.
            if self.fours[state.mover] & (1u64 << next) != 0 {
                return AfterRelease::Won(state.mover);
            }
            blocked = next;
            state = state.passed();
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::cave::prover::test_bits as bits;

    /// Each row's empty interval (first column, last column).
    type Rows = Vec<(i32, i32)>;

    /// The game the model stands for, cell by cell: each row's empty cells are one interval,
    /// only its two ends can be played, playing one's own four wins, and a full board ties.
    /// `rows` are the intervals (first column, last column), `fours` each side's fours.
    fn played_cell_by_cell(
        rows: &mut Rows,
        fours: [u64; 2],
        mover: usize,
        memo: &mut HashMap<(Rows, usize), i8>,
    ) -> i8 {
        if let Some(&value) = memo.get(&(rows.clone(), mover)) {
            return value;
        }
        let mut best = None;
        for row in 0..rows.len() {
            let (first, last) = rows[row];
            if first > last {
                continue;
            }
            for (column, after) in [(first, (first + 1, last)), (last, (first, last - 1))] {
                let cell = 1u64 << (8 * row as i32 + column);
                let value = if fours[mover] & cell != 0 {
                    1
                } else {
                    rows[row] = after;
                    let value = -played_cell_by_cell(rows, fours, 1 - mover, memo);
                    rows[row] = (first, last);
                    value
                };
                best = best.max(Some(value));
            }
        }
        let value = best.unwrap_or(0);
        memo.insert((rows.clone(), mover), value);
        value
    }

    proptest! {
        #[test]
        fn the_model_plays_like_the_cells(
            labels in prop::collection::vec(0u8..8, 18),
            fronts in prop::collection::vec(0i32..4, 6),
            pool in 0i32..4,
        ) {
            // Three rows with fours on columns b to g, empty from up to three cells before
            // the first one's neighbour to as many after the last one's; a fourth row of
            // `pool` plain cells. Labels 1, 2 and 3 are my four, theirs and a shared one; the
            // rest leave the cell plain.
            let (mut mine, mut theirs, mut empty) = (0u64, 0u64, 0u64);
            let mut rows = Vec::new();
            for (row, labels) in labels.chunks(6).enumerate() {
                let mut columns = Vec::new();
                for (index, &label) in labels.iter().enumerate() {
                    let cell = 1u64 << (8 * row + index + 1);
                    mine |= if label == 1 || label == 3 { cell } else { 0 };
                    theirs |= if label == 2 || label == 3 { cell } else { 0 };
                    if (1..=3).contains(&label) {
                        columns.push(index as i32 + 1);
                    }
                }
                rows.push(match (columns.first(), columns.last()) {
                    (Some(&first), Some(&last)) => (
                        (first - 1 - fronts[2 * row]).max(0),
                        (last + 1 + fronts[2 * row + 1]).min(7),
                    ),
                    _ => (1, 0),
                });
            }
            rows.push((0, pool - 1));
            for (row, &(first, last)) in rows.iter().enumerate() {
                for column in first..=last {
                    empty |= 1u64 << (8 * row as i32 + column);
                }
            }
            let cells = played_cell_by_cell(&mut rows, [mine, theirs], ME, &mut HashMap::new());
            prop_assert_eq!(zugzwang(mine, theirs, empty), Score::from(cells));
        }
    }

    /// The release game of `mine` and `theirs` with nothing in front of the fours' neighbours
    /// and `pool` cells elsewhere (on row 8).
    fn game(mine: &str, theirs: &str, pool: u32) -> Score {
        let (mine, theirs) = (bits(mine), bits(theirs));
        let mut empty = (1u64 << (56 + pool)) - (1u64 << 56);
        for row in 0..8 {
            let in_row = ((mine | theirs) >> (8 * row)) & 0xFF;
            if in_row != 0 {
                let (first, last) = (in_row.trailing_zeros(), 63 - in_row.leading_zeros());
                empty |= ((1u64 << (last + 2)) - (1u64 << (first - 1))) << (8 * row);
            }
        }
        zugzwang(mine, theirs, empty)
    }

    #[test]
    fn a_lone_four_wins_only_when_the_other_side_must_move_when_the_cells_run_out() {
        assert_eq!(game("", "d3", 4), -1, "I must enter its cells");
        assert_eq!(game("d3", "", 4), 0, "my release leaves nothing");
        assert_eq!(game("d3", "", 3), 1, "the other side must enter");
        assert_eq!(game("", "d3", 3), 0);
        assert_eq!(game("d3 e6", "", 4), 1, "one release passes");
        assert_eq!(game("d3", "e6", 4), 0, "one each");
        assert_eq!(game("d3", "e6 c7", 4), -1);
    }

    #[test]
    fn one_sides_fours_in_a_row_pass_the_move_when_they_free_an_odd_number_of_cells() {
        assert_eq!(game("c6 g6", "", 0), 0, "c6's frees d6 and e6");
        assert_eq!(game("b6 e6", "", 0), 1, "b6's frees c6");
        assert_eq!(game("c3 e3", "", 0), 0, "d3 is beside both");
        assert_eq!(game("c3 d3", "", 0), 1, "side by side: five");
        assert_eq!(game("", "c3 d3", 1), -1, "whoever is on move");
    }

    #[test]
    fn in_a_row_with_both_sides_fours_two_columns_apart_the_first_to_release_loses() {
        // b6 releases c6 and the block frees d6, beside e6: whoever is on move when the
        // cells run out has only d6's side of e6 or f6 left. Counted one release each, this
        // was a tie.
        assert_eq!(game("c6", "e6", 0), -1);
        assert_eq!(game("c6", "e6", 1), 1);
        // Three columns apart, the release frees d6 too, which passes the move back.
        assert_eq!(game("c6", "f6", 0), 0);
    }

    #[test]
    fn the_cells_freed_between_fours_are_played_before_the_next_release() {
        // Their b6, a shared c6, my d6 and g6. Releasing g6 (h6) frees f6 in front of e6: I
        // play it, and they release b6 (a6), whose block leaves them c6. Had I been free to
        // release d6 at once (e6) instead, its block would have left me c6.
        assert_eq!(game("c6 d6 g6", "b6 c6", 0), -1);
    }

    #[test]
    fn too_many_states_are_given_up_as_a_tie() {
        // Six rows, each with my four on d and theirs on f, and long fronts: whoever must
        // release first loses (-1), which takes more states than the cap to find.
        let (mine, theirs) = (bits("d2 d3 d4 d5 d6 d7"), bits("f2 f3 f4 f5 f6 f7"));
        let empty = 0x00FF_FFFF_FFFF_FF00;
        assert_eq!(zugzwang(mine, theirs, empty), 0);
    }

    #[test]
    fn a_four_beside_a_blocked_one_wins_for_the_side_on_move_or_must_be_blocked() {
        // My c6, their d6, my e6: releasing c6, the block makes d6 playable for me to block,
        // which makes e6 playable for them to block, and f6 is left free: a tie. The other
        // side has no release of its own: it loses if it must move when the cells run out.
        assert_eq!(game("c6 e6", "d6", 0), 0);
        assert_eq!(game("c6 e6", "d6", 1), 1);
        // A four of both sides beside the blocked one wins for the side on move.
        assert_eq!(game("c6 d6", "d6", 0), 1);
        // Nobody releases a four of both sides: I must enter it.
        assert_eq!(game("d6", "d6", 0), -1);
        assert_eq!(game("d6", "d6", 1), 1);
    }
}
