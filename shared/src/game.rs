//! The games of the hall behind one enum each for kind, state and move, so the server, the
//! protocol and stored records handle every game the same way. Each variant delegates to the
//! game's own pure rules module.

use serde::{Deserialize, Serialize};

use crate::bricks::{self, BricksGame, BricksMove};
use crate::cave;
use crate::ewn::{self, EwnGame, EwnMove, LevelSpec};

/// Which game a room plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameKind {
    Cave,
    Bricks,
    Ewn,
}

impl GameKind {
    pub const ALL: [GameKind; 3] = [GameKind::Cave, GameKind::Bricks, GameKind::Ewn];

    /// A short name for menus and logs.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Cave => "Magnetic Cave",
            GameKind::Bricks => "Dropping Bricks",
            GameKind::Ewn => "EinStein würfelt nicht! puzzle",
        }
    }

    /// How many seats a room of this game has.
    pub const fn seats(self) -> u8 {
        match self {
            GameKind::Cave | GameKind::Bricks => 2,
            GameKind::Ewn => 1,
        }
    }

    /// The name of each seat, in seat order.
    pub fn seat_names(self) -> Vec<String> {
        match self {
            GameKind::Cave => vec!["■ Black (first)".into(), "□ White (second)".into()],
            GameKind::Bricks => vec!["Agent (drops)".into(), "Answerer (safe or broken)".into()],
            GameKind::Ewn => vec!["Player".into()],
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            GameKind::Cave => {
                "8x8 five-in-a-row; bricks go against a side wall or beside another brick"
            }
            GameKind::Bricks => {
                "an agent drops bricks to learn their strength; the other side answers safe or broken"
            }
            GameKind::Ewn => {
                "bring the target piece to the corner with fixed dice, in the fewest moves"
            }
        }
    }
}

/// What a room is created with: the game and whatever that game needs to start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameSetup {
    Cave,
    /// A tower of heights 1..=height, with `drops` drops and `bricks` bricks for the agent.
    Bricks {
        height: u64,
        drops: u64,
        bricks: u32,
    },
    /// An EinStein würfelt nicht! puzzle level.
    Ewn(LevelSpec),
}

/// Why a setup cannot start a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error(transparent)]
    Bricks(#[from] bricks::BricksError),
    #[error(transparent)]
    Ewn(#[from] ewn::SpecError),
}

impl GameSetup {
    pub fn kind(&self) -> GameKind {
        match self {
            GameSetup::Cave => GameKind::Cave,
            GameSetup::Bricks { .. } => GameKind::Bricks,
            GameSetup::Ewn(_) => GameKind::Ewn,
        }
    }

    /// The state a room with this setup starts from, once the setup is checked.
    pub fn start(&self) -> Result<GameState, SetupError> {
        Ok(match *self {
            GameSetup::Cave => GameState::Cave(cave::Position::new()),
            GameSetup::Bricks {
                height,
                drops,
                bricks,
            } => GameState::Bricks(BricksGame::new(bricks::Setup::new(height, drops, bricks)?)),
            GameSetup::Ewn(spec) => GameState::Ewn(EwnGame::new(spec.level()?)),
        })
    }
}

/// A game's whole state: what the server validates against and what every screen draws.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameState {
    Cave(cave::Position),
    Bricks(BricksGame),
    Ewn(EwnGame),
}

/// One move of some game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameMove {
    Cave(cave::Square),
    Bricks(BricksMove),
    Ewn(EwnMove),
}

/// How a finished game ended, in terms of seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    Won {
        seat: u8,
    },
    Tie,
    /// A puzzle ended without being solved: nobody won.
    Unsolved,
}

/// Why a move was refused by the rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("that move belongs to {0}, not to {1}")]
    WrongGame(&'static str, &'static str),
    #[error(transparent)]
    Cave(#[from] cave::MoveError),
    #[error(transparent)]
    Bricks(#[from] bricks::BricksMoveError),
    #[error(transparent)]
    Ewn(#[from] ewn::MoveError),
}

impl GameState {
    pub fn kind(&self) -> GameKind {
        match self {
            GameState::Cave(_) => GameKind::Cave,
            GameState::Bricks(_) => GameKind::Bricks,
            GameState::Ewn(_) => GameKind::Ewn,
        }
    }

    /// The seat whose turn it is, or `None` once the game is over.
    pub fn seat_to_move(&self) -> Option<u8> {
        match self {
            GameState::Cave(position) => position
                .outcome()
                .is_none()
                .then(|| position.to_move().seat()),
            GameState::Bricks(game) => game.seat_to_move(),
            GameState::Ewn(game) => (game.status() == ewn::Status::Playing).then_some(0),
        }
    }

    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            GameState::Cave(position) => position.outcome().map(|outcome| match outcome {
                cave::Outcome::Win(player) => Outcome::Won {
                    seat: player.seat(),
                },
                cave::Outcome::Tie => Outcome::Tie,
            }),
            GameState::Bricks(game) => match game.turn() {
                bricks::Turn::Over(bricks::Status::Won { .. }) => Some(Outcome::Won {
                    seat: bricks::AGENT_SEAT,
                }),
                bricks::Turn::Over(_) => Some(Outcome::Won {
                    seat: bricks::ANSWERER_SEAT,
                }),
                _ => None,
            },
            GameState::Ewn(game) => match game.status() {
                ewn::Status::Playing => None,
                ewn::Status::Won => Some(Outcome::Won { seat: 0 }),
                ewn::Status::Lost(_) => Some(Outcome::Unsolved),
            },
        }
    }

    /// The state after `mv`, or why the rules refuse it. Never changes `self`.
    pub fn apply(&self, mv: GameMove) -> Result<GameState, RuleError> {
        match (self, mv) {
            (GameState::Cave(position), GameMove::Cave(square)) => {
                Ok(GameState::Cave(position.play(square)?))
            }
            (GameState::Bricks(game), GameMove::Bricks(mv)) => {
                Ok(GameState::Bricks(game.play(mv)?))
            }
            (GameState::Ewn(game), GameMove::Ewn(mv)) => Ok(GameState::Ewn(game.play(mv)?)),
            (state, mv) => Err(RuleError::WrongGame(mv.kind().name(), state.kind().name())),
        }
    }

    /// Every state of a game from `self` through `moves`, starting with `self`: what a replay
    /// steps through. Stops with the index and error of the first refused move.
    pub fn replay(&self, moves: &[GameMove]) -> Result<Vec<GameState>, (usize, RuleError)> {
        let mut states = vec![self.clone()];
        for (index, &mv) in moves.iter().enumerate() {
            let next = states.last().expect("starts non-empty").apply(mv);
            states.push(next.map_err(|error| (index, error))?);
        }
        Ok(states)
    }
}

impl GameMove {
    pub fn kind(&self) -> GameKind {
        match self {
            GameMove::Cave(_) => GameKind::Cave,
            GameMove::Bricks(_) => GameKind::Bricks,
            GameMove::Ewn(_) => GameKind::Ewn,
        }
    }
}

impl std::fmt::Display for GameMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameMove::Cave(square) => write!(f, "{square}"),
            GameMove::Bricks(BricksMove::Drop(height)) => write!(f, "drop from {height}"),
            GameMove::Bricks(BricksMove::Answer(answer)) => write!(f, "{answer}"),
            GameMove::Ewn(EwnMove { piece, to }) => write!(f, "piece {piece} to {to}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cave_moves(names: &str) -> Vec<GameMove> {
        names
            .split_whitespace()
            .map(|n| GameMove::Cave(n.parse().unwrap()))
            .collect()
    }

    #[test]
    fn replay_reaches_the_same_end_as_playing_and_reports_the_first_bad_move() {
        let start = GameSetup::Cave.start().unwrap();
        let states = start
            .replay(&cave_moves("a1 h8 b1 h7 c1 h6 d1 h5 e1"))
            .unwrap();
        assert_eq!(states.len(), 10);
        assert_eq!(
            states.last().unwrap().outcome(),
            Some(Outcome::Won { seat: 0 })
        );
        assert_eq!(states.last().unwrap().seat_to_move(), None);
        let (index, error) = start.replay(&cave_moves("a1 h8 d5")).unwrap_err();
        assert_eq!(index, 2);
        assert!(matches!(
            error,
            RuleError::Cave(cave::MoveError::NotAnchored(_))
        ));
    }

    #[test]
    fn seats_alternate_from_seat_zero() {
        let start = GameSetup::Cave.start().unwrap();
        assert_eq!(start.seat_to_move(), Some(0));
        let next = start.apply(cave_moves("a1")[0]).unwrap();
        assert_eq!(next.seat_to_move(), Some(1));
        assert_eq!(
            GameKind::Cave.seat_names().len(),
            GameKind::Cave.seats() as usize
        );
    }
}
