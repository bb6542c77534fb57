//! Magnetic Cave's screens: the board's layout, hit test and drawing (`board`), the room's
//! controls (`room`) and the words of `--open-room cave` (`scripted`).

pub mod board;
pub(super) mod room;
pub(super) mod scripted;
