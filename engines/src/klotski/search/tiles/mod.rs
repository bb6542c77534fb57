//! IDA* for classic boards (1x1 tiles, one blank) with pattern databases: the 15- and
//! 24-puzzles' search. Where the general IDA* (`idastar.rs`) finds moves from occupancy masks,
//! checks a transposition table and goes through the heuristic's dispatch, this one moves the
//! blank: at most three moves a position (never straight back), each costing two table reads
//! for the bound, no allocation and no table (one blank leaves few transpositions worth a
//! cache miss). The children are searched in order of their bound, so the last round meets the
//! goal early.
//!
//! On several threads each round is split (`split.rs`): its first layers are laid out as
//! subtrees in the order one thread would visit them, and the threads take them in turn. The
//! answer is the one thread's: the first subtree holding a solution wins, and a thread only
//! gives up a subtree once an earlier one has a solution.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::{CLOCK_EVERY, Flow, Limits, Outcome, PieceMove, SearchStats, deepen};
use crate::klotski::pdb::{Indices, Lookup, MAX_CELLS, PatternDatabases};
use parlor_shared::klotski::{Dir, Puzzle, Shape};

mod split;

/// The blank's cell once no move was made yet: no neighbour of any cell.
const NO_CELL: u8 = u8::MAX;
/// Marks the blank in `Walker::board`.
const BLANK: u8 = u8::MAX;

/// The blank's moves from each cell: the neighbour whose tile slides in, and that slide's
/// direction.
struct Moves {
    from: [[(u8, Dir); 4]; MAX_CELLS],
    count: [u8; MAX_CELLS],
}

impl Moves {
    fn new(puzzle: &Puzzle) -> Moves {
        let geometry = puzzle.geometry();
        let mut moves = Moves {
            from: [[(0, Dir::Left); 4]; MAX_CELLS],
            count: [0; MAX_CELLS],
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

/// A position inside a round: the board, the blank, where the blank came from, the moves that
/// led here, and the tables' indices.
#[derive(Clone)]
struct Node {
    /// The piece on each cell, or `BLANK`.
    board: [u8; MAX_CELLS],
    blank: u8,
    came_from: u8,
    path: Vec<PieceMove>,
    indices: Indices,
}

/// A child within the bound: its f, the cell whose tile moves into the blank, the direction,
/// and its indices.
type Child = (u32, u8, Dir, Indices);

/// What a round needs besides the position: the tables, the moves, the budget.
struct Round<'a> {
    lookup: &'a Lookup<'a>,
    moves: &'a Moves,
    limits: &'a Limits,
    bound: u32,
}

impl Round<'_> {
    /// The children of `node` (`g` moves from the start) within the bound, in the order they
    /// are searched; the least f beyond the bound lowers `next_bound`.
    #[inline]
    fn children(&self, g: u32, node: &Node, next_bound: &mut u32) -> ([Child; 4], usize) {
        let blank = node.blank;
        let mut children = [(0u32, 0u8, Dir::Left, Indices::default()); 4];
        let mut count = 0;
        let moves = self.moves;
        for &(cell, dir) in
            &moves.from[usize::from(blank)][..usize::from(moves.count[usize::from(blank)])]
        {
            if cell == node.came_from {
                continue;
            }
            let piece = usize::from(node.board[usize::from(cell)]);
            let next = self.lookup.moved(&node.indices, piece, cell, blank);
            let f = g + 1 + self.lookup.value(&next);
            if f > self.bound {
                *next_bound = (*next_bound).min(f);
                continue;
            }
            children[count] = (f, cell, dir, next);
            count += 1;
        }
        children[..count].sort_unstable_by_key(|&(f, ..)| f);
        (children, count)
    }
}

/// Moves the blank of `node` to `cell` (its tile slides `dir`), the indices becoming `next`.
#[inline]
fn play(node: &mut Node, cell: u8, dir: Dir, next: Indices) {
    let piece = node.board[usize::from(cell)];
    node.board[usize::from(node.blank)] = piece;
    node.board[usize::from(cell)] = BLANK;
    node.came_from = node.blank;
    node.blank = cell;
    node.path.push(PieceMove::new(usize::from(piece), dir));
    node.indices = next;
}

/// Takes back [`play`]: the blank goes back to `blank`, having come from `came_from`.
#[inline]
fn unplay(node: &mut Node, blank: u8, came_from: u8, indices: Indices) {
    let cell = node.blank;
    node.board[usize::from(cell)] = node.board[usize::from(blank)];
    node.board[usize::from(blank)] = BLANK;
    node.blank = blank;
    node.came_from = came_from;
    node.path.pop();
    node.indices = indices;
}

/// One thread's depth-first search within a round's bound.
struct Walker<'a> {
    round: &'a Round<'a>,
    node: Node,
    next_bound: u32,
    expanded: u64,
    /// Stops the walk early when another thread has found a solution in a subtree searched
    /// before this one: (the subtrees' first solution, this subtree's place).
    superseded: Option<(&'a AtomicUsize, usize)>,
}

impl Walker<'_> {
    /// Searches below the walker's node, `g` moves from the start.
    fn search(&mut self, g: u32) -> Flow {
        if self.node.indices.at_goal() {
            return Flow::Found;
        }
        self.expanded += 1;
        if self.expanded.is_multiple_of(CLOCK_EVERY) && self.must_stop() {
            return Flow::Stopped;
        }
        let (children, count) = self.round.children(g, &self.node, &mut self.next_bound);
        let (blank, came_from, indices) = (self.node.blank, self.node.came_from, self.node.indices);
        for &(_, cell, dir, next) in &children[..count] {
            play(&mut self.node, cell, dir, next);
            match self.search(g + 1) {
                Flow::Continue => {}
                stop => return stop,
            }
            unplay(&mut self.node, blank, came_from, indices);
        }
        Flow::Continue
    }

    fn must_stop(&self) -> bool {
        let superseded = (self.superseded)
            .is_some_and(|(first_found, place)| first_found.load(Ordering::Relaxed) < place);
        superseded || self.round.limits.expired()
    }
}

/// IDA* over `puzzle` (a board the databases apply to) bounded by `databases`, each round on
/// `threads` threads.
pub(crate) fn tiles_idastar(
    puzzle: &Puzzle,
    databases: &PatternDatabases,
    limits: &Limits,
    threads: usize,
    stats: &mut SearchStats,
) -> Outcome {
    let tops = puzzle.start().tops();
    let mut board = [BLANK; MAX_CELLS];
    for (piece, &top) in tops.iter().enumerate() {
        board[usize::from(top)] = piece as u8;
    }
    let lookup = databases.lookup();
    let blank = (0..puzzle.geometry().cells() as u8)
        .find(|&cell| board[usize::from(cell)] == BLANK)
        .unwrap_or(0);
    let start = Node {
        board,
        blank,
        came_from: NO_CELL,
        // Longer than most optimal 24-puzzle solutions: seldom any growing in the search.
        path: Vec::with_capacity(160),
        indices: lookup.indices(tops),
    };
    let moves = Moves::new(puzzle);
    let mut expanded = 0;
    let mut path = Vec::new();
    let outcome = deepen(lookup.value(&start.indices), stats, |bound| {
        let round = Round {
            lookup: &lookup,
            moves: &moves,
            limits,
            bound,
        };
        let ended = match threads {
            0 | 1 => walk(&round, start.clone(), None),
            threads => split::round(&round, &start, threads),
        };
        expanded += ended.expanded;
        if let Some(found) = ended.path {
            path = found;
        }
        (ended.flow, ended.next_bound, expanded)
    });
    outcome.with_path(path)
}

/// How a round (or a part of it) ended.
struct Ended {
    flow: Flow,
    next_bound: u32,
    expanded: u64,
    /// The solution, when found.
    path: Option<Vec<PieceMove>>,
}

/// Searches below `node` within the round's bound on this thread.
fn walk(round: &Round, node: Node, superseded: Option<(&AtomicUsize, usize)>) -> Ended {
    let g = node.path.len() as u32;
    let mut walker = Walker {
        round,
        node,
        next_bound: u32::MAX,
        expanded: 0,
        superseded,
    };
    let flow = walker.search(g);
    let path = matches!(flow, Flow::Found).then(|| std::mem::take(&mut walker.node.path));
    Ended {
        flow,
        next_bound: walker.next_bound,
        expanded: walker.expanded,
        path,
    }
}
