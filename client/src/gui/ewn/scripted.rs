//! EWN's part of the hidden `--open-room` (see `gui::scripted`): a room on one of the lobby's
//! levels, played by this client (the room is shown as it starts) or by the server's solver or
//! random player (watched until the game ends).
//!
//! The words after `ewn`: the level's button name (`1`..`12`), then optionally who plays:
//! `you` (the default), `solver` or `random`.

use macroquad::math::Vec2;
use parlor_shared::game::GameSetup;
use parlor_shared::protocol::{RoomSnapshot, SeatSpec};

use super::levels::{LEVELS_DIR, load_levels};
use super::lobby_form::EwnPlayer;
use crate::gui::board_play::HeldSeat;
use crate::gui::scripted_game::ScriptedGame;

#[derive(Debug)]
pub struct EwnScript {
    setup: GameSetup,
    player: EwnPlayer,
}

impl EwnScript {
    /// The script of `words` (those after `ewn`); the level is looked up here, so that an
    /// unknown one is an error before the window opens.
    pub fn parse(words: &[&str]) -> Result<EwnScript, String> {
        let (level, player) = match words {
            [level] => (level, EwnPlayer::Human),
            [level, who] => {
                let player = match *who {
                    "you" => EwnPlayer::Human,
                    "solver" => EwnPlayer::Solver,
                    "random" => EwnPlayer::Random,
                    _ => return Err(format!("{who:?} is not you, solver or random")),
                };
                (level, player)
            }
            _ => return Err("ewn needs a level, e.g. `ewn 4 random`".into()),
        };
        let levels = load_levels(std::path::Path::new(LEVELS_DIR));
        let Some(choice) = levels.iter().find(|choice| choice.name == *level) else {
            return Err(format!(
                "no EWN level {level:?}, built in or in {LEVELS_DIR}"
            ));
        };
        Ok(EwnScript {
            setup: GameSetup::Ewn(choice.spec),
            player,
        })
    }
}

impl ScriptedGame for EwnScript {
    fn room(&self) -> (GameSetup, Vec<SeatSpec>) {
        (self.setup.clone(), vec![self.player.seat()])
    }

    fn click(&mut self, _: &RoomSnapshot, _: &[HeldSeat], _: f32, _: f32) -> Option<Vec2> {
        None
    }

    /// The room as it starts for a person; an AI's game once it has ended.
    fn done(&self, snapshot: &RoomSnapshot) -> bool {
        self.player == EwnPlayer::Human
            || snapshot.outcome.is_some()
            || snapshot.state.outcome().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_and_an_optional_player() {
        let level = |words: &[&str]| EwnScript::parse(words).map(|script| script.player);
        assert_eq!(level(&["1"]), Ok(EwnPlayer::Human));
        assert!(level(&["1", "chess"]).is_err());
        assert!(level(&[]).is_err());
        assert!(level(&["no-such-level"]).is_err());
    }
}
