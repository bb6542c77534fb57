//! Groups chosen for one start: a table only counts the interactions inside its group, so a
//! partition that puts the pieces in each other's way at the start into one group starts the
//! bound higher. On the 5x6 sample the two partitions grown from the goal's corners start at 68
//! and 74; swapping pieces between groups while the start's sum grows raises both.
//!
//! A group's value at the start is its table's entry there, found without building the table:
//! A* over the group's placements, every other piece invisible, Manhattan distance as the
//! estimate. Only the choice depends on it, never the bound, so a group whose A* runs too long
//! is valued at its Manhattan distance.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use foldhash::fast::FixedState;
use parlor_shared::klotski::Puzzle;

use super::build::Group;

/// Placements one group's A* may expand before it settles for Manhattan distance.
const SEARCH_CAP: usize = 200_000;
/// Swaps tried at most for one partition.
const SWAPS_CAP: usize = 20_000;

/// `groups` improved for `puzzle`'s start: pieces are swapped between two groups (sizes stay)
/// while a swap raises the sum of the groups' values at the start.
///
/// It stops at the first partition that no single swap improves. Shaking that one by random
/// swaps and climbing again found partitions that start higher (78 where this gives 76 on the
/// 5x6 sample), but fitted to the start alone, they cut no more positions from the search.
pub(crate) fn improved_for_start(puzzle: &Puzzle, mut groups: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    let mut values: HashMap<Vec<usize>, u32, FixedState> = HashMap::default();
    let mut value = |group: &[usize]| -> u32 {
        let mut key = group.to_vec();
        key.sort_unstable();
        *values
            .entry(key)
            .or_insert_with_key(|group| start_value(puzzle, group))
    };
    let mut tried = 0;
    'improving: loop {
        for first in 0..groups.len() {
            for second in first + 1..groups.len() {
                let before = value(&groups[first]) + value(&groups[second]);
                for a in 0..groups[first].len() {
                    for b in 0..groups[second].len() {
                        tried += 1;
                        if tried > SWAPS_CAP {
                            break 'improving;
                        }
                        let mut one = groups[first].clone();
                        let mut two = groups[second].clone();
                        std::mem::swap(&mut one[a], &mut two[b]);
                        if value(&one) + value(&two) > before {
                            groups[first] = one;
                            groups[second] = two;
                            continue 'improving;
                        }
                    }
                }
            }
        }
        break;
    }
    for group in &mut groups {
        group.sort_unstable();
    }
    groups
}

/// The fewest moves of `group`'s pieces from the start to their goals, others invisible (what
/// the group's table holds at the start), or their Manhattan distance if A* runs too long.
pub(crate) fn start_value(puzzle: &Puzzle, group: &[usize]) -> u32 {
    let start: Vec<u8> = group.iter().map(|&p| puzzle.start().tops()[p]).collect();
    group_distance(&Group::of(puzzle, group), &start, SEARCH_CAP)
}

/// A* from `from` to the group's goals over its placements (its pieces may not overlap and
/// see nothing else); Manhattan distance (consistent) guides it. Past `cap` expansions, the
/// Manhattan distance of `from`.
pub(crate) fn group_distance(group: &Group, from: &[u8], cap: usize) -> u32 {
    let (geometry, goals) = (group.geometry, &group.goals);
    let estimate = |tops: &[u8]| -> u32 {
        (tops.iter().zip(goals))
            .map(|(&top, &goal)| geometry.manhattan(top, goal))
            .sum()
    };
    let (start, goal) = (group.index_of(from), group.index_of(goals));
    let mut best: HashMap<u32, u32, FixedState> = HashMap::default();
    best.insert(start, 0);
    let mut open = BinaryHeap::from([Reverse((estimate(from), 0u32, start))]);
    let mut tops = vec![0u8; group.len()];
    let mut expanded = 0;
    while let Some(Reverse((f, g, index))) = open.pop() {
        if best.get(&index).is_some_and(|&known| known < g) {
            continue;
        }
        if index == goal {
            return g;
        }
        expanded += 1;
        if expanded > cap {
            break;
        }
        group.decode(index, &mut tops);
        let h = f - g;
        group.for_each_move(index, &tops, |slot, was, now, next| {
            if best.get(&next).is_none_or(|&known| known > g + 1) {
                best.insert(next, g + 1);
                let home = goals[slot];
                let next_h = h + geometry.manhattan(now, home) - geometry.manhattan(was, home);
                open.push(Reverse((g + 1 + next_h, g + 1, next)));
            }
        });
    }
    estimate(from)
}
