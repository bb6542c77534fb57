//! Numeric Klotski in the window: the board (`board`: layout, hit test, drawing with a sliding
//! piece, the goal picture), stepping through a solution (`walk`), the standalone viewer of
//! `client klotski gui` (`viewer`); for rooms the hand-play rules of a click or key (`play`),
//! the slide of each new state (`slides`), the room's and replay's screen (`room`), the
//! lobby's form with the boards of `levels/klotski/` (`levels`, `lobby_form`), and the room
//! that the hidden `--open-room` plays by itself (`scripted`).

mod board;
mod levels;
mod lobby_form;
mod play;
mod room;
mod scripted;
mod slides;
mod viewer;
mod walk;

pub use board::{
    BLANK, BLOCK, BoardLayout, Motion, TILE, board_layout, draw_board, draw_goal, goal_placement,
    piece_at,
};
pub use lobby_form::{KlotskiChoices, KlotskiLobbyForm};
pub use room::{KlotskiRoomBoard, RoomLayout, draw_replay_board, room_layout};
pub use scripted::KlotskiScript;
pub use slides::Slides;
pub use viewer::{StartStep, ViewerLayout, ViewerWindow, viewer_layout};
pub use walk::{SLIDE_SECONDS, Walk, count_steps};
