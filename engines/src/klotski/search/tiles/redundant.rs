//! Taylor and Korf's pruning of duplicate paths ("Pruning duplicate nodes in depth-first
//! search", 1993): an automaton over the slides' directions that refuses every path ending in a
//! string of moves some other string does as well, where the other string is shorter, or as
//! long and earlier in a fixed order. IDA* keeps no table of positions, so without it every
//! position is met once per path to it; the reversal of the last move (the only pruning before)
//! is the shortest such string.
//!
//! The strings are found for each board size, by a breadth-first walk of the blank over the
//! strings that fit the board: a string that leaves the tiles as an earlier string does is
//! refused. A string's effect does not depend on where it is played, but whether the other
//! string can be played does; so a string is refused only for an other string that stays
//! within the rectangle the refused one covers, which is on the board wherever the refused one
//! is.
//!
//! Why no shortest solution is lost: of the shortest solutions, take the one earliest in the
//! order. Were a refused string part of it, the other string in its place would give a solution
//! as short and earlier, or shorter. So that solution is never refused; and as every position
//! on it lies within the bound of the last round, the round finds a solution. For the same
//! reason a round that ends without one proves no solution within its bound, and the least f
//! it cut off is still a lower bound.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet, VecDeque};

use foldhash::fast::FixedState;

use parlor_shared::klotski::Dir;

/// A transition into a refused string.
pub(super) const REFUSED: u32 = u32::MAX;

/// The automaton: its state after the path so far, and each state's next state for each
/// direction (`Dir::index`), or [`REFUSED`].
pub(super) struct RedundantMoves {
    next: Vec<[u32; 4]>,
}

/// The state before the first move.
pub(super) const START: u32 = 0;

impl RedundantMoves {
    /// The automaton refusing strings of up to `longest` moves (at least 2: a move and its
    /// reversal) on boards of `rows` x `cols`.
    pub(super) fn new(longest: usize, rows: u8, cols: u8) -> RedundantMoves {
        RedundantMoves {
            next: automaton(&refused_strings(longest.max(2), (rows, cols))),
        }
    }

    /// The state after sliding a tile towards `dir` in `state`, or [`REFUSED`].
    #[inline]
    pub(super) fn after(&self, state: u32, dir: Dir) -> u32 {
        self.next[state as usize][dir.index()]
    }
}

/// A string of moves: its directions (`Dir::index`), two bits each, the first move highest, so
/// that strings of one length compare as their codes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Code {
    len: u8,
    bits: u64,
}

impl Code {
    fn then(self, dir: usize) -> Code {
        Code {
            len: self.len + 1,
            bits: self.bits << 2 | dir as u64,
        }
    }

    fn suffix(self, len: u8) -> Code {
        Code {
            len,
            bits: self.bits & ((1u64 << (2 * len)) - 1),
        }
    }

    fn dirs(self) -> impl Iterator<Item = usize> {
        (0..self.len)
            .rev()
            .map(move |at| (self.bits >> (2 * at) & 3) as usize)
    }
}

/// The rectangle a string's blank covers: least and greatest row and column.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Rectangle {
    rows: (i8, i8),
    cols: (i8, i8),
}

impl Rectangle {
    fn fits(self, (rows, cols): (u8, u8)) -> bool {
        self.rows.1 - self.rows.0 < rows as i8 && self.cols.1 - self.cols.0 < cols as i8
    }

    fn within(self, other: Rectangle) -> bool {
        other.rows.0 <= self.rows.0
            && self.rows.1 <= other.rows.1
            && other.cols.0 <= self.cols.0
            && self.cols.1 <= other.cols.1
    }
}

/// The blank's step when a tile slides towards `dir`: it goes the other way.
fn blank_step(dir: usize) -> (i8, i8) {
    match Dir::ALL[dir] {
        Dir::Left => (0, 1),
        Dir::Right => (0, -1),
        Dir::Up => (1, 0),
        Dir::Down => (-1, 0),
    }
}

/// What a string does: the cells whose tiles moved, as bits, and where each moved tile and the
/// blank came from, seven bits each. Exact for strings of up to 17 moves.
type Effect = [u128; 2];

/// Longest strings an [`Effect`] holds.
const LONGEST: usize = 17;

/// A board for playing strings that fit a board of `size`, from its middle: tiles numbered by
/// their cells, the blank's cell numbered 0 rows and columns away.
struct Sandbox {
    size: (i8, i8),
    tiles: [u8; 128],
    touched: Vec<u8>,
}

impl Sandbox {
    fn new((rows, cols): (u8, u8)) -> Sandbox {
        // Offsets of up to a board's size less one each way: at most 9 x 9 cells on 25.
        assert!((2 * usize::from(rows) - 1) * (2 * usize::from(cols) - 1) <= 128);
        Sandbox {
            size: (rows as i8, cols as i8),
            tiles: std::array::from_fn(|cell| cell as u8),
            touched: Vec::with_capacity(LONGEST + 1),
        }
    }

    fn cell(&self, (row, col): (i8, i8)) -> u8 {
        let (rows, cols) = self.size;
        ((row + rows - 1) * (2 * cols - 1) + col + cols - 1) as u8
    }

    /// What `code` does, and the rectangle its blank covers; `None` if that rectangle does not
    /// fit the board.
    fn effect(&mut self, code: Code) -> Option<(Effect, Rectangle)> {
        let mut blank = (0i8, 0i8);
        let mut rectangle = Rectangle {
            rows: (0, 0),
            cols: (0, 0),
        };
        self.touched.clear();
        self.touched.push(self.cell(blank));
        let mut fits = true;
        for dir in code.dirs() {
            let (dr, dc) = blank_step(dir);
            let next = (blank.0 + dr, blank.1 + dc);
            rectangle.rows = (rectangle.rows.0.min(next.0), rectangle.rows.1.max(next.0));
            rectangle.cols = (rectangle.cols.0.min(next.1), rectangle.cols.1.max(next.1));
            fits = rectangle.fits((self.size.0 as u8, self.size.1 as u8));
            if !fits {
                break;
            }
            let (from, to) = (self.cell(blank), self.cell(next));
            self.tiles.swap(usize::from(from), usize::from(to));
            self.touched.push(to);
            blank = next;
        }
        self.touched.sort_unstable();
        self.touched.dedup();
        let blank = self.cell(blank);
        let mut effect = [0, u128::from(blank)];
        let mut shift = 7;
        for &cell in &self.touched {
            let tile = self.tiles[usize::from(cell)];
            if cell != blank && tile != cell {
                effect[0] |= 1 << cell;
                effect[1] |= u128::from(tile) << shift;
                shift += 7;
            }
            self.tiles[usize::from(cell)] = cell;
        }
        fits.then_some((effect, rectangle))
    }
}

/// The refused strings of up to `longest` moves fitting a board of `size`, shortest first.
/// Each is refused for an earlier string with its effect; none holds a shorter refused one.
fn refused_strings(longest: usize, size: (u8, u8)) -> Vec<Code> {
    assert!(
        longest <= LONGEST,
        "an effect holds strings of up to {LONGEST} moves"
    );
    let mut sandbox = Sandbox::new(size);
    let empty = Code { len: 0, bits: 0 };
    // Each effect met, with the rectangles of (up to two of) the strings that had it: a third
    // is not kept, which only leaves a string unrefused.
    let mut seen: HashMap<Effect, (Rectangle, Option<Rectangle>), FixedState> = HashMap::default();
    if let Some((effect, rectangle)) = sandbox.effect(empty) {
        seen.insert(effect, (rectangle, None));
    }
    let mut refused = Vec::new();
    let mut refused_set: HashSet<Code, FixedState> = HashSet::default();
    let mut layer = vec![empty];
    for _ in 0..longest {
        let mut next_layer = Vec::with_capacity(layer.len() * 3);
        for &code in &layer {
            for dir in 0..4 {
                let string = code.then(dir);
                if (2..string.len).any(|len| refused_set.contains(&string.suffix(len))) {
                    continue;
                }
                let Some((effect, rectangle)) = sandbox.effect(string) else {
                    continue;
                };
                match seen.entry(effect) {
                    Entry::Vacant(vacant) => {
                        vacant.insert((rectangle, None));
                    }
                    Entry::Occupied(mut known) => {
                        let (first, second) = known.get_mut();
                        if first.within(rectangle) || second.is_some_and(|it| it.within(rectangle))
                        {
                            refused.push(string);
                            refused_set.insert(string);
                            continue;
                        }
                        second.get_or_insert(rectangle);
                    }
                }
                next_layer.push(string);
            }
        }
        layer = next_layer;
    }
    refused
}

/// The Aho-Corasick automaton of `refused`, as a full transition table with transitions into a
/// refused string (one ending in any of them) marked [`REFUSED`].
fn automaton(refused: &[Code]) -> Vec<[u32; 4]> {
    const NONE: u32 = u32::MAX;
    let mut trie: Vec<[u32; 4]> = vec![[NONE; 4]];
    let mut ends = vec![false];
    for code in refused {
        let mut state = 0;
        for dir in code.dirs() {
            if trie[state][dir] == NONE {
                trie[state][dir] = trie.len() as u32;
                trie.push([NONE; 4]);
                ends.push(false);
            }
            state = trie[state][dir] as usize;
        }
        ends[state] = true;
    }
    // Breadth first: each state's longest proper suffix in the trie, and the full transitions.
    let mut goto = trie.clone();
    let mut suffix = vec![0u32; trie.len()];
    let mut queue = VecDeque::new();
    for dir in 0..4 {
        match trie[0][dir] {
            NONE => goto[0][dir] = 0,
            child => queue.push_back(child),
        }
    }
    while let Some(state) = queue.pop_front() {
        let state = state as usize;
        ends[state] |= ends[suffix[state] as usize];
        for dir in 0..4 {
            match trie[state][dir] {
                NONE => goto[state][dir] = goto[suffix[state] as usize][dir],
                child => {
                    suffix[child as usize] = if state == 0 {
                        0
                    } else {
                        goto[suffix[state] as usize][dir]
                    };
                    queue.push_back(child);
                }
            }
        }
    }
    for row in &mut goto {
        for next in row.iter_mut() {
            if ends[*next as usize] {
                *next = REFUSED;
            }
        }
    }
    goto
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, VecDeque};

    use super::*;

    /// A `rows` x `cols` board of tiles with one blank (0), for walking the blank.
    struct Board {
        rows: i8,
        cols: i8,
        tiles: Vec<u8>,
        blank: (i8, i8),
    }

    impl Board {
        /// The tiles in order, the blank on `blank`.
        fn new(rows: i8, cols: i8, blank: (i8, i8)) -> Board {
            let mut tiles: Vec<u8> = (1..=(rows * cols) as u8).collect();
            tiles[(blank.0 * cols + blank.1) as usize] = 0;
            Board {
                rows,
                cols,
                tiles,
                blank,
            }
        }

        /// Slides the tile that moves towards `dir` into the blank, if there is one.
        fn slide(&mut self, dir: usize) -> bool {
            let (dr, dc) = blank_step(dir);
            let next = (self.blank.0 + dr, self.blank.1 + dc);
            if !(0..self.rows).contains(&next.0) || !(0..self.cols).contains(&next.1) {
                return false;
            }
            let at = |(row, col): (i8, i8)| (row * self.cols + col) as usize;
            self.tiles.swap(at(self.blank), at(next));
            self.blank = next;
            true
        }

        /// Every board within `depth` moves, with its distance.
        fn distances(mut self, depth: usize) -> HashMap<Vec<u8>, usize> {
            let mut distance = HashMap::from([(self.tiles.clone(), 0)]);
            let mut queue = VecDeque::from([(self.tiles.clone(), self.blank, 0)]);
            while let Some((tiles, blank, moves)) = queue.pop_front() {
                for dir in (0..4).filter(|_| moves < depth) {
                    (self.tiles, self.blank) = (tiles.clone(), blank);
                    if self.slide(dir) && !distance.contains_key(&self.tiles) {
                        distance.insert(self.tiles.clone(), moves + 1);
                        queue.push_back((self.tiles.clone(), self.blank, moves + 1));
                    }
                }
            }
            distance
        }

        /// The boards met by the paths `redundant` lets through of up to `depth` moves, each
        /// with its fewest moves there; and how many paths have exactly `depth` moves.
        fn walked(
            mut self,
            depth: usize,
            redundant: &RedundantMoves,
        ) -> (HashMap<Vec<u8>, usize>, u64) {
            let mut fewest = HashMap::new();
            let mut longest = 0;
            self.walk(START, 0, depth, redundant, &mut fewest, &mut longest);
            (fewest, longest)
        }

        fn walk(
            &mut self,
            state: u32,
            moves: usize,
            depth: usize,
            redundant: &RedundantMoves,
            fewest: &mut HashMap<Vec<u8>, usize>,
            longest: &mut u64,
        ) {
            let known = fewest.entry(self.tiles.clone()).or_insert(moves);
            *known = (*known).min(moves);
            if moves == depth {
                *longest += 1;
                return;
            }
            for dir in 0..4 {
                let next = redundant.after(state, Dir::ALL[dir]);
                let blank = self.blank;
                if next != REFUSED && self.slide(dir) {
                    self.walk(next, moves + 1, depth, redundant, fewest, longest);
                    self.slide(dir ^ 1);
                    assert_eq!(self.blank, blank);
                }
            }
        }
    }

    #[test]
    fn the_shallow_automaton_refuses_reversals_only() {
        let reversals = RedundantMoves::new(2, 5, 5);
        assert_eq!(refused_strings(2, (5, 5)).len(), 4);
        for dir in Dir::ALL {
            let state = reversals.after(START, dir);
            assert_ne!(state, REFUSED);
            assert_eq!(reversals.after(state, dir.opposite()), REFUSED);
            for other in Dir::ALL
                .into_iter()
                .filter(|&other| other != dir.opposite())
            {
                assert_ne!(reversals.after(state, other), REFUSED, "{dir:?} {other:?}");
            }
        }
    }

    /// The paths `redundant` lets through from `blank` meet every board the full walk of up to
    /// `depth` moves meets, each as soon.
    fn loses_nothing(
        rows: i8,
        cols: i8,
        blank: (i8, i8),
        depth: usize,
        redundant: &RedundantMoves,
    ) {
        let distance = Board::new(rows, cols, blank).distances(depth);
        let (fewest, _) = Board::new(rows, cols, blank).walked(depth, redundant);
        assert_eq!(
            fewest, distance,
            "{rows}x{cols} from {blank:?}, {depth} moves"
        );
    }

    /// From every cell of boards from 2x2 to 5x5 (where the board's edges cut strings off), on
    /// walks longer than the strings refused.
    #[test]
    fn the_automata_lose_no_board_and_no_shortest_path_to_it() {
        for (rows, cols) in [
            (2, 2),
            (2, 3),
            (2, 4),
            (3, 3),
            (3, 5),
            (4, 4),
            (4, 5),
            (5, 5),
        ] {
            let redundant = RedundantMoves::new(10, rows as u8, cols as u8);
            for blank in (0..rows).flat_map(|row| (0..cols).map(move |col| (row, col))) {
                loses_nothing(rows, cols, blank, 12, &redundant);
            }
        }
        for (rows, cols) in [(3, 4), (4, 4), (5, 5)] {
            let redundant = RedundantMoves::new(14, rows as u8, cols as u8);
            for blank in [(0, 0), (0, 1), (1, 1), (rows / 2, cols / 2)] {
                loses_nothing(rows, cols, blank, 15, &redundant);
            }
        }
    }

    /// The automata are worth their states: on the 24-puzzle's board, of the paths of 14 moves
    /// that refusing reversals leaves, the one of 12 leaves 74 %, the one of 14 72 %. (In a
    /// search, whose paths are much longer, they leave about 53 % and 47 % of the positions.)
    #[test]
    fn the_automata_leave_a_fraction_of_the_paths() {
        let paths = |longest| {
            Board::new(5, 5, (2, 2))
                .walked(14, &RedundantMoves::new(longest, 5, 5))
                .1
        };
        let (reversals, twelve, fourteen) = (paths(2), paths(12), paths(14));
        assert!(twelve * 100 < reversals * 75, "{twelve} of {reversals}");
        assert!(fourteen * 100 < reversals * 73, "{fourteen} of {reversals}");
    }
}
