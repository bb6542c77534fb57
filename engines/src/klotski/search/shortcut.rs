//! Shortening a solution that is not proved shortest: from each position on the path, a
//! breadth-first search a few steps deep looks for later positions of the same path; reaching
//! one in fewer steps than the path takes cuts the detour out. Weighted searches leave many
//! such detours (a piece stepping aside and back while others pass).

use std::collections::hash_map::Entry;

use super::{Limits, PieceMove, Space, trace};
use crate::klotski::key::{Packed, PositionMap};

/// How deep the search from each position looks: on the 5x6 sample depth 4 takes 20 ms a
/// path and cuts a few steps from the greedy rounds' paths; depth 7 takes half a second and
/// cuts barely more.
const DEPTH: u32 = 4;

/// `path` (from the start to the goal) with detours replaced by shorter ways found within
/// [`DEPTH`] steps; stops improving, keeping what is left as it is, when time runs out.
pub(crate) fn shorten<const W: usize>(
    space: &Space<W>,
    path: &[PieceMove],
    limits: &Limits,
) -> Vec<PieceMove> {
    let mut tops = space.puzzle.start().tops().to_vec();
    let mut positions = vec![space.start];
    for &mv in path {
        let piece = mv.piece();
        let Some(step) = space.puzzle.step(piece, tops[piece], mv.dir()) else {
            return path.to_vec(); // not a path of this puzzle: leave it alone
        };
        let key = space.layout.moved(
            positions.last().unwrap_or(&space.start),
            piece,
            tops[piece],
            step.to,
        );
        tops[piece] = step.to;
        positions.push(key);
    }
    // Where each position last occurs on the path, so a shortcut jumps as far as it can.
    let last_at: PositionMap<Packed<W>, usize> = positions
        .iter()
        .enumerate()
        .map(|(at, &key)| (key, at))
        .collect();
    let mut shorter = Vec::with_capacity(path.len());
    let mut at = 0;
    while at < path.len() {
        if limits.expired() {
            shorter.extend_from_slice(&path[at..]);
            break;
        }
        match nearest_shortcut(space, positions[at], at, &last_at, &mut tops) {
            Some((to, moves)) => {
                shorter.extend(moves);
                at = to;
            }
            None => {
                shorter.push(path[at]);
                at += 1;
            }
        }
    }
    shorter
}

/// The shortcut from `start` (path position `at`) saving the most steps: the later path
/// position it reaches and the moves to it.
fn nearest_shortcut<const W: usize>(
    space: &Space<W>,
    start: Packed<W>,
    at: usize,
    last_at: &PositionMap<Packed<W>, usize>,
    tops: &mut [u8],
) -> Option<(usize, Vec<PieceMove>)> {
    // Breadth-first: (position, parent, move, depth).
    let mut nodes: Vec<(Packed<W>, u32, PieceMove, u32)> = vec![(start, u32::MAX, PieceMove(0), 0)];
    let mut seen: PositionMap<Packed<W>, ()> = PositionMap::default();
    seen.insert(start, ());
    let mut best: Option<(usize, u32, usize)> = None; // (saved, node, path position)
    let mut cursor = 0;
    while cursor < nodes.len() {
        let (key, _, _, depth) = nodes[cursor];
        if depth == DEPTH {
            break;
        }
        space.layout.unpack(&key, tops);
        space.for_each_move(&key, tops, |next, mv, _, _| {
            if let Entry::Vacant(slot) = seen.entry(next) {
                slot.insert(());
                let node = nodes.len() as u32;
                nodes.push((next, cursor as u32, mv, depth + 1));
                if let Some(&later) = last_at.get(&next)
                    && later > at
                {
                    let saved = (later - at).saturating_sub(depth as usize + 1);
                    if saved > 0 && best.is_none_or(|(most, _, _)| saved > most) {
                        best = Some((saved, node, later));
                    }
                }
            }
        });
        cursor += 1;
    }
    best.map(|(_, node, later)| {
        (
            later,
            trace(node, |i| (nodes[i as usize].1, nodes[i as usize].2)),
        )
    })
}
