//! Numeric Klotski's AI seat: the solver. It solves once and plays the solution step by step
//! (the room keeps the plan), or gives up with the reason: no solution exists, or none was
//! found in time.

use std::time::Duration;

use parlor_shared::klotski::{
    GiveUpReason, KlotskiGame, KlotskiMove, SolveOptions, Verdict, solve,
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
    match solve(game.puzzle(), &options).verdict {
        Verdict::Solved { moves, .. } => moves.into_iter().map(KlotskiMove::Slide).collect(),
        Verdict::Unsolvable(_) => vec![KlotskiMove::GiveUp(GiveUpReason::NoSolution)],
        Verdict::Undecided => vec![KlotskiMove::GiveUp(GiveUpReason::OutOfTime)],
    }
}
