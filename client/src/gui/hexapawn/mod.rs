//! Hexapawn against HER and HER against HER in the window: the board's layout with the
//! matchbox's arrows (`layout`), its drawing (`draw`), the play room's controls (`room`: pick a
//! pawn, then its target; in slow mode force one of HER's arrows or let HER pick), the auto
//! match for spectators (`match_view`) with its learning curve (`curve`), and the lobby's forms
//! for both (`lobby_form`).

mod curve;
mod draw;
mod layout;
mod lobby_form;
mod match_view;
mod room;
mod scripted;
mod words;

pub use curve::{Chart, HER_COLORS, chart_rects, charts, nice_max};
pub use draw::{
    BEAD_ARROW, BLACK_PAWN, DARK_SQUARE, EMPTY_ARROW, HexMarks, LAST_MOVE, LIGHT_SQUARE, TARGET,
    WHITE_PAWN, draw_board, draw_matchbox,
};
pub use layout::{Arrow, HexLayout, board_area};
pub use lobby_form::{FormAction, HexChoices, HexLobbyForm};
pub use match_view::{MatchLayout, draw_match, match_layout};
pub use room::{HexRoomBoard, acting_seat, draw_replay_board, play_layout, replay_layout};
pub use scripted::HexScript;
pub use words::{her_waits_for_white, match_turn_line};
