//! The EinStein würfelt nicht! puzzle's fewest-move solver (IDA* with a relaxed bound, a
//! capture-time bound and a failure table) and its level generator, over the rules of
//! `parlor_shared::ewn`.

mod capture_bound;
mod generate;
mod relaxed;
mod solver;
mod transposition;

pub use generate::{GenerateError, Generated, candidates, generate, generate_with_progress};
pub use solver::{OutOfTime, Solution, solve, solve_by};

#[cfg(test)]
mod tests;
