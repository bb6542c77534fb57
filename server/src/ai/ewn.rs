//! EWN puzzle AI seats: the optimal solver (the standard AI) and a random player.

use parlor_shared::ewn::{EwnGame, EwnMove, solve};
use parlor_shared::protocol::AiKind;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

pub fn fits(kind: AiKind) -> bool {
    matches!(kind, AiKind::Standard | AiKind::RandomPlayer)
}

pub fn name(kind: AiKind) -> &'static str {
    match kind {
        AiKind::RandomPlayer => "random player",
        _ => "optimal solver",
    }
}

/// The solver plays the first move of a fewest-move solution of what is left of the level (or,
/// when none is left, the move that brings the target nearest square 0, until the game ends);
/// the random player any legal move.
pub fn choose_move(game: &EwnGame, kind: AiKind, seed: u64) -> Option<EwnMove> {
    let (level, state) = (game.level(), game.state());
    let chosen = if kind == AiKind::RandomPlayer {
        let legal = level.legal_moves(state);
        (!legal.is_empty()).then(|| legal[StdRng::seed_from_u64(seed).random_range(0..legal.len())])
    } else {
        game.remaining_level()
            .and_then(|rest| solve(&rest))
            .and_then(|solution| solution.moves.first().copied())
            .or_else(|| level.closest_move(state))
    };
    chosen.map(|mv| EwnMove {
        piece: mv.piece,
        to: mv.to,
    })
}
