//! Cutting detours out of a solution that is not proved shortest.

use std::time::{Duration, Instant};

use super::*;
use crate::klotski::key::KeyLayout;
use crate::klotski::search::{Limits, PieceMove, Space, shorten};

#[test]
fn detours_are_cut_from_a_solution() {
    // 2 steps down and back up before the one move that solves it: the detour must go.
    let start = puzzle("2 3\n1 2 3\n4 0 5\n0\n");
    let layout = KeyLayout::new(6, 5);
    let space = Space::<1>::new(&start, layout);
    let piece = |label: u16| start.piece_index(label).unwrap();
    let detour = [
        PieceMove::new(piece(2), Dir::Down),
        PieceMove::new(piece(2), Dir::Up),
        PieceMove::new(piece(5), Dir::Left),
    ];
    let limits = Limits {
        deadline: Instant::now() + Duration::from_secs(3600),
        max_positions: 1000,
    };
    let shorter = shorten(&space, &detour, &limits);
    assert_eq!(shorter, vec![PieceMove::new(piece(5), Dir::Left)]);
}
