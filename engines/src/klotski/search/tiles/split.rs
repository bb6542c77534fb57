//! A round of the tile search on several threads. Its first layers are expanded one layer at a
//! time into subtrees, in the order a single thread would visit them (a node's children in
//! their search order, the nodes in order), until there are enough to keep every thread busy.
//! The threads take the subtrees in that order. A thread that finds a solution marks its
//! subtree's place; the threads then drop the subtrees after it, but finish those before it,
//! which could hold a solution the one thread would have met first. So the answer does not
//! depend on the threads' timing, and is the one thread's.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{Ended, Node, Round, play, walk};
use crate::klotski::search::Flow;

/// Subtrees a round is split into, per thread at least: enough that a thread that drew a small
/// one finds more, few enough that the layers above them cost nothing.
const SUBTREES_PER_THREAD: usize = 64;
/// The deepest layer split into subtrees.
const MOST_LAYERS: u32 = 24;

/// One round within `round.bound` from `start`, on `threads` threads.
pub(super) fn round(round: &Round, start: &Node, threads: usize) -> Ended {
    let (subtrees, mut next_bound, expanded) = subtrees(round, start, threads);
    let taken = AtomicUsize::new(0);
    // The place of the first subtree known to hold a solution, and that solution.
    let first_found = AtomicUsize::new(usize::MAX);
    let found = Mutex::new(None);
    let parts: Vec<Ended> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Ended {
                        flow: Flow::Continue,
                        next_bound: u32::MAX,
                        expanded: 0,
                        path: None,
                    };
                    loop {
                        let place = taken.fetch_add(1, Ordering::Relaxed);
                        if place >= subtrees.len() || place > first_found.load(Ordering::Relaxed) {
                            return mine;
                        }
                        let ended =
                            walk(round, subtrees[place].clone(), Some((&first_found, place)));
                        mine.expanded += ended.expanded;
                        mine.next_bound = mine.next_bound.min(ended.next_bound);
                        match ended.flow {
                            Flow::Continue => {}
                            Flow::Found => {
                                // A thread that panicked has ended the search anyway.
                                let mut found = found
                                    .lock()
                                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                                if place < first_found.load(Ordering::Relaxed) {
                                    first_found.store(place, Ordering::Relaxed);
                                    *found = ended.path;
                                }
                            }
                            // Superseded by an earlier subtree's solution: nothing to add.
                            Flow::Stopped if !round.limits.expired() => {}
                            Flow::Stopped => {
                                mine.flow = Flow::Stopped;
                                return mine;
                            }
                        }
                    }
                })
            })
            .collect();
        (workers.into_iter())
            .map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    let mut expanded = expanded;
    let mut stopped = false;
    for part in &parts {
        expanded += part.expanded;
        next_bound = next_bound.min(part.next_bound);
        stopped |= matches!(part.flow, Flow::Stopped);
    }
    let path = found
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let flow = match (&path, stopped) {
        (Some(_), _) => Flow::Found,
        (None, true) => Flow::Stopped,
        (None, false) => Flow::Continue,
    };
    Ended {
        flow,
        next_bound,
        expanded,
        path,
    }
}

/// The subtrees of a round, in search order, with the least f beyond the bound met above them
/// and the nodes expanded there. A node at the goal stays a subtree of its own (its walk finds
/// it at once).
fn subtrees(round: &Round, start: &Node, threads: usize) -> (Vec<Node>, u32, u64) {
    let mut layer = vec![start.clone()];
    let (mut next_bound, mut expanded) = (u32::MAX, 0);
    let mut depth = 0;
    while layer.len() < threads * SUBTREES_PER_THREAD && depth < MOST_LAYERS && !layer.is_empty() {
        let mut below = Vec::with_capacity(layer.len() * 2);
        for node in layer {
            if node.indices.at_goal() {
                below.push(node);
                continue;
            }
            expanded += 1;
            let g = node.path.len() as u32;
            let (children, count) = round.children(g, &node, &mut next_bound);
            for &(_, cell, dir, state, next) in &children[..count] {
                let mut child = node.clone();
                play(&mut child, cell, dir, state, next);
                below.push(child);
            }
        }
        layer = below;
        depth += 1;
    }
    (layer, next_bound, expanded)
}
