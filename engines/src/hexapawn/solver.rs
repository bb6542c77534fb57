//! The exact game value by memoised negamax, and the exploiter: a perfect player that wins
//! whenever the solver says it can, so it punishes every mistake.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use parlor_shared::hexapawn::{Dims, HexapawnError, Move, MoveList, Position, Side, Status};

/// A table keyed by `Position::key`, as HER's brain keys its boxes: foldhash is about as fast
/// as a plain multiplication, and its seed is random.
type KeyMap<V> = std::collections::HashMap<u128, V, foldhash::fast::RandomState>;

/// How many positions the solver remembers before it gives up (about 150 MB): 3x3 has a few
/// dozen, 4x4 a few thousand, 5x5 about a million.
pub const DEFAULT_SOLVER_LIMIT: usize = 4_000_000;

/// Remembers, for every position it has solved, whether the side to move wins with perfect
/// play. Positions are stored as the mover sees them ([`Position::mover_view`]) and merged with
/// their mirror images, since both are the same game.
pub struct Solver {
    dims: Dims,
    wins_for_mover: KeyMap<bool>,
    limit: usize,
}

impl Solver {
    pub fn new(dims: Dims) -> Solver {
        Solver::with_limit(dims, DEFAULT_SOLVER_LIMIT)
    }

    pub fn with_limit(dims: Dims, limit: usize) -> Solver {
        Solver {
            dims,
            wins_for_mover: KeyMap::default(),
            limit,
        }
    }

    pub fn dims(&self) -> Dims {
        self.dims
    }

    /// How many positions have been solved so far.
    pub fn positions(&self) -> usize {
        self.wins_for_mover.len()
    }

    /// Whether the side to move wins with perfect play. A finished game is always lost for the
    /// side to move: every way a game ends is a win for the side that moved last.
    pub fn wins(&mut self, position: &Position) -> Result<bool, HexapawnError> {
        if position.dims() != self.dims {
            return Err(HexapawnError::WrongSize {
                expected: self.dims,
                found: position.dims(),
            });
        }
        self.solve(position)
    }

    fn solve(&mut self, position: &Position) -> Result<bool, HexapawnError> {
        if position.status() != Status::Playing {
            return Ok(false);
        }
        let view = position.mover_view();
        let key = view.key().min(view.mirrored().key());
        if let Some(&wins) = self.wins_for_mover.get(&key) {
            return Ok(wins);
        }
        if self.wins_for_mover.len() >= self.limit {
            return Err(HexapawnError::TooLargeToSolve(self.limit));
        }
        let mut wins = false;
        for &mv in position.moves().iter() {
            if !self.solve(&position.play_unchecked(mv))? {
                wins = true;
                break;
            }
        }
        self.wins_for_mover.insert(key, wins);
        Ok(wins)
    }

    /// The legal moves after which the side to move still wins (none in a lost position).
    pub fn winning_moves(&mut self, position: &Position) -> Result<Vec<Move>, HexapawnError> {
        let mut winning = Vec::new();
        for &mv in position.legal_moves().iter() {
            if !self.wins(&position.play_unchecked(mv))? {
                winning.push(mv);
            }
        }
        Ok(winning)
    }
}

/// The winner of the game from the opening under perfect play.
pub fn game_value(dims: Dims) -> Result<Side, HexapawnError> {
    let start = Position::start(dims);
    let white_wins = Solver::new(dims).wins(&start)?;
    Ok(if white_wins { Side::White } else { Side::Black })
}

/// A perfect opponent: in a won position it plays a winning move, so any mistake it is given is
/// punished; in a lost one it plays any legal move, so over many games it tries every line
/// and finds every mistake there is. Its choices among equals are random (seeded).
pub struct Exploiter {
    solver: Solver,
    rng: StdRng,
}

impl Exploiter {
    pub fn new(dims: Dims, seed: u64) -> Exploiter {
        Exploiter {
            solver: Solver::new(dims),
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// The solver it plays by, to ask about positions.
    pub fn solver(&mut self) -> &mut Solver {
        &mut self.solver
    }

    pub fn choose(&mut self, position: &Position) -> Result<Move, HexapawnError> {
        let status = position.status();
        if status != Status::Playing {
            return Err(HexapawnError::GameOver(status));
        }
        let winning = self.solver.winning_moves(position)?;
        if winning.is_empty() {
            let all: MoveList = position.moves();
            Ok(all[self.rng.random_range(0..all.len())])
        } else {
            Ok(winning[self.rng.random_range(0..winning.len())])
        }
    }
}
