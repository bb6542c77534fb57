//! Magnetic Cave in a room: the board of the latest snapshot with the legal cells lit for the
//! seat to move, and a click on a cell, or its name typed ("d4", as the board's edges name
//! the cells), turned into a move, or into the reason it is none.

use parlor_shared::cave::{Position, Square};
use parlor_shared::game::{GameMove, GameState};
use parlor_shared::protocol::RoomSnapshot;

use super::board::{BoardMarks, board_layout, draw_board, square_at};
use crate::gui::board_play::BoardPlay;
use crate::gui::canvas::{canvas_height, canvas_width};
use crate::gui::widgets::Input;

/// What has been typed of a cell's name: its column's letter, waiting for the row's digit.
#[derive(Debug, Default)]
pub struct TypedCell {
    column: Option<char>,
}

impl TypedCell {
    /// Reads this frame's `typed` characters: a cell once a column (a to h) and then a row (1
    /// to 8) were typed, the letter maybe in an earlier frame; or what to type next.
    fn read(&mut self, typed: &[char]) -> Option<Result<Square, String>> {
        let mut read: Option<Result<Square, String>> = None;
        for &c in typed {
            let c = c.to_ascii_lowercase();
            let next = match (c, self.column.take()) {
                ('a'..='h', _) => {
                    self.column = Some(c);
                    Some(Err(format!("Column {c}: now type its row, 1 to 8.")))
                }
                ('1'..='8', Some(column)) => {
                    let name: String = [column, c].into_iter().collect();
                    name.parse().ok().map(Ok)
                }
                ('0'..='9', None) => {
                    Some(Err("Type the column first, a to h, then the row.".into()))
                }
                (_, column) => {
                    self.column = column;
                    continue;
                }
            };
            // A cell typed whole stays the frame's, whatever follows it.
            if !matches!(read, Some(Ok(_))) {
                read = next;
            }
        }
        read
    }
}

/// Draws the board of `position`, its last brick `arrival` of the way in; `mine` are the seats
/// held here and `awaiting` says a move of ours is on its way; `typed` keeps what was typed
/// of a cell's name.
pub fn update_board(
    input: &Input,
    snapshot: &RoomSnapshot,
    position: &Position,
    (mine, awaiting): (&[u8], bool),
    (arrival, typed): (f32, &mut TypedCell),
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
    let square = match (hovered.filter(|_| input.clicked), typed.read(&input.typed)) {
        (Some(square), _) | (None, Some(Ok(square))) => square,
        (None, Some(Err(next))) if !mine.is_empty() => return BoardPlay::Prompt(next),
        _ => return BoardPlay::Nothing,
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
