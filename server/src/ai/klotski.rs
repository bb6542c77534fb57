//! Numeric Klotski's AI seat: the solver. It solves once and plays the solution step by step
//! (the room keeps the plan), or gives up with the reason: no solution exists, none was found
//! in time, or the one found is longer than the room allows.

use std::time::Duration;

use parlor_shared::klotski::{
    GiveUpReason, KlotskiGame, KlotskiMove, MAX_STEPS, SolveOptions, Verdict, solve,
};
use parlor_shared::protocol::AiKind;

/// The solver's time per puzzle: shortest solutions of every course input and of random
/// 15-puzzles come in well under it, and the anytime search finds a valid solution for the
/// seed's 5x6 sample within it. (A seat's `move_ms` is its pace, not its thinking time.)
pub const SOLVE_BUDGET: Duration = Duration::from_secs(10);

pub fn fits(kind: AiKind) -> bool {
    kind == AiKind::Standard
}

pub fn name() -> &'static str {
    "solver"
}

/// The whole plan: a solution's slides, or giving up with the reason.
pub fn plan(game: &KlotskiGame) -> Vec<KlotskiMove> {
    let options = SolveOptions {
        budget: SOLVE_BUDGET,
        ..SolveOptions::default()
    };
    let steps_left = MAX_STEPS.saturating_sub(game.steps()) as usize;
    match solve(game.puzzle(), &options).verdict {
        // Played, it would stop at the step limit, unsolved, after all those slides.
        Verdict::Solved { moves, .. } if moves.len() > steps_left => {
            vec![KlotskiMove::GiveUp(GiveUpReason::SolutionTooLong)]
        }
        Verdict::Solved { moves, .. } => moves.into_iter().map(KlotskiMove::Slide).collect(),
        Verdict::Unsolvable(_) => vec![KlotskiMove::GiveUp(GiveUpReason::NoSolution)],
        Verdict::Undecided => vec![KlotskiMove::GiveUp(GiveUpReason::OutOfTime)],
    }
}

#[cfg(test)]
mod tests {
    use parlor_shared::klotski::{KlotskiBoard, KlotskiStatus, parse_puzzle};

    use super::*;

    /// A game of `puzzle` read from the wire with `steps` already taken.
    fn game_after(puzzle: &str, steps: u32) -> KlotskiGame {
        let board = KlotskiBoard::of(&parse_puzzle(puzzle).unwrap());
        let game = KlotskiGame::new(board.puzzle().unwrap());
        let mut wire = serde_json::to_value(&game).unwrap();
        wire["steps"] = steps.into();
        serde_json::from_value(wire).unwrap()
    }

    #[test]
    fn a_solution_longer_than_the_steps_left_is_given_up_at_once() {
        // 1 2 3 / 4 _ 5 is solved by one slide (5 left), 1 2 3 / _ 4 5 by two; one step is
        // left before the limit.
        let puzzle = "2 3\n1 2 3\n4 0 5\n0\n";
        let fits = plan(&game_after(puzzle, MAX_STEPS - 1));
        assert!(matches!(fits[..], [KlotskiMove::Slide(_)]), "{fits:?}");
        let too_long = plan(&game_after("2 3\n1 2 3\n0 4 5\n0\n", MAX_STEPS - 1));
        assert_eq!(
            too_long,
            [KlotskiMove::GiveUp(GiveUpReason::SolutionTooLong)]
        );
        let played = game_after(puzzle, 0).play(fits[0]).unwrap();
        assert_eq!(played.status(), KlotskiStatus::Solved);
    }
}
