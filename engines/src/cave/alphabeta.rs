//! Magnetic Cave by iterative-deepening alpha-beta (negamax) with a line heuristic: every
//! five-cell window that only one side occupies is worth more the fuller it is. This is the
//! backbone's "classic" opponent; the seed's own was a fixed depth-4 minimax with a similar sum.

use std::time::{Duration, Instant};

use parlor_shared::cave::{Outcome, Player, Position, Square, squares_of};

pub use super::lines::evaluate;
use super::lines::{five_completions, placement_gain};

/// Score of a won position; a win found `ply` moves deep scores `WIN - ply`, so the search
/// prefers quick wins and slow losses.
const WIN: i32 = 1_000_000;
/// Scores above this are wins or losses found by the search, not heuristic values.
const WIN_THRESHOLD: i32 = WIN - 100;
/// The deadline is read once per this many nodes.
const CLOCK_EVERY: u64 = 1024;

/// Cells where `player` would complete five at once, among the legal cells `legal`.
fn winning_cells(position: &Position, player: Player, legal: u64) -> u64 {
    five_completions(position.bricks(player), position.bricks(player.other())) & legal
}

/// Iterative-deepening alpha-beta within a time budget.
#[derive(Debug, Clone, Default)]
pub struct AlphaBeta {
    /// Stop deepening after this depth (None: until the budget runs out).
    pub max_depth: Option<u32>,
    /// Statistics of the last search.
    pub last: SearchReport,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchReport {
    /// The deepest fully searched depth.
    pub depth: u32,
    pub nodes: u64,
    pub score: i32,
}

struct Search {
    deadline: Instant,
    nodes: u64,
    out_of_time: bool,
}

impl Search {
    /// Negamax value of `position` searched `depth` plies deep; `None` when time ran out.
    fn negamax(
        &mut self,
        position: &Position,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CLOCK_EVERY) && Instant::now() >= self.deadline {
            self.out_of_time = true;
        }
        if self.out_of_time {
            return None;
        }
        let legal = position.legal_moves();
        if legal == 0 {
            // The previous move made five, or the board is full.
            return Some(match position.outcome() {
                Some(Outcome::Win(_)) => -(WIN - ply),
                _ => 0,
            });
        }
        let me = position.to_move();
        if winning_cells(position, me, legal) != 0 {
            return Some(WIN - ply - 1);
        }
        if depth == 0 {
            return Some(evaluate(position));
        }
        let mut best = -WIN;
        for square in ordered_moves(position, legal) {
            let child = position.play_unchecked(square);
            let score = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha)?;
            if score > best {
                best = score;
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        Some(best)
    }
}

/// Legal moves, most promising first: blocks of the opponent's five come first (when there is
/// one, any other move loses), then moves by how much they raise the heuristic.
fn ordered_moves(position: &Position, legal: u64) -> Vec<Square> {
    let me = position.to_move();
    let must_block = winning_cells(position, me.other(), legal);
    let candidates = if must_block != 0 { must_block } else { legal };
    let (mine, theirs) = (position.bricks(me), position.bricks(me.other()));
    // A child's evaluation, from the opponent's side, is minus ours before the move minus the
    // move's gain: ordering by the gain alone, largest first, orders by the child's value.
    let mut scored: Vec<(i32, Square)> = squares_of(candidates)
        .map(|square| (-placement_gain(mine, theirs, square), square))
        .collect();
    scored.sort_by_key(|&(score, square)| (score, square));
    scored.into_iter().map(|(_, square)| square).collect()
}

impl AlphaBeta {
    /// An engine that stops at `depth` plies (the seed used 4), still within the budget.
    pub fn with_max_depth(depth: u32) -> AlphaBeta {
        AlphaBeta {
            max_depth: Some(depth),
            last: SearchReport::default(),
        }
    }

    /// The best move found within `budget`, searching ever deeper.
    pub fn search(&mut self, position: &Position, budget: Duration) -> Option<Square> {
        let legal = position.legal_moves();
        let first = squares_of(legal).next()?;
        let started = Instant::now();
        // Leave a margin for the caller; a search never overruns by more than a few nodes.
        let deadline = started + budget.mul_f32(0.9);
        let mut search = Search {
            deadline,
            nodes: 0,
            out_of_time: false,
        };
        let mut order = ordered_moves(position, legal);
        let mut best = (first, -WIN);
        let mut report = SearchReport::default();
        let max_depth = self.max_depth.unwrap_or(64).min(64);
        for depth in 0..max_depth {
            let mut alpha = -WIN - 1;
            let mut scores = Vec::with_capacity(order.len());
            for &square in &order {
                let child = position.play_unchecked(square);
                let score = match child.outcome() {
                    Some(Outcome::Win(_)) => WIN - 1,
                    Some(Outcome::Tie) => 0,
                    None => match search.negamax(&child, depth, 1, -WIN - 1, -alpha) {
                        Some(value) => -value,
                        None => break,
                    },
                };
                scores.push((score, square));
                alpha = alpha.max(score);
            }
            if search.out_of_time {
                break;
            }
            // A depth completed: adopt its answer and search its best move first next time.
            scores.sort_by_key(|&(score, square)| (std::cmp::Reverse(score), square));
            best = (scores[0].1, scores[0].0);
            order = scores.iter().map(|&(_, square)| square).collect();
            report.depth = depth + 1;
            if best.1.abs() >= WIN_THRESHOLD || Instant::now() >= deadline {
                break;
            }
        }
        report.nodes = search.nodes;
        report.score = best.1;
        self.last = report;
        Some(best.0)
    }
}

impl super::CaveEngine for AlphaBeta {
    fn name(&self) -> String {
        "alpha-beta".into()
    }

    fn choose_move(&mut self, position: &Position, budget: Duration) -> Option<Square> {
        self.search(position, budget)
    }

    fn last_search(&self) -> super::SearchSummary {
        super::SearchSummary {
            depth: self.last.depth,
            nodes: self.last.nodes,
            search_time: None,
        }
    }
}

#[cfg(test)]
mod tests;
