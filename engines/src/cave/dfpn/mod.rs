//! A proof-number solver for Magnetic Cave: depth-first proof-number search (df-pn) with a
//! transposition table shared by the board's four mirror images, and a node budget.
//!
//! Proof-number search answers yes/no questions, and the cave has three results. A position is
//! solved with two searches (`Dfpn::solve`):
//! 1. "can the side to move force five?" (the side to move attacks; a full board counts as
//!    failure). Yes: a **win**.
//! 2. "can the other side force five?" (the other side attacks; a full board is the
//!    defender's success). Yes: a **loss**; no: the side to move holds at least a tie.
//!
//! Both answers together give win, loss or tie; one of them alone gives "tie or better" or
//! "tie or worse"; a search that runs out of nodes answers nothing. The second search is run
//! even when the first is open, since it alone can prove "tie or better".
//!
//! Nodes whose side to move has a legal five are solved on sight; a side facing one legal four
//! searches only its block, and two legal fours lose. A four whose missing cell is not yet a
//! legal placement is no threat until a brick beside it opens the cell.

mod board;
pub mod book;
mod search;
mod table;

use std::time::Instant;

use parlor_shared::cave::{Outcome, Position, Square};

use self::board::Node;
use self::search::Search;
use self::table::{INF, Table};

/// 2^20 entries of 32 bytes: 32 MB.
pub const DEFAULT_TABLE_BITS: u32 = 20;

/// What df-pn proved about a position, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Win,
    Loss,
    Tie,
    /// The side to move cannot lose; whether it wins is open.
    TieOrBetter,
    /// The side to move cannot win; whether it loses is open.
    TieOrWorse,
    Unknown,
}

impl Value {
    /// The name used in reports and in `levels/cave/proven.txt`.
    pub fn name(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Loss => "loss",
            Value::Tie => "tie",
            Value::TieOrBetter => "tie-or-better",
            Value::TieOrWorse => "tie-or-worse",
            Value::Unknown => "unknown",
        }
    }

    /// The results it leaves possible, as bits: 1 loss, 2 tie, 4 win.
    fn possible(self) -> u8 {
        match self {
            Value::Loss => 1,
            Value::Tie => 2,
            Value::Win => 4,
            Value::TieOrWorse => 1 | 2,
            Value::TieOrBetter => 2 | 4,
            Value::Unknown => 1 | 2 | 4,
        }
    }

    /// Whether two answers about one position can both be true (say "win" and "tie or
    /// better"): proofs that disagree would be a bug.
    pub fn agrees_with(self, other: Value) -> bool {
        self.possible() & other.possible() != 0
    }

    pub fn from_name(name: &str) -> Option<Value> {
        [
            Value::Win,
            Value::Loss,
            Value::Tie,
            Value::TieOrBetter,
            Value::TieOrWorse,
            Value::Unknown,
        ]
        .into_iter()
        .find(|value| value.name() == name)
    }
}

/// The answer of one search: proved, disproved, or open when the budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    Yes(Option<Square>),
    No,
    Open,
}

/// The result of [`Dfpn::solve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    pub value: Value,
    /// For a win, a winning move; for a tie or "tie or better", a move that keeps it.
    pub best: Option<Square>,
    /// Nodes searched by both searches together.
    pub nodes: u64,
}

/// Progress of a long search, reported every so many nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The question the current search asks: `solve` asks two, each with its own budget.
    pub question: Question,
    /// Nodes searched so far by the current search.
    pub nodes: u64,
}

/// What one df-pn search tries to prove for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Can it force a win? (`solve`'s first search)
    Win,
    /// Can it keep from losing? (`solve`'s second search, when no win was proved)
    NoLoss,
}

pub struct Dfpn {
    table: Table,
    replaced: u64,
    /// Searches stop at this time as if their node budget had run out.
    pub deadline: Option<Instant>,
    /// How often (in nodes) to call the progress callback; 0 for never.
    pub progress_every: u64,
}

impl Default for Dfpn {
    fn default() -> Self {
        Dfpn::new(DEFAULT_TABLE_BITS)
    }
}

impl Dfpn {
    /// A solver with a table of `1 << table_bits` entries.
    pub fn new(table_bits: u32) -> Dfpn {
        Dfpn {
            table: Table::new(table_bits),
            replaced: 0,
            deadline: None,
            progress_every: 0,
        }
    }

    /// Table entries the last solve gave up for other positions (for tests and reports).
    pub fn replaced(&self) -> u64 {
        self.replaced
    }

    /// Solves `position` for the side to move with at most `budget` nodes per search.
    pub fn solve(&mut self, position: &Position, budget: u64) -> Solution {
        self.solve_with_progress(position, budget, &mut |_| {})
    }

    /// [`Dfpn::solve`], calling `progress` every `progress_every` nodes.
    pub fn solve_with_progress(
        &mut self,
        position: &Position,
        budget: u64,
        progress: &mut dyn FnMut(Progress),
    ) -> Solution {
        self.replaced = 0;
        let me = position.to_move();
        if let Some(outcome) = position.outcome() {
            let value = match outcome {
                Outcome::Win(player) if player == me => Value::Win,
                Outcome::Win(_) => Value::Loss,
                Outcome::Tie => Value::Tie,
            };
            return Solution {
                value,
                best: None,
                nodes: 0,
            };
        }
        let (win, win_nodes) = self.prove(position, Question::Win, budget, progress);
        if let Answer::Yes(best) = win {
            return Solution {
                value: Value::Win,
                best,
                nodes: win_nodes,
            };
        }
        // The other side attacks; "yes" for the side to move is now "no loss".
        let (hold, hold_nodes) = self.prove(position, Question::NoLoss, budget, progress);
        let (value, best) = match (win, hold) {
            (_, Answer::No) => (Value::Loss, None),
            (Answer::No, Answer::Yes(best)) => (Value::Tie, best),
            (_, Answer::Yes(best)) => (Value::TieOrBetter, best),
            (Answer::No, Answer::Open) => (Value::TieOrWorse, None),
            _ => (Value::Unknown, None),
        };
        Solution {
            value,
            best,
            nodes: win_nodes + hold_nodes,
        }
    }

    /// A move that forces a win for the side to move, if df-pn proves one within `budget`
    /// nodes (the first of `solve`'s two searches only).
    pub fn winning_move(&mut self, position: &Position, budget: u64) -> Option<Square> {
        self.replaced = 0;
        if position.outcome().is_some() {
            return None;
        }
        match self.prove(position, Question::Win, budget, &mut |_| {}).0 {
            Answer::Yes(best) => best,
            Answer::No | Answer::Open => None,
        }
    }

    /// One df-pn search from a fresh table: the answer to `question` for `position`'s side to move.
    fn prove(
        &mut self,
        position: &Position,
        question: Question,
        budget: u64,
        progress: &mut dyn FnMut(Progress),
    ) -> (Answer, u64) {
        self.table.clear();
        // In the second search the opponent attacks: its goal is the side to move's loss.
        let node = Node::of(position, question == Question::Win);
        let mut search = Search {
            table: &mut self.table,
            question,
            nodes: 0,
            budget,
            deadline: self.deadline,
            out_of_time: false,
            progress,
            progress_every: self.progress_every,
        };
        let (phi, delta, best) = search.mid(node, INF, INF);
        let nodes = search.nodes;
        self.replaced += self.table.replaced;
        let answer = if phi == 0 {
            // A root decided by its shape (a five now) has no child to name: find the move.
            let best = best.or_else(|| winning_cell(node));
            Answer::Yes(best.and_then(Square::from_index))
        } else if delta == 0 {
            Answer::No
        } else {
            Answer::Open
        };
        (answer, nodes)
    }
}

/// The cell that completes a five for the side to move of `node`, if any.
fn winning_cell(node: Node) -> Option<u8> {
    let legal = parlor_shared::cave::anchored_cells(node.mover | node.other);
    let fives = crate::cave::lines::five_completions(node.mover, node.other) & legal;
    (fives != 0).then(|| fives.trailing_zeros() as u8)
}

/// The position's key under its four mirror images: equal for exactly the positions that
/// mirror each other.
pub fn canonical(position: &Position) -> (u64, u64) {
    board::position_key(position).0
}

#[cfg(test)]
mod tests;
