//! Magnetic Cave in a room: the board of the latest snapshot with the legal cells lit for the
//! seat to move, and a click on a cell turned into a move, or into the reason it is none.

use parlor_shared::cave::{Position, Square};
use parlor_shared::game::{GameMove, GameState};
use parlor_shared::protocol::RoomSnapshot;

use super::board::{BoardMarks, board_layout, draw_board, square_at};
use crate::gui::board_play::BoardPlay;
use crate::gui::canvas::{canvas_height, canvas_width};
use crate::gui::widgets::Input;

/// Draws the board of `position`, its last brick `arrival` of the way in; `mine` are the seats
/// held here and `awaiting` says a move of ours is on its way.
pub fn update_board(
    input: &Input,
    snapshot: &RoomSnapshot,
    position: &Position,
    (mine, awaiting): (&[u8], bool),
    arrival: f32,
) -> BoardPlay {
    let layout = board_layout(canvas_width(), canvas_height());
    let my_turn = snapshot
        .state
        .seat_to_move()
        .is_some_and(|seat| mine.contains(&seat));
    let may_click = my_turn && !awaiting;
    let hovered = square_at(layout, input.mouse.x, input.mouse.y);
    let preview = hovered
        .filter(|&square| may_click && position.is_legal(square))
        .map(|square| (square, position.to_move()));
    let marks = BoardMarks {
        legal: if may_click { position.legal_moves() } else { 0 },
        last_move: snapshot.moves.last().and_then(|mv| match mv {
            GameMove::Cave(square) => Some(*square),
            _ => None,
        }),
        winning_line: position.winning_line(),
        preview,
        entering: Some(arrival),
    };
    draw_board(layout, position, &marks);
    let Some(square) = hovered.filter(|_| input.clicked) else {
        return BoardPlay::Nothing;
    };
    match click_refusal(snapshot, mine, awaiting, square) {
        Some(reason) => BoardPlay::Refused(reason),
        None => BoardPlay::Move(GameMove::Cave(square)),
    }
}

/// Why a click on `square` is not a move for any of the seats `mine`, or `None` when it is one.
fn click_refusal(
    snapshot: &RoomSnapshot,
    mine: &[u8],
    awaiting: bool,
    square: Square,
) -> Option<String> {
    let GameState::Cave(position) = &snapshot.state else {
        return Some("This game has no board to click.".into());
    };
    if mine.is_empty() {
        return Some("Spectators cannot move.".into());
    }
    if snapshot.outcome.is_some() || position.outcome().is_some() {
        return Some("The game is over.".into());
    }
    if !snapshot
        .state
        .seat_to_move()
        .is_some_and(|seat| mine.contains(&seat))
    {
        return Some("It is not your turn.".into());
    }
    if awaiting {
        return Some("Your move is on its way.".into());
    }
    position.check(square).err().map(|error| error.to_string())
}

#[cfg(test)]
pub(in crate::gui) mod tests;
