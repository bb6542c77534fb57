//! The rules: which pieces a die lets move, where they may go, captures, win and loss.

use std::fmt;

use super::board::{DEFAULT_BLOCKED, SQUARES, chebyshev_to_corner, is_king_step, neighbours};
use super::pieces::{PIECES, Pieces};

/// Dice in a level's sequence: one per allowed move.
pub const DICE_LEN: usize = 30;

/// The settings that vary between courses and levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The removed square no piece may enter.
    pub blocked: u8,
    /// Moves allowed before the puzzle is lost (at most [`DICE_LEN`]). A course level read from
    /// a file keeps its own lower limit (see `course_rules`).
    pub max_moves: usize,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            blocked: DEFAULT_BLOCKED,
            max_moves: DICE_LEN,
        }
    }
}

/// Why a level cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LevelError {
    #[error("the target must be a piece 1..6, not {0}")]
    Target(i64),
    #[error("the target piece {0} is not on the board")]
    TargetAbsent(u8),
    #[error("piece {piece} stands on the removed square {square}")]
    OnRemovedSquare { piece: u8, square: u8 },
    #[error("{0} is not a die: dice are 1..6")]
    Die(i64),
    #[error("the removed square must be 1..99, not {0}")]
    Blocked(u8),
    #[error("1 to {DICE_LEN} moves can be allowed (one per die), not {0}")]
    MaxMoves(usize),
}

/// A puzzle: the target piece, where the pieces start, the dice, and the rules it is played by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    target: u8,
    start: Pieces,
    dice: [u8; DICE_LEN],
    rules: Rules,
}

/// A moment of play: the pieces and how many moves have been made (the next die's index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub pieces: Pieces,
    pub turn: usize,
}

/// One move: `piece` (1..6) goes to square `to`, capturing whatever stands there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub piece: u8,
    pub to: u8,
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Playing,
    /// The target stands on square 0.
    Won,
    Lost(LossReason),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LossReason {
    TargetCaptured,
    /// All the allowed moves (the number is the limit) were made without a win.
    OutOfMoves(usize),
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Playing => f.write_str("still playing"),
            Status::Won => f.write_str("the target reached square 0"),
            Status::Lost(LossReason::TargetCaptured) => f.write_str("the target was captured"),
            Status::Lost(LossReason::OutOfMoves(limit)) => {
                write!(f, "all {limit} moves were made without a win")
            }
        }
    }
}

/// Why a move is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("the game is over: {0}")]
    GameOver(Status),
    #[error("piece {piece} may not move on die {die}: the movable pieces are {movable}")]
    NotMovable {
        piece: u8,
        die: u8,
        movable: PieceList,
    },
    #[error("square {0} is off the board")]
    OffBoard(u8),
    #[error("square {0} is the removed square")]
    RemovedSquare(u8),
    #[error("piece {piece} cannot go from {from} to {to}: that is not a king step")]
    NotKingStep { piece: u8, from: u8, to: u8 },
}

/// One or two pieces, smallest first: what a die lets move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceList {
    pieces: [u8; 2],
    len: u8,
}

impl PieceList {
    pub const EMPTY: PieceList = PieceList {
        pieces: [0; 2],
        len: 0,
    };

    fn push(&mut self, piece: u8) {
        self.pieces[usize::from(self.len)] = piece;
        self.len += 1;
    }

    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.pieces[..usize::from(self.len)]
    }

    #[inline]
    pub fn contains(&self, piece: u8) -> bool {
        self.as_slice().contains(&piece)
    }
}

/// `1`, `2 and 4`, or `none`.
impl fmt::Display for PieceList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_slice() {
            [] => f.write_str("none"),
            [one] => write!(f, "{one}"),
            [low, high, ..] => write!(f, "{low} and {high}"),
        }
    }
}

/// The pieces die `die` lets move: the piece `die` itself if it is live; otherwise the largest
/// live piece below `die` and the smallest live piece above it, whichever exist.
#[inline]
pub fn movable_pieces(pieces: &Pieces, die: u8) -> PieceList {
    let mut list = PieceList::EMPTY;
    if pieces.is_live(die) {
        list.push(die);
        return list;
    }
    if let Some(below) = (1..die).rev().find(|&p| pieces.is_live(p)) {
        list.push(below);
    }
    if let Some(above) = (die + 1..=PIECES).find(|&p| pieces.is_live(p)) {
        list.push(above);
    }
    list
}

impl Level {
    /// A level, checked: the target is a live piece 1..6, no piece on the removed square, dice
    /// 1..6, and rules the dice can serve.
    pub fn new(
        target: u8,
        start: Pieces,
        dice: [u8; DICE_LEN],
        rules: Rules,
    ) -> Result<Level, LevelError> {
        if rules.blocked == 0 || rules.blocked >= SQUARES {
            return Err(LevelError::Blocked(rules.blocked));
        }
        if !(1..=DICE_LEN).contains(&rules.max_moves) {
            return Err(LevelError::MaxMoves(rules.max_moves));
        }
        if !(1..=PIECES).contains(&target) {
            return Err(LevelError::Target(i64::from(target)));
        }
        if !start.is_live(target) {
            return Err(LevelError::TargetAbsent(target));
        }
        if let Some(piece) = start.piece_on(rules.blocked) {
            return Err(LevelError::OnRemovedSquare {
                piece,
                square: rules.blocked,
            });
        }
        if let Some(&die) = dice.iter().find(|&&die| !(1..=PIECES).contains(&die)) {
            return Err(LevelError::Die(i64::from(die)));
        }
        Ok(Level {
            target,
            start,
            dice,
            rules,
        })
    }

    pub fn target(&self) -> u8 {
        self.target
    }

    pub fn start(&self) -> Pieces {
        self.start
    }

    pub fn dice(&self) -> &[u8; DICE_LEN] {
        &self.dice
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    pub fn start_state(&self) -> State {
        State {
            pieces: self.start,
            turn: 0,
        }
    }

    /// Won as soon as the target stands on 0 (even at the start); lost once it is captured or
    /// every allowed move is made.
    pub fn status(&self, state: &State) -> Status {
        match state.pieces.square_of(self.target) {
            Some(0) => Status::Won,
            None => Status::Lost(LossReason::TargetCaptured),
            Some(_) if state.turn >= self.rules.max_moves => {
                Status::Lost(LossReason::OutOfMoves(self.rules.max_moves))
            }
            Some(_) => Status::Playing,
        }
    }

    /// The die for the next move of `state`; `None` once the dice are used up.
    pub fn die(&self, state: &State) -> Option<u8> {
        self.dice.get(state.turn).copied()
    }

    /// The pieces allowed to move next (none once the game is over).
    pub fn movable(&self, state: &State) -> PieceList {
        match (self.status(state), self.die(state)) {
            (Status::Playing, Some(die)) => movable_pieces(&state.pieces, die),
            _ => PieceList::EMPTY,
        }
    }

    /// The legal move that leaves the target nearest square 0 (the first of equals), never one
    /// that captures the target while another is left: how an AI without a solution plays on
    /// until the game ends.
    pub fn closest_move(&self, state: &State) -> Option<Move> {
        self.legal_moves(state).into_iter().min_by_key(|&mv| {
            self.play(state, mv)
                .ok()
                .and_then(|next| next.pieces.square_of(self.target))
                .map_or(u8::MAX, chebyshev_to_corner)
        })
    }

    /// Every legal move, by piece then square.
    pub fn legal_moves(&self, state: &State) -> Vec<Move> {
        let movable = self.movable(state);
        movable
            .as_slice()
            .iter()
            .flat_map(|&piece| {
                let from = state
                    .pieces
                    .square_of(piece)
                    .expect("movable pieces are live");
                neighbours(from, self.rules.blocked).map(move |to| Move { piece, to })
            })
            .collect()
    }

    /// The state after `mv`, or why it is refused.
    pub fn play(&self, state: &State, mv: Move) -> Result<State, MoveError> {
        let status = self.status(state);
        if status != Status::Playing {
            return Err(MoveError::GameOver(status));
        }
        let die = self.dice[state.turn];
        let movable = movable_pieces(&state.pieces, die);
        let from = match state.pieces.square_of(mv.piece) {
            Some(from) if movable.contains(mv.piece) => from,
            _ => {
                return Err(MoveError::NotMovable {
                    piece: mv.piece,
                    die,
                    movable,
                });
            }
        };
        if mv.to >= SQUARES {
            return Err(MoveError::OffBoard(mv.to));
        }
        if mv.to == self.rules.blocked {
            return Err(MoveError::RemovedSquare(mv.to));
        }
        if !is_king_step(from, mv.to) {
            return Err(MoveError::NotKingStep {
                piece: mv.piece,
                from,
                to: mv.to,
            });
        }
        Ok(State {
            pieces: state.pieces.with_move(mv.piece, mv.to),
            turn: state.turn + 1,
        })
    }
}
