//! The words of `--open-room bricks`: `bricks answerer` seats the person as the answerer against
//! the winning agent, `bricks agent` as the agent against the adversary, on a 100-floor tower
//! with 10 drops and 2 bricks; the screen is there when it is the person's turn. `bricks watch`
//! has the winning agent play the adversary on a 1000-floor tower with 20 drops and 3 bricks,
//! watched, and is there once the open floors are few enough for the tower's close-up.

use macroquad::math::Vec2;
use parlor_shared::bricks::{AGENT_SEAT, ANSWERER_SEAT};
use parlor_shared::game::{GameSetup, GameState};
use parlor_shared::protocol::{AiKind, RoomSnapshot, SeatSpec};

use crate::gui::board_play::HeldSeat;
use crate::gui::game_view::acting_seat;
use crate::gui::scripted_game::ScriptedGame;

/// The AI's time per move: long enough that the person's turn stays on the screen.
const AI_MOVE_MS: u32 = 500;
/// The game a person plays.
const PERSON_SETUP: GameSetup = GameSetup::Bricks {
    height: 100,
    drops: 10,
    bricks: 2,
};

#[derive(Debug)]
pub struct BricksScript {
    /// The person's seat; `None` watches two AIs.
    seat: Option<u8>,
}

/// The tower `bricks watch` watches: tall enough that its floors cannot each get pixels.
const WATCHED_HEIGHT: u64 = 1_000;

impl BricksScript {
    pub fn parse(words: &[&str]) -> Result<BricksScript, String> {
        match words {
            ["answerer"] => Ok(BricksScript {
                seat: Some(ANSWERER_SEAT),
            }),
            ["agent"] => Ok(BricksScript {
                seat: Some(AGENT_SEAT),
            }),
            ["watch"] => Ok(BricksScript { seat: None }),
            _ => Err("bricks takes the person's seat, agent or answerer, or watch".into()),
        }
    }
}

impl ScriptedGame for BricksScript {
    fn room(&self) -> (GameSetup, Vec<SeatSpec>) {
        let ai = |kind| SeatSpec::Ai {
            move_ms: AI_MOVE_MS,
            kind,
        };
        let (seats, setup) = match self.seat {
            Some(AGENT_SEAT) => (vec![SeatSpec::Human, ai(AiKind::Adversary)], PERSON_SETUP),
            Some(_) => (
                vec![ai(AiKind::WinningAgent), SeatSpec::Human],
                PERSON_SETUP,
            ),
            None => {
                let seats = vec![ai(AiKind::WinningAgent), ai(AiKind::Adversary)];
                let setup = GameSetup::Bricks {
                    height: WATCHED_HEIGHT,
                    drops: 20,
                    bricks: 3,
                };
                (seats, setup)
            }
        };
        (setup, seats)
    }

    fn click(&mut self, _: &RoomSnapshot, _: &[HeldSeat], _: f32, _: f32) -> Option<Vec2> {
        None
    }

    fn done(&self, snapshot: &RoomSnapshot) -> bool {
        let GameState::Bricks(game) = &snapshot.state else {
            return false;
        };
        match self.seat {
            Some(seat) => acting_seat(&snapshot.state) == Some(seat),
            None => {
                // The close-up shows the open floors with the last safe and first broken one.
                let state = game.state();
                let shown = state.max_safe() + 1 - state.min_safe().max(1) + 1;
                shown * 4 <= WATCHED_HEIGHT && game.winner().is_none()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_person_takes_the_seat_named_and_the_ai_the_other() {
        let (_, seats) = BricksScript::parse(&["answerer"]).unwrap().room();
        assert_eq!(seats[usize::from(ANSWERER_SEAT)], SeatSpec::Human);
        let (_, seats) = BricksScript::parse(&["agent"]).unwrap().room();
        assert_eq!(seats[usize::from(AGENT_SEAT)], SeatSpec::Human);
        let (_, seats) = BricksScript::parse(&["watch"]).unwrap().room();
        assert!(!seats.contains(&SeatSpec::Human));
        assert!(BricksScript::parse(&[]).is_err());
    }
}
