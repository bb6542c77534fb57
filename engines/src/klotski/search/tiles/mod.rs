//! IDA* for classic boards (1x1 tiles, one blank) with pattern databases: the 15- and
//! 24-puzzles' search. Where the general IDA* (`idastar.rs`) finds moves from occupancy masks,
//! checks a transposition table and goes through the heuristic's dispatch, this one moves the
//! blank: at most three moves a position, each costing one or two table reads for the bound (the
//! reflected table is read only for a child the direct one leaves within the bound), no
//! allocation and no table of positions. Paths that repeat a shorter or earlier string of moves
//! are refused by an automaton (`redundant.rs`): at first only a move's reversal, and as the
//! rounds grow, Taylor and Korf's strings of up to 12, then 14 moves. The children are searched
//! in order of their bound, so the last round meets the goal early.
//!
//! On several threads each round is split (`split.rs`): its first layers are laid out as
//! subtrees in the order one thread would visit them, and the threads take them in turn. The
//! answer is the one thread's: the first subtree holding a solution wins, and a thread only
//! gives up a subtree once an earlier one has a solution.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::{CLOCK_EVERY, Flow, Limits, Outcome, PieceMove, SearchStats, deepen};
use crate::klotski::pdb::{Indices, Lookup, MAX_CELLS, PatternDatabases};
use parlor_shared::klotski::{Dir, Puzzle, Shape};

mod redundant;
mod split;

use redundant::{REFUSED, RedundantMoves};

/// The automata the rounds refuse strings with: after a round expanding more positions than
/// the first number, the strings of up to the second number of moves. Each is worth building
/// only when the next rounds are likely to be large: on 24-puzzles the automaton of 12 leaves
/// about 53 % of the positions, built in 0.2 s; that of 14, 47 %, built in 2 s and 200 MB.
/// (Strings of 16 leave 43 %, but take 15 s and 2.3 GB.)
const AUTOMATA: [(u64, usize); 2] = [(2_000_000, 12), (100_000_000, 14)];
/// The least time a search must have left to build an automaton.
const AUTOMATON_SPARE: Duration = Duration::from_secs(10);
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

/// A position inside a round: the board, the blank, the automaton's state after the moves that
/// led here, those moves, and the tables' indices.
#[derive(Clone)]
struct Node {
    /// The piece on each cell, or `BLANK`.
    board: [u8; MAX_CELLS],
    blank: u8,
    state: u32,
    path: Vec<PieceMove>,
    indices: Indices,
}

/// A child within the bound: its f, the cell whose tile moves into the blank, the direction,
/// and its automaton state and indices.
type Child = (u32, u8, Dir, u32, Indices);

/// What a round needs besides the position: the tables, the moves, the budget.
struct Round<'a> {
    lookup: &'a Lookup<'a>,
    moves: &'a Moves,
    redundant: &'a RedundantMoves,
    limits: &'a Limits,
    bound: u32,
}

impl Round<'_> {
    /// The children of `node` (`g` moves from the start) within the bound, in the order they
    /// are searched; the least f beyond the bound lowers `next_bound`.
    #[inline]
    fn children(&self, g: u32, node: &Node, next_bound: &mut u32) -> ([Child; 4], usize) {
        let blank = node.blank;
        let mut children = [(0u32, 0u8, Dir::Left, 0u32, Indices::default()); 4];
        let mut count = 0;
        let moves = self.moves;
        for &(cell, dir) in
            &moves.from[usize::from(blank)][..usize::from(moves.count[usize::from(blank)])]
        {
            let state = self.redundant.after(node.state, dir);
            if state == REFUSED {
                continue;
            }
            let piece = usize::from(node.board[usize::from(cell)]);
            let mut next = self.lookup.moved_direct(&node.indices, piece, cell, blank);
            // A cut on the direct bound alone: it is still a lower bound, and of f's parity, so
            // at least the bound + 2 that some cut of a large round nearly always reaches.
            let direct = g + 1 + self.lookup.direct_value(&next);
            if direct > self.bound {
                *next_bound = (*next_bound).min(direct);
                continue;
            }
            (self.lookup).moved_reflected(&mut next, piece, cell, blank);
            let f = g + 1 + self.lookup.value(&next);
            if f > self.bound {
                *next_bound = (*next_bound).min(f);
                continue;
            }
            children[count] = (f, cell, dir, state, next);
            count += 1;
        }
        children[..count].sort_unstable_by_key(|&(f, ..)| f);
        (children, count)
    }
}

/// Moves the blank of `node` to `cell` (its tile slides `dir`), the automaton's state becoming
/// `state` and the indices `next`.
#[inline]
fn play(node: &mut Node, cell: u8, dir: Dir, state: u32, next: Indices) {
    let piece = node.board[usize::from(cell)];
    node.board[usize::from(node.blank)] = piece;
    node.board[usize::from(cell)] = BLANK;
    node.state = state;
    node.blank = cell;
    node.path.push(PieceMove::new(usize::from(piece), dir));
    node.indices = next;
}

/// Takes back [`play`]: the blank goes back to `blank`, the automaton to `state`.
#[inline]
fn unplay(node: &mut Node, blank: u8, state: u32, indices: Indices) {
    let cell = node.blank;
    node.board[usize::from(cell)] = node.board[usize::from(blank)];
    node.board[usize::from(blank)] = BLANK;
    node.blank = blank;
    node.state = state;
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
        let (blank, state, indices) = (self.node.blank, self.node.state, self.node.indices);
        for &(_, cell, dir, next_state, next) in &children[..count] {
            play(&mut self.node, cell, dir, next_state, next);
            match self.search(g + 1) {
                Flow::Continue => {}
                stop => return stop,
            }
            unplay(&mut self.node, blank, state, indices);
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
    tiles_idastar_with(puzzle, databases, limits, threads, stats, &AUTOMATA)
}

/// [`tiles_idastar`] with the automata `automata` (in the form of [`AUTOMATA`]).
pub(crate) fn tiles_idastar_with(
    puzzle: &Puzzle,
    databases: &PatternDatabases,
    limits: &Limits,
    threads: usize,
    stats: &mut SearchStats,
    automata: &[(u64, usize)],
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
        state: redundant::START,
        // Longer than most optimal 24-puzzle solutions: seldom any growing in the search.
        path: Vec::with_capacity(160),
        indices: lookup.indices(tops),
    };
    let moves = Moves::new(puzzle);
    let size = (puzzle.rows(), puzzle.cols());
    let mut redundant = RedundantMoves::new(2, size.0, size.1);
    // The longest strings of the automaton in use, and of the one the next round uses.
    let (mut refusing, mut wanted) = (2, 2);
    let mut expanded = 0;
    let mut path = Vec::new();
    let outcome = deepen(lookup.value(&start.indices), stats, |bound| {
        // Building one takes up to 2 s, which a search about to end should not spend.
        if wanted != refusing && limits.deadline > Instant::now() + AUTOMATON_SPARE {
            redundant = RedundantMoves::new(wanted, size.0, size.1);
            refusing = wanted;
        }
        let round = Round {
            lookup: &lookup,
            moves: &moves,
            redundant: &redundant,
            limits,
            bound,
        };
        let ended = match threads {
            0 | 1 => walk(&round, start.clone(), None),
            threads => split::round(&round, &start, threads),
        };
        expanded += ended.expanded;
        for &(after, longest) in automata {
            if ended.expanded > after {
                wanted = wanted.max(longest);
            }
        }
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
