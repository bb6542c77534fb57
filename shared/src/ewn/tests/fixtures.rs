//! What the property tests of the EWN rules (here) and of the solver (`parlor_engines::ewn`,
//! whose tests include this file by its path) both start from: level 1, pieces from six
//! numbers, levels and random states. Included by path, not shared through a feature or a
//! dev-dependency, since `parlor-engines` depends on `parlor-shared`: `super` is each crate's
//! test module, which has the EWN rules in scope.

use proptest::prelude::*;

use super::{DICE_LEN, Level, Pieces, Rules, parse_level};

pub const LEVEL1: &str =
    "2\n21 32 43 34 23 12\n3 3 5 4 1 3 2 3 1 6 6 6 1 4 3 3 6 4 2 5 6 2 4 3 2 6 3 2 6 2";

pub fn pieces(numbers: [i64; 6]) -> Pieces {
    Pieces::from_numbers(numbers).unwrap()
}

pub fn level1() -> Level {
    parse_level(LEVEL1, Rules::default()).unwrap()
}

/// Six distinct squares (not 22) in the top-left `span` x `span` corner, some pieces captured,
/// the target live.
pub fn any_state(span: i64) -> impl Strategy<Value = (u8, Pieces)> {
    let squares: Vec<i64> = (0..100)
        .filter(|&s| s != 22 && s / 10 < span && s % 10 < span)
        .collect();
    (
        1..=6u8,
        proptest::sample::subsequence(squares, 6),
        proptest::collection::vec(proptest::bool::weighted(0.25), 6),
    )
        .prop_flat_map(|(target, squares, captured)| {
            let squares = Just(squares).prop_shuffle();
            (Just(target), squares, Just(captured))
        })
        .prop_map(|(target, squares, captured)| {
            let numbers: [i64; 6] = std::array::from_fn(|i| {
                if captured[i] && i + 1 != usize::from(target) {
                    -1
                } else {
                    squares[i]
                }
            });
            (target, pieces(numbers))
        })
}

pub fn level_with(target: u8, start: Pieces, dice: [u8; DICE_LEN], max_moves: usize) -> Level {
    Level::new(
        target,
        start,
        dice,
        Rules {
            max_moves,
            ..Rules::default()
        },
    )
    .unwrap()
}
