//! Dropping Bricks (SPEC §2): an agent finds a brick's strength S (the greatest height in 0..=H
//! from which it survives) with at most D drops and B bricks, while the answering side says
//! Safe or Broken.
//!
//! The game state is the seed's (minSafe, maxSafe, drops left, bricks left): S is known to lie
//! in minSafe..=maxSafe. Everything here is a pure function of that state, and `turns` makes
//! it a two-seat game for rooms. Who plays it is `parlor_engines::bricks`'s: the agents and
//! answerers, the closed form (which answers every question instantly for H and D up to 10^18
//! and B up to 64) and the seed's backward induction (the cross-check on small inputs).

mod turns;

pub use turns::{AGENT_SEAT, ANSWERER_SEAT, BricksGame, BricksMove, BricksMoveError, Turn};

use std::fmt;

use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// The greatest tower height H (and the most drops D) the game accepts: 10^18.
pub const MAX_HEIGHT: u64 = 1_000_000_000_000_000_000;
/// The most drops D the game accepts.
pub const MAX_DROPS: u64 = MAX_HEIGHT;
/// The most bricks B the game accepts.
pub const MAX_BRICKS: u32 = 64;
/// The largest tower backward induction is run on (the table grows as its cube, the work as
/// its fourth power).
pub const INDUCTION_MAX_HEIGHT: u64 = 64;

/// Why a setup, a drop or an answer is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BricksError {
    #[error("the height must be at least 1")]
    ZeroHeight,
    #[error("the height {0} is over the limit of 10^18")]
    HeightTooLarge(u64),
    #[error("{0} drops is over the limit of 10^18")]
    TooManyDrops(u64),
    #[error("{0} bricks is over the limit of {MAX_BRICKS}")]
    TooManyBricks(u32),
    #[error("the game is over: {0}")]
    GameOver(Status),
    #[error("a drop from height {height} is outside the open heights {low}..={high}")]
    DropOutOfRange { height: u64, low: u64, high: u64 },
    #[error("the strength {strength} is outside 0..={height}")]
    StrengthOutOfRange { strength: u64, height: u64 },
    #[error("backward induction runs on heights up to {INDUCTION_MAX_HEIGHT}, not {0}")]
    TooLargeForInduction(u64),
}

/// The inputs of one game, checked against the limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub height: u64,
    pub drops: u64,
    pub bricks: u32,
}

impl Setup {
    pub fn new(height: u64, drops: u64, bricks: u32) -> Result<Setup, BricksError> {
        if height == 0 {
            return Err(BricksError::ZeroHeight);
        }
        if height > MAX_HEIGHT {
            return Err(BricksError::HeightTooLarge(height));
        }
        if drops > MAX_DROPS {
            return Err(BricksError::TooManyDrops(drops));
        }
        if bricks > MAX_BRICKS {
            return Err(BricksError::TooManyBricks(bricks));
        }
        Ok(Setup {
            height,
            drops,
            bricks,
        })
    }
}

/// The answer to a drop: the brick survived (S >= h) or broke (S < h).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Answer {
    Safe,
    Broken,
}

impl Answer {
    pub const BOTH: [Answer; 2] = [Answer::Safe, Answer::Broken];
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `pad` so that widths like `{:<6}` line answers up.
        f.pad(match self {
            Answer::Safe => "safe",
            Answer::Broken => "broken",
        })
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// The agent may drop: S is not known yet and a drop and a brick are left.
    Playing,
    /// S is known for certain: the agent wins.
    Won { strength: u64 },
    /// S is somewhere in `low..=high` (low < high) and nothing is left to drop: the agent must
    /// guess, and loses.
    Lost { low: u64, high: u64 },
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Playing => f.write_str("the agent is still dropping"),
            Status::Won { strength } => write!(f, "the strength is known to be {strength}"),
            Status::Lost { low, high } => {
                write!(
                    f,
                    "the strength is between {low} and {high} and no drop is left"
                )
            }
        }
    }
}

/// The agent's view of the game: S lies in `min_safe..=max_safe`.
///
/// Only [`State::start`] and [`State::after`] make states, so `min_safe <= max_safe` always.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct State {
    min_safe: u64,
    max_safe: u64,
    drops_left: u64,
    bricks_left: u32,
}

impl State {
    pub fn start(setup: Setup) -> State {
        State {
            min_safe: 0,
            max_safe: setup.height,
            drops_left: setup.drops,
            bricks_left: setup.bricks,
        }
    }

    /// The greatest height known to be safe (0 before any Safe answer).
    pub fn min_safe(&self) -> u64 {
        self.min_safe
    }

    /// The greatest height S may still be; the first broken height is one above it.
    pub fn max_safe(&self) -> u64 {
        self.max_safe
    }

    pub fn drops_left(&self) -> u64 {
        self.drops_left
    }

    pub fn bricks_left(&self) -> u32 {
        self.bricks_left
    }

    /// How many heights have an unknown outcome (`min_safe+1..=max_safe`): the candidates for S
    /// minus one. The agent wins when this reaches 0.
    pub fn open_heights(&self) -> u64 {
        self.max_safe - self.min_safe
    }

    pub fn status(&self) -> Status {
        if self.min_safe == self.max_safe {
            Status::Won {
                strength: self.min_safe,
            }
        } else if self.drops_left == 0 || self.bricks_left == 0 {
            Status::Lost {
                low: self.min_safe,
                high: self.max_safe,
            }
        } else {
            Status::Playing
        }
    }

    /// The heights the agent may drop from, or why it may not drop.
    pub fn drop_range(&self) -> Result<RangeInclusive<u64>, BricksError> {
        match self.status() {
            Status::Playing => Ok(self.min_safe + 1..=self.max_safe),
            over => Err(BricksError::GameOver(over)),
        }
    }

    /// The state after a drop from `height` answered with `answer`. Every answer to a drop in
    /// range is consistent with the earlier ones, so only the drop itself can be refused.
    pub fn after(&self, height: u64, answer: Answer) -> Result<State, BricksError> {
        let range = self.drop_range()?;
        if !range.contains(&height) {
            return Err(BricksError::DropOutOfRange {
                height,
                low: *range.start(),
                high: *range.end(),
            });
        }
        let drops_left = self.drops_left - 1;
        Ok(match answer {
            Answer::Safe => State {
                min_safe: height,
                drops_left,
                ..*self
            },
            Answer::Broken => State {
                max_safe: height - 1,
                drops_left,
                bricks_left: self.bricks_left - 1,
                ..*self
            },
        })
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "(minSafe {}, maxSafe {}, drops {}, bricks {})",
            self.min_safe, self.max_safe, self.drops_left, self.bricks_left
        )
    }
}

/// The agent's last word (the seed's end phase).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Statement {
    /// S is known.
    Certain(u64),
    /// S is somewhere in `low..=high`; the agent names `guess` "with doubts".
    Guess { guess: u64, low: u64, high: u64 },
}

impl fmt::Display for Statement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Statement::Certain(strength) => write!(f, "The strength is {strength}, for certain."),
            Statement::Guess { guess, low, high } => write!(
                f,
                "The strength is {guess}, with doubts: it is somewhere from {low} to {high}."
            ),
        }
    }
}

#[cfg(test)]
mod tests;
