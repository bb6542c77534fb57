//! The room's buttons at the foot of its side panel: Leave, Replay (or Replay the solution while
//! a solver plays it) and Play again, with a line above them once another player has made the
//! room that plays the game again.

use macroquad::math::Rect;
use parlor_shared::game::GameState;
use parlor_shared::protocol::{Rematch, RoomSnapshot};

use super::{RoomAction, is_stored_when_over};
use crate::gui::canvas::{canvas_height, canvas_width};
use crate::gui::widgets::{
    BUTTON_HEIGHT, GOOD_TEXT, Input, LINE_HEIGHT, button, button_at, button_enabled, button_width,
    fit_to_width, label, side_panel_x,
};

/// Leave, Replay once the finished game is stored (greyed until then), and for its players
/// Play again once it is over: a room like it (Hexapawn's board offers its own).
pub(super) fn draw_buttons(
    input: &Input,
    snapshot: Option<&RoomSnapshot>,
    seated: bool,
) -> Option<RoomAction> {
    let x = side_panel_x(canvas_width()) + 10.0;
    let y = canvas_height() - BUTTON_HEIGHT - 16.0;
    if button_at(input, x, y, "Leave") {
        return Some(RoomAction::Leave);
    }
    if !is_stored_when_over(snapshot) {
        return None;
    }
    let record = snapshot.and_then(|s| s.record);
    // A solver's whole solution may be replayed as soon as it has one.
    let planned = snapshot.is_some_and(|s| s.outcome.is_none() && !s.plan_ahead.is_empty());
    if planned {
        let text = "Replay the solution";
        let at = x + button_width("Leave") + 10.0;
        return button_at(input, at, y, text).then_some(RoomAction::ReplaySolution);
    }
    let text = "Replay";
    if button_enabled(input, replay_rect(), text, record.is_some()) {
        return record.map(RoomAction::Replay);
    }
    let again = snapshot.and_then(|snapshot| offered_again(snapshot, seated))?;
    if let Some(note) = rematch_note(&again) {
        let note = fit_to_width(&note, canvas_width() - x - 10.0);
        label(&note, x, y - 8.0, GOOD_TEXT);
    }
    button(input, play_again_rect(), PLAY_AGAIN).then_some(RoomAction::PlayAgain(again))
}

const PLAY_AGAIN: &str = "Play again";

/// Where Replay is, right of Leave.
fn replay_rect() -> Rect {
    let x = side_panel_x(canvas_width()) + 20.0 + button_width("Leave");
    let y = canvas_height() - BUTTON_HEIGHT - 16.0;
    Rect::new(x, y, button_width("Replay"), BUTTON_HEIGHT)
}

/// Where Play again is, right of Replay (for the scripted window's click too).
pub(in crate::gui) fn play_again_rect() -> Rect {
    let replay = replay_rect();
    let width = button_width(PLAY_AGAIN);
    Rect::new(replay.right() + 10.0, replay.y, width, BUTTON_HEIGHT)
}

/// What Play again offers a player of the room (Hexapawn's board offers its own).
fn offered_again(snapshot: &RoomSnapshot, seated: bool) -> Option<Rematch> {
    let offered = seated && !matches!(snapshot.state, GameState::Hexapawn(_));
    offered
        .then(|| snapshot.again.as_deref().cloned())
        .flatten()
}

/// The line above the buttons once another player made the room that plays the game again
/// (a player who made it has left for it): Play again takes the seat left there.
fn rematch_note(again: &Rematch) -> Option<String> {
    let room = again.room?;
    Some(format!("Your opponent waits in room #{room}"))
}

/// How much higher the moves list must end to leave the buttons' note its line.
pub(super) fn note_height(snapshot: &RoomSnapshot, seated: bool) -> f32 {
    match offered_again(snapshot, seated)
        .as_ref()
        .and_then(rematch_note)
    {
        Some(_) => LINE_HEIGHT,
        None => 0.0,
    }
}
