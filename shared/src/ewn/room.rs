//! The EWN puzzle as a one-seat game for rooms: the level travels with the state, so a
//! spectator or a replay needs nothing else. On the wire a level is a plain `LevelSpec`, checked
//! by `Level::new` whenever one is read back.

use serde::{Deserialize, Serialize};

use super::{DICE_LEN, Level, LevelError, Move, MoveError, PIECES, Pieces, Rules, State, Status};

/// A level as sent over the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LevelSpec {
    pub target: u8,
    /// Squares of pieces 1..6, -1 for absent.
    pub start: [i8; PIECES as usize],
    pub dice: [u8; DICE_LEN],
    /// The removed square (22 in the course, 33 on some boards).
    pub blocked: u8,
    pub max_moves: u8,
}

impl LevelSpec {
    pub fn of(level: &Level) -> LevelSpec {
        LevelSpec {
            target: level.target(),
            start: level.start().numbers(),
            dice: *level.dice(),
            blocked: level.rules().blocked,
            max_moves: level.rules().max_moves as u8,
        }
    }

    /// The level, or why these numbers are not one.
    pub fn level(&self) -> Result<Level, SpecError> {
        let start = Pieces::from_numbers(self.start.map(i64::from))
            .map_err(|e| SpecError(e.to_string()))?;
        let rules = Rules {
            blocked: self.blocked,
            max_moves: usize::from(self.max_moves),
        };
        Level::new(self.target, start, self.dice, rules)
            .map_err(|e: LevelError| SpecError(e.to_string()))
    }
}

/// Why a level sent over the wire is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a valid EWN level: {0}")]
pub struct SpecError(pub String);

/// One move: a piece and the square it steps to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EwnMove {
    pub piece: u8,
    pub to: u8,
}

/// A level being played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "EwnGameWire", into = "EwnGameWire")]
pub struct EwnGame {
    level: Level,
    state: State,
}

#[derive(Clone, Serialize, Deserialize)]
struct EwnGameWire {
    level: LevelSpec,
    pieces: [i8; PIECES as usize],
    turn: u8,
}

impl From<EwnGame> for EwnGameWire {
    fn from(game: EwnGame) -> EwnGameWire {
        EwnGameWire {
            level: LevelSpec::of(&game.level),
            pieces: game.state.pieces.numbers(),
            turn: game.state.turn as u8,
        }
    }
}

impl TryFrom<EwnGameWire> for EwnGame {
    type Error = SpecError;

    fn try_from(wire: EwnGameWire) -> Result<EwnGame, SpecError> {
        let level = wire.level.level()?;
        let pieces = Pieces::from_numbers(wire.pieces.map(i64::from))
            .map_err(|e| SpecError(e.to_string()))?;
        let turn = usize::from(wire.turn);
        if turn > level.rules().max_moves {
            return Err(SpecError(format!(
                "turn {turn} is past the level's move limit"
            )));
        }
        Ok(EwnGame {
            level,
            state: State { pieces, turn },
        })
    }
}

impl EwnGame {
    pub fn new(level: Level) -> EwnGame {
        let state = level.start_state();
        EwnGame { level, state }
    }

    pub fn level(&self) -> &Level {
        &self.level
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    pub fn status(&self) -> Status {
        self.level.status(&self.state)
    }

    pub fn play(&self, mv: EwnMove) -> Result<EwnGame, MoveError> {
        let state = self.level.play(
            &self.state,
            Move {
                piece: mv.piece,
                to: mv.to,
            },
        )?;
        Ok(EwnGame {
            level: self.level.clone(),
            state,
        })
    }

    /// The rest of the game as a level of its own: today's pieces, the dice still to come and
    /// the moves still allowed. Solving it gives the best continuation.
    pub fn remaining_level(&self) -> Option<Level> {
        let turn = self.state.turn;
        let mut dice = [1; DICE_LEN];
        dice[..DICE_LEN - turn].copy_from_slice(&self.level.dice()[turn..]);
        let rules = Rules {
            max_moves: self.level.rules().max_moves.checked_sub(turn)?,
            ..self.level.rules()
        };
        Level::new(self.level.target(), self.state.pieces, dice, rules).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ewn::{parse_level, solve};

    fn level1() -> Level {
        let text = include_str!("../../../levels/ewn/level1.txt");
        parse_level(text, Rules::default()).unwrap()
    }

    #[test]
    fn a_game_round_trips_through_both_codecs_and_bad_numbers_are_refused() {
        let game = EwnGame::new(level1());
        let json = serde_json::to_string(&game).unwrap();
        assert_eq!(serde_json::from_str::<EwnGame>(&json).unwrap(), game);
        let config = bincode::config::standard();
        let bytes = bincode::serde::encode_to_vec(&game, config).unwrap();
        assert_eq!(
            bincode::serde::decode_from_slice::<EwnGame, _>(&bytes, config)
                .unwrap()
                .0,
            game
        );
        let bad = json.replace("\"target\":2", "\"target\":9");
        assert!(serde_json::from_str::<EwnGame>(&bad).is_err());
    }

    #[test]
    fn solving_the_remaining_level_continues_a_shortest_solution() {
        let level = level1();
        let full = solve(&level).unwrap().moves;
        let after_one = EwnGame::new(level.clone())
            .play(EwnMove {
                piece: full[0].piece,
                to: full[0].to,
            })
            .unwrap();
        let rest = solve(&after_one.remaining_level().unwrap()).unwrap().moves;
        assert_eq!(rest.len(), full.len() - 1);
    }
}
