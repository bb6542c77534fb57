//! Properties of the rules over random games on random board sizes.

use proptest::prelude::*;

use crate::hexapawn::{Dims, Move, Position, Side, Square, Status};

/// A board size and a random game on it: `choices[i]` picks the i-th move among the legal
/// ones (modulo their number).
fn random_game() -> impl Strategy<Value = (Dims, Vec<usize>)> {
    (
        3u8..=8,
        1u8..=8,
        prop::collection::vec(any::<usize>(), 0..130),
    )
        .prop_map(|(rows, cols, choices)| (Dims::new(rows, cols).unwrap(), choices))
}

/// Every position of the game, from the opening, as far as the choices or the game go.
fn positions(dims: Dims, choices: &[usize]) -> Vec<Position> {
    let mut seen = vec![Position::start(dims)];
    for &choice in choices {
        let position = *seen.last().unwrap();
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        seen.push(position.play(moves[choice % moves.len()]).unwrap());
    }
    seen
}

fn sorted(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort();
    moves
}

proptest! {
    #[test]
    fn legal_moves_stay_on_the_board_and_go_forward((dims, choices) in random_game()) {
        for position in positions(dims, &choices) {
            let mover = position.to_move();
            for &mv in position.legal_moves().iter() {
                prop_assert!(mv.from.col < dims.cols() && mv.from.row < dims.rows());
                prop_assert!(mv.to.col < dims.cols() && mv.to.row < dims.rows());
                prop_assert_eq!(position.pawn_at(mv.from), Some(mover));
                let forward = match mover {
                    Side::White => mv.from.row + 1 == mv.to.row,
                    Side::Black => mv.to.row + 1 == mv.from.row,
                };
                prop_assert!(forward, "{} is not forward for {}", mv, mover);
                prop_assert!(mv.from.col.abs_diff(mv.to.col) <= 1);
            }
        }
    }

    #[test]
    fn a_capture_removes_exactly_one_enemy_pawn((dims, choices) in random_game()) {
        let seen = positions(dims, &choices);
        for pair in seen.windows(2) {
            let (before, after) = (pair[0], pair[1]);
            let (mover, enemy) = (before.to_move(), before.to_move().other());
            let captured = before.pawns(enemy).count_ones() - after.pawns(enemy).count_ones();
            let mv = before
                .legal_moves()
                .iter()
                .copied()
                .find(|&mv| before.play(mv).unwrap() == after)
                .unwrap();
            prop_assert_eq!(captured, u32::from(mv.is_capture()));
            prop_assert_eq!(before.pawns(mover).count_ones(), after.pawns(mover).count_ones());
            if mv.is_capture() {
                prop_assert_eq!(before.pawn_at(mv.to), Some(enemy));
            }
        }
    }

    /// Each pawn moves at most rows - 1 times (the last of them reaches the far row), so a
    /// game lasts at most 2 * cols * (rows - 1) plies, and it always ends with a winner.
    #[test]
    fn every_game_ends_with_a_winner_in_bounded_plies(
        (dims, choices) in random_game(),
        extra in prop::collection::vec(any::<usize>(), 130),
    ) {
        let all: Vec<usize> = choices.into_iter().chain(extra).collect();
        let seen = positions(dims, &all);
        let plies = seen.len() - 1;
        prop_assert!(plies <= 2 * dims.cols() as usize * (dims.rows() as usize - 1));
        let ended = matches!(seen.last().unwrap().status(), Status::Won { .. });
        prop_assert!(ended, "the game did not end");
    }

    /// The generated moves are exactly the moves `check` accepts among all pairs of squares.
    #[test]
    fn generated_moves_are_exactly_the_checked_ones((dims, choices) in random_game()) {
        let squares: Vec<Square> = (0..dims.rows())
            .flat_map(|row| (0..dims.cols()).map(move |col| Square::new(col, row)))
            .collect();
        for position in positions(dims, &choices) {
            let accepted: Vec<Move> = squares
                .iter()
                .flat_map(|&from| squares.iter().map(move |&to| Move::new(from, to)))
                .filter(|&mv| position.check(mv).is_ok())
                .collect();
            prop_assert_eq!(sorted(accepted), sorted(position.legal_moves().to_vec()));
        }
    }

    #[test]
    fn mirror_images_have_mirrored_moves((dims, choices) in random_game()) {
        for position in positions(dims, &choices) {
            let mirrored: Vec<Move> =
                position.legal_moves().iter().map(|mv| mv.mirrored(dims)).collect();
            prop_assert_eq!(sorted(mirrored), sorted(position.mirrored().legal_moves().to_vec()));
            let as_mover_sees_them: Vec<Move> = match position.to_move() {
                Side::White => position.moves().to_vec(),
                Side::Black => position.moves().iter().map(|mv| mv.flipped(dims)).collect(),
            };
            prop_assert_eq!(
                sorted(as_mover_sees_them),
                sorted(position.mover_view().moves().to_vec())
            );
            prop_assert_eq!(position.mirrored().mirrored(), position);
        }
    }

    #[test]
    fn positions_and_moves_read_back_what_they_write((dims, choices) in random_game()) {
        for position in positions(dims, &choices) {
            prop_assert_eq!(Position::from_text(&position.to_text()).unwrap(), position);
            for &mv in position.legal_moves().iter() {
                prop_assert_eq!(mv.to_string().parse::<Move>().unwrap(), mv);
            }
        }
    }
}
