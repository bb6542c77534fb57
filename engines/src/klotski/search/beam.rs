//! Beam search: breadth-first by steps, keeping at each depth only the `width` positions of
//! smallest h. Its memory is the beam times the depth, and on large boards with a strong
//! heuristic it finds a solution close to the shortest long before weighted A* would, which
//! gives the anytime search a short incumbent to beat. It proves nothing.
//!
//! Every step changes the parity of the sum of the pieces' rows and columns, so a position
//! one step deeper can only repeat one two steps back: those are turned away, with the
//! repeats inside a depth.

use std::collections::HashSet;

use super::{CLOCK_EVERY, Limits, Outcome, PieceMove, SearchStats, Space, trace};
use crate::klotski::heuristic::Heuristic;
use crate::klotski::key::{BuildPositionHasher, Packed};

/// A position kept in a beam, with how it was reached.
struct Node<const W: usize> {
    key: Packed<W>,
    parent: u32,
    mv: PieceMove,
}

/// A position one step deeper than those being expanded, with its h.
struct Child<const W: usize> {
    h: u32,
    node: Node<W>,
}

type KeySet<const W: usize> = HashSet<Packed<W>, BuildPositionHasher>;

/// A beam search of `width` positions a depth; its solution, if any, is not proved shortest.
pub(crate) fn beam<const W: usize>(
    space: &Space<W>,
    heuristic: &Heuristic,
    width: usize,
    limits: &Limits,
    stats: &mut SearchStats,
) -> Outcome {
    if let Some(solved) = space.solved_at_start() {
        return solved;
    }
    let mut nodes = vec![Node {
        key: space.start,
        parent: u32::MAX,
        mv: PieceMove(0),
    }];
    let mut depth: Vec<u32> = vec![0];
    let mut two_back = KeySet::default();
    let mut tops = space.puzzle.start().tops().to_vec();
    let path_to = |nodes: &[Node<W>], at: u32| {
        trace(at, |i| (nodes[i as usize].parent, nodes[i as usize].mv))
    };
    while !depth.is_empty() {
        let mut children: Vec<Child<W>> = Vec::new();
        let mut met = KeySet::default();
        for &at in &depth {
            stats.expanded += 1;
            if stats.expanded.is_multiple_of(CLOCK_EVERY) && limits.expired() {
                return Outcome::OutOfBudget;
            }
            let key = nodes[at as usize].key;
            space.layout.unpack(&key, &mut tops);
            let mut goal = None;
            space.for_each_move(&key, &mut tops, |next, mv, _, next_tops| {
                if goal.is_some() || two_back.contains(&next) || !met.insert(next) {
                    return;
                }
                let node = Node {
                    key: next,
                    parent: at,
                    mv,
                };
                if next == space.goal {
                    goal = Some(node);
                    return;
                }
                let h = heuristic.estimate(next_tops);
                children.push(Child { h, node });
            });
            if let Some(node) = goal {
                nodes.push(node);
                stats.stored = nodes.len() as u64;
                return Outcome::Found {
                    path: path_to(&nodes, nodes.len() as u32 - 1),
                    proved: false,
                };
            }
        }
        if children.len() > width {
            children.select_nth_unstable_by_key(width, |child| child.h);
            children.truncate(width);
        }
        if nodes.len() + children.len() > limits.max_positions {
            return Outcome::OutOfBudget;
        }
        two_back = depth.iter().map(|&at| nodes[at as usize].key).collect();
        depth.clear();
        for child in children {
            depth.push(nodes.len() as u32);
            nodes.push(child.node);
        }
        stats.stored = nodes.len() as u64;
    }
    // Every position of a depth was a dead end or a repeat: the beam lost the way.
    Outcome::OutOfBudget
}
