//! The seed's opponent, kept as the "classic" level: a fixed depth-4 alpha-beta minimax whose
//! evaluation is the seed's sum over every five-cell window of (own bricks)^2 minus
//! (opponent's bricks)^2, with a five worth everything. Mixed windows count too, as in the seed.
//!
//! Depth 4 is read as four plies, the root's move included. The seed's `makeAIMove(4)` calls
//! `minimax(board, 4, ...)` below each root move, five plies in all (and its leaves are scored
//! for whichever player the seed's `currentPlayer` then names). [`Classic::searching`] gives
//! other depths, so that figures against classic can be checked against its neighbours too
//! (`cave arena --classic-plies`).

use std::time::{Duration, Instant};

use parlor_shared::cave::{Player, Position, Square, has_five, squares_of};

use super::lines::windows;

const FIVE: i32 = 1_000_000;
/// The plies the classic level searches, its root's move included.
pub const SEED_PLIES: u32 = 4;

/// The seed's evaluation of `position` for `player`.
fn seed_evaluation(position: &Position, player: Player) -> i32 {
    let (mine, theirs) = (position.bricks(player), position.bricks(player.other()));
    if has_five(mine) {
        return FIVE;
    }
    if has_five(theirs) {
        return -FIVE;
    }
    windows().iter().fold(0, |score, &window| {
        let m = (mine & window).count_ones() as i32;
        let t = (theirs & window).count_ones() as i32;
        score + m * m - t * t
    })
}

#[derive(Debug)]
pub struct Classic {
    nodes: u64,
    plies: u32,
}

impl Default for Classic {
    fn default() -> Self {
        Classic::searching(SEED_PLIES)
    }
}

impl Classic {
    /// The classic search to `plies` plies (at least one: the root's moves, scored as they
    /// leave the board).
    pub fn searching(plies: u32) -> Classic {
        Classic {
            nodes: 0,
            plies: plies.max(1),
        }
    }

    fn minimax(
        &mut self,
        position: &Position,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        me: Player,
        deadline: Instant,
    ) -> i32 {
        self.nodes += 1;
        let legal = position.legal_moves();
        if depth == 0 || legal == 0 || Instant::now() >= deadline {
            return seed_evaluation(position, me);
        }
        let maximizing = position.to_move() == me;
        let mut best = if maximizing { i32::MIN } else { i32::MAX };
        for square in squares_of(legal) {
            let value = self.minimax(
                &position.play_unchecked(square),
                depth - 1,
                alpha,
                beta,
                me,
                deadline,
            );
            if maximizing {
                best = best.max(value);
                alpha = alpha.max(value);
            } else {
                best = best.min(value);
                beta = beta.min(value);
            }
            if beta <= alpha {
                break;
            }
        }
        best
    }
}

impl super::CaveEngine for Classic {
    fn name(&self) -> String {
        "classic".into()
    }

    fn choose_move(&mut self, position: &Position, budget: Duration) -> Option<Square> {
        let deadline = Instant::now() + budget.mul_f32(0.9);
        self.nodes = 0;
        let me = position.to_move();
        let mut best: Option<(i32, Square)> = None;
        for square in squares_of(position.legal_moves()) {
            let value = self.minimax(
                &position.play_unchecked(square),
                self.plies - 1,
                i32::MIN,
                i32::MAX,
                me,
                deadline,
            );
            if best.is_none_or(|(score, _)| value > score) {
                best = Some((value, square));
            }
        }
        best.map(|(_, square)| square)
    }

    fn last_search(&self) -> super::SearchSummary {
        super::SearchSummary {
            depth: self.plies,
            nodes: self.nodes,
            search_time: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cave::CaveEngine;

    #[test]
    fn takes_a_five_and_blocks_one_like_the_seed() {
        let position = crate::cave::prover::test_position;
        let mut classic = Classic::default();
        let budget = Duration::from_secs(3);
        assert_eq!(
            classic
                .choose_move(&position("a1 h8 b1 h7 c1 h6 d1 g8"), budget)
                .unwrap()
                .to_string(),
            "e1"
        );
        assert_eq!(
            classic
                .choose_move(&position("a1 h8 b1 h7 c1 g8 d1"), budget)
                .unwrap()
                .to_string(),
            "e1"
        );
    }
}
