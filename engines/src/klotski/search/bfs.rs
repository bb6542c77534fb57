//! Breadth-first search from the start, and bidirectional breadth-first search from the start
//! and the goal at once (moves are reversible, so the goal's side searches the same graph).
//! Both are exact: the first path found is a shortest one, and a side that runs out of new
//! positions proves the goal unreachable.

use std::collections::hash_map::Entry;

use super::{CLOCK_EVERY, Limits, Outcome, PieceMove, SearchStats, Space, trace};
use crate::klotski::key::{Packed, PositionMap};

struct Node<const W: usize> {
    key: Packed<W>,
    parent: u32,
    mv: PieceMove,
}

/// A search tree in breadth-first order: the node list doubles as the queue.
struct Tree<const W: usize> {
    nodes: Vec<Node<W>>,
    index: PositionMap<Packed<W>, u32>,
}

impl<const W: usize> Tree<W> {
    fn new(root: Packed<W>) -> Tree<W> {
        let mut index = PositionMap::default();
        index.insert(root, 0);
        Tree {
            nodes: vec![Node {
                key: root,
                parent: u32::MAX,
                mv: PieceMove(0),
            }],
            index,
        }
    }

    fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Adds `key` reached from `parent` by `mv`; its index if it is new.
    fn insert(&mut self, key: Packed<W>, parent: u32, mv: PieceMove) -> Option<u32> {
        match self.index.entry(key) {
            Entry::Occupied(_) => None,
            Entry::Vacant(slot) => {
                let at = self.nodes.len() as u32;
                slot.insert(at);
                self.nodes.push(Node { key, parent, mv });
                Some(at)
            }
        }
    }

    /// Moves from the root to node `at`.
    fn path_to(&self, at: u32) -> Vec<PieceMove> {
        trace(at, |i| {
            (self.nodes[i as usize].parent, self.nodes[i as usize].mv)
        })
    }

    /// Moves from node `at` back to the root (the tree having been grown from the goal).
    fn path_from(&self, at: u32) -> Vec<PieceMove> {
        let mut path = self.path_to(at);
        path.reverse();
        path.iter_mut().for_each(|mv| *mv = mv.reversed());
        path
    }
}

/// Breadth-first search from the start.
pub(crate) fn bfs<const W: usize>(
    space: &Space<W>,
    limits: &Limits,
    stats: &mut SearchStats,
) -> Outcome {
    if let Some(solved) = space.solved_at_start() {
        return solved;
    }
    let mut tree = Tree::new(space.start);
    let mut tops = vec![0u8; space.pieces()];
    let (mut cursor, mut layer_end, mut depth) = (0usize, 1usize, 0u32);
    while cursor < tree.len() {
        if cursor == layer_end {
            depth += 1;
            layer_end = tree.len();
        }
        // Nothing up to `depth` is the goal, or it would have been found when generated.
        stats.lower_bound = depth + 1;
        stats.stored = tree.len() as u64;
        if stats.expanded.is_multiple_of(CLOCK_EVERY) && limits.expired()
            || tree.len() >= limits.max_positions
        {
            return Outcome::OutOfBudget;
        }
        let key = tree.nodes[cursor].key;
        let mut found = None;
        space.layout.unpack(&key, &mut tops);
        space.for_each_move(&key, &mut tops, |next, mv, _, _| {
            if found.is_none()
                && let Some(at) = tree.insert(next, cursor as u32, mv)
                && next == space.goal
            {
                found = Some(at);
            }
        });
        stats.expanded += 1;
        if let Some(at) = found {
            return Outcome::Found {
                path: tree.path_to(at),
                proved: true,
            };
        }
        cursor += 1;
    }
    stats.stored = tree.len() as u64;
    Outcome::Exhausted {
        positions: tree.len() as u64,
    }
}

/// One side of the bidirectional search: its tree, where its last full layer starts, and that
/// layer's depth.
struct Side<const W: usize> {
    tree: Tree<W>,
    layer_start: usize,
    depth: u32,
}

impl<const W: usize> Side<W> {
    fn new(root: Packed<W>) -> Side<W> {
        Side {
            tree: Tree::new(root),
            layer_start: 0,
            depth: 0,
        }
    }

    fn frontier(&self) -> usize {
        self.tree.len() - self.layer_start
    }
}

/// Where the two searches met: the node expanded, the move, and the node on the other side.
struct Meeting {
    expanded: u32,
    mv: PieceMove,
    other: u32,
}

/// Breadth-first from both ends, a whole layer of the smaller frontier at a time. When a layer
/// of one side meets the other side, every meeting in that layer is equally short (see the
/// proof in `expand_layer`), so the first is taken.
pub(crate) fn bidirectional<const W: usize>(
    space: &Space<W>,
    limits: &Limits,
    stats: &mut SearchStats,
) -> Outcome {
    if let Some(solved) = space.solved_at_start() {
        return solved;
    }
    let mut forward = Side::new(space.start);
    let mut backward = Side::new(space.goal);
    let mut tops = vec![0u8; space.pieces()];
    loop {
        stats.lower_bound = forward.depth + backward.depth + 1;
        let from_start = forward.frontier() <= backward.frontier();
        let (this, other) = if from_start {
            (&mut forward, &backward)
        } else {
            (&mut backward, &forward)
        };
        let meeting = match expand_layer(space, this, other, &mut tops, limits, stats) {
            Ok(meeting) => meeting,
            Err(outcome) => return outcome,
        };
        stats.stored = (forward.tree.len() + backward.tree.len()) as u64;
        if let Some(Meeting {
            expanded,
            mv,
            other,
        }) = meeting
        {
            let path = if from_start {
                let mut path = forward.tree.path_to(expanded);
                path.push(mv);
                path.extend(backward.tree.path_from(other));
                path
            } else {
                let mut path = forward.tree.path_to(other);
                path.push(mv.reversed());
                path.extend(backward.tree.path_from(expanded));
                path
            };
            return Outcome::Found { path, proved: true };
        }
    }
}

/// Expands `this` side's last layer. Before it, no position of depth <= d on this side is on the
/// other side up to its depth e, so every solution is longer than d + e; a meeting found now is
/// d + 1 + (at most e) long, hence exactly shortest. A layer with nothing new means this side
/// has reached every position it can: the two ends are not connected.
fn expand_layer<const W: usize>(
    space: &Space<W>,
    this: &mut Side<W>,
    other: &Side<W>,
    tops: &mut [u8],
    limits: &Limits,
    stats: &mut SearchStats,
) -> Result<Option<Meeting>, Outcome> {
    let layer_end = this.tree.len();
    for at in this.layer_start..layer_end {
        if stats.expanded.is_multiple_of(CLOCK_EVERY) && limits.expired()
            || this.tree.len() + other.tree.len() >= limits.max_positions
        {
            return Err(Outcome::OutOfBudget);
        }
        let key = this.tree.nodes[at].key;
        let mut meeting = None;
        space.layout.unpack(&key, tops);
        space.for_each_move(&key, tops, |next, mv, _, _| {
            if meeting.is_some() {
                return;
            }
            if let Some(&other_at) = other.tree.index.get(&next) {
                meeting = Some(Meeting {
                    expanded: at as u32,
                    mv,
                    other: other_at,
                });
            } else {
                this.tree.insert(next, at as u32, mv);
            }
        });
        stats.expanded += 1;
        if meeting.is_some() {
            return Ok(meeting);
        }
    }
    if this.tree.len() == layer_end {
        return Err(Outcome::Exhausted {
            positions: this.tree.len() as u64,
        });
    }
    this.layer_start = layer_end;
    this.depth += 1;
    Ok(None)
}
