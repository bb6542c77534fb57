//! The moves.txt checker on the files in `tests/data/ewn/`: each `bad-*` file breaks one rule
//! and must be refused on the right line for the right reason; `good-*` files must pass.

use std::path::{Path, PathBuf};

use parlor_shared::ewn::{
    Checked, FileError, LevelError, LineProblem, LossReason, MoveError, MovesFile, Rules, Status,
    check_moves, movable_pieces, parse_level, parse_moves,
};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/ewn")
        .join(name)
}

fn level4() -> parlor_shared::ewn::Level {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/ewn/level4.txt");
    parse_level(&std::fs::read_to_string(path).unwrap(), Rules::default()).unwrap()
}

fn read(name: &str) -> Result<MovesFile, FileError> {
    parse_moves(&std::fs::read_to_string(data(name)).unwrap())
}

/// Checks a file against its own header, as the viewer does without `--level`.
fn check_alone(name: &str) -> Result<Checked, FileError> {
    let file = read(name)?;
    check_moves(&file, &file.level(Rules::default())?)
}

fn refusal(result: Result<Checked, FileError>) -> (usize, LineProblem) {
    let error = result.unwrap_err();
    (error.line, error.problem)
}

#[test]
fn the_seeds_sample_and_a_crlf_file_with_a_dice_token_pass() {
    let playing = Checked {
        status: Status::Playing,
        moves: 2,
    };
    assert_eq!(check_alone("good-seed-sample.txt"), Ok(playing));
    let file = read("good-seed-sample.txt").unwrap();
    assert_eq!(check_moves(&file, &level4()), Ok(playing));
    let crlf = read("good-crlf-dice-token.txt").unwrap();
    assert_eq!(crlf.dice, file.dice);
    assert_eq!(check_moves(&crlf, &level4()).unwrap().moves, 1);
}

#[test]
fn malformed_lines_are_refused_where_they_are() {
    let cases = [
        ("bad-die.txt", 2, LevelError::Die(7).into()),
        ("bad-dice-count.txt", 2, LineProblem::DiceCount(29)),
        ("bad-target.txt", 3, LevelError::Target(0).into()),
        ("bad-malformed.txt", 7, LineProblem::NotANumber("x".into())),
        ("bad-short-line.txt", 6, LineProblem::PositionCount(5)),
        ("bad-blank-line.txt", 6, LineProblem::Blank),
        ("bad-empty-name.txt", 1, LineProblem::EmptyName),
    ];
    for (name, line, problem) in cases {
        let error = read(name).unwrap_err();
        assert_eq!((error.line, error.problem), (line, problem), "{name}");
    }
}

#[test]
fn a_header_unlike_the_levels_is_refused() {
    let level = level4();
    let dice = read("dice-not-the-levels.txt").unwrap();
    assert_eq!(
        refusal(check_moves(&dice, &level)),
        (2, LineProblem::DiffersFromLevel("dice sequence"))
    );
    let target = read("target-not-the-levels.txt").unwrap();
    assert_eq!(
        refusal(check_moves(&target, &level)),
        (3, LineProblem::DiffersFromLevel("target piece"))
    );
    // Without the level, the same file is its own level and passes.
    assert!(check_alone("target-not-the-levels.txt").is_ok());
}

#[test]
fn illegal_moves_are_refused_with_the_rule_they_break() {
    let illegal = |number, error| LineProblem::IllegalMove { number, error };
    let no_three = read("bad-wrong-piece.txt").unwrap().positions[1];
    let cases = [
        (
            "bad-not-a-king-step.txt",
            6,
            illegal(
                2,
                MoveError::NotKingStep {
                    piece: 4,
                    from: 46,
                    to: 24,
                },
            ),
        ),
        (
            "bad-wrong-piece.txt",
            6,
            illegal(
                2,
                MoveError::NotMovable {
                    piece: 3,
                    die: 4,
                    movable: movable_pieces(&no_three, 4),
                },
            ),
        ),
        (
            "bad-removed-square.txt",
            6,
            illegal(2, MoveError::RemovedSquare(22)),
        ),
        (
            "bad-two-pieces-moved.txt",
            6,
            LineProblem::SeveralPiecesMoved(2, 4),
        ),
        ("bad-piece-vanished.txt", 5, LineProblem::Vanished(1)),
        ("bad-piece-revived.txt", 6, LineProblem::Revived(1)),
        ("bad-no-piece-moved.txt", 6, LineProblem::NoPieceMoved),
    ];
    for (name, line, problem) in cases {
        assert_eq!(refusal(check_alone(name)), (line, problem), "{name}");
    }
}

#[test]
fn nothing_may_follow_the_end_of_the_game() {
    assert_eq!(
        refusal(check_alone("bad-line-after-the-win.txt")),
        (11, LineProblem::AfterEnd(Status::Won))
    );
    assert_eq!(
        refusal(check_alone("bad-line-after-target-captured.txt")),
        (
            7,
            LineProblem::AfterEnd(Status::Lost(LossReason::TargetCaptured))
        )
    );
    // The file plays level 4, whose own limit is 15 moves (SPEC §1): move 16 is refused.
    assert_eq!(
        refusal(check_alone("bad-past-level4s-limit.txt")),
        (20, LineProblem::TooManyMoves(15))
    );
    // On a board with another removed square it is not the course's level 4, and only the
    // 31st move is refused.
    let file = read("bad-past-level4s-limit.txt").unwrap();
    let other_board = Rules {
        blocked: 50,
        ..Rules::default()
    };
    assert_eq!(
        refusal(check_moves(&file, &file.level(other_board).unwrap())),
        (35, LineProblem::TooManyMoves(30))
    );
}

#[test]
fn errors_read_as_a_line_and_a_reason() {
    let error = check_alone("bad-wrong-piece.txt").unwrap_err();
    assert_eq!(
        error.to_string(),
        "line 6: move 2: piece 3 may not move on die 4: the movable pieces are 4"
    );
}
