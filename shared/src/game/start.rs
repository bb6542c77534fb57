//! Where a game under way started: what a replay of all its moves starts from.

use super::moves::in_effect;
use super::{GameMove, GameState, SetupError};
use crate::klotski::{self, KlotskiMove};

/// Why the start of a game under way cannot be found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error("its slides do not lead back from where the pieces stand: {0}")]
    Slides(#[from] klotski::MoveError),
}

impl GameState {
    /// The state the game started from, `moves` being every move made since: its setup's
    /// start, but in Numeric Klotski, whose state holds only where the pieces stand now, the
    /// slides still in effect (after undos and restarts) stepped back.
    pub fn start_before(&self, moves: &[GameMove]) -> Result<GameState, StartError> {
        let GameState::Klotski(game) = self else {
            return Ok(self.setup().start()?);
        };
        // A Klotski game's turns are its slides (giving up is none).
        let slides: Vec<klotski::Move> = (in_effect(moves).into_iter())
            .filter_map(|mv| match mv {
                GameMove::Klotski(KlotskiMove::Slide(slide)) => Some(slide),
                _ => None,
            })
            .collect();
        Ok(GameState::Klotski(game.before(&slides)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameSetup;
    use crate::klotski::{Dir, KlotskiBoard, Move, parse_puzzle};

    fn slide(label: u16, dir: Dir) -> GameMove {
        GameMove::Klotski(KlotskiMove::Slide(Move { label, dir }))
    }

    /// A Klotski game's state is its current position: the start is found by stepping back
    /// the slides in effect, so that replaying every move from it (undos and restarts
    /// included) ends where the game stands.
    #[test]
    fn a_klotski_game_under_way_leads_back_to_its_start() {
        let text = "3 3\n1 2 3\n4 5 6\n7 0 8\n0\n";
        let start = GameSetup::Klotski(KlotskiBoard::of(&parse_puzzle(text).unwrap()))
            .start()
            .unwrap();
        let games = [
            vec![slide(5, Dir::Down), slide(4, Dir::Right)],
            vec![slide(7, Dir::Right), GameMove::Undo, slide(5, Dir::Down)],
            vec![
                slide(5, Dir::Down),
                slide(4, Dir::Right),
                GameMove::Restart,
                slide(7, Dir::Right),
                slide(4, Dir::Down),
                slide(1, Dir::Down),
            ],
        ];
        for moves in games {
            let now = start.replay(&moves).unwrap().pop().unwrap();
            assert_ne!(now, start);
            let found = now.start_before(&moves).unwrap();
            assert_eq!(found, start, "{moves:?}");
            assert_eq!(found.replay(&moves).unwrap().pop().unwrap(), now);
        }
        // Slides that do not lead back are refused in words.
        let now = start
            .replay(&[slide(7, Dir::Right)])
            .unwrap()
            .pop()
            .unwrap();
        let error = now.start_before(&[slide(5, Dir::Down)]).unwrap_err();
        assert!(error.to_string().contains("do not lead back"), "{error}");
    }

    /// Other games keep their setup in their state.
    #[test]
    fn other_games_start_from_their_setup() {
        let start = GameSetup::Cave.start().unwrap();
        let moves: Vec<GameMove> = crate::cave::parse_moves("a1 h8")
            .unwrap()
            .into_iter()
            .map(GameMove::Cave)
            .collect();
        let now = start.replay(&moves).unwrap().pop().unwrap();
        assert_eq!(now.start_before(&moves).unwrap(), start);
    }
}
