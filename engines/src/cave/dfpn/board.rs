//! The df-pn search's view of a position: the bricks of the side to move and of the other side,
//! which of them is the attacker, what a node's moves are (forced blocks only, when there is a
//! four to block) and the key a node has under the board's four mirror images.

use parlor_shared::cave::{Position, anchored_cells, beside_in_row};

use crate::cave::lines::five_completions;

/// A node: bricks of the side to move (`mover`) and of the side that just moved (`other`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    pub mover: u64,
    pub other: u64,
    /// Whether the side to move is the one trying to prove a win.
    pub attacker_moves: bool,
}

/// What a node is before searching it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// The side to move has reached its goal: a five now, or, as the defender, a full board.
    MoverSucceeds,
    /// The side to move cannot reach its goal: two open fours to block, or, as the attacker, a
    /// full board.
    MoverFails,
    /// The moves worth searching: every legal cell, or the one block of the other side's four.
    Moves(u64),
}

impl Node {
    /// The node of `position`, with the side to move attacking or defending.
    pub fn of(position: &Position, attacker_moves: bool) -> Node {
        let me = position.to_move();
        Node {
            mover: position.bricks(me),
            other: position.bricks(me.other()),
            attacker_moves,
        }
    }

    /// The node after the side to move places a brick on cell `index`.
    pub fn play(self, index: u8) -> Node {
        Node {
            mover: self.other,
            other: self.mover | 1 << index,
            attacker_moves: !self.attacker_moves,
        }
    }

    /// (attacker's bricks, defender's bricks).
    fn sides(self) -> (u64, u64) {
        if self.attacker_moves {
            (self.mover, self.other)
        } else {
            (self.other, self.mover)
        }
    }

    /// The smallest of the four mirror images of (attacker's bricks, defender's bricks): equal
    /// for exactly the positions that mirror each other. Who moves follows from the counts.
    pub fn key(self) -> (u64, u64) {
        self.key_and_symmetry().0
    }

    /// [`Node::key`] and the symmetry that maps this node onto it.
    pub fn key_and_symmetry(self) -> ((u64, u64), usize) {
        let (a, d) = self.sides();
        (0..4)
            .map(|symmetry| ((mirror(symmetry, a), mirror(symmetry, d)), symmetry))
            .min()
            .expect("four images")
    }

    /// The node's shape, checked in the order the rules decide it, with what its children's
    /// shapes are quickly derived from.
    pub fn facts(self) -> Facts {
        let legal = anchored_cells(self.mover | self.other);
        let other_fives = five_completions(self.other, self.mover);
        Facts {
            shape: classify(self.attacker_moves, legal, || {
                (five_completions(self.mover, self.other), other_fives)
            }),
            legal,
            other_fives,
        }
    }

    /// The shape of the child after a brick on `cell`, from this node's `facts`: the child's
    /// mover (this node's other side) loses only the cell as a completion, and only the cells
    /// beside the brick become legal.
    pub fn child_shape(self, facts: &Facts, cell: u8) -> Shape {
        let bit = 1u64 << cell;
        let occupied = self.mover | self.other | bit;
        let legal = (facts.legal & !bit) | (beside_in_row(bit) & !occupied);
        classify(!self.attacker_moves, legal, || {
            (
                facts.other_fives & !bit,
                five_completions(self.mover | bit, self.other),
            )
        })
    }
}

/// What [`Node::facts`] finds.
pub struct Facts {
    pub shape: Shape,
    /// The legal cells.
    legal: u64,
    /// Empty cells where the side that just moved would complete a five.
    other_fives: u64,
}

/// A node's shape from its legal cells and, asked for only when the board is not full, the
/// cells that complete a five for (the side to move, the other side).
fn classify(attacker_moves: bool, legal: u64, fives: impl FnOnce() -> (u64, u64)) -> Shape {
    if legal == 0 {
        // A full board is a tie: the defender's goal, not the attacker's.
        return if attacker_moves {
            Shape::MoverFails
        } else {
            Shape::MoverSucceeds
        };
    }
    let (mover_fives, other_fives) = fives();
    if mover_fives & legal != 0 {
        return Shape::MoverSucceeds;
    }
    let blocks = other_fives & legal;
    match blocks.count_ones() {
        0 => Shape::Moves(legal),
        1 => Shape::Moves(blocks),
        _ => Shape::MoverFails,
    }
}

/// A position's key under its four mirror images (as [`Node::key`] with the side to move
/// attacking) and the symmetry that maps the position onto it.
pub fn position_key(position: &Position) -> ((u64, u64), usize) {
    Node::of(position, true).key_and_symmetry()
}

/// The image of a bitboard under symmetry `symmetry` (bit 0: left-right, bit 1: top-bottom),
/// the same numbering as the strong engine's `zobrist::transform` for cells.
pub fn mirror(symmetry: usize, bits: u64) -> u64 {
    match symmetry & 3 {
        0 => bits,
        1 => bits.reverse_bits().swap_bytes(),
        2 => bits.swap_bytes(),
        _ => bits.reverse_bits(),
    }
}

#[cfg(test)]
mod tests {
    use parlor_shared::cave::{Square, has_five, squares_of};

    use super::*;
    use crate::cave::strong::transform;

    #[test]
    fn bitboard_mirrors_move_every_cell_like_the_cell_transform() {
        for symmetry in 0..4 {
            for index in 0..64u8 {
                assert_eq!(
                    mirror(symmetry, 1 << index),
                    1 << transform(symmetry, index)
                );
            }
        }
    }

    #[test]
    fn child_shapes_from_the_parents_facts_match_shapes_from_scratch() {
        let mut random = crate::cave::prover::Xorshift::new(9);
        for _ in 0..300 {
            let mut position = Position::new();
            let bricks = random.next_u64() % 60;
            while u64::from(position.brick_count()) < bricks {
                let Some(square) = random.legal_move(&position) else {
                    break;
                };
                position = position.play_unchecked(square);
            }
            let node = Node::of(&position, random.next_u64().is_multiple_of(2));
            let facts = node.facts();
            for square in squares_of(anchored_cells(node.mover | node.other)) {
                let cell = square.index();
                assert_eq!(
                    node.child_shape(&facts, cell),
                    node.play(cell).facts().shape
                );
            }
        }
    }

    #[test]
    fn a_full_board_is_the_defenders_success() {
        // Pairs of cells alternating along each row, shifted a cell per row: no five anywhere.
        let black = Square::all()
            .filter(|s| (s.col() + 2 * s.row()) % 4 < 2)
            .fold(0, |bits, s| bits | s.bit());
        assert!(!has_five(black) && !has_five(!black));
        let full = Node {
            mover: black,
            other: !black,
            attacker_moves: true,
        };
        assert_eq!(full.facts().shape, Shape::MoverFails);
        let defending = Node {
            attacker_moves: false,
            ..full
        };
        assert_eq!(defending.facts().shape, Shape::MoverSucceeds);
    }
}
