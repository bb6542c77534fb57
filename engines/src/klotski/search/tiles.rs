//! IDA* for classic boards (1x1 tiles, one blank) with pattern databases: the 15-puzzle's
//! search. Where the general IDA* (`idastar.rs`) finds moves from occupancy masks, checks a
//! transposition table and goes through the heuristic's dispatch, this one moves the blank:
//! at most three moves a position (never straight back), each costing two table reads for the
//! bound, no allocation and no table (one blank leaves few transpositions worth a cache miss).
//! The children are searched in order of their bound, so the last round meets the goal early.

use super::{CLOCK_EVERY, Flow, Limits, Outcome, PieceMove, SearchStats, deepen};
use crate::klotski::pdb::{Indices, Lookup, PatternDatabases};
use parlor_shared::klotski::{Dir, Puzzle, Shape};

/// The blank's cell once no move was made yet: no neighbour of any cell.
const NO_CELL: u8 = u8::MAX;
/// Marks the blank in `Walker::board`.
const BLANK: u8 = u8::MAX;
/// Most cells of a board searched here.
const CELLS: usize = 16;

/// The blank's moves from each cell: the neighbour whose tile slides in, and that slide's
/// direction.
struct Moves {
    from: [[(u8, Dir); 4]; CELLS],
    count: [u8; CELLS],
}

impl Moves {
    fn new(puzzle: &Puzzle) -> Moves {
        let geometry = puzzle.geometry();
        let mut moves = Moves {
            from: [[(0, Dir::Left); 4]; CELLS],
            count: [0; CELLS],
        };
        for blank in 0..geometry.cells() {
            for dir in Dir::ALL {
                // The tile that moves towards `dir` into the blank stands on the far side.
                if let Some(beyond) = geometry.step(Shape::Single, blank as u8, dir.opposite()) {
                    let count = &mut moves.count[blank];
                    moves.from[blank][usize::from(*count)] = (beyond.to, dir);
                    *count += 1;
                }
            }
        }
        moves
    }
}

struct Walker<'a> {
    lookup: Lookup<'a>,
    moves: Moves,
    limits: &'a Limits,
    /// The piece on each cell, or `BLANK`.
    board: [u8; CELLS],
    blank: u8,
    path: Vec<PieceMove>,
    bound: u32,
    next_bound: u32,
    expanded: u64,
}

impl Walker<'_> {
    /// Searches below the position (its indices `here`, `g` moves from the start), the blank
    /// having come from `came_from`.
    fn search(&mut self, g: u32, here: &Indices, came_from: u8) -> Flow {
        if here.at_goal() {
            return Flow::Found;
        }
        self.expanded += 1;
        if self.expanded.is_multiple_of(CLOCK_EVERY) && self.limits.expired() {
            return Flow::Stopped;
        }
        let blank = self.blank;
        // (bound, cell, direction, indices) of the children within the bound.
        let mut children = [(0u32, 0u8, Dir::Left, Indices::default()); 4];
        let mut count = 0;
        let moves = &self.moves;
        for &(cell, dir) in
            &moves.from[usize::from(blank)][..usize::from(moves.count[usize::from(blank)])]
        {
            if cell == came_from {
                continue;
            }
            let piece = usize::from(self.board[usize::from(cell)]);
            let next = self.lookup.moved(here, piece, cell, blank);
            let f = g + 1 + self.lookup.value(&next);
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            children[count] = (f, cell, dir, next);
            count += 1;
        }
        let children = &mut children[..count];
        children.sort_unstable_by_key(|&(f, ..)| f);
        for &(_, cell, dir, next) in children.iter() {
            let piece = self.board[usize::from(cell)];
            self.board[usize::from(blank)] = piece;
            self.board[usize::from(cell)] = BLANK;
            self.blank = cell;
            self.path.push(PieceMove::new(usize::from(piece), dir));
            match self.search(g + 1, &next, blank) {
                Flow::Continue => {}
                stop => return stop,
            }
            self.path.pop();
            self.blank = blank;
            self.board[usize::from(cell)] = piece;
            self.board[usize::from(blank)] = BLANK;
        }
        Flow::Continue
    }
}

/// IDA* over `puzzle` (a board the databases apply to) bounded by `databases`.
pub(crate) fn tiles_idastar(
    puzzle: &Puzzle,
    databases: &PatternDatabases,
    limits: &Limits,
    stats: &mut SearchStats,
) -> Outcome {
    let tops = puzzle.start().tops();
    let mut board = [BLANK; CELLS];
    for (piece, &top) in tops.iter().enumerate() {
        board[usize::from(top)] = piece as u8;
    }
    let lookup = databases.lookup();
    let start = lookup.indices(tops);
    let blank = (0..puzzle.geometry().cells() as u8)
        .find(|&cell| board[usize::from(cell)] == BLANK)
        .unwrap_or(0);
    let mut walker = Walker {
        bound: lookup.value(&start),
        lookup,
        moves: Moves::new(puzzle),
        limits,
        board,
        blank,
        // Longer than any optimal 15-puzzle solution (80 moves): no growing in the search.
        path: Vec::with_capacity(128),
        next_bound: u32::MAX,
        expanded: 0,
    };
    deepen(walker.bound, stats, |bound| {
        walker.bound = bound;
        walker.next_bound = u32::MAX;
        let flow = walker.search(0, &start, NO_CELL);
        (flow, walker.next_bound, walker.expanded)
    })
    .with_path(walker.path)
}
