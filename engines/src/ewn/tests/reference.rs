//! Independent searches the solver is checked against: they share only the rules with it.

use std::collections::{HashMap, HashSet};

use parlor_shared::ewn::*;

/// The true optimum of a small search: every position reachable in 0, 1, 2... moves, until one
/// is won or the level's moves run out.
pub fn shortest_by_breadth_first(level: &Level) -> Option<usize> {
    let mut layer = HashSet::from([level.start_state()]);
    for moves in 0..=level.rules().max_moves {
        if layer.iter().any(|state| level.status(state) == Status::Won) {
            return Some(moves);
        }
        layer = layer
            .iter()
            .flat_map(|state| {
                let next = level.legal_moves(state).into_iter();
                next.map(|mv| level.play(state, mv).unwrap())
            })
            .collect();
    }
    None
}

/// The true optimum by iterative deepening over the rules' own moves, pruned only where the
/// target is farther from square 0 (in king steps) than the moves left, and by the states
/// already found to fail within as many moves.
pub fn shortest_by_plain_search(level: &Level) -> Option<usize> {
    let mut failed = HashMap::new();
    (0..=level.rules().max_moves)
        .find(|&moves| wins_within(level, level.start_state(), moves, &mut failed))
}

fn wins_within(
    level: &Level,
    state: State,
    moves: usize,
    failed: &mut HashMap<State, usize>,
) -> bool {
    match level.status(&state) {
        Status::Won => return true,
        Status::Lost(_) => return false,
        Status::Playing => {}
    }
    let target = state.pieces.square_of(level.target()).unwrap();
    if usize::from(chebyshev_to_corner(target)) > moves
        || failed.get(&state).is_some_and(|&known| known >= moves)
    {
        return false;
    }
    let won = level.legal_moves(&state).into_iter().any(|mv| {
        let next = level.play(&state, mv).unwrap();
        wins_within(level, next, moves - 1, failed)
    });
    if !won {
        failed.insert(state, moves);
    }
    won
}
