//! Magnetic Cave's screens: the board's layout, hit test and drawing (`board`), the room's
//! controls (`room`), the lobby's form for a new room (`lobby_form`) and the words of
//! `--open-room cave` (`scripted`).

pub mod board;
pub(super) mod lobby_form;
pub(super) mod room;
pub(super) mod scripted;
