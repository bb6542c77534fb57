//! The games of the hall behind one enum each for kind, state and move, so the server, the
//! protocol and stored records handle every game the same way. Each variant delegates to the
//! game's own pure rules module.

use serde::{Deserialize, Serialize};

use crate::cave;

/// Which game a room plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameKind {
    Cave,
}

impl GameKind {
    pub const ALL: [GameKind; 1] = [GameKind::Cave];

    /// A short name for menus and logs.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Cave => "Magnetic Cave",
        }
    }

    /// How many seats a room of this game has.
    pub const fn seats(self) -> u8 {
        match self {
            GameKind::Cave => 2,
        }
    }

    /// The name of each seat, in seat order.
    pub fn seat_names(self) -> Vec<String> {
        match self {
            GameKind::Cave => vec!["■ Black (first)".into(), "□ White (second)".into()],
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            GameKind::Cave => {
                "8x8 five-in-a-row; bricks go against a side wall or beside another brick"
            }
        }
    }

    /// The state every room of this game starts from.
    pub fn start(self) -> GameState {
        match self {
            GameKind::Cave => GameState::Cave(cave::Position::new()),
        }
    }
}

/// A game's whole state: what the server validates against and what every screen draws.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameState {
    Cave(cave::Position),
}

/// One move of some game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameMove {
    Cave(cave::Square),
}

/// How a finished game ended, in terms of seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    Won { seat: u8 },
    Tie,
}

/// Why a move was refused by the rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("that move belongs to {0}, not to {1}")]
    WrongGame(&'static str, &'static str),
    #[error(transparent)]
    Cave(#[from] cave::MoveError),
}

impl GameState {
    pub fn kind(&self) -> GameKind {
        match self {
            GameState::Cave(_) => GameKind::Cave,
        }
    }

    /// The seat whose turn it is, or `None` once the game is over.
    pub fn seat_to_move(&self) -> Option<u8> {
        match self {
            GameState::Cave(position) => position
                .outcome()
                .is_none()
                .then(|| position.to_move().seat()),
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
        }
    }

    /// The state after `mv`, or why the rules refuse it. Never changes `self`.
    pub fn apply(&self, mv: GameMove) -> Result<GameState, RuleError> {
        match (self, mv) {
            (GameState::Cave(position), GameMove::Cave(square)) => {
                Ok(GameState::Cave(position.play(square)?))
            }
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

impl std::fmt::Display for GameMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameMove::Cave(square) => write!(f, "{square}"),
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
        let start = GameKind::Cave.start();
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
        let start = GameKind::Cave.start();
        assert_eq!(start.seat_to_move(), Some(0));
        let next = start.apply(cave_moves("a1")[0]).unwrap();
        assert_eq!(next.seat_to_move(), Some(1));
        assert_eq!(
            GameKind::Cave.seat_names().len(),
            GameKind::Cave.seats() as usize
        );
    }
}
