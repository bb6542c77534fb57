//! Hexapawn's engines: the exact game value by memoised negamax and the exploiter, a perfect
//! player that punishes every mistake (`solver`), and the training of HER against it until HER
//! can no longer lose (`training`). HER itself, whose matchboxes are the game's rules, is in
//! `parlor_shared::hexapawn`.

mod solver;
mod training;

pub use solver::{DEFAULT_SOLVER_LIMIT, Exploiter, Solver, game_value};
pub use training::{games_until_unbeatable, play_against_exploiter};

#[cfg(test)]
mod tests;
