//! Magnetic Cave in a room: the board of the latest snapshot with the legal cells lit for the
//! seat to move, and a click on a cell, its name typed ("d4", as the board's edges name
//! the cells) or Enter on it with the keyboard's cursor, turned into a move, or into the reason
//! it is none.

use parlor_shared::cave::{Position, SIZE, Square};
use parlor_shared::game::{GameMove, GameState};
use parlor_shared::protocol::RoomSnapshot;

use super::board::{BoardLayout, BoardMarks, board_layout, draw_board, square_at};
use crate::gui::board_cursor::{BoardCursor, Cell, Grid};
use crate::gui::board_play::BoardPlay;
use crate::gui::canvas::{canvas_height, canvas_width};
use crate::gui::widgets::Input;

/// The keyboard on the board: what was typed of a cell's name (on which version of the room),
/// and the arrow keys' cursor.
#[derive(Debug, Default)]
pub struct CaveKeyboard {
    typed: TypedCell,
    typed_on: u64,
    cursor: BoardCursor,
}

impl CaveKeyboard {
    /// Reads this frame's `typed` characters on the room's `version`. A letter waits for its
    /// row only while nothing else happens: a new state of the room (a move, ours or theirs),
    /// or this frame's click or cursor key (`interrupted`) puts it out of date, so that a row
    /// typed later alone is not taken for its cell.
    fn read_typed(&mut self, typed: &[char], version: u64, interrupted: bool) -> Option<Typed> {
        if self.typed_on != version || interrupted {
            self.typed = TypedCell::default();
            self.typed_on = version;
        }
        self.typed.read(typed)
    }
}

/// What has been typed of a cell's name: its column's letter, waiting for the row's digit.
#[derive(Debug, Default)]
struct TypedCell {
    column: Option<char>,
}

/// What a frame's typing made of a cell's name.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Typed {
    /// A whole name: the cell to play.
    Cell(Square),
    /// Half a name, or a row without its column: what to type next.
    Prompt(String),
}

impl TypedCell {
    /// Reads this frame's `typed` characters: a cell once a column (a to h) and then a row (1
    /// to 8) were typed, the letter maybe in an earlier frame; or what to type next.
    fn read(&mut self, typed: &[char]) -> Option<Typed> {
        let mut read: Option<Typed> = None;
        for &c in typed {
            let c = c.to_ascii_lowercase();
            let next = match (c, self.column.take()) {
                ('a'..='h', _) => {
                    self.column = Some(c);
                    Some(Typed::Prompt(format!(
                        "Column {c}: now type its row, 1 to 8."
                    )))
                }
                ('1'..='8', Some(column)) => {
                    let name: String = [column, c].into_iter().collect();
                    name.parse().ok().map(Typed::Cell)
                }
                ('0'..='9', None) => Some(Typed::Prompt(
                    "Type the column first, a to h, then the row.".into(),
                )),
                (_, column) => {
                    self.column = column;
                    continue;
                }
            };
            // A cell typed whole stays the frame's, whatever follows it.
            if !matches!(read, Some(Typed::Cell(_))) {
                read = next;
            }
        }
        read
    }
}

/// The board's cells for the keyboard's cursor, row 8 at the top.
fn grid(layout: BoardLayout) -> Grid {
    Grid {
        left: layout.left,
        top: layout.top,
        cell: layout.cell,
        cols: SIZE,
        rows: SIZE,
    }
}

/// `square`'s cell on the [`grid`].
fn cell_of(square: Square) -> Cell {
    (square.col(), SIZE - 1 - square.row())
}

/// Draws the board of `position`, its last brick `arrival` of the way in; `mine` are the seats
/// held here and `awaiting` says a move of ours is on its way; `keys` keeps what was typed
/// of a cell's name and where the cursor is.
pub fn update_board(
    input: &Input,
    snapshot: &RoomSnapshot,
    position: &Position,
    (mine, awaiting): (&[u8], bool),
    (arrival, keys): (f32, &mut CaveKeyboard),
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
    // The cursor starts on the last brick, or in the middle of the board.
    let start = marks.last_move.map_or((3, 3), cell_of);
    let over = snapshot.outcome.is_some() || position.outcome().is_some();
    let aim = keys.cursor.frame(input, grid(layout), start, over);
    let aimed = aim.at.and_then(|point| square_at(layout, point.x, point.y));
    let interrupted = aim.at.is_some() || aim.moved;
    let typed = keys.read_typed(&input.typed, snapshot.version, interrupted);
    let square = match (aimed, typed) {
        (Some(square), _) | (None, Some(Typed::Cell(square))) => square,
        (None, Some(Typed::Prompt(next))) if !mine.is_empty() => return BoardPlay::Prompt(next),
        _ if aim.moved && may_click => {
            return BoardPlay::Prompt("Enter or Space plays the cell under the cursor.".into());
        }
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
