//! EWN puzzle AI seats: the optimal solver (the standard AI) and a random player.

use std::time::{Duration, Instant};

use parlor_engines::ewn::solve_by;
use parlor_shared::ewn::{EwnGame, EwnMove, Move};
use parlor_shared::protocol::{AiKind, MAX_AI_MOVE_MS};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// How long the solver looks for a fewest-move solution: the course's time for an AI to
/// decide (most levels take milliseconds; a hard 30-move level can take seconds, and a level
/// made to be slow far longer). A seat's `move_ms` is its pace, not its thinking time.
pub const SOLVE_BUDGET: Duration = Duration::from_millis(MAX_AI_MOVE_MS as u64);

pub fn fits(kind: AiKind) -> bool {
    matches!(kind, AiKind::Standard | AiKind::RandomPlayer)
}

pub fn name(kind: AiKind) -> &'static str {
    match kind {
        AiKind::RandomPlayer => "random player",
        _ => "optimal solver",
    }
}

/// The seat's plan. The solver's is a whole fewest-move solution of what is left of the level,
/// played without searching again (the dice are fixed and nobody else moves). When none is
/// left, or none was found within [`SOLVE_BUDGET`], it is the one move that brings the target
/// nearest square 0, and the next move searches again. The random player's is any legal move.
pub fn plan(game: &EwnGame, kind: AiKind, seed: u64) -> Vec<EwnMove> {
    plan_within(game, kind, seed, SOLVE_BUDGET)
}

fn plan_within(game: &EwnGame, kind: AiKind, seed: u64, budget: Duration) -> Vec<EwnMove> {
    let (level, state) = (game.level(), game.state());
    let moves: Vec<Move> = if kind == AiKind::RandomPlayer {
        let legal = level.legal_moves(state);
        let mut rng = StdRng::seed_from_u64(seed);
        let chosen = (!legal.is_empty()).then(|| legal[rng.random_range(0..legal.len())]);
        chosen.into_iter().collect()
    } else {
        let deadline = Instant::now() + budget;
        let solution = game
            .remaining_level()
            .and_then(|rest| solve_by(&rest, deadline).ok().flatten())
            .filter(|solution| !solution.moves.is_empty());
        match solution {
            Some(solution) => solution.moves,
            None => level.closest_move(state).into_iter().collect(),
        }
    };
    moves
        .into_iter()
        .map(|mv| EwnMove {
            piece: mv.piece,
            to: mv.to,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use parlor_engines::ewn::solve;
    use parlor_shared::ewn::{Rules, Status, parse_level};

    use super::*;

    fn level8() -> EwnGame {
        let text = include_str!("../../../levels/ewn/level8.txt");
        let level = parse_level(text, Rules::default()).unwrap();
        EwnGame::new(level)
    }

    #[test]
    fn the_solver_plans_a_whole_fewest_move_solution_that_wins() {
        let game = level8();
        let plan = plan(&game, AiKind::Standard, 1);
        let optimum = solve(game.level()).unwrap().moves.len();
        assert_eq!((plan.len(), optimum), (21, 21));
        let end = plan
            .iter()
            .try_fold(game, |game, &mv| game.play(mv))
            .unwrap();
        assert_eq!(end.status(), Status::Won);
    }

    #[test]
    fn out_of_time_the_solver_moves_the_target_nearest_square_0_and_searches_again_next() {
        let game = level8();
        let plan = plan_within(&game, AiKind::Standard, 1, Duration::ZERO);
        let closest = game.level().closest_move(game.state()).unwrap();
        assert_eq!(
            plan,
            [EwnMove {
                piece: closest.piece,
                to: closest.to
            }]
        );
    }

    #[test]
    fn the_random_player_plans_one_legal_move_at_a_time() {
        let game = level8();
        let legal = game.level().legal_moves(game.state());
        for seed in 0..20 {
            let plan = plan(&game, AiKind::RandomPlayer, seed);
            let [mv] = plan[..] else { panic!("{plan:?}") };
            assert!(legal.contains(&Move {
                piece: mv.piece,
                to: mv.to
            }));
        }
    }
}
