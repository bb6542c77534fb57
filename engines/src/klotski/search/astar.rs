//! Best-first search on f = g + w·h: A* when w = 1, weighted A* when w > 1.
//!
//! With w = 1 and a consistent heuristic the first goal taken from the open list is a shortest
//! solution, and the f of the position being expanded is a lower bound on it. With w > 1 the
//! goal is taken as soon as it is generated: the answer comes much sooner but is only
//! w-suboptimal at worst. Either way a `bound` (an incumbent solution's length) prunes every
//! position that cannot lead to anything shorter, and a search that empties its open list
//! without one has visited every reachable position.
//!
//! The open list is a bucket queue on the integer priority 10·g + (10·w)·h, last in first out
//! within a bucket, which prefers the deeper of equally promising positions.

use std::collections::hash_map::Entry;

use super::{CLOCK_EVERY, Limits, Outcome, PieceMove, SearchStats, Space, trace};
use crate::klotski::heuristic::Heuristic;
use crate::klotski::key::{Packed, PositionMap};

/// The heuristic's weight in tenths (10 = plain A*).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Weight(pub u32);

impl Weight {
    pub const ONE: Weight = Weight(10);
}

struct Node<const W: usize> {
    key: Packed<W>,
    parent: u32,
    mv: PieceMove,
    g: u32,
    h: u32,
    closed: bool,
}

/// The most memory one stored position can hold in [`best_first`], the hungriest of the
/// searches (breadth-first keeps less per position, IDA* a fixed table): its node, in a vector
/// that may have reserved twice its length; its index entry and control byte, in a hash table
/// of up to 16/7 slots an entry, 24/7 while it moves into one twice the size; and its places in
/// the bucket queue (a little over one push a position on 4x5 to 8x8 boards; two counted,
/// reserved twice).
pub(crate) fn bytes_per_position<const W: usize>() -> usize {
    let node = 2 * size_of::<Node<W>>();
    let index = (size_of::<(Packed<W>, (u32, u32))>() + 1) * 24 / 7;
    let queued = 2 * 2 * size_of::<u32>();
    node + index + queued
}

/// A* (`weight` = [`Weight::ONE`]) or weighted A*, looking only for solutions shorter than
/// `bound` if given.
pub(crate) fn best_first<const W: usize>(
    space: &Space<W>,
    heuristic: &Heuristic,
    weight: Weight,
    bound: Option<u32>,
    limits: &Limits,
    stats: &mut SearchStats,
) -> Outcome {
    let exact = weight == Weight::ONE;
    let priority = |g: u32, h: u32| (10 * g + weight.0 * h) as usize;
    let bound = bound.unwrap_or(u32::MAX);
    let mut tops = space.puzzle.start().tops().to_vec();
    let start_h = heuristic.estimate(&tops);
    stats.lower_bound = stats.lower_bound.max(start_h);
    if start_h >= bound {
        return Outcome::Exhausted { positions: 0 };
    }
    let mut nodes = vec![Node {
        key: space.start,
        parent: u32::MAX,
        mv: PieceMove(0),
        g: 0,
        h: start_h,
        closed: false,
    }];
    // Each position's node and its g: a duplicate no better than before (most of them) is
    // turned away without touching the node list.
    let mut index: PositionMap<Packed<W>, (u32, u32)> = PositionMap::default();
    index.insert(space.start, (0, 0));
    let mut buckets: Vec<Vec<u32>> = Vec::new();
    let push = |buckets: &mut Vec<Vec<u32>>, at: usize, node: u32| {
        if buckets.len() <= at {
            buckets.resize_with(at + 1, Vec::new);
        }
        buckets[at].push(node);
    };
    push(&mut buckets, priority(0, start_h), 0);
    let mut lowest = 0usize;
    let path_to = |nodes: &[Node<W>], at: u32| {
        trace(at, |i| (nodes[i as usize].parent, nodes[i as usize].mv))
    };
    if !exact && let Some(solved) = space.solved_at_start() {
        return solved;
    }
    loop {
        while lowest < buckets.len() && buckets[lowest].is_empty() {
            lowest += 1;
        }
        let Some(at) = buckets.get_mut(lowest).and_then(Vec::pop) else {
            stats.stored = nodes.len() as u64;
            return Outcome::Exhausted {
                positions: nodes.len() as u64,
            };
        };
        let node = &mut nodes[at as usize];
        if node.closed || priority(node.g, node.h) != lowest {
            continue; // already expanded, or queued again since with a smaller g
        }
        node.closed = true;
        let (key, g) = (node.key, node.g);
        if exact {
            stats.lower_bound = stats.lower_bound.max(g + node.h);
            if key == space.goal {
                stats.stored = nodes.len() as u64;
                return Outcome::Found {
                    path: path_to(&nodes, at),
                    proved: true,
                };
            }
        }
        if stats.expanded.is_multiple_of(CLOCK_EVERY) && limits.expired()
            || nodes.len() >= limits.max_positions
        {
            stats.stored = nodes.len() as u64;
            return Outcome::OutOfBudget;
        }
        stats.expanded += 1;
        let mut found = None;
        space.layout.unpack(&key, &mut tops);
        // The expanded position's estimate once; each child's follows from the moved piece.
        let estimate = heuristic.start(&tops);
        space.for_each_move(&key, &mut tops, |next, mv, from, next_tops| {
            let g = g + 1;
            let to = next_tops[mv.piece()];
            let h =
                heuristic.value(&heuristic.after_move(&estimate, next_tops, mv.piece(), from, to));
            if found.is_some() || g + h >= bound {
                return;
            }
            let queued = match index.entry(next) {
                Entry::Occupied(mut slot) => {
                    let (at_node, known_g) = slot.get_mut();
                    if *known_g <= g {
                        return;
                    }
                    *known_g = g;
                    let node = &mut nodes[*at_node as usize];
                    // Reached more cheaply: weighted searches may reopen a closed position.
                    (node.parent, node.mv, node.g, node.closed) = (at, mv, g, false);
                    *at_node
                }
                Entry::Vacant(slot) => {
                    let new = nodes.len() as u32;
                    slot.insert((new, g));
                    nodes.push(Node {
                        key: next,
                        parent: at,
                        mv,
                        g,
                        h,
                        closed: false,
                    });
                    new
                }
            };
            if !exact && next == space.goal {
                found = Some(queued);
            }
            let at = priority(g, h);
            lowest = lowest.min(at);
            push(&mut buckets, at, queued);
        });
        if let Some(goal) = found {
            stats.stored = nodes.len() as u64;
            return Outcome::Found {
                path: path_to(&nodes, goal),
                proved: false,
            };
        }
    }
}
