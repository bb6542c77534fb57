//! A room's EWN game along the solver's solutions: takebacks as moves of the game, and the
//! level that is left solved to the rest of a shortest solution.

use parlor_shared::ewn::*;

use super::solve;

fn level1() -> Level {
    let text = include_str!("../../../../levels/ewn/level1.txt");
    parse_level(text, Rules::default()).unwrap()
}

#[test]
fn undo_takes_back_a_move_and_restart_all_of_them_as_moves_of_the_game() {
    let level = level1();
    let start = EwnGame::new(level.clone());
    assert_eq!(start.undo(), Err(TakebackError::NothingToUndo));
    let path = solve(&level).unwrap().moves;
    let step = |game: &EwnGame, index: usize| {
        game.play(EwnMove {
            piece: path[index].piece,
            to: path[index].to,
        })
        .unwrap()
    };
    let one = step(&start, 0);
    let two = step(&one, 1);
    assert_eq!(two.undo().unwrap(), one, "the same die comes again");
    assert_eq!(two.restart().unwrap(), start);
    // Taking back and playing again ends at the limit of moves made.
    let mut game = one;
    loop {
        match game.undo() {
            Ok(undone) => game = step(&undone, 0),
            Err(error) => {
                assert_eq!(error, TakebackError::TooManyMoves);
                break;
            }
        }
    }
    assert!(game.moves_made() >= MAX_MOVES_MADE);
    // A solved puzzle is over.
    let mut solved = start;
    for index in 0..path.len() {
        solved = step(&solved, index);
    }
    assert_eq!(solved.undo(), Err(TakebackError::Over));
}

#[test]
fn solving_the_remaining_level_continues_a_shortest_solution() {
    let level = level1();
    let full = solve(&level).unwrap().moves;
    let after_one = EwnGame::new(level.clone())
        .play(EwnMove {
            piece: full[0].piece,
            to: full[0].to,
        })
        .unwrap();
    let rest = solve(&after_one.remaining_level().unwrap()).unwrap().moves;
    assert_eq!(rest.len(), full.len() - 1);
}
