//! Building one group's table: a breadth-first search from the goal over the placements of the
//! group's pieces, where every other piece is invisible (a group piece may step onto any cell
//! no other group piece covers) and only the group's moves are counted.
//!
//! Why that is a lower bound, with blocks and any number of blanks: a real move of a group
//! piece enters cells that are blank, so certainly not covered by the group's other pieces:
//! the abstract move exists. A real move of any other piece leaves the group's placement as
//! it was and costs nothing here. So a real solution projects onto an abstract path from the
//! placement to the goal with exactly as many steps as the solution has moves of the group.
//! Moves are reversible, so the distance from the goal is the distance to it.

use parlor_shared::klotski::{Dir, Geometry, Shape};

/// A table entry no search reached: no real position projects there (a placement whose pieces
/// overlap, or is cut off from the goal), or one farther than a byte holds. Either way it is a
/// lower bound on the moves left.
pub(crate) const UNREACHED: u8 = u8::MAX;

/// One group's table: `entries[index]` is the fewest moves of the group's pieces that bring
/// them home, `index` being the pieces' top-left cells as digits in base `cells`, the group's
/// first piece lowest.
pub(crate) fn build(geometry: &Geometry, shapes: &[Shape], goals: &[u8]) -> Vec<u8> {
    let cells = geometry.cells() as u32;
    let weights = weights(cells, shapes.len());
    let size = cells.pow(shapes.len() as u32) as usize;
    let mut entries = vec![UNREACHED; size];
    let goal = index_of(goals, &weights);
    entries[goal as usize] = 0;
    let mut layer = vec![goal];
    let mut tops = vec![0u8; shapes.len()];
    for depth in 1..UNREACHED {
        let mut next = Vec::new();
        for &index in &layer {
            decode(index, cells, &mut tops);
            for_each_move(
                geometry,
                shapes,
                &weights,
                index,
                &tops,
                |_, _, _, moved| {
                    let entry = &mut entries[moved as usize];
                    if *entry == UNREACHED {
                        *entry = depth;
                        next.push(moved);
                    }
                },
            );
        }
        if next.is_empty() {
            break;
        }
        layer = next;
    }
    entries
}

/// Every move of a group's pieces from the placement `index` (`tops`, decoded) onto cells no
/// other piece of the group covers: `visit(slot, from, to, index after the move)`.
#[inline]
pub(crate) fn for_each_move(
    geometry: &Geometry,
    shapes: &[Shape],
    weights: &[u32],
    index: u32,
    tops: &[u8],
    mut visit: impl FnMut(usize, u8, u8, u32),
) {
    let covered = shapes.iter().zip(tops).fold(0u64, |all, (&shape, &top)| {
        all | geometry.footprint(shape, top).unwrap_or(0)
    });
    for (slot, (&shape, &top)) in shapes.iter().zip(tops).enumerate() {
        for dir in Dir::ALL {
            let Some(step) = geometry.step(shape, top, dir) else {
                continue;
            };
            if step.enter & covered == 0 {
                visit(
                    slot,
                    top,
                    step.to,
                    shifted(index, weights[slot], top, step.to),
                );
            }
        }
    }
}

/// Each slot's weight in a table index: `cells` to the slot's power.
pub(crate) fn weights(cells: u32, slots: usize) -> Vec<u32> {
    (0..slots as u32).map(|slot| cells.pow(slot)).collect()
}

/// The table index of these top-left cells.
pub(crate) fn index_of(tops: &[u8], weights: &[u32]) -> u32 {
    tops.iter()
        .zip(weights)
        .map(|(&top, &weight)| u32::from(top) * weight)
        .sum()
}

/// `index` with the piece of the slot weighing `weight` moved from `from` to `to`.
#[inline]
pub(crate) fn shifted(index: u32, weight: u32, from: u8, to: u8) -> u32 {
    index - u32::from(from) * weight + u32::from(to) * weight
}

/// The top-left cells of `index`.
pub(crate) fn decode(mut index: u32, cells: u32, tops: &mut [u8]) {
    for top in tops {
        *top = (index % cells) as u8;
        index /= cells;
    }
}
