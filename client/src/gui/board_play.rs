//! What the room screen and each game's board share: what a board made of a frame's input
//! (`BoardPlay`) and a seat this client holds (`HeldSeat`).

use parlor_shared::game::GameMove;
use parlor_shared::protocol::{Rematch, SeatToken};

/// What a game's board made of this frame's input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardPlay {
    Nothing,
    /// A move for the seat held here that is to move.
    Move(GameMove),
    /// The user tried something that is not a move; the reason is shown as a hint.
    Refused(String),
    /// The user picked something that may become a move (a height, a piece): a reason shown
    /// for an earlier try is out of date.
    Picked,
    /// The user is half way through a move (a cell's column typed): what to do next is shown
    /// as a hint.
    Prompt(String),
    /// Play the game again: a new room like it, or the one another player made for it.
    PlayAgain(Rematch),
}

impl BoardPlay {
    /// `self`, or `other` when `self` is nothing.
    pub fn or(self, other: BoardPlay) -> BoardPlay {
        match self {
            BoardPlay::Nothing => other,
            play => play,
        }
    }
}

/// A seat this client holds in a room, with the token that proves it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldSeat {
    pub seat: u8,
    pub token: SeatToken,
}
