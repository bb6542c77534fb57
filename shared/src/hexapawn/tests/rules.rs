use super::{hexapawn_start, play_all};
use crate::hexapawn::{Dims, HexapawnError, Move, Position, Side, Square, Status, WinReason};

fn won(winner: Side, reason: WinReason) -> Status {
    Status::Won { winner, reason }
}

#[test]
fn the_opening_has_one_pawn_per_column_and_three_straight_moves() {
    let start = hexapawn_start();
    assert_eq!(start.to_text(), "BBB/.../WWW w");
    assert_eq!(start.status(), Status::Playing);
    let moves: Vec<String> = start.legal_moves().iter().map(Move::to_string).collect();
    assert_eq!(moves, ["a1-a2", "b1-b2", "c1-c2"]);
}

#[test]
fn golden_game_white_reaches_the_far_row() {
    let end = play_all(hexapawn_start(), "a1-a2 c3-c2 a2xb3");
    assert_eq!(end.to_text(), "BW./..B/.WW b");
    assert_eq!(end.status(), won(Side::White, WinReason::ReachedFarRow));
    assert!(end.legal_moves().is_empty());
}

#[test]
fn golden_game_black_leaves_white_without_a_move() {
    let end = play_all(hexapawn_start(), "a1-a2 b3xa2 b1xa2 c3-c2");
    assert_eq!(end.to_text(), "B../W.B/..W w");
    assert_eq!(end.status(), won(Side::Black, WinReason::NoLegalMove));
}

#[test]
fn golden_game_white_leaves_black_without_a_move() {
    let end = play_all(hexapawn_start(), "b1-b2 a3xb2 c1xb2 c3xb2 a1xb2");
    assert_eq!(end.to_text(), ".B./.W./... b");
    assert_eq!(end.status(), won(Side::White, WinReason::NoLegalMove));
}

#[test]
fn golden_game_black_reaches_row_one() {
    let end = play_all(hexapawn_start(), "b1-b2 a3xb2 a1-a2 b2xc1");
    assert_eq!(end.to_text(), ".BB/W../..B w");
    assert_eq!(end.status(), won(Side::Black, WinReason::ReachedFarRow));
}

#[test]
fn capturing_the_last_pawn_wins() {
    let position = Position::from_text("..../.B../W.../.... w").unwrap();
    let end = position.play("a2xb3".parse().unwrap()).unwrap();
    assert_eq!(end.status(), won(Side::White, WinReason::NoPawnsLeft));
}

#[test]
fn illegal_moves_are_refused_with_a_reason() {
    let start = hexapawn_start();
    let reason = |text: &str| match start.play(text.parse().unwrap()) {
        Err(HexapawnError::IllegalMove { reason, .. }) => reason,
        other => panic!("{text}: {other:?}"),
    };
    assert_eq!(reason("a2-a3"), "there is no pawn on the starting square");
    assert_eq!(reason("a3-a2"), "that pawn belongs to the other side");
    assert_eq!(reason("a1-a3"), "a pawn moves exactly one row forward");
    assert_eq!(
        reason("a1xb2"),
        "a pawn moves diagonally only to capture an enemy pawn"
    );
    assert_eq!(reason("a1-d4"), "that square is off the board");
    // Squares off every board, as a client may send them, are refused and named by number.
    let nowhere = Move::new(Square::new(255, 255), Square::new(255, 0));
    assert_eq!(
        start.play(nowhere).unwrap_err().to_string(),
        "illegal move (column 255, row 255)-(column 255, row 0): that square is off the board"
    );
    assert_eq!(Square::new(7, 7).to_string(), "h8");
    assert_eq!(Square::new(8, 0).to_string(), "(column 8, row 0)");
    let blocked = play_all(start, "b1-b2 a3-a2 c1-c2");
    assert_eq!(blocked.to_text(), ".BB/BWW/W.. b");
    assert!(matches!(
        blocked.play("b3-b2".parse().unwrap()),
        Err(HexapawnError::IllegalMove {
            reason: "a pawn moves straight only onto an empty square",
            ..
        })
    ));
    let over = play_all(start, "a1-a2 c3-c2 a2xb3");
    assert!(matches!(
        over.play("c2-c1".parse().unwrap()),
        Err(HexapawnError::GameOver(_))
    ));
}

#[test]
fn moves_read_in_several_spellings_and_print_one() {
    let capture = Move::new(Square::new(1, 1), Square::new(2, 2));
    for text in ["b2xc3", "B2XC3", "b2-c3", "b2c3", " b2 x c3 "] {
        assert_eq!(text.parse::<Move>().unwrap(), capture, "{text}");
    }
    assert_eq!(capture.to_string(), "b2xc3");
    assert_eq!("a1-a2".parse::<Move>().unwrap().to_string(), "a1-a2");
    for bad in [
        "", "a1", "a1-", "i1-i2", "a0-a1", "a9-a8", "a1-a2-a3", "her",
    ] {
        assert!(bad.parse::<Move>().is_err(), "{bad:?} should be refused");
    }
}

#[test]
fn positions_and_sizes_read_back_and_refuse_nonsense() {
    let octapawn = Position::start(Dims::OCTAPAWN);
    assert_eq!(octapawn.to_text(), "BBBB/..../..../WWWW w");
    assert_eq!(Position::from_text(&octapawn.to_text()).unwrap(), octapawn);
    assert_eq!("4x4".parse::<Dims>().unwrap(), Dims::OCTAPAWN);
    assert_eq!(" 3 X 5 ".parse::<Dims>().unwrap(), Dims::new(3, 5).unwrap());
    for bad in ["3", "2x3", "9x9", "3x0", "axb"] {
        assert!(bad.parse::<Dims>().is_err(), "{bad:?} should be refused");
    }
    for bad in [
        "BBB/.../WWW",
        "BBB/.../WWW x",
        "BBB/../WWW w",
        "BBB/.Q./WWW w",
        "BBBB/WWWW/..../WWWW w",
        "",
    ] {
        assert!(
            Position::from_text(bad).is_err(),
            "{bad:?} should be refused"
        );
    }
}

#[test]
fn the_console_picture_has_row_numbers_and_column_letters() {
    let picture = play_all(hexapawn_start(), "b1-b2").to_string();
    assert_eq!(picture, " 3  B B B\n 2  . W .\n 1  W . W\n    a b c\n");
}

#[test]
fn positions_and_moves_travel_through_bincode_and_refuse_bad_boards() {
    let position = play_all(hexapawn_start(), "a1-a2 c3-c2");
    let mv: Move = "a2xb3".parse().unwrap();
    let config = bincode::config::standard();
    let bytes = bincode::serde::encode_to_vec((position, mv), config).unwrap();
    let (back, _): ((Position, Move), usize) =
        bincode::serde::decode_from_slice(&bytes, config).unwrap();
    assert_eq!(back, (position, mv));
    let json = serde_json::to_string(&position).unwrap();
    let overlapping = json.replace(
        &format!("\"black\":{}", position.pawns(Side::Black)),
        &format!("\"black\":{}", position.pawns(Side::White)),
    );
    assert!(serde_json::from_str::<Position>(&overlapping).is_err());
}
