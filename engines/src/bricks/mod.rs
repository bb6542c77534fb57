//! Who plays Dropping Bricks, over the rules of `parlor_shared::bricks`: the agents that drop
//! (random, winning) behind the seed's `Agent` interface, the answerers (an honest oracle, the
//! adversary), the closed form behind the winning agent and the adversary (`closed_form`,
//! instant for H and D up to 10^18 and B up to 64), and the seed's backward induction
//! (`induction`), the cross-check on small towers and `client bricks tree`.

mod agents;
mod answerers;
mod closed_form;
mod induction;

pub use agents::{Agent, RandomAgent, WinningAgent};
pub use answerers::{Adversary, Answerer, Oracle};
pub use closed_form::{Solution, best_drop, distinguishable_heights, fewest_drops, is_winnable};
pub use induction::{BackwardInduction, game_tree};

#[cfg(test)]
mod tests;
