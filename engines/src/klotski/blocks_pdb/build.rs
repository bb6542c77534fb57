//! One group's pieces and its table: a breadth-first search from the goal over the placements
//! of the group's pieces, where every other piece is invisible (a group piece may step onto any
//! cell no other group piece covers) and only the group's moves are counted.
//!
//! Why that is a lower bound, with blocks and any number of blanks: a real move of a group
//! piece enters cells that are blank, so certainly not covered by the group's other pieces:
//! the abstract move exists. A real move of any other piece leaves the group's placement as
//! it was and costs nothing here. So a real solution projects onto an abstract path from the
//! placement to the goal with exactly as many steps as the solution has moves of the group.
//! Moves are reversible, so the distance from the goal is the distance to it.

use parlor_shared::klotski::{Dir, Geometry, Puzzle, Shape};

/// A table entry no search reached: no real position projects there (a placement whose pieces
/// overlap, or is cut off from the goal), or one farther than a byte holds. Either way it is a
/// lower bound on the moves left.
pub(crate) const UNREACHED: u8 = u8::MAX;

/// Some pieces of a board, seen without the others. A placement of them is an index: their
/// top-left cells as digits in base `cells`, the group's first piece lowest.
pub(crate) struct Group<'a> {
    pub(super) geometry: &'a Geometry,
    shapes: Vec<Shape>,
    /// Each piece's goal, its top-left cell in the solved picture.
    pub(super) goals: Vec<u8>,
    /// Each slot's weight in an index: `cells` to the slot's power.
    weights: Vec<u32>,
}

impl<'a> Group<'a> {
    /// The pieces `members` of `puzzle` (by piece index), in that order.
    pub(crate) fn of(puzzle: &'a Puzzle, members: &[usize]) -> Group<'a> {
        let geometry = puzzle.geometry();
        let goal_tops = puzzle.goal_tops();
        let cells = geometry.cells() as u32;
        Group {
            geometry,
            shapes: members.iter().map(|&p| puzzle.pieces()[p].shape).collect(),
            goals: members.iter().map(|&p| goal_tops[p]).collect(),
            weights: (0..members.len() as u32)
                .map(|slot| cells.pow(slot))
                .collect(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.shapes.len()
    }

    /// Each slot's weight in an index.
    pub(crate) fn weights(&self) -> &[u32] {
        &self.weights
    }

    /// The index of these top-left cells.
    pub(crate) fn index_of(&self, tops: &[u8]) -> u32 {
        tops.iter()
            .zip(&self.weights)
            .map(|(&top, &weight)| u32::from(top) * weight)
            .sum()
    }

    /// The top-left cells of `index`.
    pub(crate) fn decode(&self, mut index: u32, tops: &mut [u8]) {
        let cells = self.geometry.cells() as u32;
        for top in tops {
            *top = (index % cells) as u8;
            index /= cells;
        }
    }

    /// The group's table: `table[index]` is the fewest moves of the group's pieces that bring
    /// them home from the placement `index`.
    pub(crate) fn table(&self) -> Vec<u8> {
        let size = (self.geometry.cells() as u32).pow(self.len() as u32) as usize;
        let mut entries = vec![UNREACHED; size];
        let goal = self.index_of(&self.goals);
        entries[goal as usize] = 0;
        let mut layer = vec![goal];
        let mut tops = vec![0u8; self.len()];
        for depth in 1..UNREACHED {
            let mut next = Vec::new();
            for &index in &layer {
                self.decode(index, &mut tops);
                self.for_each_move(index, &tops, |_, _, _, moved| {
                    let entry = &mut entries[moved as usize];
                    if *entry == UNREACHED {
                        *entry = depth;
                        next.push(moved);
                    }
                });
            }
            if next.is_empty() {
                break;
            }
            layer = next;
        }
        entries
    }

    /// Every move of the group's pieces from the placement `index` (`tops`, decoded) onto cells
    /// no other piece of the group covers: `visit(slot, from, to, index after the move)`.
    #[inline]
    pub(crate) fn for_each_move(
        &self,
        index: u32,
        tops: &[u8],
        mut visit: impl FnMut(usize, u8, u8, u32),
    ) {
        let geometry = self.geometry;
        let covered = self
            .shapes
            .iter()
            .zip(tops)
            .fold(0u64, |all, (&shape, &top)| {
                all | geometry.footprint(shape, top).unwrap_or(0)
            });
        for (slot, (&shape, &top)) in self.shapes.iter().zip(tops).enumerate() {
            for dir in Dir::ALL {
                let Some(step) = geometry.step(shape, top, dir) else {
                    continue;
                };
                if step.enter & covered == 0 {
                    let moved = shifted(index, self.weights[slot], top, step.to);
                    visit(slot, top, step.to, moved);
                }
            }
        }
    }
}

/// `index` with the piece of the slot weighing `weight` moved from `from` to `to`.
#[inline]
pub(crate) fn shifted(index: u32, weight: u32, from: u8, to: u8) -> u32 {
    index - u32::from(from) * weight + u32::from(to) * weight
}
