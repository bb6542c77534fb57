use parlor_shared::hexapawn::{Dims, HexapawnError, Position, Side, Status};

use super::hexapawn_start;
use crate::hexapawn::{Exploiter, Solver, game_value};

/// Plain minimax without memory or mirror merging: the cross-check for the solver.
fn brute_force_wins(position: &Position) -> bool {
    position.status() == Status::Playing
        && position
            .moves()
            .iter()
            .any(|&mv| !brute_force_wins(&position.play(mv).unwrap()))
}

#[test]
fn hexapawn_is_a_second_player_win_and_octapawn_a_first_player_win() {
    assert_eq!(game_value(Dims::HEXAPAWN).unwrap(), Side::Black);
    assert_eq!(game_value(Dims::OCTAPAWN).unwrap(), Side::White);
}

#[test]
fn the_solver_agrees_with_plain_minimax_on_every_reachable_3x3_position() {
    let mut solver = Solver::new(Dims::HEXAPAWN);
    let mut frontier = vec![hexapawn_start()];
    let mut checked = 0;
    while let Some(position) = frontier.pop() {
        assert_eq!(
            solver.wins(&position).unwrap(),
            brute_force_wins(&position),
            "{}",
            position.to_text()
        );
        checked += 1;
        frontier.extend(
            position
                .legal_moves()
                .iter()
                .map(|&mv| position.play(mv).unwrap()),
        );
    }
    assert!(checked > 100, "only {checked} positions");
}

#[test]
fn the_solver_refuses_other_sizes_and_gives_up_past_its_limit() {
    let mut solver = Solver::new(Dims::HEXAPAWN);
    assert!(matches!(
        solver.wins(&Position::start(Dims::OCTAPAWN)),
        Err(HexapawnError::WrongSize { .. })
    ));
    let mut small = Solver::with_limit(Dims::OCTAPAWN, 10);
    assert_eq!(
        small.wins(&Position::start(Dims::OCTAPAWN)),
        Err(HexapawnError::TooLargeToSolve(10))
    );
}

#[test]
fn the_exploiter_wins_every_game_from_a_won_position() {
    for seed in 0..20 {
        let mut white = Exploiter::new(Dims::OCTAPAWN, seed);
        let mut black = Exploiter::new(Dims::OCTAPAWN, seed + 100);
        let mut position = Position::start(Dims::OCTAPAWN);
        while position.status() == Status::Playing {
            let player = match position.to_move() {
                Side::White => &mut white,
                Side::Black => &mut black,
            };
            position = position.play(player.choose(&position).unwrap()).unwrap();
        }
        assert!(matches!(
            position.status(),
            Status::Won {
                winner: Side::White,
                ..
            }
        ));
    }
}
