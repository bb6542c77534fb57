//! One game's part of an `--open-room` script (see `scripted.rs`), which each game's
//! `scripted.rs` implements.

use std::fmt::Debug;

use macroquad::math::Vec2;
use parlor_shared::game::GameSetup;
use parlor_shared::protocol::{RoomSnapshot, SeatSpec};

use super::board_play::HeldSeat;

/// One game's part of a script: the room to create, the clicks, and when it is there.
pub trait ScriptedGame: Debug {
    /// The room to create: its setup and seats.
    fn room(&self) -> (GameSetup, Vec<SeatSpec>);

    /// Where to click next on a `screen_w` x `screen_h` window, if anywhere this frame.
    fn click(
        &mut self,
        snapshot: &RoomSnapshot,
        held: &[HeldSeat],
        screen_w: f32,
        screen_h: f32,
    ) -> Option<Vec2>;

    /// Whether the room shows what was asked.
    fn done(&self, snapshot: &RoomSnapshot) -> bool;

    /// How long a state that is [`done`](Self::done) must stay on the screen before it shows
    /// what was asked (a piece's slide), in seconds.
    fn settle_seconds(&self) -> f64 {
        0.0
    }
}
