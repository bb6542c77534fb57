//! Walking through a solution: the positions from the start to the goal, the step shown, and
//! the slide of the piece that moved last. Time is passed in (seconds, as from
//! `macroquad::time::get_time`), so the whole of it is testable without a window.

use parlor_shared::klotski::{Move, MoveError, Position, Puzzle};

use super::board::Motion;

/// How long one piece takes to slide one cell.
pub const SLIDE_SECONDS: f64 = 0.2;

/// A solution's positions and the step on show.
#[derive(Clone, Debug)]
pub struct Walk {
    /// `positions[k]`: after the first `k` moves; one more than `moves`.
    positions: Vec<Position>,
    moves: Vec<Move>,
    step: usize,
    /// The slide into the current step: the piece, its direction and when it started.
    slide: Option<(Move, f64)>,
}

impl Walk {
    /// The walk through `moves` from the puzzle's start, at step 0; the first move that cannot
    /// be made is an error (its 0-based index and why).
    pub fn new(puzzle: &Puzzle, moves: Vec<Move>) -> Result<Walk, (usize, MoveError)> {
        let mut positions = vec![puzzle.start().clone()];
        for (index, &mv) in moves.iter().enumerate() {
            let last = positions.last().expect("the start is there");
            let next = puzzle.apply(last, mv).map_err(|error| (index, error))?;
            positions.push(next);
        }
        Ok(Walk {
            positions,
            moves,
            step: 0,
            slide: None,
        })
    }

    /// The step on show: 0 at the start, [`Walk::steps`] at the end.
    pub fn step(&self) -> usize {
        self.step
    }

    /// How many steps the solution has.
    pub fn steps(&self) -> usize {
        self.moves.len()
    }

    /// The position on show (where a sliding piece is going).
    pub fn position(&self) -> &Position {
        &self.positions[self.step]
    }

    /// The move that led to the step on show, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.step.checked_sub(1).map(|index| self.moves[index])
    }

    /// The move the next step makes, if any.
    pub fn next_move(&self) -> Option<Move> {
        self.moves.get(self.step).copied()
    }

    pub fn at_start(&self) -> bool {
        self.step == 0
    }

    pub fn at_end(&self) -> bool {
        self.step == self.steps()
    }

    /// One step on, sliding the moving piece from `now`; false at the end.
    pub fn forward(&mut self, now: f64) -> bool {
        let Some(mv) = self.next_move() else {
            return false;
        };
        self.step += 1;
        self.slide = Some((mv, now));
        true
    }

    /// One step back, sliding the last move's piece back from `now`; false at the start.
    pub fn back(&mut self, now: f64) -> bool {
        let Some(mv) = self.last_move() else {
            return false;
        };
        self.step -= 1;
        self.slide = Some((undo(mv), now));
        true
    }

    /// Shows `step` (clamped to the end) at once: the last move's piece is marked, already
    /// in place.
    pub fn jump(&mut self, step: usize) {
        self.step = step.min(self.steps());
        self.slide = self.last_move().map(|mv| (mv, f64::NEG_INFINITY));
    }

    /// The piece that moved into the step on show, at `now`: sliding (progress under 1) for
    /// [`SLIDE_SECONDS`] after a step, then in place (progress 1). `None` at the start.
    pub fn motion(&self, now: f64) -> Option<Motion> {
        let (mv, started) = self.slide?;
        Some(sliding(mv, started, now))
    }

    /// "step k of n".
    pub fn counter(&self) -> String {
        format!("step {} of {}", self.step, self.steps())
    }
}

/// Piece `mv.label` sliding towards `mv.dir` since `started`, at `now`: under way for
/// [`SLIDE_SECONDS`], then in place (progress 1).
pub fn sliding(mv: Move, started: f64, now: f64) -> Motion {
    let progress = ((now - started) / SLIDE_SECONDS).clamp(0.0, 1.0);
    Motion {
        label: mv.label,
        dir: mv.dir,
        progress: progress as f32,
    }
}

/// The slide that takes `mv` back.
pub fn undo(mv: Move) -> Move {
    Move {
        label: mv.label,
        dir: mv.dir.opposite(),
    }
}

/// "1 step", "17 steps".
pub fn count_steps(count: usize) -> String {
    match count {
        1 => "1 step".into(),
        _ => format!("{count} steps"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::klotski::{Dir, parse_puzzle};

    /// 2x3: 2 can step right once, then it stands at the edge.
    const BOARD: &str = "2 3\n1 0 3\n4 2 0\n0\n";

    fn walk() -> (Puzzle, Walk) {
        let puzzle = parse_puzzle("2 2\n1 2\n0 3\n0\n").unwrap();
        // 3 L: 1 2 / 3 0, the goal.
        let moves = vec![Move {
            label: 3,
            dir: Dir::Left,
        }];
        let walk = Walk::new(&puzzle, moves).unwrap();
        (puzzle, walk)
    }

    #[test]
    fn forward_and_back_step_through_the_positions_and_stop_at_the_ends() {
        let (puzzle, mut walk) = walk();
        assert!(walk.at_start() && !walk.at_end());
        assert_eq!(walk.counter(), "step 0 of 1");
        assert_eq!(walk.position(), puzzle.start());
        assert_eq!(walk.last_move(), None);
        assert_eq!(walk.next_move().unwrap().to_string(), "3 L");
        assert!(!walk.back(0.0), "nothing before the start");
        assert!(walk.forward(0.0));
        assert!(puzzle.is_goal(walk.position()));
        assert_eq!(walk.counter(), "step 1 of 1");
        assert_eq!(walk.last_move().unwrap().to_string(), "3 L");
        assert!(walk.at_end() && !walk.forward(0.0), "nothing after the end");
        assert!(walk.back(1.0));
        assert_eq!(walk.position(), puzzle.start());
    }

    #[test]
    fn a_step_slides_for_a_fifth_of_a_second_and_back_slides_the_other_way() {
        let (_, mut walk) = walk();
        assert_eq!(walk.motion(0.0), None, "nothing moves before a step");
        walk.forward(10.0);
        let start = walk.motion(10.0).unwrap();
        assert_eq!(
            (start.label, start.dir, start.progress),
            (3, Dir::Left, 0.0)
        );
        let half = walk.motion(10.0 + SLIDE_SECONDS / 2.0).unwrap();
        assert!((half.progress - 0.5).abs() < 1e-4, "{half:?}");
        assert!(walk.motion(10.0 + SLIDE_SECONDS * 0.9).unwrap().progress < 1.0);
        let arrived = walk.motion(10.0 + SLIDE_SECONDS).unwrap();
        assert_eq!(arrived.progress, 1.0, "arrived, still marked");
        walk.back(20.0);
        let back = walk.motion(20.05).unwrap();
        assert_eq!((back.label, back.dir), (3, Dir::Right));
    }

    #[test]
    fn a_jump_clamps_to_the_end_and_shows_the_last_piece_in_place() {
        let (puzzle, mut walk) = walk();
        walk.forward(0.0);
        walk.jump(0);
        assert_eq!(walk.motion(0.01), None, "nothing has moved at the start");
        assert_eq!(walk.position(), puzzle.start());
        walk.jump(99);
        assert!(walk.at_end());
        let marked = walk.motion(0.0).unwrap();
        assert_eq!((marked.label, marked.progress), (3, 1.0));
    }

    #[test]
    fn step_counts_read_as_english() {
        assert_eq!(count_steps(0), "0 steps");
        assert_eq!(count_steps(1), "1 step");
        assert_eq!(count_steps(17), "17 steps");
    }

    #[test]
    fn a_move_that_cannot_be_made_is_refused_with_its_index() {
        let puzzle = parse_puzzle(BOARD).unwrap();
        let moves = ["2 R", "2 R"].map(|text| text.parse().unwrap()).to_vec();
        let (index, error) = Walk::new(&puzzle, moves).unwrap_err();
        assert_eq!(index, 1);
        assert!(matches!(error, MoveError::OffBoard(_)), "{error}");
    }
}
