//! The EWN rules' tests: movable pieces, king steps, the level and moves files, the checker,
//! and properties of the moves; the solver's are `parlor_engines::ewn`'s.

mod fixtures;

use proptest::prelude::*;

use super::board::{chebyshev, is_king_step};
use super::*;
use fixtures::{LEVEL1, any_state, level_with, level1, pieces};

fn line_problem(result: Result<Level, FileError>) -> (usize, LineProblem) {
    let error = result.unwrap_err();
    (error.line, error.problem)
}

#[test]
fn the_seeds_table_of_movable_pieces() {
    let all = pieces([0, 1, 2, 3, 4, 5]);
    assert_eq!(movable_pieces(&all, 3).as_slice(), &[3]);
    let without_3 = pieces([0, 1, -1, 3, 4, 5]);
    assert_eq!(movable_pieces(&without_3, 3).as_slice(), &[2, 4]);
    let only_456 = pieces([-1, -1, -1, 3, 4, 5]);
    assert_eq!(movable_pieces(&only_456, 3).as_slice(), &[4]);
    let only_12 = pieces([0, 1, -1, -1, -1, -1]);
    assert_eq!(movable_pieces(&only_12, 6).as_slice(), &[2]);
    assert_eq!(movable_pieces(&only_12, 6).to_string(), "2");
    assert_eq!(movable_pieces(&without_3, 3).to_string(), "2 and 4");
}

#[test]
fn kings_step_to_their_neighbours_but_never_onto_the_removed_square() {
    assert_eq!(neighbours(0, 22).collect::<Vec<_>>(), vec![1, 10, 11]);
    assert_eq!(neighbours(11, 22).count(), 7);
    assert_eq!(neighbours(11, 33).count(), 8);
    assert_eq!(neighbours(99, 22).collect::<Vec<_>>(), vec![88, 89, 98]);
    assert_eq!(chebyshev_to_corner(99), 9);
    assert_eq!(chebyshev_to_corner(21), 2);
}

#[test]
fn level1_parses_and_prints_back_as_written() {
    let level = level1();
    assert_eq!(level.target(), 2);
    assert_eq!(level.start().square_of(2), Some(32));
    assert_eq!(level.dice()[..4], [3, 3, 5, 4]);
    assert_eq!(level.to_string(), format!("{LEVEL1}\n"));
}

#[test]
fn level_files_may_use_crlf_trailing_blank_lines_and_a_dice_token() {
    let crlf = LEVEL1.replace('\n', "\r\n") + "\r\n\r\n  \n";
    assert_eq!(parse_level(&crlf, Rules::default()).unwrap(), level1());
    let token = LEVEL1.replace(
        "3 3 5 4 1 3 2 3 1 6 6 6 1 4 3 3 6 4 2 5 6 2 4 3 2 6 3 2 6 2",
        "335413231666143364256243263262",
    );
    assert_eq!(parse_level(&token, Rules::default()).unwrap(), level1());
}

#[test]
fn bad_level_files_name_the_line_and_the_reason() {
    let rules = Rules::default();
    let bad = |text: &str| line_problem(parse_level(text, rules));
    assert_eq!(
        bad("2\n21 32 43 34 23 12\n"),
        (3, LineProblem::Missing("dice"))
    );
    assert_eq!(
        bad("7\n21 32 43 34 23 12\n3"),
        (1, LevelError::Target(7).into())
    );
    assert_eq!(bad("x\n"), (1, LineProblem::NotANumber("x".into())));
    assert_eq!(
        bad("2\n21 32 43 34 23\n3"),
        (2, LineProblem::PositionCount(5))
    );
    assert_eq!(
        bad("2\n21 32 43 34 23 100\n3"),
        (2, PositionError::OffBoard(100).into())
    );
    assert_eq!(
        bad("2\n21 32 43 34 21 12\n3"),
        (
            2,
            PositionError::SharedSquare {
                first: 1,
                second: 5,
                square: 21
            }
            .into()
        )
    );
    let dice29 = "3 ".repeat(29);
    assert_eq!(
        bad(&format!("2\n21 32 43 34 23 12\n{dice29}")),
        (3, LineProblem::DiceCount(29))
    );
    let dice_with_7 = format!("7 {}", "3 ".repeat(29));
    assert_eq!(
        bad(&format!("2\n21 32 43 34 23 12\n{dice_with_7}")),
        (3, LevelError::Die(7).into())
    );
    let dice = "3 ".repeat(30);
    assert_eq!(
        bad(&format!("2\n21 32 43 34 23 12\n{dice}\nmore")),
        (4, LineProblem::Unexpected("more".into()))
    );
    assert_eq!(
        bad(&format!("2\n21 22 43 34 23 12\n{dice}")),
        (
            2,
            LevelError::OnRemovedSquare {
                piece: 2,
                square: 22
            }
            .into()
        )
    );
    assert_eq!(
        bad(&format!("2\n21 -1 43 34 23 12\n{dice}")),
        (2, LevelError::TargetAbsent(2).into())
    );
    assert_eq!(bad(&format!("2\n\n{dice}")), (2, LineProblem::Blank));
}

#[test]
fn the_removed_square_is_a_setting() {
    let on_33 = LEVEL1.replace("43 34", "33 34");
    let blocked_33 = Rules {
        blocked: 33,
        ..Rules::default()
    };
    assert!(parse_level(&on_33, Rules::default()).is_ok());
    assert_eq!(
        line_problem(parse_level(&on_33, blocked_33)).1,
        LevelError::OnRemovedSquare {
            piece: 3,
            square: 33
        }
        .into()
    );
    let level = parse_level(LEVEL1, blocked_33).unwrap();
    // Piece 3 (on 43, movable on die 3) may now step onto 22 but not onto 33.
    let state = level.start_state();
    let moves = level.legal_moves(&state);
    assert!(moves.contains(&Move { piece: 3, to: 42 }));
    assert!(!moves.iter().any(|mv| mv.to == 33));
}

#[test]
fn one_to_thirty_moves_may_be_allowed() {
    let with_moves = |max_moves| {
        parse_level(
            LEVEL1,
            Rules {
                max_moves,
                ..Rules::default()
            },
        )
    };
    // 0 once made a room whose puzzle was lost before its first move.
    for refused in [0, DICE_LEN + 1] {
        assert_eq!(
            line_problem(with_moves(refused)).1,
            LevelError::MaxMoves(refused).into()
        );
    }
    assert!(with_moves(1).is_ok());
    assert!(with_moves(DICE_LEN).is_ok());
}

#[test]
fn a_move_onto_a_piece_captures_it_and_the_target_on_0_wins() {
    let level = level1();
    let state = level.start_state();
    // Die 3: piece 3 on 43 takes piece 4 on 34.
    let after = level.play(&state, Move { piece: 3, to: 34 }).unwrap();
    assert_eq!(after.pieces.to_string(), "21 32 34 -1 23 12");
    assert_eq!(after.turn, 1);
    assert_eq!(level.status(&after), Status::Playing);
    let refused = level.play(&state, Move { piece: 2, to: 31 });
    assert_eq!(
        refused,
        Err(MoveError::NotMovable {
            piece: 2,
            die: 3,
            movable: movable_pieces(&state.pieces, 3)
        })
    );
    assert_eq!(
        level.play(&state, Move { piece: 3, to: 45 }),
        Err(MoveError::NotKingStep {
            piece: 3,
            from: 43,
            to: 45
        })
    );
}

#[test]
fn nonsense_moves_and_files_are_errors_not_panics() {
    let level = level1();
    let state = level.start_state();
    for piece in [0, 7, 255] {
        let refused = level.play(&state, Move { piece, to: 0 });
        assert!(
            matches!(refused, Err(MoveError::NotMovable { .. })),
            "{piece}"
        );
    }
    assert_eq!(
        level.play(&state, Move { piece: 3, to: 200 }),
        Err(MoveError::OffBoard(200))
    );
    let empty = MovesFile {
        name: "x".into(),
        dice: *level.dice(),
        target: 2,
        positions: Vec::new(),
    };
    let error = empty.level(Rules::default()).unwrap_err();
    assert_eq!(
        (error.line, error.problem),
        (4, LineProblem::Missing("start positions"))
    );
    assert_eq!(check_moves(&empty, &level).unwrap_err().line, 4);
}

#[test]
fn the_game_ends_on_a_win_a_captured_target_or_the_move_limit() {
    let target_on_0 = LEVEL1.replace("21 32", "21 0");
    let level = parse_level(&target_on_0, Rules::default()).unwrap();
    assert_eq!(level.status(&level.start_state()), Status::Won);
    assert_eq!(level.legal_moves(&level.start_state()), vec![]);

    let level = level1();
    let captured = State {
        pieces: pieces([21, -1, 43, 34, 23, 12]),
        turn: 3,
    };
    assert_eq!(
        level.status(&captured),
        Status::Lost(LossReason::TargetCaptured)
    );
    // Any level but the course's four is lost after 30 moves.
    let not_the_course = parse_level(&LEVEL1.replace("23 12", "23 11"), Rules::default()).unwrap();
    let out_of_moves = State {
        turn: 30,
        ..not_the_course.start_state()
    };
    assert_eq!(
        not_the_course.status(&out_of_moves),
        Status::Lost(LossReason::OutOfMoves(30))
    );
    // Level 1 after its own six (SPEC §1), whatever the rules allow.
    let sixth = State {
        turn: 6,
        ..level.start_state()
    };
    assert_eq!(
        level.status(&sixth),
        Status::Lost(LossReason::OutOfMoves(6))
    );
    assert!(matches!(
        level.play(&sixth, Move { piece: 3, to: 42 }),
        Err(MoveError::GameOver(_))
    ));
    let fifth = State {
        turn: 5,
        ..level.start_state()
    };
    assert_eq!(level.status(&fifth), Status::Playing);
}

#[test]
fn moves_files_print_in_the_seeds_form_and_read_back() {
    let level = level1();
    let start = level.start_state();
    let after = level.play(&start, Move { piece: 3, to: 33 }).unwrap();
    let file = MovesFile::record("AI Player", &level, vec![start.pieces, after.pieces]);
    let text = file.to_string();
    assert_eq!(
        text,
        "AI Player\n3 3 5 4 1 3 2 3 1 6 6 6 1 4 3 3 6 4 2 5 6 2 4 3 2 6 3 2 6 2\n2\n\
         21 32 43 34 23 12\n21 32 33 34 23 12\n"
    );
    assert_eq!(parse_moves(&text).unwrap(), file);
    assert_eq!(parse_moves(&text.replace('\n', "\r\n")).unwrap(), file);
    let checked = check_moves(&file, &level).unwrap();
    assert_eq!(
        checked,
        Checked {
            status: Status::Playing,
            moves: 1
        }
    );
}

/// The plain reading of the movable-piece rule, to check the implementation against.
fn movable_by_the_book(live: &[bool; 6], die: u8) -> Vec<u8> {
    let alive = |p: u8| live[usize::from(p - 1)];
    if alive(die) {
        return vec![die];
    }
    let below = (1..die).filter(|&p| alive(p)).max();
    let above = (die + 1..=6).filter(|&p| alive(p)).min();
    below.into_iter().chain(above).collect()
}

proptest! {
    #[test]
    fn movable_pieces_are_exactly_those_the_rule_names(
        live in proptest::array::uniform6(any::<bool>()),
        die in 1..=6u8,
    ) {
        let numbers: [i64; 6] = std::array::from_fn(|i| if live[i] { i as i64 } else { -1 });
        let movable = movable_pieces(&pieces(numbers), die);
        let by_the_book = movable_by_the_book(&live, die);
        prop_assert_eq!(movable.as_slice(), by_the_book.as_slice());
    }

    #[test]
    fn moves_stay_on_the_board_off_the_removed_square_and_capture_at_most_one(
        (target, start) in any_state(10),
        dice in proptest::array::uniform30(1..=6u8),
    ) {
        let level = level_with(target, start, dice, DICE_LEN);
        let state = level.start_state();
        let movable = level.movable(&state);
        for mv in level.legal_moves(&state) {
            prop_assert!(movable.contains(mv.piece));
            prop_assert!(mv.to < SQUARES && mv.to != DEFAULT_BLOCKED);
            let from = state.pieces.square_of(mv.piece).unwrap();
            prop_assert!(is_king_step(from, mv.to) && chebyshev(from, mv.to) == 1);
            let after = level.play(&state, mv).unwrap();
            prop_assert_eq!(after.pieces.square_of(mv.piece), Some(mv.to));
            let lost = state.pieces.live_mask().count_ones() - after.pieces.live_mask().count_ones();
            let victim = state.pieces.piece_on(mv.to);
            prop_assert_eq!(lost, u32::from(victim.is_some()));
            if let Some(victim) = victim {
                prop_assert!(!after.pieces.is_live(victim));
            }
        }
    }

    #[test]
    fn recorded_games_pass_the_checker(
        (target, start) in any_state(10),
        dice in proptest::array::uniform30(1..=6u8),
        picks in proptest::collection::vec(any::<proptest::sample::Index>(), 30),
    ) {
        let level = level_with(target, start, dice, DICE_LEN);
        let mut state = level.start_state();
        let mut positions = vec![state.pieces];
        for pick in &picks {
            let moves = level.legal_moves(&state);
            if moves.is_empty() {
                break;
            }
            state = level.play(&state, *pick.get(&moves)).unwrap();
            positions.push(state.pieces);
        }
        let file = MovesFile::record("Random Player", &level, positions);
        let reread = parse_moves(&file.to_string()).unwrap();
        prop_assert_eq!(&reread, &file);
        let checked = check_moves(&reread, &level).unwrap();
        prop_assert_eq!(checked, Checked { status: level.status(&state), moves: state.turn });
    }
}

#[test]
fn the_closest_move_brings_the_target_nearer_and_never_captures_it() {
    let level = level1();
    // Die 3: piece 3 on 43 may take the target on 32, which would lose at once.
    let start = level.start_state();
    let mv = level.closest_move(&start).unwrap();
    assert_eq!(mv.piece, 3);
    assert_ne!(mv.to, 32);
    // Die 2 (the seventh, past level 1's limit, so on a copy that is not the course's): the
    // target itself steps to 21, the one square two steps from 0.
    let copy = parse_level(&LEVEL1.replace("23 12", "23 11"), Rules::default()).unwrap();
    let seventh = State {
        turn: 6,
        ..copy.start_state()
    };
    assert_eq!(copy.closest_move(&seventh), Some(Move { piece: 2, to: 21 }));
}
