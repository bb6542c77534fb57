//! Properties over random puzzles: every method agrees with the reference, every solution
//! replays to the goal, and scrambles of the goal are solved within the scramble's length.

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
pub(super) fn scrambled(goal: &Puzzle, choices: &[usize]) -> Puzzle {
    let end = choices
        .iter()
        .fold(goal.start().clone(), |position, &choice| {
            let moves = goal.legal_moves(&position);
            goal.apply(&position, moves[choice % moves.len()]).unwrap()
        });
    goal.restarted(end)
}

/// Whether `shapes` can be tied into blocks inside the first `numbers` cells of a `rows x cols`
/// goal picture, every placement tried (generate tries at random).
fn blocks_fit(rows: u32, cols: u32, numbers: usize, shapes: &[Shape]) -> bool {
    fn place(rows: usize, cols: usize, taken: &mut [bool], shapes: &[Shape]) -> bool {
        let Some((&shape, rest)) = shapes.split_first() else {
            return true;
        };
        let (height, width) = (usize::from(shape.height()), usize::from(shape.width()));
        for top in 0..taken.len() {
            let (row, col) = (top / cols, top % cols);
            if row + height > rows || col + width > cols {
                continue;
            }
            let cells: Vec<usize> = (0..height)
                .flat_map(|dr| (0..width).map(move |dc| top + dr * cols + dc))
                .collect();
            if cells.iter().any(|&cell| cell >= taken.len() || taken[cell]) {
                continue;
            }
            cells.iter().for_each(|&cell| taken[cell] = true);
            let fits = place(rows, cols, taken, rest);
            cells.iter().for_each(|&cell| taken[cell] = false);
            if fits {
                return true;
            }
        }
        false
    }
    place(
        rows as usize,
        cols as usize,
        &mut vec![false; numbers],
        shapes,
    )
}

fn shapes() -> impl Strategy<Value = Vec<Shape>> {
    prop::collection::vec(
        prop::sample::select(vec![Shape::Wide, Shape::Tall, Shape::Square]),
        0..=2,
    )
}

#[test]
fn generated_puzzles_are_solvable_or_proved_unsolvable_as_asked() {
    let kinds = [
        // A classic board: a shuffle, its parity put right.
        GenerateOptions {
            rows: 2,
            cols: 3,
            ..GenerateOptions::default()
        },
        // Blocks and blanks: a random walk from the goal.
        GenerateOptions {
            rows: 3,
            cols: 3,
            blanks: 2,
            blocks: vec![Shape::Square],
            ..GenerateOptions::default()
        },
        GenerateOptions {
            rows: 2,
            cols: 4,
            blocks: vec![Shape::Wide, Shape::Tall],
            ..GenerateOptions::default()
        },
    ];
    for kind in kinds {
        for seed in 0..6 {
            let options = GenerateOptions {
                seed,
                ..kind.clone()
            };
            let puzzle = generate(&options).unwrap_or_else(|error| panic!("{error}: {options:?}"));
            assert_eq!(
                generate(&options).as_ref(),
                Ok(&puzzle),
                "one seed, one puzzle"
            );
            let mut blocks: Vec<Shape> = puzzle
                .pieces()
                .iter()
                .map(|piece| piece.shape)
                .filter(|&shape| shape != Shape::Single)
                .collect();
            blocks.sort();
            let mut asked = options.blocks.clone();
            asked.sort();
            assert_eq!(
                (puzzle.rows(), puzzle.cols(), puzzle.blank_count(), blocks),
                (
                    options.rows as u8,
                    options.cols as u8,
                    options.blanks as usize,
                    asked
                ),
                "{options:?}"
            );
            let text = puzzle.to_text();
            let length = solved_length(&puzzle, Method::Auto);
            assert!(length.is_some(), "asked for solvable:\n{text}");
            assert_eq!(length, brute::shortest(&text), "{text}");

            let spoiled = generate(&GenerateOptions {
                unsolvable: true,
                ..options.clone()
            })
            .unwrap_or_else(|error| panic!("{error}: {options:?}"));
            let text = spoiled.to_text();
            assert!(
                matches!(
                    solve(&spoiled, &unlimited(Method::Auto)).verdict,
                    Verdict::Unsolvable(_)
                ),
                "asked for unsolvable:\n{text}"
            );
            assert_eq!(brute::shortest(&text), None, "{text}");
        }
    }
    // What cannot be made is refused, with the reason.
    let refused = |options: GenerateOptions| generate(&options).unwrap_err();
    assert_eq!(
        refused(GenerateOptions {
            rows: 9,
            cols: 8,
            ..GenerateOptions::default()
        }),
        GenerateError::Size { rows: 9, cols: 8 }
    );
    assert!(matches!(
        refused(GenerateOptions {
            rows: 1,
            cols: 4,
            blocks: vec![Shape::Square],
            ..GenerateOptions::default()
        }),
        GenerateError::BlocksDoNotFit { numbers: 3 }
    ));
    assert!(matches!(
        refused(GenerateOptions {
            rows: 3,
            cols: 3,
            blanks: 2,
            unsolvable: true,
            ..GenerateOptions::default()
        }),
        GenerateError::NoUnsolvable(_)
    ));
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
        // Some draws cannot be made; each refusal must be one the draw explains.
        let numbers = (rows * cols - blanks) as usize;
        let puzzle = match generate(&options) {
            Ok(puzzle) => puzzle,
            Err(GenerateError::BlocksDoNotFit { .. }) => {
                prop_assert!(!blocks_fit(rows, cols, numbers, &options.blocks), "they fit: {:?}", options);
                return Ok(());
            }
            Err(GenerateError::NoUnsolvable(_)) => {
                let singles = numbers - options.blocks.iter().map(|shape| shape.area()).sum::<usize>();
                let spoilable = (blanks == 1 && singles >= 2) || (!options.blocks.is_empty() && singles >= 1);
                prop_assert!(unsolvable && !spoilable, "it could be spoiled: {:?}", options);
                return Ok(());
            }
            Err(error) => return Err(TestCaseError::fail(format!("{error}: {options:?}"))),
        };
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
        // IDA*'s transposition table at its smallest, so that positions evict each other, on
        // one thread and on several sharing it (every round split in tests).
        for threads in [1, 2, 3] {
            let crowded = SolveOptions { max_positions: 1, threads, ..unlimited(Method::Idastar) };
            let crowded_length = solved_length_with(&puzzle, &crowded);
            prop_assert_eq!(crowded_length, expected, "crowded, {} threads:\n{}", threads, text);
            let split = SolveOptions { threads, ..unlimited(Method::Idastar) };
            let split_length = solved_length_with(&puzzle, &split);
            prop_assert_eq!(split_length, expected, "IDA* on {} threads on\n{}", threads, text);
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
}
