//! A byte cap on a solve's memory, given to the searches as stored positions.

use super::*;

#[test]
fn a_byte_cap_holds_fewer_positions_of_boards_with_wider_positions() {
    let fifteen = generate(&GenerateOptions::default()).unwrap();
    let many_pieces = GenerateOptions {
        rows: 8,
        cols: 8,
        blanks: 4,
        ..GenerateOptions::default()
    };
    let eight_by_eight = generate(&many_pieces).unwrap();
    let cap = 512 << 20;
    let narrow = positions_within(&fifteen, cap);
    let wide = positions_within(&eight_by_eight, cap);
    // One word a position against eight: the 8x8 board's nodes and index entries are far
    // bigger, and the cap must count them so.
    assert!(
        narrow > 3 * wide,
        "{narrow} positions of 4x4, {wide} of 8x8"
    );
    // The figure ARCHITECTURE.md and the server's solver seat give.
    assert!((1_200_000..1_300_000).contains(&wide), "{wide}");
    assert_eq!(positions_within(&eight_by_eight, cap / 2), wide / 2);
}
