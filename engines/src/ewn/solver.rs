//! The fewest-move solver: iterative deepening depth-first search (IDA*) over real positions,
//! pruned by two lower bounds on the moves still needed (the cheap table of
//! [`super::relaxed`], then the region relaxation of [`super::regions`]) and a table of
//! positions already known to fail.
//!
//! Each round allows one more move than the last, so the first win found is a shortest one;
//! a round ends early wherever a bound says the moves left cannot be enough. The region bound
//! is almost always exact, so rounds below the optimum end at the start position and the
//! round at the optimum walks nearly straight down a solution. The failure table keeps what a
//! round learnt for the next: a position that cannot win within r moves cannot win within
//! fewer.

use std::time::Instant;

use parlor_shared::ewn::{
    Level, Move, MoveError, Pieces, SQUARES, State, Status, chebyshev_to_corner, movable_pieces,
    neighbours,
};

use super::clock::Clock;
use super::regions::{RegionBound, regions_of};
use super::transposition::{Transposition, key};

/// A shortest solution and the work it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub moves: Vec<Move>,
    /// Real positions expanded, over all rounds.
    pub nodes: u64,
    /// Positions of the region relaxation expanded to bound them.
    pub region_nodes: u64,
}

/// Failure-table sizes: small levels stay cheap, long searches get room (up to 64 MiB).
const TABLE_BITS_FIRST: u32 = 12;
const TABLE_BITS_MAX: u32 = 23;
/// Remembered failures between checks of the failure table's size.
const GROWTH_CHECK: u64 = 1 << 12;

/// At most 2 movable pieces with 8 king steps each.
const MAX_CHILDREN: usize = 16;

/// Positions expanded between looks at the clock (about a millisecond's work).
const CLOCK_CHECK: u64 = 1 << 8;

/// A search with a deadline that ran out before it settled the level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the solver ran out of time")]
pub struct OutOfTime;

struct Search<'a> {
    level: &'a Level,
    target: u8,
    max_moves: u8,
    bound: RegionBound,
    failures: Transposition,
    table_bits: u32,
    /// King steps from each square, the removed square left out.
    steps: Vec<Vec<u8>>,
    /// The winning moves, last first, filled as the search unwinds.
    path: Vec<Move>,
    /// Counts the real positions expanded against the deadline. Once it has passed (here or
    /// in the region bound) every call unwinds at once, remembering nothing.
    clock: Clock,
    /// Failures written to the table, which sizes it.
    remembered: u64,
}

/// Finds a fewest-move solution of `level`, or `None` when none exists within the level's move
/// limit. Random 30-move levels take milliseconds, but a level where the region relaxation
/// falls far short could take long; a player that must answer in time uses [`solve_by`].
pub fn solve(level: &Level) -> Option<Solution> {
    search(level, None, Rounds::Shortest).unwrap_or_else(|OutOfTime| unreachable!("no deadline"))
}

/// As [`solve`], but gives up with [`OutOfTime`] once `deadline` has passed.
pub fn solve_by(level: &Level, deadline: Instant) -> Result<Option<Solution>, OutOfTime> {
    search(level, Some(deadline), Rounds::Shortest)
}

/// Whether `level` has a solution within its move limit: one round with every move allowed,
/// which stops at the first solution however long, faster than finding the shortest.
pub fn has_solution(level: &Level) -> bool {
    search(level, None, Rounds::LimitOnly)
        .unwrap_or_else(|OutOfTime| unreachable!("no deadline"))
        .is_some()
}

/// Which rounds a search makes.
enum Rounds {
    /// One more move allowed each round, from one: the first solution is a shortest.
    Shortest,
    /// Only the round that allows every move.
    LimitOnly,
}

fn search(
    level: &Level,
    deadline: Option<Instant>,
    rounds: Rounds,
) -> Result<Option<Solution>, OutOfTime> {
    let start = level.start_state();
    match level.status(&start) {
        Status::Won => {
            return Ok(Some(Solution {
                moves: Vec::new(),
                nodes: 0,
                region_nodes: 0,
            }));
        }
        Status::Lost(_) => return Ok(None),
        Status::Playing => {}
    }
    let mut search = Search {
        level,
        target: level.target(),
        max_moves: level.rules().max_moves as u8,
        bound: RegionBound::new(level, deadline),
        failures: Transposition::new(TABLE_BITS_FIRST),
        table_bits: TABLE_BITS_FIRST,
        steps: (0..SQUARES)
            .map(|from| neighbours(from, level.rules().blocked).collect())
            .collect(),
        path: Vec::new(),
        clock: Clock::new(deadline, CLOCK_CHECK),
        remembered: 0,
    };
    let first = match rounds {
        Rounds::Shortest => 1,
        Rounds::LimitOnly => search.max_moves,
    };
    for allowed in first..=search.max_moves {
        let won = search.wins_within(start.pieces, 0, allowed);
        if search.stopped() {
            return Err(OutOfTime);
        }
        if won {
            search.path.reverse();
            return Ok(Some(Solution {
                moves: search.path,
                nodes: search.clock.ticks(),
                region_nodes: search.bound.nodes(),
            }));
        }
    }
    Ok(None)
}

impl Search<'_> {
    fn stopped(&self) -> bool {
        self.clock.out_of_time() || self.bound.out_of_time()
    }

    /// A bigger failure table once the search has remembered half as many failures as it has
    /// slots, so that a long round does not keep overwriting what it learnt.
    fn grow_table(&mut self) {
        let wanted = (self.remembered.ilog2() + 2).clamp(TABLE_BITS_FIRST, TABLE_BITS_MAX);
        if wanted > self.table_bits {
            self.failures = self.failures.resized(wanted);
            self.table_bits = wanted;
        }
    }

    /// The moves of `pieces` at `turn`, the most promising first: target steps toward square 0,
    /// then captures, then the rest. Moves capturing the target (a loss) are left out.
    fn children(&self, pieces: &Pieces, turn: usize) -> ([(u8, Move); MAX_CHILDREN], usize) {
        let mut children = [(0, Move { piece: 0, to: 0 }); MAX_CHILDREN];
        let mut len = 0;
        let target_square = pieces.square_of(self.target).expect("the target is live");
        let distance = chebyshev_to_corner(target_square);
        let die = self.level.dice()[turn];
        for &piece in movable_pieces(pieces, die).as_slice() {
            let from = pieces.square_of(piece).expect("movable pieces are live");
            for &to in &self.steps[usize::from(from)] {
                let rank = match pieces.piece_on(to) {
                    Some(victim) if victim == self.target => continue,
                    _ if piece == self.target && chebyshev_to_corner(to) < distance => 0,
                    Some(_) => 1,
                    None => 2,
                };
                children[len] = (rank, Move { piece, to });
                len += 1;
            }
        }
        children[..len].sort_by_key(|&(rank, _)| rank);
        (children, len)
    }

    /// Whether the target can reach square 0 within `allowed` moves from `pieces` at `turn`;
    /// on success the moves are pushed on `path`, last first.
    fn wins_within(&mut self, pieces: Pieces, turn: usize, allowed: u8) -> bool {
        if self.stopped() {
            return false;
        }
        let target_square = pieces.square_of(self.target).expect("the target is live");
        let distance = chebyshev_to_corner(target_square);
        // The cheap bound first, then the memory, then the costly region bound.
        if (self.bound.relaxed()).moves_needed(turn, pieces.live_mask(), distance) > allowed {
            return false;
        }
        let key = key(&pieces, turn);
        if self
            .failures
            .failed_within(key)
            .is_some_and(|failed| failed >= allowed)
        {
            return false;
        }
        if !self.bound.wins_within(&regions_of(&pieces), turn, allowed) {
            // Remembered too: the same position often comes again by another order of moves.
            if !self.stopped() {
                self.remember_failure(key, allowed);
            }
            return false;
        }
        if !self.clock.tick() {
            return false;
        }
        let (children, len) = self.children(&pieces, turn);
        for &(_, mv) in &children[..len] {
            let next = pieces.with_move(mv.piece, mv.to);
            let won = next.square_of(self.target) == Some(0)
                || (allowed > 1 && self.wins_within(next, turn + 1, allowed - 1));
            if won {
                self.path.push(mv);
                return true;
            }
        }
        // A round cut short proved nothing here.
        if !self.stopped() {
            self.remember_failure(key, allowed);
        }
        false
    }

    fn remember_failure(&mut self, key: u64, allowed: u8) {
        self.failures.remember_failure(key, allowed);
        self.remembered += 1;
        if self.remembered.is_multiple_of(GROWTH_CHECK) {
            self.grow_table();
        }
    }
}

impl Solution {
    /// The states the solution passes through, the start first.
    pub fn replay(&self, level: &Level) -> Result<Vec<State>, MoveError> {
        let mut states = vec![level.start_state()];
        for &mv in &self.moves {
            let next = level.play(states.last().expect("never empty"), mv)?;
            states.push(next);
        }
        Ok(states)
    }
}
