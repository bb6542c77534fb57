//! Numeric Klotski's AI seat: the solver. It solves once and plays the solution step by step
//! (the room keeps the plan), or gives up with the reason: no solution exists, none was found
//! in time, or the one found is longer than the room allows.

use std::time::Duration;

use parlor_engines::klotski::{SolveOptions, Verdict, positions_within, solve};
use parlor_shared::klotski::{GiveUpReason, KlotskiGame, KlotskiMove, MAX_STEPS};
use parlor_shared::protocol::AiKind;

/// The solver's time per puzzle: shortest solutions of every course input and of random
/// 15-puzzles come in well under it, and the anytime search finds a valid solution for the
/// seed's 5x6 sample within it. (A seat's `move_ms` is its pace, not its thinking time.)
pub const SOLVE_BUDGET: Duration = Duration::from_secs(10);

/// The most memory a solve's tables may take. Solves run one at a time (`Lane::Solve`), so
/// this bounds them all. Uncapped, an 8x8 board with several blanks filled 1.2 GB in its 10 s;
/// under the cap such a board (60 pieces) stores at most about 1.26 million positions, and a
/// solve that would store more goes on by weighted IDA* within the cap until its time is up.
pub const SOLVE_MEMORY: usize = 512 << 20;

pub fn fits(kind: AiKind) -> bool {
    kind == AiKind::Standard
}

pub fn name() -> &'static str {
    "solver"
}

/// The whole plan: a solution's slides, or giving up with the reason.
pub fn plan(game: &KlotskiGame) -> Vec<KlotskiMove> {
    plan_within(game, SOLVE_MEMORY, SOLVE_BUDGET)
}

/// The plan of a solve whose tables may take at most `memory` bytes, in at most `budget`.
fn plan_within(game: &KlotskiGame, memory: usize, budget: Duration) -> Vec<KlotskiMove> {
    let options = SolveOptions {
        budget,
        max_positions: positions_within(game.puzzle(), memory),
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
        // Out of time or out of memory: either way, too hard for the seat.
        Verdict::Undecided => vec![KlotskiMove::GiveUp(GiveUpReason::OutOfTime)],
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use parlor_engines::klotski::{GenerateOptions, generate};
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

    #[test]
    fn a_solve_that_would_outgrow_its_memory_keeps_to_its_clock_and_gives_up_as_out_of_time() {
        // A 6x6 board with three blanks: not one the searches settle within a few hundred
        // positions, which is what 64 KiB holds.
        let options = GenerateOptions {
            rows: 6,
            cols: 6,
            blanks: 3,
            seed: 1,
            ..GenerateOptions::default()
        };
        let hard = KlotskiGame::new(generate(&options).unwrap());
        let started = Instant::now();
        let memory = 64 << 10;
        let budget = Duration::from_secs(1);
        assert_eq!(
            plan_within(&hard, memory, budget),
            [KlotskiMove::GiveUp(GiveUpReason::OutOfTime)]
        );
        // Past the cap the search goes on in the memory it has, and stops with its clock.
        assert!(
            started.elapsed() < budget * 3,
            "went on past its clock: {:?}",
            started.elapsed()
        );
        // The same cap leaves a board that fits it solved.
        let easy = game_after("2 3\n1 2 3\n4 0 5\n0\n", 0);
        assert!(matches!(
            plan_within(&easy, memory, budget)[..],
            [KlotskiMove::Slide(_)]
        ));
    }
}
