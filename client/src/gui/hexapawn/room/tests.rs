//! The play room's pure parts: clicks, who acts, the layout, and Play again.

use super::*;
use parlor_shared::hexapawn::{BoxView, Brain, Dims, HexSetup};
use parlor_shared::protocol::RoomSnapshot;

fn game(mode: PlayMode, plies: &str) -> HexGame {
    let setup = HexSetup {
        dims: Dims::HEXAPAWN,
        mirrors: false,
        mode,
        brain: "HER".into(),
    };
    let mut game = HexGame::new(setup, &Brain::new(Dims::HEXAPAWN, false));
    for ply in plies.split_whitespace() {
        game = game.play(ply.parse().unwrap()).unwrap();
    }
    game
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn play(text: &str) -> BoardPlay {
    BoardPlay::Move(GameMove::Hexapawn(HexMove::Play(text.parse().unwrap())))
}

#[test]
fn a_pawn_then_its_target_makes_the_move() {
    let start = game(PlayMode::Fast, "").position;
    assert_eq!(
        click(&start, None, sq("b1")),
        (BoardPlay::Picked, Some(sq("b1")))
    );
    assert_eq!(targets(&start, sq("b1")), vec![sq("b2")]);
    assert_eq!(
        click(&start, Some(sq("b1")), sq("b2")),
        (play("b1-b2"), None)
    );
    // Another own pawn changes the pick.
    assert_eq!(
        click(&start, Some(sq("b1")), sq("a1")),
        (BoardPlay::Picked, Some(sq("a1")))
    );
}

#[test]
fn clicks_that_are_no_move_say_why() {
    let start = game(PlayMode::Fast, "").position;
    let (refused, picked) = click(&start, None, sq("b3"));
    assert_eq!(
        refused,
        BoardPlay::Refused("That is HER's pawn: pick one of your white pawns.".into())
    );
    assert_eq!(picked, None);
    let (refused, picked) = click(&start, Some(sq("b1")), sq("b3"));
    assert!(matches!(refused, BoardPlay::Refused(r) if r.starts_with("illegal move b1")));
    assert_eq!(picked, Some(sq("b1")));
    let (refused, _) = click(&start, None, sq("b2"));
    assert!(matches!(refused, BoardPlay::Refused(r) if r.starts_with("First pick")));
    // The pawn on a2 faces a black pawn and has nothing to capture.
    let blocked = game(PlayMode::Fast, "a1-a2 b3-b2").position;
    let (refused, _) = click(&blocked, None, sq("a2"));
    assert_eq!(
        refused,
        BoardPlay::Refused("The pawn on a2 has no move.".into())
    );
}

#[test]
fn on_hers_turn_in_slow_mode_her_pawn_then_its_target_forces_the_move_if_beaded() {
    let mut slow = game(PlayMode::Slow, "b1-b2");
    let position = slow.position;
    // The box the server shows on HER's turn, of a new brain.
    slow.matchbox = BoxView::of(&Brain::new(Dims::HEXAPAWN, false), &position);
    assert_eq!(
        click(&position, None, sq("a3")),
        (BoardPlay::Picked, Some(sq("a3"))),
        "HER's pawn is picked on HER's turn"
    );
    let (refused, _) = click(&position, None, sq("a1"));
    assert_eq!(
        refused,
        BoardPlay::Refused("That is your pawn: pick one of HER's black pawns.".into())
    );
    let (forced, picked) = click(&position, Some(sq("a3")), sq("a2"));
    assert_eq!((&forced, picked), (&play("a3-a2"), None));
    assert_eq!(
        forced_if_beaded(forced.clone(), &slow),
        forced,
        "a new box has every bead"
    );
    // A move whose beads are all gone is no longer HER's to play.
    let matchbox = slow.matchbox.as_mut().unwrap();
    for (mv, beads) in &mut matchbox.beads {
        if *mv == "a3-a2".parse().unwrap() {
            matchbox.total -= *beads;
            *beads = 0;
        }
    }
    assert_eq!(
        forced_if_beaded(forced, &slow),
        BoardPlay::Refused(
            "HER has no bead left for a3-a2: force a blue arrow, or Let HER pick.".into()
        )
    );
    // The person's own moves are never checked against HER's box.
    let fast = game(PlayMode::Fast, "");
    assert_eq!(forced_if_beaded(play("b1-b2"), &fast), play("b1-b2"));
}

#[test]
fn in_slow_mode_the_person_acts_for_her_and_in_fast_mode_not() {
    let slow = game(PlayMode::Slow, "b1-b2");
    let fast = game(PlayMode::Fast, "b1-b2");
    assert_eq!(acting_seat(&slow), Some(PERSON_SEAT));
    assert_eq!(acting_seat(&fast), Some(HER_SEAT));
    assert_eq!(may_act(&slow, &[PERSON_SEAT], false), Ok(()));
    assert_eq!(
        may_act(&fast, &[PERSON_SEAT], false),
        Err("HER is thinking.".into())
    );
    assert!(may_act(&slow, &[], false).is_err());
    assert!(may_act(&slow, &[PERSON_SEAT], true).is_err());
    let over = game(PlayMode::Slow, "b1-b2 a3xb2 c1xb2 c3xb2 a1xb2");
    assert_eq!(acting_seat(&over), None);
    assert_eq!(
        may_act(&over, &[PERSON_SEAT], false),
        Err("The game is over.".into())
    );
}

#[test]
fn play_again_asks_for_the_same_setup_and_pause() {
    let game = game(PlayMode::Fast, "");
    let snapshot = RoomSnapshot {
        creator: None,
        watchers: Vec::new(),
        room: 3,
        version: 9,
        seats: vec![
            SeatState::Taken {
                connected: true,
                player: None,
            },
            SeatState::Ai {
                move_ms: 700,
                name: "HER".into(),
            },
        ],
        spectators: 0,
        state: parlor_shared::game::GameState::Hexapawn(game.clone()),
        moves: vec![],
        plan_ahead: vec![],
        outcome: None,
        record: None,
        again: None,
    };
    assert_eq!(
        again(&snapshot, &game),
        BoardPlay::PlayAgain(Rematch {
            setup: GameSetup::Hexapawn(game.setup.clone()),
            seats: vec![SeatSpec::Human, SeatSpec::ai(700)],
            made: None,
        })
    );
}

#[test]
fn slow_mode_puts_the_matchbox_beside_the_board() {
    let (board, matchbox, info) = play_layout(1024.0, 768.0, &game(PlayMode::Slow, ""));
    let matchbox = matchbox.unwrap();
    assert!(board.left + board.width() < matchbox.left);
    assert_eq!(board.cell, matchbox.cell);
    assert!(board.top + board.height() + 20.0 < info);
    let (fast, none, _) = play_layout(1024.0, 768.0, &game(PlayMode::Fast, ""));
    assert!(none.is_none() && fast.cell > board.cell);
}

#[test]
fn only_the_person_is_told_you_win_or_sees_a_loss_in_red() {
    let won = game(PlayMode::Slow, "b1-b2 a3xb2 c1xb2 c3xb2 a1xb2");
    let (text, color) = result_for(&won, true).unwrap();
    assert!(text.starts_with("You win."), "{text}");
    assert_eq!(color, GOOD_TEXT);
    let (text, color) = result_for(&won, false).unwrap();
    assert_eq!(text, "White wins. Black is to move and has no legal move");
    assert_eq!(color, TEXT);
    let lost = game(PlayMode::Slow, "b1-b2 a3xb2 a1-a2 b2-b1");
    let (text, color) = result_for(&lost, true).unwrap();
    assert!(text.starts_with("HER wins."), "{text}");
    assert_eq!(color, ERROR_TEXT);
    assert!(result_for(&lost, false).unwrap().0.starts_with("HER wins."));
    assert_eq!(result_for(&game(PlayMode::Slow, "b1-b2"), false), None);
}
