//! Properties over random puzzles: every method agrees with the reference, every solution
//! replays to the goal, scrambles of the goal are solved within the scramble's length, and the
//! parser never panics.

use proptest::prelude::*;

use super::*;

/// Goal pictures to scramble: classic boards (pattern databases), blocks and several blanks.
const GOALS: &[&str] = &[
    "2 3\n1 2 3\n4 5 0\n0\n",
    "3 3\n1 2 3\n4 5 6\n7 8 0\n0\n",
    "3 4\n1 2 3 4\n5 6 7 8\n9 10 11 0\n0\n",
    "2 4\n1 2 3 4\n5 6 7 0\n1\n3 2*1\n",
    "3 4\n1 2 3 4\n5 6 7 8\n9 10 0 0\n2\n1 2*2\n3 1*2\n",
    "4 3\n1 2 3\n4 5 6\n7 8 9\n0 0 0\n1\n5 2*2\n",
];

/// The start after a walk from the goal, each step taking move `choice % legal moves`.
fn scrambled(goal: &Puzzle, choices: &[usize]) -> Puzzle {
    let end = choices
        .iter()
        .fold(goal.start().clone(), |position, &choice| {
            let moves = goal.legal_moves(&position);
            goal.apply(&position, moves[choice % moves.len()]).unwrap()
        });
    goal.restarted(end)
}

fn shapes() -> impl Strategy<Value = Vec<Shape>> {
    prop::collection::vec(
        prop::sample::select(vec![Shape::Wide, Shape::Tall, Shape::Square]),
        0..=2,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn every_method_agrees_with_the_reference_on_random_small_boards(
        (rows, cols) in prop::sample::select(vec![(1u32, 4u32), (2, 2), (2, 3), (3, 2), (2, 4), (4, 2)]),
        blanks in 1u32..=3,
        blocks in shapes(),
        seed in any::<u64>(),
        unsolvable in any::<bool>(),
    ) {
        let options = GenerateOptions { rows, cols, blanks, blocks, seed, unsolvable, walk: None };
        // Some draws cannot be made (blocks that do not fit, no way to spoil); nothing to check.
        let Ok(puzzle) = generate(&options) else { return Ok(()) };
        let text = puzzle.to_text();
        let expected = brute::shortest(&text);
        if unsolvable {
            prop_assert_eq!(expected, None, "asked for unsolvable:\n{}", text);
        } else {
            prop_assert!(expected.is_some(), "asked for solvable:\n{}", text);
        }
        for method in Method::SEARCHES.into_iter().chain([Method::Auto]) {
            prop_assert_eq!(solved_length(&puzzle, method), expected, "{} on\n{}", method, text);
        }
    }

    #[test]
    fn scrambles_of_the_goal_are_solved_within_their_length(
        goal in prop::sample::select(GOALS),
        choices in prop::collection::vec(any::<usize>(), 0..=24),
    ) {
        let start = scrambled(&puzzle(goal), &choices);
        for method in [Method::Auto, Method::Astar, Method::Idastar, Method::Weighted, Method::Bibfs] {
            let length = solved_length(&start, method);
            prop_assert!(length.is_some_and(|length| length <= choices.len()), "{} on\n{}", method, start.to_text());
        }
    }

    #[test]
    fn the_parser_never_panics(text in "[0-9 *x\n-]{0,60}") {
        let _ = parse_puzzle(&text);
    }

    #[test]
    fn the_parser_survives_any_edit_of_a_valid_input(at in 0usize..200, byte in any::<u8>()) {
        let mut text = include_str!("../../../../levels/klotski/mahynotch_test_2_spec_sample.in").as_bytes().to_vec();
        let at = at % text.len();
        text[at] = byte;
        if let Ok(text) = String::from_utf8(text) {
            let _ = parse_puzzle(&text);
        }
    }
}
