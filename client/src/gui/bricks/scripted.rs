//! The words of `--open-room bricks`: `bricks answerer` seats the person as the answerer against
//! the winning agent, `bricks agent` as the agent against the adversary, on a 100-floor tower
//! with 10 drops and 2 bricks; the screen is there when it is the person's turn.

use macroquad::math::Vec2;
use parlor_shared::bricks::{AGENT_SEAT, ANSWERER_SEAT};
use parlor_shared::game::{GameSetup, GameState};
use parlor_shared::protocol::{AiKind, RoomSnapshot, SeatSpec};

use crate::gui::board_play::HeldSeat;
use crate::gui::game_view::acting_seat;
use crate::gui::scripted_game::ScriptedGame;

/// The AI's time per move: long enough that the person's turn stays on the screen.
const AI_MOVE_MS: u32 = 500;

#[derive(Debug)]
pub struct BricksScript {
    /// The person's seat.
    seat: u8,
}

impl BricksScript {
    pub fn parse(words: &[&str]) -> Result<BricksScript, String> {
        match words {
            ["answerer"] => Ok(BricksScript {
                seat: ANSWERER_SEAT,
            }),
            ["agent"] => Ok(BricksScript { seat: AGENT_SEAT }),
            _ => Err("bricks takes the person's seat: agent or answerer".into()),
        }
    }
}

impl ScriptedGame for BricksScript {
    fn room(&self) -> (GameSetup, Vec<SeatSpec>) {
        let ai = |kind| SeatSpec::Ai {
            move_ms: AI_MOVE_MS,
            kind,
        };
        let seats = match self.seat {
            AGENT_SEAT => vec![SeatSpec::Human, ai(AiKind::Adversary)],
            _ => vec![ai(AiKind::WinningAgent), SeatSpec::Human],
        };
        let setup = GameSetup::Bricks {
            height: 100,
            drops: 10,
            bricks: 2,
        };
        (setup, seats)
    }

    fn click(&mut self, _: &RoomSnapshot, _: &[HeldSeat], _: f32, _: f32) -> Option<Vec2> {
        None
    }

    fn done(&self, snapshot: &RoomSnapshot) -> bool {
        matches!(snapshot.state, GameState::Bricks(_))
            && acting_seat(&snapshot.state) == Some(self.seat)
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
        assert!(BricksScript::parse(&[]).is_err());
    }
}
