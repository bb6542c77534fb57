use proptest::prelude::*;

use super::*;

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn moves(names: &str) -> Vec<Square> {
    parse_moves(names).unwrap()
}

/// The plain reading of the rules, cell by cell, to check the bitboard code against.
fn naive_anchored(position: &Position, square: Square) -> bool {
    let (col, row) = (square.col(), square.row());
    let filled = |c: u8| position.at(Square::new(c, row).unwrap()).is_some();
    position.at(square).is_none()
        && (col == 0 || col == 7 || (col > 0 && filled(col - 1)) || (col < 7 && filled(col + 1)))
}

fn naive_five(bits: u64) -> bool {
    let on = |c: i32, r: i32| {
        (0..8).contains(&c) && (0..8).contains(&r) && bits & (1 << (r * 8 + c)) != 0
    };
    (0..8).any(|r| {
        (0..8).any(|c| {
            [(1, 0), (0, 1), (1, 1), (-1, 1)]
                .iter()
                .any(|&(dc, dr)| (0..5).all(|i| on(c + i * dc, r + i * dr)))
        })
    })
}

#[test]
fn empty_cave_offers_exactly_the_two_wall_columns() {
    let position = Position::new();
    assert_eq!(position.legal_moves(), COL_A | COL_H);
    assert_eq!(position.legal_squares().count(), 16);
    assert_eq!(position.to_move(), Player::Black);
    assert_eq!(position.outcome(), None);
}

#[test]
fn every_empty_cell_of_the_empty_cave_is_judged_like_the_rule_text() {
    let position = Position::new();
    for square in Square::all() {
        let legal = square.col() == 0 || square.col() == 7;
        assert_eq!(position.is_legal(square), legal, "{square}");
    }
}

#[test]
fn a_brick_opens_only_its_horizontal_neighbours() {
    let position = Position::from_moves(&moves("a4")).unwrap();
    assert!(position.is_legal(sq("b4")));
    assert!(!position.is_legal(sq("b5")), "no vertical anchoring");
    assert!(!position.is_legal(sq("b3")), "no diagonal anchoring");
    assert_eq!(position.check(sq("a4")), Err(MoveError::Occupied(sq("a4"))));
    assert_eq!(
        position.check(sq("c4")),
        Err(MoveError::NotAnchored(sq("c4")))
    );
    let position = position.play(sq("h4")).unwrap().play(sq("g4")).unwrap();
    assert!(position.is_legal(sq("f4")));
    assert!(!position.is_legal(sq("e4")));
}

#[test]
fn neighbours_never_wrap_between_rows() {
    // A brick on h3 must not open a4 by wrapping (a4 is legal anyway: wall), and a brick on a4
    // must not open h3 (wall as well); so test the inner cells next to them stay closed.
    let position = Position::from_moves(&moves("h3 a4")).unwrap();
    assert!(position.is_legal(sq("g3")));
    assert!(position.is_legal(sq("b4")));
    assert!(!position.is_legal(sq("b3")));
    assert!(!position.is_legal(sq("g4")));
}

#[test]
fn turns_alternate_and_bricks_belong_to_the_mover() {
    let position = Position::from_moves(&moves("a1 h1 b1")).unwrap();
    assert_eq!(position.at(sq("a1")), Some(Player::Black));
    assert_eq!(position.at(sq("h1")), Some(Player::White));
    assert_eq!(position.at(sq("b1")), Some(Player::Black));
    assert_eq!(position.to_move(), Player::White);
}

/// Builds a position holding exactly these black cells and some harmless white ones.
fn with_black(cells: &[&str]) -> Position {
    let black = cells.iter().fold(0, |bits, name| bits | sq(name).bit());
    Position {
        black,
        white: 0,
        to_move: Player::White,
        resigned: None,
    }
}

#[test]
fn fives_in_all_four_directions_at_every_edge() {
    let fives: &[&[&str]] = &[
        // horizontal: left wall, right wall, bottom and top rows
        &["a1", "b1", "c1", "d1", "e1"],
        &["d8", "e8", "f8", "g8", "h8"],
        &["a8", "b8", "c8", "d8", "e8"],
        &["d1", "e1", "f1", "g1", "h1"],
        // vertical on both walls, touching bottom and top
        &["a1", "a2", "a3", "a4", "a5"],
        &["h4", "h5", "h6", "h7", "h8"],
        // diagonals up-right and up-left from the corners
        &["a1", "b2", "c3", "d4", "e5"],
        &["d4", "e5", "f6", "g7", "h8"],
        &["h1", "g2", "f3", "e4", "d5"],
        &["e4", "d5", "c6", "b7", "a8"],
    ];
    for cells in fives {
        let position = with_black(cells);
        assert_eq!(
            position.outcome(),
            Some(Outcome::Win(Player::Black)),
            "{cells:?}"
        );
        let mut line = position.winning_line().unwrap().map(|s| s.to_string());
        line.sort();
        let mut expected: Vec<String> = cells.iter().map(|s| s.to_string()).collect();
        expected.sort();
        assert_eq!(line.to_vec(), expected);
    }
}

#[test]
fn runs_that_wrap_around_an_edge_are_not_fives() {
    let not_fives: &[&[&str]] = &[
        &["f1", "g1", "h1", "a2", "b2"], // wraps from row 1 to row 2
        &["g1", "h2", "a4", "b5", "c6"], // diagonal that would wrap
        &["b1", "a2", "h2", "g3", "f4"], // up-left diagonal that would wrap
        &["a1", "b1", "c1", "d1", "f1"], // gap
        &["a1", "a2", "a3", "a4"],       // only four
    ];
    for cells in not_fives {
        assert_eq!(with_black(cells).outcome(), None, "{cells:?}");
    }
}

#[test]
fn five_is_detected_after_a_real_game_and_stops_play() {
    // Black builds a1..e1 along the bottom row while White plays on the right wall.
    let position = Position::from_moves(&moves("a1 h8 b1 h7 c1 h6 d1 h5 e1")).unwrap();
    assert_eq!(position.outcome(), Some(Outcome::Win(Player::Black)));
    assert_eq!(position.legal_moves(), 0);
    assert_eq!(position.play(sq("h4")), Err(MoveError::GameOver));
}

/// A full board without five: pairs of columns alternate colour, shifted by one every row.
fn tie_pattern() -> u64 {
    Square::all()
        .filter(|s| (s.col() / 2 + s.row()) % 2 == 0)
        .fold(0, |bits, s| bits | s.bit())
}

#[test]
fn a_full_board_without_five_is_a_tie() {
    let black = tie_pattern();
    let position = Position::from_bitboards(black, !black).unwrap();
    assert!(!naive_five(black) && !naive_five(!black));
    assert_eq!(position.outcome(), Some(Outcome::Tie));
    assert_eq!(position.legal_moves(), 0);
}

#[test]
fn a_five_on_the_last_cell_is_a_win_not_a_tie() {
    // The tie board with the bottom row's a1..e1 given to Black.
    let black = tie_pattern();
    let five = ["a1", "b1", "c1", "d1", "e1"]
        .iter()
        .fold(0, |b, n| b | sq(n).bit());
    let black = black | five;
    let position = Position {
        black,
        white: !black,
        to_move: Player::Black,
        resigned: None,
    };
    assert_eq!(position.outcome(), Some(Outcome::Win(Player::Black)));
}

#[test]
fn from_bitboards_refuses_impossible_counts_and_overlaps() {
    assert!(Position::from_bitboards(1, 1).is_none());
    assert!(Position::from_bitboards(0b11, 0).is_none());
    assert!(Position::from_bitboards(0, 1).is_none());
    assert_eq!(
        Position::from_bitboards(1, 0).unwrap().to_move(),
        Player::White
    );
}

#[test]
fn console_picture_has_row_8_on_top_and_labels_on_both_sides() {
    let text = Position::from_moves(&moves("a1 h8")).unwrap().to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 10);
    assert_eq!(lines[0], "    a b c d e f g h");
    assert_eq!(lines[1], "8 | - - - - - - - □ | 8");
    assert_eq!(lines[8], "1 | ■ - - - - - - - | 1");
    assert_eq!(lines[9], lines[0]);
}

#[test]
fn json_shows_a_board_picture_and_reads_back_without_it() {
    let position = Position::from_moves(&moves("a1 h8")).unwrap();
    let json = serde_json::to_value(position).unwrap();
    assert_eq!(json["board"][0], ".......O");
    assert_eq!(json["board"][7], "X.......");
    assert_eq!(serde_json::from_value::<Position>(json).unwrap(), position);
}

/// A position's fields as they travel, written without [`Position`]'s checks.
#[derive(Serialize)]
struct RawPosition {
    black: u64,
    white: u64,
    to_move: Player,
    resigned: Option<Player>,
}

#[test]
fn positions_decode_as_they_always_have_and_impossible_bricks_are_refused() {
    use crate::codec::{Format, Frame, decode, encode};

    let position = Position::from_moves(&moves("a1 h8 b1")).unwrap();
    // The encodings a position has (bincode: varints, the variant's index, and since protocol
    // 12 the side that resigned, none here); JSON as it has always been, which the store keeps.
    let binary = Frame::Binary(vec![3, 253, 0, 0, 0, 0, 0, 0, 0, 128, 1, 0]);
    let json = Frame::Text(r#"{"black":3,"white":9223372036854775808,"to_move":"White"}"#.into());
    for frame in [&binary, &json] {
        assert_eq!(decode::<Position>(frame).unwrap(), position, "{frame:?}");
    }
    assert_eq!(encode(&position, Format::Binary).unwrap(), binary);
    let raw = |black, white, to_move| RawPosition {
        black,
        white,
        to_move,
        resigned: None,
    };
    assert_eq!(
        encode(&raw(3, 1 << 63, Player::White), Format::Binary).unwrap(),
        binary,
        "the raw fields are a position's shape"
    );
    let refused = [
        (raw(3, 1, Player::White), "no game has these bricks"),
        (raw(3, 0, Player::White), "no game has these bricks"),
        (raw(0, 1, Player::Black), "no game has these bricks"),
        (raw(3, 1 << 63, Player::Black), "White is to move"),
    ];
    for (raw, why) in refused {
        for format in [Format::Binary, Format::Json] {
            let frame = encode(&raw, format).unwrap();
            let error = decode::<Position>(&frame).map_or_else(
                |error| error.to_string(),
                |position| panic!("{frame:?} read as {position:?}"),
            );
            assert!(error.contains(why), "{frame:?}: {error}");
        }
    }
}

fn random_game() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 0..70)
}

/// Plays choice indices as legal moves until the game ends or the choices run out.
fn play_choices(choices: &[u8]) -> Vec<Position> {
    let mut positions = vec![Position::new()];
    for &choice in choices {
        let position = *positions.last().unwrap();
        let legal: Vec<Square> = position.legal_squares().collect();
        if legal.is_empty() {
            break;
        }
        positions.push(position.play(legal[choice as usize % legal.len()]).unwrap());
    }
    positions
}

#[test]
fn anchored_cells_of_a_bare_bitboard_are_the_rules_cells() {
    // Searches that keep bare bitboards (df-pn) take their cells from `anchored_cells`. d4 is
    // placed unchecked, for an inner brick's neighbours.
    let mut position = Position::new();
    for square in moves("a1 h1 b1 d4 h4") {
        let anchored = anchored_cells(position.occupied());
        assert_eq!(anchored, position.anchored_empty_cells());
        for cell in Square::all() {
            assert_eq!(
                anchored & cell.bit() != 0,
                naive_anchored(&position, cell),
                "{cell} in\n{position}"
            );
        }
        position = position.play_unchecked(square);
    }
}

proptest! {
    #[test]
    fn legal_cells_match_the_rule_text(choices in random_game()) {
        for position in play_choices(&choices) {
            for square in Square::all() {
                let expected = position.outcome().is_none() && naive_anchored(&position, square);
                prop_assert_eq!(position.is_legal(square), expected, "{} in\n{}", square, position);
            }
        }
    }

    #[test]
    fn five_detection_matches_a_cell_by_cell_scan(bits in any::<u64>()) {
        prop_assert_eq!(has_five(bits), naive_five(bits));
    }

    #[test]
    fn every_game_ends_within_64_moves_and_each_row_offers_at_most_two_cells(choices in random_game()) {
        let positions = play_choices(&choices);
        prop_assert!(positions.len() <= 65);
        for position in &positions {
            for row in 0..8 {
                let row_bits = (position.legal_moves() >> (row * 8)) & 0xFF;
                prop_assert!(row_bits.count_ones() <= 2);
            }
            let (black, white) = (position.bricks(Player::Black), position.bricks(Player::White));
            prop_assert_eq!(black & white, 0);
            prop_assert_eq!(Position::from_bitboards(black, white), Some(*position));
        }
        if choices.len() >= 64 {
            prop_assert!(positions.last().unwrap().outcome().is_some());
        }
    }

    #[test]
    fn each_cell_is_played_as_the_rules_allow_or_refused_with_the_rule_it_breaks(
        choices in random_game(),
        index in 0u8..64,
    ) {
        let position = *play_choices(&choices).last().unwrap();
        let square = Square::from_index(index).unwrap();
        // The plain rules, in the order a refusal names them.
        let expected = if position.outcome().is_some() {
            Err(MoveError::GameOver)
        } else if position.at(square).is_some() {
            Err(MoveError::Occupied(square))
        } else if !naive_anchored(&position, square) {
            Err(MoveError::NotAnchored(square))
        } else {
            Ok(())
        };
        match (position.play(square), expected) {
            (Ok(next), Ok(())) => {
                prop_assert_eq!(next.at(square), Some(position.to_move()));
                prop_assert_eq!(next.to_move(), position.to_move().other());
                for other in Square::all().filter(|&other| other != square) {
                    prop_assert_eq!(next.at(other), position.at(other), "{} moved", other);
                }
            }
            (Err(refusal), Err(expected)) => {
                prop_assert_eq!(&refusal, &expected);
                if refusal != MoveError::GameOver {
                    let text = refusal.to_string();
                    prop_assert!(text.contains(&square.to_string()), "{}", text);
                }
            }
            (got, expected) => prop_assert!(
                false,
                "{} in\n{}: got {:?}, the rules say {:?}",
                square,
                position,
                got,
                expected
            ),
        }
    }
}

#[test]
fn a_side_that_resigns_loses_on_its_turn_or_not_and_nothing_is_played_after() {
    let position = Position::from_moves(&moves("a1 h8 b1")).unwrap();
    for side in [Player::Black, Player::White] {
        let resigned = position.resign(side).unwrap();
        assert_eq!(resigned.result(), Some(Outcome::Win(side.other())));
        assert_eq!(resigned.outcome(), None, "the board decides nothing");
        assert_eq!(resigned.resigned(), Some(side));
        assert_eq!(resigned.play(sq("c1")), Err(MoveError::GameOver));
        assert_eq!(resigned.resign(side.other()), Err(MoveError::GameOver));
        // It travels and is kept, in JSON as in the binary format.
        let json = serde_json::to_string(&resigned).unwrap();
        assert_eq!(serde_json::from_str::<Position>(&json).unwrap(), resigned);
        let bytes = crate::codec::encode_for_node(&resigned).unwrap();
        assert_eq!(
            crate::codec::decode_from_node::<Position>(&bytes).unwrap(),
            resigned
        );
    }
    let won = Position::from_moves(&moves("a1 h8 b1 h7 c1 h6 d1 h5 e1")).unwrap();
    assert_eq!(won.resign(Player::White), Err(MoveError::GameOver));
}

#[test]
fn a_position_stored_before_resigning_existed_reads_as_nobody_resigned() {
    let old = r#"{"black":1,"white":0,"to_move":"White"}"#;
    let position: Position = serde_json::from_str(old).unwrap();
    assert_eq!(position.resigned(), None);
    assert_eq!(position, Position::from_moves(&moves("a1")).unwrap());
}
