//! Magnetic Cave's part of the hidden `--open-room` (see `gui::scripted`): a game of the
//! person's (Black, seat 0) against an AI seat, whose bricks are placed by clicking the cells
//! a person would click, or a room whose White seat waits for another person.
//!
//! The words after `cave`: the AI's level (`classic`, `easy`, `normal` or `strong`; strong
//! when none is given) and the person's bricks, e.g. `cave classic a1 b1`; or `person`, for
//! White left open (and no bricks, which nobody would answer).

use macroquad::math::{Vec2, vec2};
use parlor_shared::cave::Square;
use parlor_shared::game::{GameSetup, GameState};
use parlor_shared::protocol::{AiKind, RoomSnapshot, SeatSpec};

use crate::gui::board_play::HeldSeat;
use crate::gui::cave::board::{board_layout, cell_center};
use crate::gui::scripted_game::ScriptedGame;

/// The person's seat: Black moves first.
const PERSON_SEAT: u8 = 0;
/// The AI seat's time a move, in milliseconds: enough for every level's search here.
const AI_MOVE_MS: u32 = 300;

#[derive(Debug, PartialEq)]
pub struct CaveScript {
    /// White's AI, or `None` for White left open to a person.
    ai: Option<AiKind>,
    moves: Vec<Square>,
    /// How many of `moves` have been clicked.
    sent: usize,
}

impl CaveScript {
    pub fn parse(words: &[&str]) -> Result<CaveScript, String> {
        let mut ai = Some(AiKind::Strong);
        let mut moves = Vec::new();
        for &word in words {
            match word {
                "classic" => ai = Some(AiKind::Classic),
                "easy" => ai = Some(AiKind::Easy),
                "normal" => ai = Some(AiKind::Normal),
                "strong" => ai = Some(AiKind::Strong),
                "person" => ai = None,
                _ => moves.push(
                    word.parse::<Square>()
                        .map_err(|e| format!("{word:?} is neither an AI level nor a cell: {e}"))?,
                ),
            }
        }
        if ai.is_none() && !moves.is_empty() {
            return Err("with `person` nobody answers the bricks: give none".into());
        }
        Ok(CaveScript { ai, moves, sent: 0 })
    }
}

impl ScriptedGame for CaveScript {
    fn room(&self) -> (GameSetup, Vec<SeatSpec>) {
        let white = self.ai.map_or(SeatSpec::Human, |kind| SeatSpec::Ai {
            move_ms: AI_MOVE_MS,
            kind,
        });
        (GameSetup::Cave, vec![SeatSpec::Human, white])
    }

    /// The next brick's cell, once the person holds the seat to move and the AI has answered
    /// every brick clicked so far.
    fn click(
        &mut self,
        snapshot: &RoomSnapshot,
        held: &[HeldSeat],
        screen_w: f32,
        screen_h: f32,
    ) -> Option<Vec2> {
        let square = *self.moves.get(self.sent)?;
        let person_to_move = snapshot.state.seat_to_move() == Some(PERSON_SEAT)
            && held.iter().any(|h| h.seat == PERSON_SEAT);
        if !person_to_move || snapshot.moves.len() != 2 * self.sent {
            return None;
        }
        self.sent += 1;
        let (x, y) = cell_center(board_layout(screen_w, screen_h), square);
        Some(vec2(x, y))
    }

    /// Every brick placed and answered, or the game over.
    fn done(&self, snapshot: &RoomSnapshot) -> bool {
        let GameState::Cave(_) = &snapshot.state else {
            return false;
        };
        snapshot.outcome.is_some()
            || (self.sent == self.moves.len() && snapshot.moves.len() == 2 * self.sent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_name_the_ai_and_the_bricks_and_anything_else_is_refused() {
        let script = CaveScript::parse(&["classic", "a1", "b1"]).unwrap();
        assert_eq!(script.ai, Some(AiKind::Classic));
        assert_eq!(
            script.moves,
            vec!["a1".parse().unwrap(), "b1".parse().unwrap()]
        );
        assert_eq!(CaveScript::parse(&[]).unwrap().ai, Some(AiKind::Strong));
        assert_eq!(CaveScript::parse(&["person"]).unwrap().ai, None);
        assert!(CaveScript::parse(&["person", "a1"]).is_err());
        let error = CaveScript::parse(&["a9"]).unwrap_err();
        assert!(error.contains("\"a9\""), "{error}");
    }
}
