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

/// The most moves of every kind (moves, undos, restarts) a game takes: every room state
/// carries every move, so taking back and playing again must stop somewhere.
pub const MAX_MOVES_MADE: u32 = 300;

/// A level being played. Two games are equal when they show the same (what the wire
/// carries), whatever moves led there.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(try_from = "EwnGameWire", into = "EwnGameWire")]
pub struct EwnGame {
    level: Level,
    state: State,
    /// The moves in effect, in order: an undo takes back the last, a restart all of them.
    /// Not sent, like the moves made: whoever applies moves has the game from its start (the
    /// server, a replay); a state read from a peer cannot undo.
    trail: Vec<Move>,
    /// Moves of every kind so far, against [`MAX_MOVES_MADE`].
    made: u32,
}

impl PartialEq for EwnGame {
    fn eq(&self, other: &EwnGame) -> bool {
        (&self.level, &self.state) == (&other.level, &other.state)
    }
}

impl Eq for EwnGame {}

/// Why an undo or a restart is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TakebackError {
    #[error("the puzzle is over")]
    Over,
    #[error("there is no move to take back")]
    NothingToUndo,
    #[error("the game has taken its {MAX_MOVES_MADE} moves (moves, undos and restarts)")]
    TooManyMoves,
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
            trail: Vec::new(),
            made: turn as u32,
        })
    }
}

impl EwnGame {
    pub fn new(level: Level) -> EwnGame {
        let state = level.start_state();
        EwnGame {
            level,
            state,
            trail: Vec::new(),
            made: 0,
        }
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
        let mv = Move {
            piece: mv.piece,
            to: mv.to,
        };
        let state = self.level.play(&self.state, mv)?;
        let mut trail = self.trail.clone();
        trail.push(mv);
        Ok(EwnGame {
            level: self.level.clone(),
            state,
            trail,
            made: self.made.saturating_add(1),
        })
    }

    /// Moves of every kind played so far (moves, undos, restarts), against [`MAX_MOVES_MADE`].
    pub fn moves_made(&self) -> u32 {
        self.made
    }

    /// The game with its last move taken back (the same die comes again): a move of the
    /// game like any other.
    pub fn undo(&self) -> Result<EwnGame, TakebackError> {
        self.check_takeback()?;
        let kept = &self.trail[..self.trail.len() - 1];
        Ok(self.replayed(kept.to_vec()))
    }

    /// The game back at its start: one move of the game.
    pub fn restart(&self) -> Result<EwnGame, TakebackError> {
        self.check_takeback()?;
        Ok(self.replayed(Vec::new()))
    }

    fn check_takeback(&self) -> Result<(), TakebackError> {
        if self.status() != Status::Playing {
            return Err(TakebackError::Over);
        }
        if self.trail.is_empty() {
            return Err(TakebackError::NothingToUndo);
        }
        if self.made >= MAX_MOVES_MADE {
            return Err(TakebackError::TooManyMoves);
        }
        Ok(())
    }

    /// The game after `trail` from the level's start, one move more made. Each move of the
    /// trail was legal when it was played, from the same start.
    fn replayed(&self, trail: Vec<Move>) -> EwnGame {
        let mut state = self.level.start_state();
        for &mv in &trail {
            state = (self.level.play(&state, mv)).expect("a move of the trail replays");
        }
        EwnGame {
            level: self.level.clone(),
            state,
            trail,
            made: self.made.saturating_add(1),
        }
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
    use crate::ewn::parse_level;

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
}
