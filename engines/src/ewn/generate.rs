//! New levels of a chosen difficulty: random starts and dice from a seed, kept when the solver's
//! optimum falls in the wanted range, or when the solver proves there is none.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use parlor_shared::ewn::{
    DICE_LEN, Level, Move, PIECES, Pieces, Rules, SQUARES, State, Status, chebyshev,
    chebyshev_to_corner,
};

use super::solver::{Solution, has_solution, solve};

/// What a generated level must need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wanted {
    /// A fewest-move solution of `at_least..=at_most` moves.
    Moves { at_least: usize, at_most: usize },
    /// No solution within the move limit: rare among random levels (about one in a million
    /// under the course's rules), for measuring how fast the solver proves it.
    NoSolution,
}

/// A generated level with its optimum.
#[derive(Clone, Debug)]
pub struct Generated {
    pub level: Level,
    /// A shortest solution; `None` for [`Wanted::NoSolution`].
    pub solution: Option<Solution>,
    /// Candidates drawn before this one was kept.
    pub tries: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    #[error(
        "the wanted range {at_least}..={at_most} moves is empty, needs no move or goes beyond \
         the move limit {limit}"
    )]
    Range {
        at_least: usize,
        at_most: usize,
        limit: usize,
    },
    #[error("no level needing {at_least}..={at_most} moves was found in {tries} tries")]
    NotFound {
        at_least: usize,
        at_most: usize,
        tries: u32,
    },
    #[error("no level without a solution within {limit} moves was found in {tries} tries")]
    NoneUnsolvable { limit: usize, tries: u32 },
}

/// The target starts at least this many king steps from square 0, so it has a way to go.
const TARGET_MIN_DISTANCE: u8 = 5;

/// A random level: the target far from square 0, the other pieces anywhere else, random dice.
fn random_level(rng: &mut StdRng, rules: Rules) -> Level {
    let target = rng.random_range(1..=PIECES);
    let mut numbers = [-1i64; PIECES as usize];
    let mut taken = vec![rules.blocked];
    for piece in 1..=PIECES {
        let square = loop {
            let square = rng.random_range(0..SQUARES);
            let far_enough = piece != target || chebyshev_to_corner(square) >= TARGET_MIN_DISTANCE;
            if far_enough && !taken.contains(&square) {
                break square;
            }
        };
        taken.push(square);
        numbers[usize::from(piece - 1)] = i64::from(square);
    }
    let start = Pieces::from_numbers(numbers).expect("distinct squares on the board");
    let dice: [u8; DICE_LEN] = std::array::from_fn(|_| rng.random_range(1..=PIECES));
    Level::new(target, start, dice, rules).expect("a random level keeps the rules")
}

/// The random levels `generate` draws from `seed`, in order, under `rules`: the target at least
/// five king steps from square 0, the other pieces anywhere else, random dice.
fn candidates(seed: u64, rules: Rules) -> impl Iterator<Item = Level> {
    let mut rng = StdRng::seed_from_u64(seed);
    std::iter::repeat_with(move || random_level(&mut rng, rules))
}

/// Whether a quick player wins `level`: the target heads for square 0, every other piece for
/// the nearest piece it may take (each capture lets the target move on more dice). It wins
/// nine random levels in ten, a proof that they have a solution at a fraction of a search's
/// cost, so that looking for a level without one searches only the rest.
fn wins_by_hunting(level: &Level) -> bool {
    let mut state = level.start_state();
    while level.status(&state) == Status::Playing {
        let Some(hunt) = hunting_move(level, &state) else {
            return false;
        };
        state = level.play(&state, hunt).expect("a legal move");
    }
    level.status(&state) == Status::Won
}

fn hunting_move(level: &Level, state: &State) -> Option<Move> {
    let target = level.target();
    let nearest_prey = |mv: &Move| {
        (1..=PIECES)
            .filter(|&piece| piece != target && piece != mv.piece)
            .filter_map(|piece| state.pieces.square_of(piece))
            .map(|square| chebyshev(square, mv.to))
            .min()
            .unwrap_or(0)
    };
    level.legal_moves(state).into_iter().min_by_key(|mv| {
        if mv.piece == target {
            (0, chebyshev_to_corner(mv.to))
        } else if state.pieces.piece_on(mv.to) == Some(target) {
            (2, 0)
        } else {
            (1, nearest_prey(mv))
        }
    })
}

/// Draws levels from `seed` until one needs what is `wanted` (under `rules`), giving up after
/// `max_tries`. The same arguments always give the same level.
pub fn generate(
    wanted: Wanted,
    seed: u64,
    rules: Rules,
    max_tries: u32,
) -> Result<Generated, GenerateError> {
    generate_with_progress(wanted, seed, rules, max_tries, |_| {})
}

/// [`generate`], calling `progress` with the candidates tried so far after each one refused:
/// a wide search can take minutes.
pub fn generate_with_progress(
    wanted: Wanted,
    seed: u64,
    rules: Rules,
    max_tries: u32,
    mut progress: impl FnMut(u32),
) -> Result<Generated, GenerateError> {
    let keep = |candidate: &Level| match wanted {
        Wanted::Moves { at_least, .. } => solve(candidate)
            .filter(|solution| solution.moves.len() >= at_least)
            .map(Some),
        Wanted::NoSolution => {
            (!wins_by_hunting(candidate) && !has_solution(candidate)).then_some(None)
        }
    };
    // A range search only looks `at_most` moves deep: anything longer is not wanted.
    let search_rules = match wanted {
        Wanted::Moves { at_least, at_most } => {
            // Every level needs a move: a level's start is never its end.
            if at_most == 0 || at_least > at_most || at_most > rules.max_moves {
                return Err(GenerateError::Range {
                    at_least,
                    at_most,
                    limit: rules.max_moves,
                });
            }
            Rules {
                max_moves: at_most,
                ..rules
            }
        }
        Wanted::NoSolution => rules,
    };
    for (tries, candidate) in (1..=max_tries).zip(candidates(seed, search_rules)) {
        // Hopeless candidates cost little: the solver's bounds turn most away at once.
        if let Some(solution) = keep(&candidate) {
            let level = Level::new(
                candidate.target(),
                candidate.start(),
                *candidate.dice(),
                rules,
            )
            .expect("the same level under its own rules");
            return Ok(Generated {
                level,
                solution,
                tries,
            });
        }
        progress(tries);
    }
    Err(match wanted {
        Wanted::Moves { at_least, at_most } => GenerateError::NotFound {
            at_least,
            at_most,
            tries: max_tries,
        },
        Wanted::NoSolution => GenerateError::NoneUnsolvable {
            limit: rules.max_moves,
            tries: max_tries,
        },
    })
}
