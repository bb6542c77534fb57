use super::*;
use crate::gui::cave::room::tests::snapshot_after;

#[test]
fn a_newer_state_or_an_error_ends_the_wait_for_a_move() {
    let mut view = RoomView::new(1);
    view.awaiting = Some(3);
    view.on_state(&snapshot_after("a1 h1 b1"));
    assert_eq!(view.awaiting, Some(3));
    view.on_state(&snapshot_after("a1 h1 b1 g1"));
    assert_eq!(view.awaiting, None);
    view.awaiting = Some(4);
    view.on_error();
    assert_eq!(view.awaiting, None);
}

#[test]
fn only_games_that_are_stored_offer_a_replay() {
    assert!(is_stored_when_over(Some(&snapshot_after("a1 h1"))));
    assert!(is_stored_when_over(None), "greyed while the room loads");
    let setup = parlor_shared::hexapawn::MatchSetup {
        dims: parlor_shared::hexapawn::Dims::HEXAPAWN,
        mirrors: false,
        rounds: 10,
        pace: parlor_shared::hexapawn::Pace::FullSpeed,
        brains: ["A".into(), "B".into()],
    };
    let auto_match = RoomSnapshot {
        state: GameState::HerMatch(parlor_shared::hexapawn::MatchView::new(setup)),
        ..snapshot_after("a1 h1")
    };
    assert!(!is_stored_when_over(Some(&auto_match)));
}

#[test]
fn a_refusal_shows_until_something_valid_is_picked() {
    let mut view = RoomView::new(1);
    view.note_hint(3, &BoardPlay::Refused("Drop from 1 to 9".into()));
    assert_eq!(view.hint_text(), Some("Drop from 1 to 9"));
    view.note_hint(3, &BoardPlay::Nothing);
    assert_eq!(view.hint_text(), Some("Drop from 1 to 9"));
    view.note_hint(3, &BoardPlay::Picked);
    assert_eq!(
        view.hint_text(),
        None,
        "a valid pick clears the stale reason"
    );
    // A move half typed says what comes next, not in the colour of a refusal.
    view.note_hint(3, &BoardPlay::Prompt("Column d: now type its row".into()));
    assert_eq!(view.hint_text(), Some("Column d: now type its row"));
    assert_eq!(
        view.hint.as_ref().map(|(.., color)| *color),
        Some(GOOD_TEXT)
    );
}

#[test]
fn taking_a_seat_drops_the_reason_a_spectator_could_not_move() {
    let mut view = RoomView::new(1);
    view.note_hint(3, &BoardPlay::Refused("Spectators cannot move.".into()));
    view.on_panel_action(Some(&RoomAction::Send(ClientMsg::Leave { room: 1 })));
    assert!(view.hint_text().is_some());
    view.on_panel_action(Some(&RoomAction::Send(ClientMsg::join_seat(1, 0))));
    assert_eq!(view.hint_text(), None);
}

#[test]
fn a_board_play_keeps_the_first_thing_that_happened() {
    let drop = || BoardPlay::Refused("no".into());
    assert_eq!(BoardPlay::Nothing.or(drop()), drop());
    assert_eq!(drop().or(BoardPlay::Nothing), drop());
}

#[test]
fn a_seat_offers_sit_here_also_play_or_resume_as_the_lobby_does() {
    use parlor_shared::identity::Player;
    let ada = Player {
        id: PlayerId(0xada0 << 48),
        name: "Ada".into(),
    };
    let me = Some(ada.id);
    let open = SeatState::Open;
    assert_eq!(seat_offer(&open, false, false, me), Some("Sit here"));
    assert_eq!(seat_offer(&open, false, true, me), Some("Also play"));
    let taken_by = |player: &Player| SeatState::Taken {
        connected: false,
        player: Some(player.clone()),
    };
    // Ada's seat from before the window was opened again: hers to take back.
    assert_eq!(
        seat_offer(&taken_by(&ada), false, false, me),
        Some("Resume")
    );
    assert_eq!(
        seat_offer(&taken_by(&ada), true, false, me),
        None,
        "held here"
    );
    let bob = Player {
        id: PlayerId(0xb0b0 << 48),
        name: "Bob".into(),
    };
    assert_eq!(seat_offer(&taken_by(&bob), false, true, me), None);
    let kept_for = |player: &Player| SeatState::Kept {
        player: player.clone(),
    };
    assert_eq!(
        seat_offer(&kept_for(&ada), false, false, me),
        Some("Sit here")
    );
    assert_eq!(seat_offer(&kept_for(&bob), false, false, me), None);
}
