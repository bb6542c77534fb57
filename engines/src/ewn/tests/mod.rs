//! The EWN solver's tests: level 1's optimum, solutions against an independent breadth-first
//! search, and (`room`) a room's game along a solution. The rules' are `parlor_shared::ewn`'s.

mod room;

use std::collections::HashSet;

use parlor_shared::ewn::*;
use proptest::prelude::*;

use super::*;

/// Level 1, pieces, levels and random states, as the rules' tests draw them.
#[path = "../../../../shared/src/ewn/tests/fixtures.rs"]
mod fixtures;
use fixtures::{LEVEL1, any_state, level_with, level1};

#[test]
fn the_solver_finds_level1_in_six_moves() {
    let level = level1();
    let solution = solve(&level).unwrap();
    assert_eq!(solution.moves.len(), 6);
    let states = solution.replay(&level).unwrap();
    assert_eq!(level.status(states.last().unwrap()), Status::Won);
    let five = parse_level(
        LEVEL1,
        Rules {
            max_moves: 5,
            ..Rules::default()
        },
    )
    .unwrap();
    assert_eq!(solve(&five), None);
}

/// The true optimum of a small search: every position reachable in 0, 1, 2... moves, until one
/// is won or the level's moves run out.
fn shortest_by_breadth_first(level: &Level) -> Option<usize> {
    let mut layer = HashSet::from([level.start_state()]);
    for moves in 0..=level.rules().max_moves {
        if layer.iter().any(|state| level.status(state) == Status::Won) {
            return Some(moves);
        }
        layer = layer
            .iter()
            .flat_map(|state| {
                let next = level.legal_moves(state).into_iter();
                next.map(|mv| level.play(state, mv).unwrap())
            })
            .collect();
    }
    None
}

proptest! {
    #[test]
    fn solutions_replay_to_a_win_and_none_is_shorter(
        (target, start) in any_state(5),
        dice in proptest::array::uniform30(1..=6u8),
    ) {
        // Five moves keep the breadth-first search small.
        let level = level_with(target, start, dice, 5);
        let brute = shortest_by_breadth_first(&level);
        match solve(&level) {
            Some(solution) => {
                let states = solution.replay(&level).unwrap();
                prop_assert_eq!(level.status(states.last().unwrap()), Status::Won);
                prop_assert_eq!(Some(solution.moves.len()), brute);
            }
            None => prop_assert_eq!(brute, None),
        }
    }
}
