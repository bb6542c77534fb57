//! The EinStein würfelt nicht! puzzle in the window: the board layout (`layout`), its drawing
//! (`draw`: pieces, the target in red, the removed square, the dice strip), and the room's
//! click-a-piece-then-a-square controls (`room`).

mod draw;
mod layout;
mod levels;
mod lobby_form;
mod room;
mod scripted;

pub use draw::{
    EwnMarks, LEGAL_SQUARE, PIECE, REMOVED_SQUARE, TARGET_PIECE, draw_ewn, status_line,
};
pub use layout::{EwnLayout, ewn_layout, square_at, square_center, square_rect};
pub use levels::{LEVELS_DIR, LevelChoice, load_levels};
pub use lobby_form::{EwnChoices, EwnLobbyForm, EwnPlayer};
pub use room::{EwnRoomBoard, draw_replay_board, legal_squares, may_move};
pub use scripted::EwnScript;
