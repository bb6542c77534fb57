//! The EinStein würfelt nicht! puzzle's fewest-move solver (IDA* with a relaxed bound, the
//! region relaxation and a failure table) and its level generator, over the rules of
//! `parlor_shared::ewn`.

mod clock;
mod generate;
mod region_memory;
mod regions;
mod relaxed;
mod solver;
mod transposition;

pub use generate::{GenerateError, Generated, Wanted, generate, generate_with_progress};
pub use solver::{OutOfTime, Solution, solve, solve_by};

#[cfg(test)]
mod tests;
