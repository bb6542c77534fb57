//! df-pn against the exhaustive prover: every value df-pn proves must be the true one.

use parlor_shared::cave::{Position, Square};

use super::*;
use crate::cave::prover::test_position as position;
use crate::cave::prover::{Xorshift, game_value, wins_within};

/// Positions of seeded random games with `bricks` bricks and the game still on.
fn random_positions(bricks: u32, count: usize, seed: u64) -> Vec<Position> {
    let mut random = Xorshift::new(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let mut position = Position::new();
        while position.brick_count() < bricks {
            let Some(square) = random.legal_move(&position) else {
                break;
            };
            position = position.play_unchecked(square);
        }
        if position.outcome().is_none() && position.brick_count() == bricks {
            found.push(position);
        }
    }
    found
}

/// The exhaustive value of the position after `square`, for the side that played it.
fn value_after(position: &Position, square: Square) -> i8 {
    -game_value(&position.play(square).unwrap())
}

#[test]
fn endgames_get_the_exhaustive_value_and_a_move_that_keeps_it() {
    let mut solver = Dfpn::new(16);
    let mut seen = [0; 3];
    for (i, p) in random_positions(52, 30, 3).iter().enumerate() {
        let solution = solver.solve(p, 1_000_000);
        let exact = game_value(p);
        let expected = match exact {
            1 => Value::Win,
            0 => Value::Tie,
            _ => Value::Loss,
        };
        assert_eq!(solution.value, expected, "position {i}\n{p}");
        seen[(exact + 1) as usize] += 1;
        match solution.value {
            Value::Win => assert_eq!(value_after(p, solution.best.unwrap()), 1, "{i}\n{p}"),
            Value::Tie => assert_eq!(value_after(p, solution.best.unwrap()), 0, "{i}\n{p}"),
            _ => assert_eq!(solution.best, None),
        }
    }
    assert!(
        seen.iter().all(|&n| n > 0),
        "wins, ties and losses: {seen:?}"
    );
}

#[test]
fn middle_game_values_never_contradict_the_short_win_prover() {
    let mut solver = Dfpn::new(16);
    let mut wins = 0;
    for p in random_positions(24, 30, 5) {
        let solution = solver.solve(&p, 20_000);
        let quick_win = wins_within(&p, 2);
        if quick_win {
            wins += 1;
            assert_eq!(solution.value, Value::Win, "{p}");
        }
        if matches!(solution.value, Value::Loss | Value::Tie | Value::TieOrWorse) {
            assert!(!quick_win, "{p}");
        }
        if let (Value::Win, Some(best)) = (solution.value, solution.best) {
            // The opponent, after the proving move, has no quick win of its own.
            let after = p.play(best).unwrap();
            assert!(after.outcome().is_some() || !wins_within(&after, 1), "{p}");
        }
    }
    assert!(wins > 0, "the sample holds a quick win");
}

#[test]
fn the_tactics_suite_is_proved_won_with_a_winning_first_move() {
    let text = include_str!("../../../../levels/cave/tactics.txt");
    let mut solver = Dfpn::new(16);
    for line in text.lines().filter(|l| l.starts_with("win-in")) {
        let (head, moves) = line.split_once(':').unwrap();
        let n: u32 = head["win-in ".len()..].parse().unwrap();
        let p = position(moves);
        let solution = solver.solve(&p, 200_000);
        assert_eq!(solution.value, Value::Win, "{line}");
        let after = p.play(solution.best.unwrap()).unwrap();
        if after.outcome().is_none() {
            // A quickest win is not promised, but the move must still win: every reply
            // leaves a position df-pn proves won again.
            for reply in after.legal_squares() {
                let answered = after.play(reply).unwrap();
                let again = solver.solve(&answered, 200_000).value;
                assert!(
                    answered.outcome().is_some() || again == Value::Win,
                    "{line}: {reply} (win in {n})"
                );
            }
        }
    }
}

#[test]
fn a_table_too_small_to_keep_its_nodes_proves_the_same_values() {
    let mut big = Dfpn::new(18);
    let mut small = Dfpn::new(10);
    let (mut proved, mut crowded) = (0, 0);
    for p in random_positions(50, 24, 11) {
        let with_big = big.solve(&p, 300_000);
        let with_small = small.solve(&p, 300_000);
        assert!(with_small.value.agrees_with(with_big.value), "{p}");
        if with_small.value == with_big.value && with_big.value != Value::Unknown {
            proved += 1;
            crowded += usize::from(small.replaced() > 0);
        }
    }
    assert!(proved >= 12, "the small table proved only {proved} of 24");
    assert!(
        crowded >= 3,
        "only {crowded} proofs outgrew the small table"
    );
}

#[test]
fn solves_are_repeatable_and_the_budget_is_kept() {
    // The tactics suite's first puzzle: the side to move forces five in two moves.
    let p = position("a5 a8 a2 h4 g4 a6 b8 h6 a7 h5 c8");
    let mut solver = Dfpn::default();
    let first = solver.solve(&p, 3_000);
    assert_eq!(first, solver.solve(&p, 3_000), "a fresh table each time");
    solver.solve(&position("a1 h8 b1 h7 c1 h6 d1 e1"), 50_000);
    let after_other_work = solver.solve(&p, 3_000);
    assert_eq!(
        first, after_other_work,
        "what earlier searches left changes nothing"
    );
    assert!(first.nodes <= 2 * 3_000);
    assert_eq!(solver.solve(&p, 100_000).value, Value::Win);
    assert_eq!(
        solver.solve(&Position::new(), 10).value,
        Value::Unknown,
        "ten nodes settle nothing"
    );
}

#[test]
fn finished_games_are_read_off_the_board() {
    let won = position("a1 h8 b1 h7 c1 h6 d1 h5 e1");
    let solution = Dfpn::new(4).solve(&won, 10);
    assert_eq!((solution.value, solution.nodes), (Value::Loss, 0));
}
