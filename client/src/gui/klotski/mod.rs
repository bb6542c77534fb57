//! Numeric Klotski in the window: the board (`board`: layout, hit test, drawing with a sliding
//! piece, the goal picture), stepping through a solution (`walk`), and the standalone viewer of
//! `client klotski gui` (`viewer`).

mod board;
mod viewer;
mod walk;

pub use board::{
    BLANK, BLOCK, BoardLayout, Motion, TILE, board_layout, draw_board, draw_goal, goal_placement,
    piece_at,
};
pub use viewer::{StartStep, ViewerLayout, ViewerWindow, viewer_layout};
pub use walk::{SLIDE_SECONDS, Walk, count_steps};
