//! The games of the hall behind one enum each for kind, state and move, so the server, the
//! protocol and stored records handle every game the same way. Each variant delegates to the
//! game's own pure rules module.

use serde::{Deserialize, Serialize};

use crate::bricks::{self, BricksGame};
use crate::cave;
use crate::ewn::{self, EwnGame, LevelSpec};
use crate::hexapawn::{self, HexGame, HexMove, HexSetup, MatchSetup, MatchView};
use crate::klotski::{self, KlotskiBoard, KlotskiGame};

mod moves;
mod start;

pub use moves::{GameMove, turn_numbers, turns};
pub use start::StartError;

/// Which game a room plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameKind {
    Cave,
    Bricks,
    Ewn,
    Klotski,
    /// A person against HER, the matchbox robot.
    Hexapawn,
    /// HER against HER for a number of rounds, watched live.
    HerMatch,
}

impl GameKind {
    pub const ALL: [GameKind; 6] = [
        GameKind::Cave,
        GameKind::Bricks,
        GameKind::Ewn,
        GameKind::Klotski,
        GameKind::Hexapawn,
        GameKind::HerMatch,
    ];

    /// A short name for menus and logs.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Cave => "Magnetic Cave",
            GameKind::Bricks => "Dropping Bricks",
            GameKind::Ewn => "EinStein würfelt nicht! puzzle",
            GameKind::Klotski => "Numeric Klotski",
            GameKind::Hexapawn => "Hexapawn with HER",
            GameKind::HerMatch => "HER against HER",
        }
    }

    /// How many seats a room of this game has.
    pub const fn seats(self) -> u8 {
        match self {
            GameKind::Cave | GameKind::Bricks | GameKind::Hexapawn => 2,
            GameKind::Ewn | GameKind::Klotski => 1,
            GameKind::HerMatch => 0,
        }
    }

    /// The name of each seat, in seat order.
    pub fn seat_names(self) -> Vec<String> {
        match self {
            GameKind::Cave => vec!["■ Black (first)".into(), "□ White (second)".into()],
            GameKind::Bricks => vec!["Agent (drops)".into(), "Answerer (safe or broken)".into()],
            GameKind::Ewn | GameKind::Klotski => vec!["Player".into()],
            GameKind::Hexapawn => vec!["You (White, first)".into(), "HER (Black)".into()],
            GameKind::HerMatch => vec![],
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
            GameKind::Klotski => {
                "slide numbered tiles and blocks until they read 1, 2, 3, ... row by row"
            }
            GameKind::Hexapawn => {
                "pawns on a small board against HER, a robot of matchboxes that learns from losing"
            }
            GameKind::HerMatch => {
                "two HERs teach each other for many rounds while you watch them learn"
            }
        }
    }
}

/// What a room is created with: the game and whatever that game needs to start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
    /// A Numeric Klotski board to solve.
    Klotski(KlotskiBoard),
    /// A person against HER with one of the server's brains.
    Hexapawn(HexSetup),
    /// HER against HER.
    HerMatch(MatchSetup),
}

/// The most drops a Dropping Bricks room allows. Every room state carries every move, so this
/// keeps the longest game (two moves a drop) inside one 64 KiB frame, and an AI-against-AI
/// room from running forever. Games on one's own machine (`client bricks`) have no such cap.
pub const MAX_ROOM_DROPS: u64 = 400;

/// Why a setup cannot start a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error(transparent)]
    Bricks(#[from] bricks::BricksError),
    #[error("a Dropping Bricks room allows at most {MAX_ROOM_DROPS} drops, not {0}")]
    RoomDrops(u64),
    #[error(transparent)]
    Ewn(#[from] ewn::SpecError),
    #[error("not a valid Klotski board: {0}")]
    Klotski(#[from] klotski::LayoutError),
    #[error("{0}")]
    Hexapawn(String),
}

impl GameSetup {
    pub fn kind(&self) -> GameKind {
        match self {
            GameSetup::Cave => GameKind::Cave,
            GameSetup::Bricks { .. } => GameKind::Bricks,
            GameSetup::Ewn(_) => GameKind::Ewn,
            GameSetup::Klotski(_) => GameKind::Klotski,
            GameSetup::Hexapawn(_) => GameKind::Hexapawn,
            GameSetup::HerMatch(_) => GameKind::HerMatch,
        }
    }

    /// The state a room with this setup starts from, once the setup is checked.
    /// HER's brains are the server's: a Hexapawn game starts with an empty one here, and the
    /// server starts it with the named brain instead.
    pub fn start(&self) -> Result<GameState, SetupError> {
        Ok(match self {
            GameSetup::Cave => GameState::Cave(cave::Position::new()),
            GameSetup::Bricks {
                height,
                drops,
                bricks,
            } => {
                let setup = bricks::Setup::new(*height, *drops, *bricks)?;
                if *drops > MAX_ROOM_DROPS {
                    return Err(SetupError::RoomDrops(*drops));
                }
                GameState::Bricks(BricksGame::new(setup))
            }
            GameSetup::Ewn(spec) => GameState::Ewn(EwnGame::new(spec.level()?)),
            GameSetup::Klotski(board) => GameState::Klotski(KlotskiGame::new(board.puzzle()?)),
            GameSetup::Hexapawn(setup) => {
                hexapawn::BrainRef::parse(&setup.brain).map_err(SetupError::Hexapawn)?;
                let brain = hexapawn::Brain::new(setup.dims, setup.mirrors);
                GameState::Hexapawn(HexGame::new(setup.clone(), &brain))
            }
            GameSetup::HerMatch(setup) => {
                setup.check().map_err(SetupError::Hexapawn)?;
                GameState::HerMatch(MatchView::new(setup.clone()))
            }
        })
    }
}

/// A game's whole state: what the server validates against and what every screen draws.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameState {
    Cave(cave::Position),
    Bricks(BricksGame),
    Ewn(EwnGame),
    Klotski(KlotskiGame),
    Hexapawn(HexGame),
    /// An auto match takes no moves: its server room plays it.
    HerMatch(MatchView),
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
    #[error(transparent)]
    Klotski(#[from] klotski::KlotskiMoveError),
    #[error(transparent)]
    Hexapawn(#[from] hexapawn::HexapawnError),
    #[error("HER draws its beads in the server's room; a replay needs the plies")]
    HerDraw,
    #[error("an auto match takes no moves")]
    NoMoves,
    #[error(transparent)]
    EwnTakeback(#[from] ewn::TakebackError),
    #[error("only the puzzles (EWN, Numeric Klotski) take Undo and Restart, not {0}")]
    NotAPuzzle(&'static str),
    #[error("only the players of Magnetic Cave and Dropping Bricks resign, not {0}'s")]
    NoResigning(&'static str),
    #[error("the game has no seat {0}")]
    NoSuchSeat(u8),
}

impl GameState {
    /// The setup that starts a game like this one, from its start state: what a rematch
    /// asks for. (For a game under way it is the setup of its current position.)
    pub fn setup(&self) -> GameSetup {
        match self {
            GameState::Cave(_) => GameSetup::Cave,
            GameState::Bricks(game) => {
                let bricks::Setup {
                    height,
                    drops,
                    bricks,
                } = game.setup();
                GameSetup::Bricks {
                    height,
                    drops,
                    bricks,
                }
            }
            GameState::Ewn(game) => GameSetup::Ewn(LevelSpec::of(game.level())),
            GameState::Klotski(game) => GameSetup::Klotski(KlotskiBoard::of(game.puzzle())),
            GameState::Hexapawn(game) => GameSetup::Hexapawn(game.setup.clone()),
            GameState::HerMatch(view) => GameSetup::HerMatch(view.setup.clone()),
        }
    }

    pub fn kind(&self) -> GameKind {
        match self {
            GameState::Cave(_) => GameKind::Cave,
            GameState::Bricks(_) => GameKind::Bricks,
            GameState::Ewn(_) => GameKind::Ewn,
            GameState::Klotski(_) => GameKind::Klotski,
            GameState::Hexapawn(_) => GameKind::Hexapawn,
            GameState::HerMatch(_) => GameKind::HerMatch,
        }
    }

    /// The seat whose turn it is, or `None` once the game is over.
    pub fn seat_to_move(&self) -> Option<u8> {
        match self {
            GameState::Cave(position) => position
                .result()
                .is_none()
                .then(|| position.to_move().seat()),
            GameState::Bricks(game) => game.seat_to_move(),
            GameState::Ewn(game) => (game.status() == ewn::Status::Playing).then_some(0),
            GameState::Klotski(game) => {
                (game.status() == klotski::KlotskiStatus::Playing).then_some(0)
            }
            GameState::Hexapawn(game) => game.seat_to_move(),
            GameState::HerMatch(_) => None,
        }
    }

    /// The seat whose move the game waits for, as the lobby marks it: the seat to move, but
    /// the person's on HER's turn in a slow game against HER.
    pub fn seat_waited_for(&self) -> Option<u8> {
        match self {
            GameState::Hexapawn(game) => game.seat_waited_for(),
            _ => self.seat_to_move(),
        }
    }

    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            GameState::Cave(position) => position.result().map(|outcome| match outcome {
                cave::Outcome::Win(player) => Outcome::Won {
                    seat: player.seat(),
                },
                cave::Outcome::Tie => Outcome::Tie,
            }),
            GameState::Bricks(game) => game.winner().map(|seat| Outcome::Won { seat }),
            GameState::Ewn(game) => match game.status() {
                ewn::Status::Playing => None,
                ewn::Status::Won => Some(Outcome::Won { seat: 0 }),
                ewn::Status::Lost(_) => Some(Outcome::Unsolved),
            },
            GameState::Klotski(game) => match game.status() {
                klotski::KlotskiStatus::Playing => None,
                klotski::KlotskiStatus::Solved => Some(Outcome::Won { seat: 0 }),
                klotski::KlotskiStatus::GaveUp(_) => Some(Outcome::Unsolved),
            },
            GameState::Hexapawn(game) => game.winner().map(|winner| Outcome::Won {
                seat: if winner == hexapawn::PERSON_SIDE {
                    hexapawn::PERSON_SEAT
                } else {
                    hexapawn::HER_SEAT
                },
            }),
            GameState::HerMatch(view) => view.outcome(),
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
            (GameState::Klotski(game), GameMove::Klotski(mv)) => {
                Ok(GameState::Klotski(game.play(mv)?))
            }
            (GameState::Hexapawn(game), GameMove::Hexapawn(HexMove::Play(mv))) => {
                Ok(GameState::Hexapawn(game.play(mv)?))
            }
            (GameState::Hexapawn(game), GameMove::Hexapawn(HexMove::HerResigns)) => {
                Ok(GameState::Hexapawn(game.her_resigns()?))
            }
            (GameState::Hexapawn(_), GameMove::Hexapawn(HexMove::HerPicks)) => {
                Err(RuleError::HerDraw)
            }
            (GameState::Ewn(game), GameMove::Undo) => Ok(GameState::Ewn(game.undo()?)),
            (GameState::Ewn(game), GameMove::Restart) => Ok(GameState::Ewn(game.restart()?)),
            (GameState::Klotski(game), GameMove::Undo) => Ok(GameState::Klotski(game.undo()?)),
            (GameState::Klotski(game), GameMove::Restart) => {
                Ok(GameState::Klotski(game.restart()?))
            }
            (GameState::HerMatch(_), _) => Err(RuleError::NoMoves),
            (GameState::Cave(position), GameMove::Resign { seat }) => {
                let side = [cave::Player::Black, cave::Player::White]
                    .into_iter()
                    .find(|side| side.seat() == seat)
                    .ok_or(RuleError::NoSuchSeat(seat))?;
                Ok(GameState::Cave(position.resign(side)?))
            }
            (GameState::Bricks(game), GameMove::Resign { seat }) => {
                Ok(GameState::Bricks(game.resign(seat)?))
            }
            (state, GameMove::Undo | GameMove::Restart) => {
                Err(RuleError::NotAPuzzle(state.kind().name()))
            }
            (state, GameMove::Resign { .. }) => Err(RuleError::NoResigning(state.kind().name())),
            (state, mv) => Err(RuleError::WrongGame(
                mv.kind().map_or("no game", GameKind::name),
                state.kind().name(),
            )),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn cave_moves(names: &str) -> Vec<GameMove> {
        let squares = cave::parse_moves(names).unwrap();
        squares.into_iter().map(GameMove::Cave).collect()
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
    fn the_longest_bricks_room_fits_one_frame_and_longer_ones_are_refused() {
        use crate::bricks::{Answer, BricksMove, MAX_HEIGHT};

        let too_long = GameSetup::Bricks {
            height: MAX_HEIGHT,
            drops: MAX_ROOM_DROPS + 1,
            bricks: 1,
        };
        assert_eq!(
            too_long.start(),
            Err(SetupError::RoomDrops(MAX_ROOM_DROPS + 1))
        );
        let longest = GameSetup::Bricks {
            height: MAX_HEIGHT,
            drops: MAX_ROOM_DROPS,
            bricks: 1,
        };
        let mut state = longest.start().unwrap();
        let mut moves = Vec::new();
        // Drops from the very top, each survived: the widest numbers and the most moves.
        let mut height = MAX_HEIGHT - MAX_ROOM_DROPS;
        while state.outcome().is_none() {
            height += 1;
            for mv in [BricksMove::Drop(height), BricksMove::Answer(Answer::Safe)] {
                state = state.apply(GameMove::Bricks(mv)).unwrap();
                moves.push(GameMove::Bricks(mv));
            }
        }
        assert_eq!(moves.len() as u64, 2 * MAX_ROOM_DROPS);
        crate::codec::assert_widest_state_fits(state, moves, 2);
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
