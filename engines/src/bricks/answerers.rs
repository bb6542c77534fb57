//! The side that answers Safe or Broken: an honest oracle with a secret strength, and an
//! adversary that needs no strength at all, since every answer to a drop in range is consistent
//! with the earlier ones (SPEC §2).

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use parlor_shared::bricks::{Answer, BricksError, Setup, State};

use super::closed_form::{fewest_drops, is_winnable};

/// Answers the agent's drops.
pub trait Answerer {
    /// The answer to a drop from `height` in `state`; refuses drops outside the open heights.
    fn answer(&mut self, state: &State, height: u64) -> Result<Answer, BricksError>;
}

/// Answers truthfully for a strength fixed at the start.
pub struct Oracle {
    strength: u64,
}

impl Oracle {
    pub fn new(setup: Setup, strength: u64) -> Result<Oracle, BricksError> {
        if strength > setup.height {
            return Err(BricksError::StrengthOutOfRange {
                strength,
                height: setup.height,
            });
        }
        Ok(Oracle { strength })
    }

    /// An oracle whose strength is drawn uniformly from 0..=H with the given seed.
    pub fn random(setup: Setup, seed: u64) -> Oracle {
        Oracle {
            strength: StdRng::seed_from_u64(seed).random_range(0..=setup.height),
        }
    }

    /// The secret, for revealing once the game is over.
    pub fn strength(&self) -> u64 {
        self.strength
    }
}

impl Answerer for Oracle {
    fn answer(&mut self, state: &State, height: u64) -> Result<Answer, BricksError> {
        let answer = if height <= self.strength {
            Answer::Safe
        } else {
            Answer::Broken
        };
        state.after(height, answer)?;
        Ok(answer)
    }
}

/// Answers so that the agent loses whenever one answer leaves a state it cannot win, and
/// otherwise so that it needs the most drops.
pub struct Adversary;

/// How bad a state is for the agent, in lexicographic order: lost against best play, then the
/// fewest drops it still needs (no bricks: never enough), then the heights left open.
fn harm(state: &State) -> (bool, u64, u64) {
    (
        !is_winnable(state),
        fewest_drops(state.open_heights(), state.bricks_left()).unwrap_or(u64::MAX),
        state.open_heights(),
    )
}

impl Answerer for Adversary {
    fn answer(&mut self, state: &State, height: u64) -> Result<Answer, BricksError> {
        let safe = state.after(height, Answer::Safe)?;
        let broken = state.after(height, Answer::Broken)?;
        // Ties go to Broken, which costs the agent a brick as well.
        Ok(if harm(&safe) > harm(&broken) {
            Answer::Safe
        } else {
            Answer::Broken
        })
    }
}
