//! What thorough training against the exploiter ends with: only winning beads left, and never
//! an unbeatable HER in a lost game.

use parlor_shared::hexapawn::{Brain, Dims, Position, Side, Status};

use super::hexapawn_start;
use crate::hexapawn::{Solver, games_until_unbeatable};

/// Every bead HER can still draw, in every box it can reach as Black whatever White does, leads
/// to a position the solver says White loses.
fn only_winning_beads(brain: &Brain, position: Position, solver: &mut Solver) -> bool {
    if position.status() != Status::Playing {
        return matches!(
            position.status(),
            Status::Won {
                winner: Side::Black,
                ..
            }
        );
    }
    let next: Vec<Position> = if position.to_move() == Side::Black {
        let view = brain.matchbox(&position).unwrap();
        let drawable = view.beads.iter().filter(|bead| bead.beads > 0);
        let next: Vec<Position> = drawable
            .map(|bead| position.play(bead.mv).unwrap())
            .collect();
        if next.is_empty() || next.iter().any(|after| solver.wins(after).unwrap()) {
            return false;
        }
        next
    } else {
        let moves = position.legal_moves();
        moves.iter().map(|&mv| position.play(mv).unwrap()).collect()
    };
    next.into_iter()
        .all(|after| only_winning_beads(brain, after, solver))
}

#[test]
fn training_against_the_exploiter_leaves_only_winning_beads() {
    let mut solver = Solver::new(Dims::HEXAPAWN);
    for mirrors in [false, true] {
        for seed in 0..10 {
            let (games, brain) =
                games_until_unbeatable(Dims::HEXAPAWN, mirrors, Side::Black, seed, 10_000).unwrap();
            let games = games.expect("HER learns within 10,000 games");
            assert!(games > 0);
            assert!(
                only_winning_beads(&brain, hexapawn_start(), &mut solver),
                "mirrors {mirrors}, seed {seed}"
            );
        }
    }
}

#[test]
fn her_as_first_player_never_becomes_unbeatable_in_a_lost_game() {
    let (games, brain) =
        games_until_unbeatable(Dims::HEXAPAWN, false, Side::White, 1, 300).unwrap();
    assert_eq!(games, None);
    // Every opening is lost, so every bead of the first box is confiscated in the end.
    assert_eq!(brain.matchbox(&hexapawn_start()).unwrap().total, 0);
}
