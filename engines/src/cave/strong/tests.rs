use std::time::Duration;

use parlor_shared::cave::{Outcome, Player, Position, Square, squares_of};

use super::*;
use crate::cave::AlphaBeta;
use crate::cave::prover::test_position as position;
use crate::cave::prover::{Xorshift, game_value, wins_within};

fn best(moves: &str) -> (String, Score) {
    let mut engine = Strong::default();
    let square = engine
        .search(&position(moves), Duration::from_millis(300))
        .unwrap();
    (square.to_string(), engine.last.score)
}

/// Positions from seeded random play where the side to move has a forced win in exactly
/// `moves` moves (and none faster), as proved by `wins_within`.
fn tactics(moves: u32, wanted: usize) -> Vec<Position> {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut found = Vec::new();
    while found.len() < wanted {
        let mut p = Position::new();
        for _ in 0..24 {
            let legal: Vec<Square> = p.legal_squares().collect();
            if legal.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let next = p.play(legal[(seed % legal.len() as u64) as usize]).unwrap();
            if next.outcome().is_some() {
                break;
            }
            p = next;
            if p.brick_count() >= 10 && wins_within(&p, moves) && !wins_within(&p, moves - 1) {
                found.push(p);
                break;
            }
        }
    }
    found
}

#[test]
fn wins_at_once_when_it_can() {
    let (square, score) = best("a1 h8 b1 h7 c1 h6 d1 g8");
    assert_eq!(square, "e1");
    assert_eq!(score, WIN - 1);
}

#[test]
fn blocks_a_five_and_sees_two_open_fours_as_lost() {
    assert_eq!(best("a1 h8 b1 h7 c1 g8 d1").0, "e1");
    // Black has a1..a4 (a5 open) and b1..d1... e1 open: White cannot block both.
    let (_, score) = best("a1 h8 a2 h7 a3 h6 a4 g8 b1 g7 c1 g6 d1");
    assert!(
        score <= -WIN_THRESHOLD,
        "two fours cannot both be blocked: {score}"
    );
}

#[test]
fn proves_forced_wins_in_two_and_three_moves_and_keeps_them() {
    let mut engine = Strong::default();
    for (moves, cases) in [(2, 4), (3, 3)] {
        for p in tactics(moves, cases) {
            let square = engine.search(&p, Duration::from_millis(500)).unwrap();
            assert!(engine.last.score >= WIN_THRESHOLD, "no win found in\n{p}");
            assert_eq!(
                WIN - engine.last.score,
                2 * moves as Score - 1,
                "wrong distance in\n{p}"
            );
            // The chosen move keeps the win: every reply still loses within the distance.
            let after = p.play(square).unwrap();
            if after.outcome().is_none() {
                for reply in after.legal_squares() {
                    let answered = after.play(reply).unwrap();
                    assert!(
                        answered.outcome().is_none() && wins_within(&answered, moves - 1),
                        "{square} lets {reply} escape in\n{p}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_table_never_changes_a_proven_result() {
    let mut engine = Strong::default();
    for p in tactics(3, 2) {
        engine.search(&p, Duration::from_millis(500));
        let first = engine.last.score;
        assert!(first >= WIN_THRESHOLD);
        // Searched again with a warm table, then as its mirror image (same table entries).
        engine.search(&p, Duration::from_millis(500));
        assert_eq!(engine.last.score, first);
        let mirror = |bits: u64| {
            squares_of(bits).fold(0, |m, s| {
                m | Square::new(7 - s.col(), s.row()).unwrap().bit()
            })
        };
        let mirrored = Position::from_bitboards(
            mirror(p.bricks(Player::Black)),
            mirror(p.bricks(Player::White)),
        )
        .unwrap();
        let square = engine
            .search(&mirrored, Duration::from_millis(500))
            .unwrap();
        assert_eq!(engine.last.score, first);
        assert!(mirrored.is_legal(square));
    }
}

#[test]
fn every_answer_is_legal_and_within_budget() {
    let mut engine = Strong::default();
    for moves in ["", "a1", "a1 h1 b1 g1 a2 h2 b2 g2 c1 f1"] {
        let p = position(moves);
        let square = engine.search(&p, Duration::from_millis(100)).unwrap();
        assert!(p.is_legal(square));
        assert!(
            engine.last.elapsed < Duration::from_millis(200),
            "{:?}",
            engine.last.elapsed
        );
    }
    assert_eq!(
        engine.search(
            &position("a1 h8 b1 h7 c1 h6 d1 h5 e1"),
            Duration::from_millis(50)
        ),
        None
    );
}

/// A whole game from `opening` between the strong engine and the plain search, both at fixed
/// depths.
fn duel(opening: &str, strong_side: Player) -> (Outcome, Vec<Square>) {
    let mut strong = Strong::new(Some(7));
    let mut plain = AlphaBeta::with_max_depth(2);
    let mut p = position(opening);
    let mut moves = Vec::new();
    while p.outcome().is_none() {
        let square = if p.to_move() == strong_side {
            strong.search(&p, Duration::from_secs(5))
        } else {
            plain.search(&p, Duration::from_secs(5))
        };
        moves.push(square.unwrap());
        p = p.play(square.unwrap()).unwrap();
    }
    (p.outcome().unwrap(), moves)
}

#[test]
fn beats_the_shallow_plain_search_from_both_sides() {
    // A two-ply search blocks every five a move away, so some games are tied: the strong
    // engine must never lose to it and must win most games.
    let mut wins = 0;
    for opening in ["", "a1", "h5", "a4 h4"] {
        for side in [Player::Black, Player::White] {
            let (outcome, moves) = duel(opening, side);
            assert_ne!(outcome, Outcome::Win(side.other()), "{opening} {moves:?}");
            wins += usize::from(outcome == Outcome::Win(side));
        }
    }
    assert!(wins >= 6, "{wins} wins in 8");
}

#[test]
fn only_moves_ranked_by_history_alone_are_quiet_and_reduced() {
    let engine = Strong::default();
    // Black has a1..c1: d1 makes an open four, the other moves are quiet.
    let p = position("a1 h8 b1 h7 c1 h5");
    let me = p.to_move();
    let (mine, theirs) = (p.bricks(me), p.bricks(me.other()));
    let legal = p.legal_moves();
    let moves = engine.ordered(legal, None, 0, me, mine, theirs, legal, 0);
    let d1: Square = "d1".parse().unwrap();
    assert_eq!(
        moves[0],
        (d1, false),
        "the four comes first and is not quiet"
    );
    assert!(moves[1..].iter().all(|&(_, quiet)| quiet), "{moves:?}");
}

/// Of `position`'s moves that keep a tie (by the exhaustive prover), each with its share of
/// the opponent's replies that then lose, and not within two moves, as (losing, replies, move).
fn tying_moves(position: &Position) -> Vec<(u32, u32, Square)> {
    position
        .legal_squares()
        .filter_map(|square| {
            let child = position.play_unchecked(square);
            if child.outcome().is_some() || game_value(&child) != 0 {
                return None;
            }
            let replies: Vec<Square> = child.legal_squares().collect();
            let losing = replies
                .iter()
                .filter(|&&reply| {
                    let after = child.play_unchecked(reply);
                    after.outcome().is_none() && game_value(&after) == 1 && !wins_within(&after, 2)
                })
                .count();
            Some((losing as u32, replies.len() as u32, square))
        })
        .collect()
}

#[test]
fn in_a_proven_tie_plays_the_tying_move_with_the_most_deep_traps() {
    let mut random = Xorshift::new(7);
    let mut checked = 0;
    while checked < 3 {
        let mut p = Position::new();
        while p.brick_count() < 52 && p.outcome().is_none() {
            p = p.play_unchecked(random.legal_move(&p).unwrap());
        }
        if p.outcome().is_some() || game_value(&p) != 0 {
            continue;
        }
        let tying = tying_moves(&p);
        let share = |&(losing, replies, _): &(u32, u32, Square)| losing as f64 / replies as f64;
        let best_share = tying.iter().map(share).fold(0.0, f64::max);
        if tying.iter().all(|t| share(t) == best_share) {
            continue; // every tying move is as good: nothing to choose
        }
        let square = Strong::default()
            .search(&p, Duration::from_millis(300))
            .unwrap();
        let chosen = tying
            .iter()
            .find(|t| t.2 == square)
            .unwrap_or_else(|| panic!("{square} does not keep the tie in\n{p}"));
        assert_eq!(share(chosen), best_share, "{square} in\n{p}: {tying:?}");
        checked += 1;
    }
}
