use super::*;
use parlor_shared::game::GameSetup;
use parlor_shared::protocol::SeatState;

/// A room with two people after `moves` from the empty cave.
pub(in crate::gui) fn snapshot_after(moves: &str) -> RoomSnapshot {
    let moves: Vec<GameMove> = parlor_shared::cave::parse_moves(moves)
        .unwrap()
        .into_iter()
        .map(GameMove::Cave)
        .collect();
    let state = GameSetup::Cave
        .start()
        .unwrap()
        .replay(&moves)
        .unwrap()
        .pop()
        .unwrap();
    RoomSnapshot {
        creator: None,
        watchers: Vec::new(),
        room: 1,
        version: moves.len() as u64,
        seats: vec![
            SeatState::Taken {
                connected: true,
                player: None,
            };
            2
        ],
        spectators: 0,
        outcome: state.outcome(),
        state,
        moves,
        plan_ahead: vec![],
        record: None,
        again: None,
    }
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

#[test]
fn a_legal_cell_on_my_turn_is_a_move() {
    let snapshot = snapshot_after("a1");
    assert_eq!(click_refusal(&snapshot, &[1], false, sq("b1")), None);
    assert_eq!(click_refusal(&snapshot, &[1], false, sq("h5")), None);
    // Holding both seats, every turn is mine.
    assert_eq!(click_refusal(&snapshot, &[0, 1], false, sq("b1")), None);
}

#[test]
fn clicks_that_are_not_moves_say_why() {
    let snapshot = snapshot_after("a1");
    let refusal =
        |mine: &[u8], awaiting, name| click_refusal(&snapshot, mine, awaiting, sq(name)).unwrap();
    assert_eq!(refusal(&[], false, "b1"), "Spectators cannot move.");
    assert_eq!(refusal(&[0], false, "b1"), "It is not your turn.");
    assert_eq!(refusal(&[1], true, "b1"), "Your move is on its way.");
    assert!(refusal(&[1], false, "a1").contains("taken"));
    assert!(refusal(&[1], false, "d4").contains("not against a side wall"));
    let over = snapshot_after("a1 h8 b1 h7 c1 h6 d1 h5 e1");
    assert_eq!(
        click_refusal(&over, &[1], false, sq("h4")).unwrap(),
        "The game is over."
    );
}

#[test]
fn a_cell_is_typed_column_then_row_over_frames_and_a_stray_digit_says_what_first() {
    let mut typed = TypedCell::default();
    let d4: Square = "d4".parse().unwrap();
    assert_eq!(typed.read(&[]), None);
    assert_eq!(
        typed.read(&['D']),
        Some(Typed::Prompt("Column d: now type its row, 1 to 8.".into()))
    );
    assert_eq!(
        typed.read(&['4']),
        Some(Typed::Cell(d4)),
        "the row in a later frame"
    );
    assert_eq!(
        typed.read(&['4']),
        Some(Typed::Prompt(
            "Type the column first, a to h, then the row.".into()
        )),
        "the cell was taken: a row alone is no cell"
    );
    assert_eq!(
        typed.read(&['x', 'a', ' ', '9', '1']),
        Some(Typed::Cell("a1".parse().unwrap()))
    );
    assert_eq!(
        typed.read(&['b', 'c', '8']),
        Some(Typed::Cell("c8".parse().unwrap())),
        "the last letter counts"
    );
    // Typed fast, a cell and the next letter in one frame: the cell is played, the letter kept.
    assert_eq!(typed.read(&['d', '4', 'e']), Some(Typed::Cell(d4)));
    assert_eq!(typed.read(&['5']), Some(Typed::Cell("e5".parse().unwrap())));
}

#[test]
fn a_letter_waiting_for_its_row_goes_with_a_new_state_a_click_or_the_cursor() {
    let first_row = Some(Typed::Prompt(
        "Type the column first, a to h, then the row.".into(),
    ));
    let mut keys = CaveKeyboard::default();
    keys.read_typed(&['c'], 4, false);
    assert_eq!(
        keys.read_typed(&['5'], 4, false),
        Some(Typed::Cell(sq("c5")))
    );
    // The other player's move came between the letter and the row.
    keys.read_typed(&['h'], 4, false);
    assert_eq!(keys.read_typed(&['8'], 5, false), first_row);
    // An arrow key (or a click) came between them.
    keys.read_typed(&['c'], 5, false);
    assert_eq!(keys.read_typed(&[], 5, true), None);
    assert_eq!(keys.read_typed(&['5'], 5, false), first_row);
}
