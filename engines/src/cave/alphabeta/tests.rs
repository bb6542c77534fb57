use std::time::{Duration, Instant};

use parlor_shared::cave::{Position, Square};

use super::*;
use crate::cave::prover::test_position as position;

fn best(moves: &str) -> String {
    AlphaBeta::default()
        .search(&position(moves), Duration::from_millis(300))
        .unwrap()
        .to_string()
}

#[test]
fn takes_a_five_when_it_has_one() {
    // Black has a1..d1; e1 is open beside d1.
    assert_eq!(best("a1 h8 b1 h7 c1 h6 d1 g8"), "e1");
}

#[test]
fn blocks_the_opponents_five() {
    // White (to move) must stop Black's a1..d1 at e1.
    assert_eq!(best("a1 h8 b1 h7 c1 g8 d1"), "e1");
}

#[test]
fn blocks_an_open_vertical_four_on_the_wall() {
    // Black has a1..a4 on the wall; White to move must take a5.
    assert_eq!(best("a1 h1 a2 h2 a3 g1 a4"), "a5");
}

fn mirror(moves: &str) -> String {
    moves
        .split_whitespace()
        .map(|m| {
            let square: Square = m.parse().unwrap();
            Square::new(7 - square.col(), square.row())
                .unwrap()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_line_heuristic_is_balanced_and_sees_mirrors_alike() {
    assert_eq!(evaluate(&Position::new()), 0);
    // One black brick: White, to move, is behind.
    assert!(evaluate(&position("a1")) < 0);
    // Black's three in a row outweighs White's scattered bricks, seen from Black.
    assert!(evaluate(&position("a1 h8 b1 h5 c1 h2")) > 0);
    let moves = "a1 h1 b1 g1 a2 h3 b2";
    assert_eq!(
        evaluate(&position(moves)),
        evaluate(&position(&mirror(moves)))
    );
}

#[test]
fn answers_within_budget_and_legally_from_the_start_and_midgame() {
    for moves in ["", "a1 h1", "a1 h1 b1 g1 a2 h2 b2 g2 c1 f1"] {
        let start = Instant::now();
        let p = position(moves);
        let square = AlphaBeta::default()
            .search(&p, Duration::from_millis(200))
            .unwrap();
        assert!(p.is_legal(square), "{square} illegal after {moves:?}");
        assert!(
            start.elapsed() < Duration::from_millis(400),
            "took {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn no_move_once_the_game_is_over() {
    assert_eq!(
        AlphaBeta::default().search(
            &position("a1 h8 b1 h7 c1 h6 d1 h5 e1"),
            Duration::from_millis(50)
        ),
        None
    );
}

#[test]
fn beats_a_random_player_from_both_sides() {
    use parlor_shared::cave::Outcome;
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    for ai_side in [
        parlor_shared::cave::Player::Black,
        parlor_shared::cave::Player::White,
    ] {
        for _game in 0..3 {
            let mut p = Position::new();
            let mut engine = AlphaBeta::with_max_depth(3);
            while p.outcome().is_none() {
                let square = if p.to_move() == ai_side {
                    engine.search(&p, Duration::from_millis(500)).unwrap()
                } else {
                    // xorshift: a fixed, reproducible "random" opponent.
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let legal: Vec<Square> = p.legal_squares().collect();
                    legal[(seed % legal.len() as u64) as usize]
                };
                p = p.play(square).unwrap();
            }
            assert_eq!(p.outcome(), Some(Outcome::Win(ai_side)), "\n{p}");
        }
    }
}

proptest::proptest! {
    /// Move ordering scores only the windows a move touches; it must order exactly as scoring
    /// each child whole would (the child's value, lowest first, then the square).
    #[test]
    fn moves_are_ordered_as_the_childrens_whole_evaluations_order_them(
        picks in proptest::collection::vec(0usize..64, 0..30),
    ) {
        let mut p = Position::new();
        for pick in picks {
            let legal: Vec<Square> = p.legal_squares().collect();
            if legal.is_empty() {
                break;
            }
            p = p.play(legal[pick % legal.len()]).unwrap();
        }
        proptest::prop_assume!(p.legal_moves() != 0);
        let legal = p.legal_moves();
        let me = p.to_move();
        let must_block =
            five_completions(p.bricks(me.other()), p.bricks(me)) & legal;
        let candidates = if must_block != 0 { must_block } else { legal };
        let mut expected: Vec<(i32, Square)> = parlor_shared::cave::squares_of(candidates)
            .map(|square| (evaluate(&p.play_unchecked(square)), square))
            .collect();
        expected.sort();
        let expected: Vec<Square> = expected.into_iter().map(|(_, square)| square).collect();
        proptest::prop_assert_eq!(ordered_moves(&p, legal), expected);
    }
}
