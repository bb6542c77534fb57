//! Numeric Klotski as a one-seat game for rooms: the board travels with the state (the goal
//! needs nothing else), so a spectator or a replay needs nothing more. On the wire a board is a
//! plain [`KlotskiBoard`] (`board.rs`).

use serde::{Deserialize, Serialize};

use super::board::KlotskiBoard;
use super::puzzle::{LayoutError, Move, MoveError, Position, Puzzle};

/// The most steps a game may take; a hand-played game that wanders this far has given up.
/// Every room state carries every move, so this also keeps the longest game's state inside
/// one 64 KiB frame in JSON (tested below).
pub const MAX_STEPS: u32 = 1_000;

/// One move of a Klotski room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum KlotskiMove {
    /// Slide one piece one cell.
    Slide(Move),
    /// End the game unsolved.
    GiveUp(GiveUpReason),
}

/// Why a game ended unsolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GiveUpReason {
    /// The player stopped.
    Player,
    /// The solver proved that no sequence of slides reaches the goal.
    NoSolution,
    /// The solver found neither a solution nor a proof within its time and memory.
    OutOfTime,
    /// [`MAX_STEPS`] steps were taken.
    StepLimit,
    /// The solver's solution takes more steps than the game has left before [`MAX_STEPS`].
    SolutionTooLong,
}

impl std::fmt::Display for GiveUpReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            GiveUpReason::Player => "the player gave up",
            GiveUpReason::NoSolution => "the solver proved there is no solution",
            GiveUpReason::OutOfTime => "the solver ran out of time or memory",
            GiveUpReason::StepLimit => "the step limit was reached",
            GiveUpReason::SolutionTooLong => {
                "the solver's solution takes more steps than a room allows"
            }
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum KlotskiStatus {
    Playing,
    Solved,
    GaveUp(GiveUpReason),
}

/// Why a move is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KlotskiMoveError {
    #[error(transparent)]
    Slide(#[from] MoveError),
    #[error("the puzzle is over")]
    Over,
    #[error("there is no slide to take back")]
    NothingToUndo,
    #[error("the game has taken its {MAX_STEPS} moves (slides, undos and restarts)")]
    TooManyMoves,
}

/// A puzzle being played: the pieces where they stand now and the steps taken. Two games are
/// equal when they show the same (what the wire carries), whatever slides led there.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(try_from = "KlotskiGameWire", into = "KlotskiGameWire")]
pub struct KlotskiGame {
    /// Its start position is the current one: the goal does not depend on where play began.
    puzzle: Puzzle,
    steps: u32,
    status: KlotskiStatus,
    /// The steps after which the game is given up: [`MAX_STEPS`] in a room (whose state, all
    /// moves included, must fit a frame), none for a local replay. Not sent: a game read from
    /// a peer is a room's.
    step_limit: u32,
    /// The slides in effect, in order: an undo takes back the last, a restart all of them
    /// (`steps` is their count). Not sent, like the moves made: whoever applies moves has the
    /// game from its start (the server, a replay); a state read from a peer cannot undo.
    trail: Vec<Move>,
    /// Moves of every kind so far (slides, undos, restarts): what the step limit counts, so
    /// that sliding back and forth cannot grow a room's state past a frame.
    made: u32,
}

impl PartialEq for KlotskiGame {
    fn eq(&self, other: &KlotskiGame) -> bool {
        (&self.puzzle, self.steps, self.status) == (&other.puzzle, other.steps, other.status)
    }
}

impl Eq for KlotskiGame {}

#[derive(Clone, Serialize, Deserialize)]
struct KlotskiGameWire {
    board: KlotskiBoard,
    steps: u32,
    status: KlotskiStatus,
}

impl From<KlotskiGame> for KlotskiGameWire {
    fn from(game: KlotskiGame) -> KlotskiGameWire {
        KlotskiGameWire {
            board: KlotskiBoard::of(&game.puzzle),
            steps: game.steps,
            status: game.status,
        }
    }
}

impl TryFrom<KlotskiGameWire> for KlotskiGame {
    type Error = LayoutError;

    fn try_from(wire: KlotskiGameWire) -> Result<KlotskiGame, LayoutError> {
        Ok(KlotskiGame {
            puzzle: wire.board.puzzle()?,
            steps: wire.steps,
            status: wire.status,
            step_limit: MAX_STEPS,
            trail: Vec::new(),
            made: wire.steps,
        })
    }
}

impl KlotskiGame {
    /// A game from the puzzle's start; one that starts at the goal is solved at once.
    pub fn new(puzzle: Puzzle) -> KlotskiGame {
        let status = if puzzle.is_goal(puzzle.start()) {
            KlotskiStatus::Solved
        } else {
            KlotskiStatus::Playing
        };
        KlotskiGame {
            puzzle,
            steps: 0,
            status,
            step_limit: MAX_STEPS,
            trail: Vec::new(),
            made: 0,
        }
    }

    /// The same game with no step limit, for replaying a long solution locally (a solver's
    /// answer on a big board can take more than [`MAX_STEPS`] slides).
    pub fn without_step_limit(self) -> KlotskiGame {
        KlotskiGame {
            step_limit: u32::MAX,
            ..self
        }
    }

    /// The pieces, with the current position as the puzzle's start.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    pub fn position(&self) -> &Position {
        self.puzzle.start()
    }

    pub fn steps(&self) -> u32 {
        self.steps
    }

    pub fn status(&self) -> KlotskiStatus {
        self.status
    }

    /// The game after `mv`; never changes `self`.
    pub fn play(&self, mv: KlotskiMove) -> Result<KlotskiGame, KlotskiMoveError> {
        if self.status != KlotskiStatus::Playing {
            return Err(KlotskiMoveError::Over);
        }
        let mut next = self.clone();
        match mv {
            KlotskiMove::GiveUp(reason) => next.status = KlotskiStatus::GaveUp(reason),
            KlotskiMove::Slide(slide) => {
                let position = self.puzzle.apply(self.position(), slide)?;
                next.trail.push(slide);
                next.moved_to(position, self.steps.saturating_add(1));
            }
        }
        Ok(next)
    }

    /// Moves of every kind played so far (slides, undos, restarts), against the step limit.
    pub fn moves_made(&self) -> u32 {
        self.made
    }

    /// The game with its last slide taken back: a move of the game like any other, counted
    /// against the step limit.
    pub fn undo(&self) -> Result<KlotskiGame, KlotskiMoveError> {
        self.check_takeback()?;
        let mut next = self.clone();
        let last = next.trail.pop().ok_or(KlotskiMoveError::NothingToUndo)?;
        let position = self.puzzle.apply(self.position(), last.back())?;
        next.moved_to(position, self.steps.saturating_sub(1));
        Ok(next)
    }

    /// The game back at its start, every slide taken back: one move of the game.
    pub fn restart(&self) -> Result<KlotskiGame, KlotskiMoveError> {
        self.check_takeback()?;
        let mut next = self.clone();
        let mut position = self.position().clone();
        while let Some(last) = next.trail.pop() {
            position = self.puzzle.apply(&position, last.back())?;
        }
        next.moved_to(position, 0);
        Ok(next)
    }

    /// The game as it stood before `slides`, the slides in effect in order, were made: each
    /// stepped back, the last first, and no step taken. What a game read from a peer, which
    /// carries no trail, started from.
    pub fn before(&self, slides: &[Move]) -> Result<KlotskiGame, MoveError> {
        let mut position = self.position().clone();
        for slide in slides.iter().rev() {
            position = self.puzzle.apply(&position, slide.back())?;
        }
        Ok(KlotskiGame::new(self.puzzle.restarted(position)))
    }

    /// Undo and restart need a game under way with a slide to take back.
    fn check_takeback(&self) -> Result<(), KlotskiMoveError> {
        if self.status != KlotskiStatus::Playing {
            return Err(KlotskiMoveError::Over);
        }
        if self.trail.is_empty() {
            return Err(KlotskiMoveError::NothingToUndo);
        }
        if self.made >= self.step_limit {
            return Err(KlotskiMoveError::TooManyMoves);
        }
        Ok(())
    }

    /// After a move to `position` that leaves `steps` slides in effect (the trail already
    /// updated): the counts and the status.
    fn moved_to(&mut self, position: Position, steps: u32) {
        // Saturating: a game read from a peer may claim any count.
        self.made = self.made.saturating_add(1);
        self.steps = steps;
        self.status = if self.puzzle.is_goal(&position) {
            KlotskiStatus::Solved
        } else if self.made >= self.step_limit {
            KlotskiStatus::GaveUp(GiveUpReason::StepLimit)
        } else {
            KlotskiStatus::Playing
        };
        self.puzzle = self.puzzle.restarted(position);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::klotski::{Dir, parse_puzzle};

    fn slide(label: u16, dir: Dir) -> KlotskiMove {
        KlotskiMove::Slide(Move { label, dir })
    }

    #[test]
    fn a_board_round_trips_and_a_game_is_solved_by_its_last_slide() {
        let puzzle = parse_puzzle("2 3\n1 2 3\n4 0 5\n0\n").unwrap();
        let board = KlotskiBoard::of(&puzzle);
        assert_eq!(board.puzzle().unwrap(), puzzle);
        let game = KlotskiGame::new(puzzle);
        assert_eq!(game.status(), KlotskiStatus::Playing);
        let done = game.play(slide(5, Dir::Left)).unwrap();
        assert_eq!(done.status(), KlotskiStatus::Solved);
        assert_eq!(done.steps(), 1);
        assert_eq!(done.play(slide(5, Dir::Right)), Err(KlotskiMoveError::Over));
        // The state is unchanged by a refused move, and the wire form carries it whole.
        let json = serde_json::to_string(&done).unwrap();
        assert_eq!(serde_json::from_str::<KlotskiGame>(&json).unwrap(), done);
    }

    /// The game after the legal slides `picks` choose (each an index into the legal moves).
    fn wander(game: &KlotskiGame, picks: &[usize]) -> KlotskiGame {
        let mut game = game.clone();
        for &pick in picks {
            let legal = game.puzzle().legal_moves(game.position());
            if game.status() != KlotskiStatus::Playing || legal.is_empty() {
                break;
            }
            game = game
                .play(KlotskiMove::Slide(legal[pick % legal.len()]))
                .unwrap();
        }
        game
    }

    proptest::proptest! {
        #[test]
        fn undo_takes_back_the_last_slide_and_restart_every_slide(
            picks in proptest::collection::vec(0usize..8, 1..40),
        ) {
            let start = KlotskiGame::new(parse_puzzle("3 3\n1 2 3\n4 5 6\n7 0 8\n0\n").unwrap());
            let before = wander(&start, &picks[..picks.len() - 1]);
            let after = wander(&before, &picks[picks.len() - 1..]);
            if after.status() == KlotskiStatus::Playing && after.steps() > before.steps() {
                let undone = after.undo().unwrap();
                proptest::prop_assert_eq!(undone.position(), before.position());
                proptest::prop_assert_eq!(undone.steps(), before.steps());
                let restarted = after.restart().unwrap();
                proptest::prop_assert_eq!(restarted.position(), start.position());
                proptest::prop_assert_eq!(restarted.steps(), 0);
                proptest::prop_assert_eq!(restarted.undo(), Err(KlotskiMoveError::NothingToUndo));
            }
        }
    }

    #[test]
    fn takebacks_count_against_the_step_limit_and_end_with_the_game() {
        let puzzle = parse_puzzle("2 3\n1 2 3\n4 0 5\n0\n").unwrap();
        let game = KlotskiGame::new(puzzle);
        assert_eq!(game.undo(), Err(KlotskiMoveError::NothingToUndo));
        assert_eq!(game.restart(), Err(KlotskiMoveError::NothingToUndo));
        // Back and forth until the limit: the slides, undos and restarts all count.
        let mut game = game;
        while game.status() == KlotskiStatus::Playing {
            game = game.play(slide(2, Dir::Down)).unwrap();
            if game.status() == KlotskiStatus::Playing {
                game = game.undo().unwrap();
            }
        }
        assert_eq!(
            game.status(),
            KlotskiStatus::GaveUp(GiveUpReason::StepLimit)
        );
        assert_eq!(game.undo(), Err(KlotskiMoveError::Over));
        // A solved game takes no undo either.
        let solved = KlotskiGame::new(parse_puzzle("2 3\n1 2 3\n4 0 5\n0\n").unwrap())
            .play(slide(5, Dir::Left))
            .unwrap();
        assert_eq!(solved.status(), KlotskiStatus::Solved);
        assert_eq!(solved.undo(), Err(KlotskiMoveError::Over));
    }

    #[test]
    fn blocked_moves_and_bad_boards_are_refused_with_a_reason() {
        let game = KlotskiGame::new(parse_puzzle("2 2\n2 1\n3 0\n0\n").unwrap());
        assert!(matches!(
            game.play(slide(2, Dir::Right)),
            Err(KlotskiMoveError::Slide(MoveError::Blocked(_)))
        ));
        let gave_up = game
            .play(KlotskiMove::GiveUp(GiveUpReason::Player))
            .unwrap();
        assert_eq!(
            gave_up.status(),
            KlotskiStatus::GaveUp(GiveUpReason::Player)
        );
        let huge = KlotskiBoard {
            rows: 200,
            cols: 200,
            grid: vec![],
            blocks: vec![],
        };
        assert!(matches!(huge.puzzle(), Err(LayoutError::Size { .. })));
        let short = KlotskiBoard {
            rows: 2,
            cols: 2,
            grid: vec![1, 2, 3],
            blocks: vec![],
        };
        let error = short.puzzle().unwrap_err();
        assert_eq!(
            error.to_string(),
            "a board of 2 x 2 has 4 cells, but 3 numbers were given"
        );
        let repeated = KlotskiBoard {
            rows: 1,
            cols: 3,
            grid: vec![1, 1, 0],
            blocks: vec![],
        };
        assert!(matches!(
            repeated.puzzle(),
            Err(LayoutError::Repeated { .. })
        ));
    }

    /// 1 2 3 / _ 4 5: piece 4 slides left and right for ever.
    fn a_game_that_can_go_on_for_ever() -> KlotskiGame {
        let board = KlotskiBoard {
            rows: 2,
            cols: 3,
            grid: vec![1, 2, 3, 0, 4, 5],
            blocks: vec![],
        };
        KlotskiGame::new(board.puzzle().unwrap())
    }

    #[test]
    fn a_game_read_with_any_step_count_gives_up_at_its_next_slide() {
        let game = a_game_that_can_go_on_for_ever();
        let mut wire = serde_json::to_value(&game).unwrap();
        wire["steps"] = u32::MAX.into();
        let read: KlotskiGame = serde_json::from_value(wire).unwrap();
        let next = read.play(slide(4, Dir::Left)).unwrap();
        assert_eq!(
            next.status(),
            KlotskiStatus::GaveUp(GiveUpReason::StepLimit)
        );
        assert_eq!(next.steps(), u32::MAX);
    }

    #[test]
    fn a_game_without_the_step_limit_goes_past_it() {
        let mut game = a_game_that_can_go_on_for_ever().without_step_limit();
        for step in 0..MAX_STEPS + 10 {
            let dir = if step % 2 == 0 { Dir::Left } else { Dir::Right };
            game = game.play(slide(4, dir)).unwrap();
        }
        assert_eq!(game.status(), KlotskiStatus::Playing);
        assert_eq!(game.steps(), MAX_STEPS + 10);
    }

    #[test]
    fn the_longest_game_still_fits_one_frame_in_both_formats() {
        use crate::game::{GameMove, GameState};

        let mut game = a_game_that_can_go_on_for_ever();
        let mut moves = Vec::new();
        while game.status() == KlotskiStatus::Playing {
            let dir = if moves.len() % 2 == 0 {
                Dir::Left
            } else {
                Dir::Right
            };
            let mv = slide(4, dir);
            game = game.play(mv).unwrap();
            moves.push(GameMove::Klotski(mv));
        }
        assert_eq!(
            game.status(),
            KlotskiStatus::GaveUp(GiveUpReason::StepLimit)
        );
        assert_eq!(moves.len(), MAX_STEPS as usize);
        crate::codec::assert_widest_state_fits(GameState::Klotski(game), moves, 1);
    }
}
