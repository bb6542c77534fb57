//! The per-game pieces of the room and replay screens: the colour key before a seat's name, the
//! list of moves, and what to do on one's turn. Each dispatches on the game.

use macroquad::color::Color;
use macroquad::math::Rect;
use parlor_shared::bricks::Turn;
use parlor_shared::game::{GameKind, GameMove, GameState, Outcome};
use parlor_shared::hexapawn::HER_SEAT;

use super::bricks::draw_drop_history;
use super::cave::board::draw_swatch;
use super::describe::game_seat_name;
use super::seats::seat_player;

use super::hexapawn::acting_seat as hexapawn_acting_seat;
use super::move_list::{draw_move_list, draw_one_move_per_line};
use super::widgets::{DIM_TEXT, ERROR_TEXT, GOOD_TEXT, Input, TEXT};

/// Magnetic Cave's brick colour before a seat's name; Dropping Bricks' seat names say what
/// each side does and need none. Returns the width taken.
pub fn draw_seat_swatch(game: GameKind, x: f32, baseline: f32, seat: u8) -> f32 {
    match game {
        GameKind::Cave => seat_player(seat).map_or(0.0, |player| draw_swatch(x, baseline, player)),
        _ => 0.0,
    }
}

/// Who sits in a seat, for a one-line list: after Magnetic Cave's swatch the occupant says
/// enough; other games name the seat.
pub fn seat_in_list(game: GameKind, seat: u8, who: &str) -> String {
    match game {
        GameKind::Cave => who.to_string(),
        _ => format!("{}: {who}", game_seat_name(game, seat)),
    }
}

/// The moves of a game inside `area`, the ply `current` highlighted; returns a clicked ply.
pub fn draw_moves(
    input: &Input,
    area: Rect,
    game: GameKind,
    moves: &[GameMove],
    current: Option<usize>,
) -> Option<usize> {
    match game {
        GameKind::Cave => draw_move_list(input, area, moves, current),
        // One numbered move per line: a Hexapawn move is too long for two in a column; EWN's
        // steps and Klotski's slides read best one by one.
        GameKind::Ewn | GameKind::Hexapawn | GameKind::Klotski => {
            draw_one_move_per_line(input, area, moves, current)
        }
        GameKind::Bricks => draw_drop_history(input, area, moves, current),
        // An auto match's rounds are on its board side; it takes no moves.
        GameKind::HerMatch => None,
    }
}

/// The colour of a game's result for the viewer holding seat `me` (`None`: watching, or a
/// replay): success green only for a win or a solved puzzle of theirs (or any solved puzzle),
/// the error colour for their loss or failure, plain or dim text for news about others.
pub fn outcome_color(game: GameKind, outcome: Outcome, me: Option<u8>) -> Color {
    let puzzle = matches!(game, GameKind::Ewn | GameKind::Klotski);
    match (outcome, me) {
        (Outcome::Won { .. }, _) if puzzle => GOOD_TEXT,
        (Outcome::Won { seat }, Some(mine)) if seat == mine => GOOD_TEXT,
        (Outcome::Won { .. }, Some(_)) => ERROR_TEXT,
        (Outcome::Won { .. } | Outcome::Tie, _) => TEXT,
        (Outcome::Unsolved, Some(_)) => ERROR_TEXT,
        (Outcome::Unsolved, None) => DIM_TEXT,
    }
}

/// The seat whose token sends the next move: the seat to move, except in Hexapawn's slow mode,
/// where the person sends HER's moves too.
pub fn acting_seat(state: &GameState) -> Option<u8> {
    match state {
        GameState::Hexapawn(game) => hexapawn_acting_seat(game),
        _ => state.seat_to_move(),
    }
}

/// What the player to move does, for the hint under the turn.
pub fn your_turn_hint(state: &GameState) -> &'static str {
    match state {
        GameState::Cave(_) => {
            "Click a green cell, type its name (d4), or move to it with the arrow keys and \
             press Enter."
        }
        GameState::Bricks(game) => match game.turn() {
            Turn::Answerer { .. } => "Answer Safe or Broken.",
            // Whether a floor can be clicked depends on the tower: the board's note says.
            _ => "Choose a height to drop from, then Drop.",
        },
        GameState::Ewn(_) => {
            "Click a ringed piece, then a green square (or use the arrow keys and Enter)."
        }
        GameState::Klotski(_) => {
            "Click a piece next to a blank to slide it there, or type its number and use the \
             arrow keys."
        }
        GameState::Hexapawn(game) if game.seat_to_move() == Some(HER_SEAT) => {
            "Click an arrow of HER's matchbox or its chance, or HER's pawn and then its target \
             on the board, to force that move, or Let HER pick."
        }
        GameState::Hexapawn(_) => {
            "Click a pawn, then its target square (or use the arrow keys and Enter)."
        }
        GameState::HerMatch(_) => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::bricks::{BricksGame, BricksMove, Setup};

    #[test]
    fn only_the_viewer_s_own_win_or_a_solved_puzzle_is_in_the_success_colour() {
        let won = |seat| Outcome::Won { seat };
        assert_eq!(outcome_color(GameKind::Cave, won(1), Some(1)), GOOD_TEXT);
        assert_eq!(outcome_color(GameKind::Cave, won(1), Some(0)), ERROR_TEXT);
        assert_eq!(
            outcome_color(GameKind::Hexapawn, won(1), Some(0)),
            ERROR_TEXT
        );
        assert_eq!(outcome_color(GameKind::Bricks, won(1), None), TEXT);
        assert_eq!(outcome_color(GameKind::Cave, Outcome::Tie, Some(0)), TEXT);
        assert_eq!(outcome_color(GameKind::Ewn, won(0), None), GOOD_TEXT);
        let unsolved = Outcome::Unsolved;
        assert_eq!(
            outcome_color(GameKind::Klotski, unsolved, Some(0)),
            ERROR_TEXT
        );
        assert_eq!(outcome_color(GameKind::Ewn, unsolved, None), DIM_TEXT);
    }

    #[test]
    fn lists_name_bricks_seats_and_hints_follow_the_turn() {
        assert_eq!(seat_in_list(GameKind::Cave, 0, "you"), "you");
        assert_eq!(seat_in_list(GameKind::Bricks, 1, "open"), "Answerer: open");
        let game = BricksGame::new(Setup::new(10, 4, 2).unwrap());
        let dropped = game.play(BricksMove::Drop(5)).unwrap();
        assert!(your_turn_hint(&GameState::Bricks(game)).contains("Drop"));
        assert_eq!(
            your_turn_hint(&GameState::Bricks(dropped)),
            "Answer Safe or Broken."
        );
    }
}
