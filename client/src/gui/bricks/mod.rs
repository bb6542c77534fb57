//! Dropping Bricks in the window, in the seed's three phases: the init screen (rules, H, D, B
//! and the seats), the play phase (a drawn tower with the known-safe floors green, the
//! known-broken ones red and the pending drop as a brick, with the agent's drop field or the
//! answerer's Safe and Broken), and the end phase (the agent's statement and the result). The
//! replay view shows the same tower at every step.

mod board;
mod draw;
mod history;
mod layout;
pub(super) mod scripted;
mod setup_input;
mod setup_screen;
mod words;

pub use board::{BricksRoomBoard, draw_replay_board};
pub use draw::{BROKEN_FLOOR, OPEN_FLOOR, PENDING_BRICK, SAFE_FLOOR};
pub use history::draw_drop_history;
pub use layout::{Column, TowerLayout, board_area, tower_layout};
pub use setup_input::game_setup;
pub use setup_screen::{BricksChoices, BricksSetupView, SetupAction};
