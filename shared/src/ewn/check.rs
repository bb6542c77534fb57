//! The viewer's checker: a moves.txt is accepted only if it records a legal game of its level,
//! move by move, and stops where the game ends.

use super::course::course_rules;
use super::format::{FileError, LineProblem, MovesFile};
use super::pieces::{PIECES, Pieces};
use super::rules::{Level, LossReason, Move, Rules, Status};

/// Line of moves.txt holding `positions[0]`; position `i` is on line `START_LINE + i`.
const START_LINE: usize = 4;

/// A file that passed the checker: how its game ended and after how many moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checked {
    pub status: Status,
    pub moves: usize,
}

impl MovesFile {
    /// The level the file's own header describes (its dice, target and start), under `rules`
    /// or within a course level's own lower move limit.
    pub fn level(&self, rules: Rules) -> Result<Level, FileError> {
        let at_start = |problem| FileError {
            line: START_LINE,
            problem,
        };
        let start = *self
            .positions
            .first()
            .ok_or(at_start(LineProblem::Missing("start positions")))?;
        let rules = course_rules(rules, self.target, &start, &self.dice);
        Level::new(self.target, start, self.dice, rules).map_err(|error| at_start(error.into()))
    }
}

/// The move that turns `before` into `after`: exactly one piece changed squares, and at most one
/// other piece was captured, on the square the mover went to.
fn infer_move(before: &Pieces, after: &Pieces) -> Result<Move, LineProblem> {
    let (mut mover, mut victim) = (None, None);
    for piece in 1..=PIECES {
        match (before.square_of(piece), after.square_of(piece)) {
            (None, Some(_)) => return Err(LineProblem::Revived(piece)),
            (Some(_), None) => match victim.replace(piece) {
                Some(first) => return Err(LineProblem::TwoCaptured(first, piece)),
                None => continue,
            },
            (Some(from), Some(to)) if from != to => match mover.replace((piece, to)) {
                Some((first, _)) => return Err(LineProblem::SeveralPiecesMoved(first, piece)),
                None => continue,
            },
            _ => continue,
        }
    }
    let Some((piece, to)) = mover else {
        return Err(match victim {
            Some(victim) => LineProblem::Vanished(victim),
            None => LineProblem::NoPieceMoved,
        });
    };
    match victim {
        Some(victim) if before.square_of(victim) != Some(to) => Err(LineProblem::Vanished(victim)),
        _ => Ok(Move { piece, to }),
    }
}

/// Checks `file` against `level`: the header must match the level, every line must follow from
/// the one before by a legal move, and nothing may follow the end of the game.
pub fn check_moves(file: &MovesFile, level: &Level) -> Result<Checked, FileError> {
    let header = [
        (2, file.dice != *level.dice(), "dice sequence"),
        (3, file.target != level.target(), "target piece"),
        (
            START_LINE,
            file.positions.first() != Some(&level.start()),
            "start position",
        ),
    ];
    if let Some(&(line, _, what)) = header.iter().find(|(_, differs, _)| *differs) {
        return Err(FileError {
            line,
            problem: LineProblem::DiffersFromLevel(what),
        });
    }
    let mut state = level.start_state();
    for (index, after) in file.positions.iter().enumerate().skip(1) {
        let at_line = |problem| FileError {
            line: START_LINE + index,
            problem,
        };
        match level.status(&state) {
            Status::Playing => {}
            Status::Lost(LossReason::OutOfMoves(limit)) => {
                return Err(at_line(LineProblem::TooManyMoves(limit)));
            }
            ended => return Err(at_line(LineProblem::AfterEnd(ended))),
        }
        let mv = infer_move(&state.pieces, after).map_err(at_line)?;
        state = level.play(&state, mv).map_err(|error| {
            at_line(LineProblem::IllegalMove {
                number: index,
                error,
            })
        })?;
    }
    Ok(Checked {
        status: level.status(&state),
        moves: state.turn,
    })
}
