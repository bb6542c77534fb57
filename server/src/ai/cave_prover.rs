//! An exhaustive prover for short Magnetic Cave wins, with no heuristics at all: it answers
//! "can the side to move force five within N of its own moves?" by trying every move and every
//! reply. It is slow (16^(2N-1) leaves at worst) and exists to check the engines: the tactics
//! suite in `levels/cave/` is made and verified with it.

use parlor_shared::cave::{Position, Square, has_five, squares_of};

/// Whether the side to move can make five within `moves` of its own moves, whatever the
/// opponent does (1 = at once, 2 = on its next move, ...).
pub fn wins_within(position: &Position, moves: u32) -> bool {
    winning_move(position, moves).is_some()
}

/// A move that forces five within `moves` moves, if there is one.
pub fn winning_move(position: &Position, moves: u32) -> Option<Square> {
    if moves == 0 || position.outcome().is_some() {
        return None;
    }
    let me = position.to_move();
    squares_of(position.legal_moves()).find(|&square| {
        let after = position.play_unchecked(square);
        if has_five(after.bricks(me)) {
            return true;
        }
        moves > 1
            && after.legal_moves() != 0
            && squares_of(after.legal_moves()).all(|reply| {
                let answered = after.play_unchecked(reply);
                !has_five(answered.bricks(me.other())) && wins_within(&answered, moves - 1)
            })
    })
}

/// The fewest moves in which the side to move forces five, up to `limit`.
pub fn fastest_win(position: &Position, limit: u32) -> Option<u32> {
    (1..=limit).find(|&moves| wins_within(position, moves))
}

/// Games from seeded random play that reach a position where the side to move forces five in
/// exactly `moves` moves (and not faster), with at least `min_bricks` bricks on the board:
/// the tactics suite's puzzles, as move lists from the empty cave.
pub fn find_tactics(moves: u32, count: usize, min_bricks: u32, seed: u64) -> Vec<Vec<Square>> {
    let mut state = seed | 1;
    let mut next_random = move || {
        // xorshift64: a small, fixed generator, so a seed always gives the same suite.
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut found = Vec::new();
    while found.len() < count {
        let (mut position, mut game) = (Position::new(), Vec::new());
        while position.brick_count() < 40 {
            let legal: Vec<Square> = position.legal_squares().collect();
            if legal.is_empty() {
                break;
            }
            let square = legal[(next_random() % legal.len() as u64) as usize];
            let after = position.play_unchecked(square);
            if after.outcome().is_some() {
                break;
            }
            (position, game) = (after, [game, vec![square]].concat());
            if position.brick_count() >= min_bricks && fastest_win(&position, moves) == Some(moves)
            {
                found.push(game);
                break;
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(moves: &str) -> Position {
        let squares: Vec<Square> = moves
            .split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect();
        Position::from_moves(&squares).unwrap()
    }

    #[test]
    fn sees_a_five_at_once_and_two_open_fours_as_a_win_in_two() {
        assert_eq!(
            fastest_win(&position("a1 h8 b1 h7 c1 h6 d1 g8"), 3),
            Some(1)
        );
        // White to move faces two fours (a5 and e1): Black wins on its next move.
        let p = position("a1 h8 a2 h7 a3 h6 a4 g8 b1 g7 c1 g6 d1");
        assert_eq!(fastest_win(&p, 2), None);
        let black_again = p.play("a5".parse().unwrap()).unwrap();
        assert_eq!(fastest_win(&black_again, 1), Some(1));
    }

    #[test]
    fn nothing_is_won_on_an_empty_board_in_two() {
        assert_eq!(fastest_win(&Position::new(), 2), None);
    }
}
