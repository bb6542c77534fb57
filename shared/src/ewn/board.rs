//! The 10x10 board: squares 0..99 row-major (square = 10 * row + col), square 0 top-left.

/// Squares per row and per column.
pub const BOARD_SIZE: u8 = 10;
/// Number of squares on the board.
pub const SQUARES: u8 = BOARD_SIZE * BOARD_SIZE;
/// The square removed from the course's boards; another course's boards remove 33.
pub const DEFAULT_BLOCKED: u8 = 22;

/// The squares a king on `from` reaches: the up to 8 neighbours on the board, except `blocked`.
pub fn neighbours(from: u8, blocked: u8) -> impl Iterator<Item = u8> {
    let (row, col) = (i16::from(from / BOARD_SIZE), i16::from(from % BOARD_SIZE));
    let size = i16::from(BOARD_SIZE);
    (-1..=1)
        .flat_map(move |dr| (-1..=1).map(move |dc| (row + dr, col + dc)))
        .filter(move |&(r, c)| {
            (r, c) != (row, col) && (0..size).contains(&r) && (0..size).contains(&c)
        })
        .map(move |(r, c)| (r * size + c) as u8)
        .filter(move |&square| square != blocked)
}

/// King moves between two squares on an empty board: the larger of the row and column gaps.
#[inline]
pub fn chebyshev(a: u8, b: u8) -> u8 {
    let rows = (a / BOARD_SIZE).abs_diff(b / BOARD_SIZE);
    let cols = (a % BOARD_SIZE).abs_diff(b % BOARD_SIZE);
    rows.max(cols)
}

/// King moves from `square` to square 0 on an empty board.
#[inline]
pub fn chebyshev_to_corner(square: u8) -> u8 {
    chebyshev(square, 0)
}

/// Whether `to` is one king step from `from` (a different square at most one row and one
/// column away).
pub fn is_king_step(from: u8, to: u8) -> bool {
    chebyshev(from, to) == 1
}
