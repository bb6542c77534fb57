//! The EWN solver's tests: level 1's optimum, solutions against an independent breadth-first
//! search and an independent plain search, the region bound never above the optimum, and
//! (`room`) a room's game along a solution. The rules' are `parlor_shared::ewn`'s.

mod reference;
mod room;

use parlor_shared::ewn::*;
use proptest::prelude::*;

use super::regions::{RegionBound, regions_of};
use super::*;
use reference::{shortest_by_breadth_first, shortest_by_plain_search};

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

/// Whether the region relaxation lets `level` be won within `moves` from its start.
fn region_wins_within(level: &Level, moves: usize) -> bool {
    let mut bound = RegionBound::new(level, None);
    bound.wins_within(&regions_of(&level.start()), 0, moves as u8)
}

/// The solver's answer and the region bound, checked against a true optimum (`None`: no win
/// within the level's moves).
fn check_against(level: &Level, optimum: Option<usize>) -> Result<(), TestCaseError> {
    match solve(level) {
        Some(solution) => {
            let states = solution.replay(level).unwrap();
            prop_assert_eq!(level.status(states.last().unwrap()), Status::Won);
            prop_assert_eq!(Some(solution.moves.len()), optimum);
        }
        None => prop_assert_eq!(optimum, None),
    }
    if let Some(optimum) = optimum {
        // Admissible: the relaxation wins whenever the real puzzle does, never later.
        prop_assert!(region_wins_within(level, optimum));
    }
    Ok(())
}

#[test]
fn where_the_region_bound_falls_short_the_real_search_finds_the_optimum() {
    // A generated board (`candidates(4, ..)`, the 12634th) whose pieces cannot keep out of
    // each other's way as the relaxation lets them: it wins in 12 moves, the real puzzle in 13.
    let text = "3\n24 57 8 44 26 73\n3 2 1 3 5 3 1 4 3 2 4 5 4 6 5 5 3 3 3 5 1 2 5 1 4 6 3 2 5 5";
    let level = parse_level(text, Rules::default()).unwrap();
    assert!(region_wins_within(&level, 12));
    let solution = solve(&level).unwrap();
    assert_eq!(solution.moves.len(), 13);
    let within_13 = level_with(level.target(), level.start(), *level.dice(), 13);
    assert_eq!(shortest_by_plain_search(&within_13), Some(13));
    let states = solution.replay(&level).unwrap();
    assert_eq!(level.status(states.last().unwrap()), Status::Won);
}

#[test]
fn a_level_generated_without_a_solution_has_none_by_breadth_first_search() {
    // Within 4 moves breadth-first search is cheap, and most random levels have no solution.
    let rules = Rules {
        max_moves: 4,
        ..Rules::default()
    };
    for seed in 0..3 {
        let generated = generate(Wanted::NoSolution, seed, rules, 1000).unwrap();
        assert_eq!(generated.solution, None);
        assert_eq!(generated.level.rules(), rules);
        assert_eq!(shortest_by_breadth_first(&generated.level), None);
    }
}

proptest! {
    #[test]
    fn solutions_replay_to_a_win_and_none_is_shorter(
        (target, start) in any_state(5),
        dice in proptest::array::uniform30(1..=6u8),
    ) {
        // Five moves keep the breadth-first search small.
        let level = level_with(target, start, dice, 5);
        check_against(&level, shortest_by_breadth_first(&level))?;
    }

    /// Crowded boards, where pieces get in each other's way and the region relaxation is
    /// least exact, over more moves than breadth-first search can afford.
    #[test]
    fn crowded_boards_agree_with_a_plain_search(
        (target, start) in any_state(6),
        dice in proptest::array::uniform30(1..=6u8),
        max_moves in 6..=12usize,
    ) {
        let level = level_with(target, start, dice, max_moves);
        check_against(&level, shortest_by_plain_search(&level))?;
    }
}
