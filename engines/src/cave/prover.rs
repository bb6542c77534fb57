//! An exhaustive prover for short Magnetic Cave wins, with no heuristics at all: it answers
//! "can the side to move force five within N of its own moves?" by trying every move and every
//! reply. It is slow (16^(2N-1) leaves at worst) and exists to check the engines: the tactics
//! suite in `levels/cave/` is made and verified with it.

use std::collections::HashMap;

use parlor_shared::cave::{Outcome, Position, Square, has_five, squares_of};

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

/// The result with best play for the side to move (1 win, 0 tie, -1 loss), by trying every
/// line to the end of the game, with a table of the positions already valued. Only for
/// positions with a dozen or so empty cells: it is the df-pn solver's cross-check.
pub fn game_value(position: &Position) -> i8 {
    game_value_in(position, &mut HashMap::new())
}

fn game_value_in(position: &Position, known: &mut HashMap<Position, i8>) -> i8 {
    if let Some(&value) = known.get(position) {
        return value;
    }
    let me = position.to_move();
    let value = match position.outcome() {
        Some(Outcome::Win(player)) if player == me => 1,
        Some(Outcome::Win(_)) => -1,
        Some(Outcome::Tie) => 0,
        None => squares_of(position.legal_moves())
            .map(|square| -game_value_in(&position.play_unchecked(square), known))
            .max()
            .expect("a game that is not over has a move"),
    };
    known.insert(*position, value);
    value
}

/// Seeded random play that finds the tactics suite's puzzles: games that reach a position
/// where the side to move forces five in exactly `moves` moves (and not faster), with at least
/// `min_bricks` bricks on the board. One game at a time, so that a caller can show each puzzle
/// as it is found, and how many games it has tried: a puzzle of four moves takes long.
pub struct TacticsSearch {
    random: Xorshift,
    moves: u32,
    min_bricks: u32,
    /// Games played so far.
    pub games: u64,
}

impl TacticsSearch {
    pub fn new(moves: u32, min_bricks: u32, seed: u64) -> TacticsSearch {
        TacticsSearch {
            random: Xorshift::new(seed),
            moves,
            min_bricks,
            games: 0,
        }
    }

    /// Plays one random game up to its first puzzle: that puzzle as moves from the empty cave,
    /// or `None` if the game found none.
    pub fn play_game(&mut self) -> Option<Vec<Square>> {
        self.games += 1;
        let (mut position, mut game) = (Position::new(), Vec::new());
        while position.brick_count() < 40 {
            let square = self.random.legal_move(&position)?;
            let after = position.play_unchecked(square);
            if after.outcome().is_some() {
                return None;
            }
            (position, game) = (after, [game, vec![square]].concat());
            if position.brick_count() >= self.min_bricks
                && fastest_win(&position, self.moves) == Some(self.moves)
            {
                return Some(game);
            }
        }
        None
    }
}

/// xorshift64: a small, fixed generator, so a seed always gives the same games.
pub struct Xorshift(u64);

/// The state seed 0 starts from: xorshift64 cannot hold 0 (it would stay 0). Only the seed
/// equal to this shares seed 0's stream.
const STATE_OF_SEED_ZERO: u64 = 0x9E37_79B9_7F4A_7C15;

impl Xorshift {
    /// The seed is the state, so distinct seeds give distinct streams. (It was `seed | 1`,
    /// which gave 2 and 3 the same games; odd seeds, the only ones the tactics suite and the
    /// tests use, keep the streams they had.)
    pub fn new(seed: u64) -> Xorshift {
        Xorshift(if seed == 0 { STATE_OF_SEED_ZERO } else { seed })
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A legal move of `position` drawn uniformly, `None` once the game is over.
    pub fn legal_move(&mut self, position: &Position) -> Option<Square> {
        let legal: Vec<Square> = position.legal_squares().collect();
        (!legal.is_empty()).then(|| legal[(self.next_u64() % legal.len() as u64) as usize])
    }
}

/// The position after a game written as moves ("a1 h8 b1"); panics on a bad game.
#[cfg(test)]
pub(crate) fn test_position(moves: &str) -> Position {
    Position::from_moves(&parlor_shared::cave::parse_moves(moves).unwrap()).unwrap()
}

/// The bitboard of the cells named in `cells` ("a1 b1"); panics on a bad name.
#[cfg(test)]
pub(crate) fn test_bits(cells: &str) -> u64 {
    parlor_shared::cave::parse_moves(cells)
        .unwrap()
        .iter()
        .fold(0, |b, s| b | s.bit())
}

#[cfg(test)]
mod tests {
    use super::test_position as position;
    use super::*;

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

    #[test]
    fn distinct_seeds_give_distinct_streams_and_odd_seeds_the_ones_they_had() {
        let first = |seed| Xorshift::new(seed).next_u64();
        assert_ne!(first(2), first(3));
        assert_ne!(first(0), first(1));
        assert_ne!(first(0), 0, "seed 0 does not stick at 0");
        // The former `seed | 1` state of an odd seed, stepped once by hand.
        let mut old = 7u64;
        old ^= old << 13;
        old ^= old >> 7;
        old ^= old << 17;
        assert_eq!(first(7), old);
    }

    #[test]
    fn the_tactics_suite_comes_from_the_commands_in_its_header() {
        let suite = include_str!("../../../levels/cave/tactics.txt");
        for (moves, count, seed) in [(2, 8, 7), (3, 4, 11)] {
            let command = format!("--wins-in {moves} --count {count} --seed {seed}");
            assert!(suite.contains(&command), "the header names {command}");
            let prefix = format!("win-in {moves}: ");
            let listed: Vec<&str> = suite
                .lines()
                .filter_map(|line| line.strip_prefix(&prefix))
                .collect();
            assert_eq!(listed.len(), count);
            // `client cave tactics` asks for puzzles of 10 bricks or more.
            let mut search = TacticsSearch::new(moves, 10, seed);
            let found: Vec<String> = std::iter::from_fn(|| Some(search.play_game()))
                .flatten()
                .take(count)
                .map(|game| {
                    let squares: Vec<String> = game.iter().map(Square::to_string).collect();
                    squares.join(" ")
                })
                .collect();
            assert_eq!(found, listed, "{command}");
        }
    }
}
