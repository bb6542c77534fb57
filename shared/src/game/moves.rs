//! A move of any game (`GameMove`), what each belongs to, whether a person may send it, and
//! which moves are turns as people count them.

use serde::{Deserialize, Serialize};

use super::GameKind;
use crate::bricks::BricksMove;
use crate::cave;
use crate::ewn::EwnMove;
use crate::hexapawn::HexMove;
use crate::klotski::{self, KlotskiMove};

/// One move of some game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameMove {
    Cave(cave::Square),
    Bricks(BricksMove),
    Ewn(EwnMove),
    Klotski(KlotskiMove),
    Hexapawn(HexMove),
    /// A puzzle's player takes back their last move (EWN, Numeric Klotski).
    Undo,
    /// A puzzle's player starts over from the puzzle's start.
    Restart,
    /// The player in `seat` gives the game up, on their turn or not; the other side wins
    /// (Magnetic Cave).
    Resign {
        seat: u8,
    },
}

impl GameMove {
    /// The game the move belongs to; none for an undo or a restart, which every puzzle takes,
    /// nor for a resignation.
    pub fn kind(&self) -> Option<GameKind> {
        match self {
            GameMove::Cave(_) => Some(GameKind::Cave),
            GameMove::Bricks(_) => Some(GameKind::Bricks),
            GameMove::Ewn(_) => Some(GameKind::Ewn),
            GameMove::Klotski(_) => Some(GameKind::Klotski),
            GameMove::Hexapawn(_) => Some(GameKind::Hexapawn),
            GameMove::Undo | GameMove::Restart | GameMove::Resign { .. } => None,
        }
    }

    /// Whether the move is a turn as people count them: a Bricks drop (its answer is part of
    /// it), a Klotski slide (giving up is none), a Hexapawn ply (HER's pick and resignation
    /// are none), every Magnetic Cave and EWN move; an undo, a restart or a resignation is
    /// none.
    pub fn is_a_turn(&self) -> bool {
        !matches!(
            self,
            GameMove::Bricks(BricksMove::Answer(_))
                | GameMove::Klotski(KlotskiMove::GiveUp(_))
                | GameMove::Hexapawn(HexMove::HerPicks | HexMove::HerResigns)
                | GameMove::Undo
                | GameMove::Restart
                | GameMove::Resign { .. }
        )
    }

    /// Whether a person may send this move. The rules take any give-up, but only the solver
    /// knows why it gives up: a person claiming "no solution exists" or "out of time" would
    /// put the solver's words into the game's record.
    pub fn check_made_by_a_person(&self) -> Result<(), String> {
        match self {
            GameMove::Klotski(KlotskiMove::GiveUp(reason))
                if *reason != klotski::GiveUpReason::Player =>
            {
                Err(format!(
                    "only the solver gives up with \"{reason}\"; a person gives up as Player"
                ))
            }
            _ => Ok(()),
        }
    }
}

/// How many turns among `moves` (see [`GameMove::is_a_turn`]) are still in effect
/// ([`in_effect`]), as a puzzle's own count goes: what a room's summary and a stored game's
/// record count.
pub fn turns(moves: &[GameMove]) -> u32 {
    in_effect(moves).len() as u32
}

/// The turns among `moves` that are still in effect, in order: an undo takes back the last
/// one, a restart all of them.
pub fn in_effect(moves: &[GameMove]) -> Vec<GameMove> {
    let mut kept = Vec::new();
    moves.iter().for_each(|mv| keep(&mut kept, mv));
    kept
}

/// Each of `moves`' number as a turn in effect once it is made (`Some(1)` for a first turn,
/// and again for the first after an undo of it), or `None` for what is no turn (an undo, a
/// restart, a give-up): how a list of a puzzle's moves numbers them, as its count goes.
pub fn turn_numbers(moves: &[GameMove]) -> Vec<Option<usize>> {
    let mut kept = Vec::new();
    (moves.iter())
        .map(|mv| {
            keep(&mut kept, mv);
            mv.is_a_turn().then_some(kept.len())
        })
        .collect()
}

/// The turns in effect, `kept`, after `mv`: an undo takes back the last, a restart all.
fn keep(kept: &mut Vec<GameMove>, mv: &GameMove) {
    match mv {
        GameMove::Undo => {
            kept.pop();
        }
        GameMove::Restart => kept.clear(),
        mv if mv.is_a_turn() => kept.push(*mv),
        _ => {}
    }
}

impl std::fmt::Display for GameMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameMove::Cave(square) => write!(f, "{square}"),
            GameMove::Bricks(BricksMove::Drop(height)) => write!(f, "drop from {height}"),
            GameMove::Bricks(BricksMove::Answer(answer)) => write!(f, "{answer}"),
            GameMove::Ewn(EwnMove { piece, to }) => write!(f, "piece {piece} to {to}"),
            GameMove::Klotski(KlotskiMove::Slide(slide)) => write!(f, "{slide}"),
            GameMove::Klotski(KlotskiMove::GiveUp(reason)) => write!(f, "gave up: {reason}"),
            GameMove::Hexapawn(HexMove::Play(mv)) => write!(f, "{mv}"),
            GameMove::Hexapawn(HexMove::HerPicks) => f.write_str("HER picks"),
            GameMove::Hexapawn(HexMove::HerResigns) => f.write_str("HER resigns"),
            GameMove::Undo => f.write_str("undo"),
            GameMove::Restart => f.write_str("restart"),
            GameMove::Resign { .. } => f.write_str("resigns"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_count_what_people_count() {
        use crate::bricks::Answer;
        let moves = [
            GameMove::Bricks(BricksMove::Drop(5)),
            GameMove::Bricks(BricksMove::Answer(Answer::Safe)),
            GameMove::Bricks(BricksMove::Drop(7)),
        ];
        assert_eq!(turns(&moves), 2, "a drop and its answer are one turn");
        let gave_up = [GameMove::Klotski(KlotskiMove::GiveUp(
            klotski::GiveUpReason::Player,
        ))];
        assert_eq!(turns(&gave_up), 0, "giving up at once is no step");
        let her = [
            GameMove::Hexapawn(HexMove::HerPicks),
            GameMove::Hexapawn(HexMove::HerResigns),
        ];
        assert_eq!(turns(&her), 0);
        assert_eq!(turns(&[GameMove::Cave("a1".parse().unwrap())]), 1);
        let resigned = [
            GameMove::Cave("a1".parse().unwrap()),
            GameMove::Resign { seat: 1 },
        ];
        assert_eq!(turns(&resigned), 1, "resigning is no move");
        let slide = |label| {
            GameMove::Klotski(KlotskiMove::Slide(klotski::Move {
                label,
                dir: klotski::Dir::Left,
            }))
        };
        let undone = [slide(1), GameMove::Undo, slide(3)];
        assert_eq!(turns(&undone), 1, "an undone slide is no step");
        let restarted = [slide(1), slide(2), GameMove::Restart, slide(3), slide(4)];
        assert_eq!(turns(&restarted), 2, "a restart takes every step back");
        let gave_up = GameMove::Klotski(KlotskiMove::GiveUp(klotski::GiveUpReason::Player));
        let played = [
            slide(1),
            slide(2),
            GameMove::Undo,
            slide(3),
            GameMove::Restart,
            slide(4),
            gave_up,
        ];
        let numbers = [Some(1), Some(2), None, Some(2), None, Some(1), None];
        assert_eq!(turn_numbers(&played), numbers);
    }
}
