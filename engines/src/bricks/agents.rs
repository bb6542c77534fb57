//! The agents that drop bricks, behind the seed's `Agent` interface: `drop`, `update`,
//! `canContinue` and the final statement.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use parlor_shared::bricks::{Answer, BricksError, Setup, State, Statement, Status};

use super::closed_form::{best_drop, is_winnable};

/// A dropping agent. It keeps its own observations; the answers come from elsewhere.
pub trait Agent {
    /// A short name for messages, e.g. "winning agent".
    fn name(&self) -> &'static str;

    /// What the agent knows so far.
    fn state(&self) -> &State;

    /// The height the agent drops from next (the seed's `drop`).
    fn drop_height(&mut self) -> Result<u64, BricksError>;

    /// Takes in the answer to a drop from `height` (the seed's `update`).
    fn update(&mut self, height: u64, answer: Answer) -> Result<(), BricksError>;

    /// The number the agent names when it has to guess S within `low..=high` (low < high).
    fn guess(&mut self, low: u64, high: u64) -> u64;

    /// Whether the agent drops again (the seed's `canContinue`): S is not known yet and a drop
    /// and a brick are left.
    fn can_continue(&self) -> bool {
        self.state().status() == Status::Playing
    }

    /// The end phase: S for certain when it is known, otherwise a guess "with doubts".
    fn statement(&mut self) -> Statement {
        let state = *self.state();
        if state.min_safe() == state.max_safe() {
            Statement::Certain(state.min_safe())
        } else {
            let (low, high) = (state.min_safe(), state.max_safe());
            Statement::Guess {
                guess: self.guess(low, high),
                low,
                high,
            }
        }
    }
}

/// Drops from a uniformly random open height and guesses uniformly at random.
pub struct RandomAgent {
    state: State,
    rng: StdRng,
}

impl RandomAgent {
    pub fn new(setup: Setup, seed: u64) -> RandomAgent {
        RandomAgent {
            state: State::start(setup),
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> &'static str {
        "random agent"
    }

    fn state(&self) -> &State {
        &self.state
    }

    fn drop_height(&mut self) -> Result<u64, BricksError> {
        let range = self.state.drop_range()?;
        Ok(self.rng.random_range(range))
    }

    fn update(&mut self, height: u64, answer: Answer) -> Result<(), BricksError> {
        self.state = self.state.after(height, answer)?;
        Ok(())
    }

    fn guess(&mut self, low: u64, high: u64) -> u64 {
        self.rng.random_range(low..=high)
    }
}

/// Plays the closed form: wins from every winnable state whatever the answers.
pub struct WinningAgent {
    state: State,
}

impl WinningAgent {
    pub fn new(setup: Setup) -> WinningAgent {
        WinningAgent {
            state: State::start(setup),
        }
    }

    /// Whether the current state is winning (the seed's `canWin`).
    pub fn can_win(&self) -> bool {
        is_winnable(&self.state)
    }
}

impl Agent for WinningAgent {
    fn name(&self) -> &'static str {
        "winning agent"
    }

    fn state(&self) -> &State {
        &self.state
    }

    fn drop_height(&mut self) -> Result<u64, BricksError> {
        best_drop(&self.state)
    }

    fn update(&mut self, height: u64, answer: Answer) -> Result<(), BricksError> {
        self.state = self.state.after(height, answer)?;
        Ok(())
    }

    /// The middle of what is left: no height is likelier than another, and the middle is
    /// reproducible, unlike the seed's random pick.
    fn guess(&mut self, low: u64, high: u64) -> u64 {
        low + (high - low) / 2
    }
}
