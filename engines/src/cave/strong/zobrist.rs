//! Zobrist hashing under the cave's symmetries. Mirroring left-right (the walls swap) and
//! top-bottom (rows are independent) both map legal play to legal play, so the four images of a
//! position share one table entry: the key is the smallest of the four hashes, and moves are
//! stored in the frame of the image that gave it.

use parlor_shared::cave::{Player, Position, Square, squares_of};

/// The four symmetries: identity, left-right, top-bottom, both. Each is its own inverse.
pub const SYMMETRIES: usize = 4;

/// The image of cell index `index` under symmetry `symmetry`.
pub const fn transform(symmetry: usize, index: u8) -> u8 {
    let (col, row) = (index % 8, index / 8);
    let col = if symmetry & 1 != 0 { 7 - col } else { col };
    let row = if symmetry & 2 != 0 { 7 - row } else { row };
    row * 8 + col
}

/// splitmix64: fixed keys, so hashes (and searches) are the same on every run.
pub(super) const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const KEYS: [[u64; 64]; 2] = {
    let mut keys = [[0; 64]; 2];
    let mut i = 0;
    while i < 128 {
        keys[i / 64][i % 64] = splitmix(i as u64 + 1);
        i += 1;
    }
    keys
};

/// The hashes of a position's four images, updated as bricks are placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hashes([u64; SYMMETRIES]);

impl Hashes {
    pub fn of(position: &Position) -> Hashes {
        let mut hashes = Hashes([0; SYMMETRIES]);
        for player in [Player::Black, Player::White] {
            for square in squares_of(position.bricks(player)) {
                hashes = hashes.with(player, square);
            }
        }
        hashes
    }

    /// The hashes after `player` places a brick on `square`.
    pub fn with(self, player: Player, square: Square) -> Hashes {
        let keys = &KEYS[player.seat() as usize];
        let mut next = self.0;
        for (symmetry, hash) in next.iter_mut().enumerate() {
            *hash ^= keys[transform(symmetry, square.index()) as usize];
        }
        Hashes(next)
    }

    /// The table key and the symmetry that maps this position onto the stored frame.
    pub fn canonical(self) -> (u64, usize) {
        (0..SYMMETRIES)
            .map(|s| (self.0[s], s))
            .min()
            .expect("four images")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cave::prover::test_position as play;

    #[test]
    fn mirror_images_share_a_key_and_different_positions_do_not() {
        let original = Hashes::of(&play("a1 h1 b1 a2"));
        let left_right = Hashes::of(&play("h1 a1 g1 h2"));
        let top_bottom = Hashes::of(&play("a8 h8 b8 a7"));
        assert_eq!(original.canonical().0, left_right.canonical().0);
        assert_eq!(original.canonical().0, top_bottom.canonical().0);
        assert_ne!(
            original.canonical().0,
            Hashes::of(&play("a1 h1 b1 a3")).canonical().0
        );
    }

    #[test]
    fn incremental_hashes_match_hashing_from_scratch() {
        let position = play("a1 h1 b1");
        let next = position.play("g1".parse().unwrap()).unwrap();
        let incremental = Hashes::of(&position).with(Player::White, "g1".parse().unwrap());
        assert_eq!(incremental, Hashes::of(&next));
    }

    #[test]
    fn transforms_are_involutions() {
        for symmetry in 0..SYMMETRIES {
            for index in 0..64 {
                assert_eq!(transform(symmetry, transform(symmetry, index)), index);
            }
        }
    }
}
