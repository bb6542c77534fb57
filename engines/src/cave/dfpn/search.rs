//! Depth-first proof-number search (Nagai's df-pn) in negamax form, with the 1+epsilon trick
//! (Pawlewicz and Lew) on the second-best child's threshold.
//!
//! Every node carries (phi, delta) from the side to move's point of view: phi is the proof
//! number of its goal, delta the disproof number. phi = min over children of delta, delta =
//! sum over children of phi. A node is searched until one of its numbers reaches its threshold;
//! the best child gets thresholds that send the search back up as soon as another child
//! becomes more promising.

use super::board::{Node, Shape};
use super::table::{INF, Table};
use super::{Progress, Question};
use std::time::Instant;

use parlor_shared::cave::squares_of;
use smallvec::SmallVec;

/// A node's child: its cell, node and table key, and its (phi, delta): what the table held for
/// it when its parent's search began (else its estimate), then what its own searches return.
///
/// The table is read once per search of the parent, not once per round: between rounds only
/// the child just searched changes (a transposition inside it may change a sibling as well,
/// which is seen when the parent is searched again). Reading every sibling every round made
/// df-pn about a quarter slower (`cave prove --plies 0` on positions of lost arena games).
#[derive(Clone, Copy)]
struct Child {
    cell: u8,
    node: Node,
    key: (u64, u64),
    known: (u32, u32),
}

/// At most two legal cells per row: a node's children always fit on the stack.
const MAX_CHILDREN: usize = 16;

/// The 1+epsilon trick with epsilon = 1/4: the best child may run until its number passes the
/// second best by a quarter, which cuts down switching between close siblings.
fn second_threshold(second: u32) -> u32 {
    if second >= INF {
        INF
    } else {
        second.saturating_add(1 + second / 4).min(INF)
    }
}

/// (phi, delta) of a node that is not searched yet: solved when its shape decides it,
/// otherwise 1 to reach the goal and, to refute it, the number of moves there (forcing moves,
/// which leave one reply, look best).
fn estimate(shape: Shape) -> (u32, u32) {
    match shape {
        Shape::MoverSucceeds => (0, INF),
        Shape::MoverFails => (INF, 0),
        Shape::Moves(moves) => (1, moves.count_ones()),
    }
}

/// How often (in nodes) the clock is read.
const CLOCK_EVERY: u64 = 1024;

pub struct Search<'a> {
    pub table: &'a mut Table,
    /// Reported with the progress.
    pub question: Question,
    pub nodes: u64,
    pub budget: u64,
    /// Stop at this time, whatever the budget says.
    pub deadline: Option<Instant>,
    pub out_of_time: bool,
    pub progress: &'a mut dyn FnMut(Progress),
    pub progress_every: u64,
}

impl Search<'_> {
    fn out_of_budget(&self) -> bool {
        self.nodes >= self.budget || self.out_of_time
    }

    /// Searches `node` until phi reaches `th_phi`, delta reaches `th_delta`, or the node budget
    /// runs out. Returns the final (phi, delta) and the cell of the child with the smallest
    /// delta (the proving move when phi is 0).
    pub fn mid(&mut self, node: Node, th_phi: u32, th_delta: u32) -> (u32, u32, Option<u8>) {
        self.nodes += 1;
        let started = self.nodes;
        if let Some(deadline) = self.deadline
            && self.nodes.is_multiple_of(CLOCK_EVERY)
            && Instant::now() >= deadline
        {
            self.out_of_time = true;
        }
        if self.progress_every > 0 && self.nodes.is_multiple_of(self.progress_every) {
            (self.progress)(Progress {
                question: self.question,
                nodes: self.nodes,
            });
        }
        // A node its shape decides is not stored: its estimate is already exact.
        let facts = node.facts();
        let moves = match facts.shape {
            Shape::MoverSucceeds => return (0, INF, None),
            Shape::MoverFails => return (INF, 0, None),
            Shape::Moves(moves) => moves,
        };
        let key = node.key();
        let mut children: SmallVec<[Child; MAX_CHILDREN]> = squares_of(moves)
            .map(|square| {
                let child = node.play(square.index());
                Child {
                    cell: square.index(),
                    node: child,
                    key: child.key(),
                    known: estimate(node.child_shape(&facts, square.index())),
                }
            })
            .collect();
        // Apart from the loop above, so that the table's cache misses overlap.
        for child in &mut children {
            if let Some(stored) = self.table.get(child.key) {
                child.known = stored;
            }
        }
        loop {
            let (mut phi, mut delta) = (INF, 0u32);
            let (mut best, mut best_phi, mut second) = (0, INF, INF);
            for (i, child) in children.iter().enumerate() {
                let (child_phi, child_delta) = child.known;
                delta = if child_phi >= INF || delta >= INF {
                    INF
                } else {
                    (delta + child_phi).min(INF - 1)
                };
                if child_delta < phi {
                    second = phi;
                    (phi, best, best_phi) = (child_delta, i, child_phi);
                } else if child_delta < second {
                    second = child_delta;
                }
            }
            if phi >= th_phi || delta >= th_delta || self.out_of_budget() {
                let work = self.nodes - started + 1;
                self.table.put(key, phi, delta, work);
                return (phi, delta, Some(children[best].cell));
            }
            // The best child's delta may grow to the second best's (times 1+epsilon), and its
            // phi until this node's delta would reach its threshold.
            let child_th_phi = th_delta - (delta - best_phi);
            let child_th_delta = th_phi.min(second_threshold(second));
            let (phi, delta, _) = self.mid(children[best].node, child_th_phi, child_th_delta);
            children[best].known = (phi, delta);
        }
    }
}
