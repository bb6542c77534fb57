//! Undo and Restart under a puzzle's moves, for its player: moves of the game (`GameMove::Undo`,
//! `GameMove::Restart`) that the server checks, replays and stores like any other. Restart
//! throws every step away, so it asks twice.

use macroquad::math::Rect;
use parlor_shared::game::{GameMove, GameState};
use parlor_shared::protocol::RoomSnapshot;

use super::confirm::Confirmation;
use super::widgets::{BUTTON_HEIGHT, Input, button_enabled, button_width};

/// The height the row takes under the move list.
pub const ROW_HEIGHT: f32 = BUTTON_HEIGHT + 8.0;

/// The row's state: Restart waiting for its second click, on which room version.
#[derive(Debug, Default)]
pub struct Takebacks {
    restarting: Confirmation<u64>,
}

/// Whether a puzzle this client plays shows the row: a puzzle under way with a seat held here.
pub fn shown(snapshot: &RoomSnapshot, seated: bool) -> bool {
    seated
        && snapshot.outcome.is_none()
        && snapshot.state.outcome().is_none()
        && matches!(snapshot.state, GameState::Ewn(_) | GameState::Klotski(_))
}

/// Whether the puzzle has a move to take back: a step made since its start (or last restart).
fn has_moves_in_effect(state: &GameState) -> bool {
    match state {
        GameState::Ewn(game) => game.state().turn > 0,
        GameState::Klotski(game) => game.steps() > 0,
        _ => false,
    }
}

impl Takebacks {
    /// Draws Undo and Restart at (`x`, `y`), live when `may_move` and there is something to
    /// take back; returns the move clicked (Restart on its second click within a few seconds).
    pub fn update(
        &mut self,
        input: &Input,
        (x, y): (f32, f32),
        snapshot: &RoomSnapshot,
        may_move: bool,
        now: f64,
    ) -> Option<GameMove> {
        let live = may_move && has_moves_in_effect(&snapshot.state);
        let undo = Rect::new(x, y, button_width("Undo"), BUTTON_HEIGHT);
        if button_enabled(input, undo, "Undo", live) {
            return Some(GameMove::Undo);
        }
        let text = self.restarting.text(snapshot.version, "Restart", now);
        // As wide as its question, so nothing moves when it asks.
        let width = button_width("Sure? Restart");
        let restart = Rect::new(undo.right() + 10.0, y, width, BUTTON_HEIGHT);
        let clicked = button_enabled(input, restart, &text, live);
        self.restarting
            .draw_time_left(snapshot.version, restart, now);
        (clicked && self.restarting.click(snapshot.version, now)).then_some(GameMove::Restart)
    }
}

#[cfg(test)]
mod tests {
    use parlor_shared::ewn::{EwnGame, EwnMove, Rules, parse_level};

    use super::*;

    #[test]
    fn only_a_puzzle_with_a_step_made_has_something_to_take_back() {
        let text = include_str!("../../../levels/ewn/level1.txt");
        let game = EwnGame::new(parse_level(text, Rules::default()).unwrap());
        assert!(!has_moves_in_effect(&GameState::Ewn(game.clone())));
        let moved = game.play(EwnMove { piece: 3, to: 33 }).unwrap();
        assert!(has_moves_in_effect(&GameState::Ewn(moved)));
        let cave = parlor_shared::game::GameSetup::Cave.start().unwrap();
        assert!(!has_moves_in_effect(&cave));
    }
}
