//! A round of IDA* on several threads. The round's first layers are searched by one thread
//! down to a depth whose positions are enough subtrees to keep every thread busy; the threads
//! then take the subtrees in turn, sharing the transposition table, so a position one thread
//! has reached is not searched again by another. The first solution found ends the round: it
//! is as short as any (every path of a round within the bound of a shortest one's length), but
//! which of several shortest ones it is depends on the threads' timing.

use std::sync::Mutex;
use std::sync::PoisonError;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{Flow, Walker};
use crate::klotski::parallel::parallel;

/// Subtrees a round is split into, per thread at least: enough that a thread that drew a small
/// one finds more, few enough that the layers above them cost nothing.
const SUBTREES_PER_THREAD: usize = 64;
/// The deepest layer split into subtrees.
const MOST_LAYERS: u32 = 24;

/// One round within `bound` (tenths) from the start, where `main` stands, on the common
/// threads: how it ended, the least f beyond the bound, and the positions expanded so far. A
/// solution's path is left in `main.path`.
pub(super) fn round<const W: usize>(
    main: &mut Walker<'_, '_, '_, W>,
    bound: u32,
) -> (Flow, u32, u64) {
    let common = main.common;
    common.found.store(false, Ordering::Relaxed);
    main.bound = bound;
    let start = common.heuristic.start(&main.tops);
    let mut depth = 1;
    let subtrees = loop {
        main.round = common.table.next_round(main.round);
        main.next_bound = u32::MAX;
        main.collect_at = depth;
        let flow = main.search(0, start);
        main.collect_at = u32::MAX;
        let subtrees = std::mem::take(&mut main.frontier);
        if !matches!(flow, Flow::Continue) || subtrees.is_empty() {
            return (flow, main.next_bound, main.expanded);
        }
        if subtrees.len() >= common.threads * SUBTREES_PER_THREAD || depth == MOST_LAYERS {
            break subtrees;
        }
        depth += 1;
    };
    // The threads go on in the last layout's round: a position it marked above the subtrees
    // is covered by the subtrees below it.
    let taken = AtomicUsize::new(0);
    let found = Mutex::new(None);
    let parts = parallel(0..common.threads, |_| {
        let mut walker = Walker::at_start(common);
        (walker.bound, walker.round) = (bound, main.round);
        let mut stopped = false;
        while let Some(subtree) = subtrees.get(taken.fetch_add(1, Ordering::Relaxed)) {
            if common.found.load(Ordering::Relaxed) {
                break;
            }
            walker.place(&subtree.tops, &subtree.path);
            match walker.search(subtree.path.len() as u32, subtree.estimate) {
                Flow::Continue => {}
                Flow::Found => {
                    let mut found = found.lock().unwrap_or_else(PoisonError::into_inner);
                    found.get_or_insert_with(|| walker.path.clone());
                    common.found.store(true, Ordering::Relaxed);
                    break;
                }
                // Told to stop by another thread's solution, or out of time.
                Flow::Stopped => {
                    stopped = !common.found.load(Ordering::Relaxed);
                    break;
                }
            }
        }
        (walker.next_bound, walker.expanded, stopped)
    });
    for (next_bound, expanded, _) in &parts {
        main.next_bound = main.next_bound.min(*next_bound);
        main.expanded += expanded;
    }
    let flow = match found.into_inner().unwrap_or_else(PoisonError::into_inner) {
        Some(path) => {
            main.path = path;
            Flow::Found
        }
        None if parts.iter().any(|&(_, _, stopped)| stopped) => Flow::Stopped,
        None => Flow::Continue,
    };
    (flow, main.next_bound, main.expanded)
}
