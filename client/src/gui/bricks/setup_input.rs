//! The init phase's inputs checked: H, D and B as typed, who sits in each seat, the oracle's
//! optional strength, and the rules and closed-form verdict shown before a room is created.
//! Pure functions, so every refusal is tested without a window.

use parlor_engines::bricks::Solution;
use parlor_shared::bricks::{BricksError, MAX_BRICKS, Setup};
use parlor_shared::game::GameSetup;
use parlor_shared::protocol::{AiKind, DEFAULT_AI_MOVE_MS, SeatSpec};

use super::words::{parse_whole_number, parse_whole_number_or};
use crate::gui::describe::distinguishable_heights;

/// The seed's rules, shown in the init phase.
pub const RULES: &str = "A brick's strength S is the greatest height it survives a drop from, \
    somewhere from 0 to H (0: it breaks even from height 1). The agent drops bricks from the \
    heights 1 to H of a tower, at most D times, and may break at most B bricks; a brick that survives is \
    used again. The answerer says Safe (the brick survived, so S >= h) or Broken (S < h). The \
    agent wins when it knows S for certain; when its drops or bricks run out first it must \
    guess, with doubts, and loses.";

/// Who drops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum AgentChoice {
    Human,
    /// The closed form: wins whenever H <= f(D, B).
    Winning,
    Random,
}

/// Who answers Safe or Broken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum AnswererChoice {
    Human,
    /// Answers so that the agent loses when it can.
    Adversary,
    /// Answers truthfully for a strength fixed at the start.
    Oracle,
}

/// Why a field of the form is refused; `None` where the field is fine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldErrors {
    pub height: Option<String>,
    pub drops: Option<String>,
    pub bricks: Option<String>,
}

/// The setup typed as H, D and B, or what is wrong with each field: every bad field gets its
/// reason at once, not only the first one found.
pub fn parse_setup(height: &str, drops: &str, bricks: &str) -> Result<Setup, FieldErrors> {
    let mut errors = FieldErrors::default();
    // A number past 2^64 is past every limit, which its refusal names as `Setup::new` would;
    // the number comes last, where a field's line cuts a long one short.
    let height = parse_whole_number_or(height, |h| {
        format!("the height is over the limit of 10^18: {h}")
    })
    .map_err(|error| errors.height = Some(error))
    .ok();
    let drops = parse_whole_number_or(drops, |d| {
        format!("the drops are over the limit of 10^18: {d}")
    })
    .map_err(|error| errors.drops = Some(error))
    .ok();
    let bricks = parse_whole_number_or(bricks, |b| {
        format!("the bricks are over the limit of {MAX_BRICKS}: {b}")
    })
    .map_err(|error| errors.bricks = Some(error))
    .ok()
    .and_then(|bricks| {
        u32::try_from(bricks)
            .map_err(|_| errors.bricks = Some(format!("{bricks} bricks is too many")))
            .ok()
    });
    // Each number against its own limit, the others given values that pass theirs.
    let limit = |setup: Result<Setup, BricksError>| setup.err().map(|error| error.to_string());
    if let Some(height) = height {
        errors.height = limit(Setup::new(height, 0, 0));
    }
    if let Some(drops) = drops {
        errors.drops = limit(Setup::new(1, drops, 0));
    }
    if let Some(bricks) = bricks {
        errors.bricks = limit(Setup::new(1, 0, bricks));
    }
    match (height, drops, bricks) {
        (Some(height), Some(drops), Some(bricks)) if errors == FieldErrors::default() => {
            Setup::new(height, drops, bricks).map_err(|error| FieldErrors {
                height: Some(error.to_string()),
                ..FieldErrors::default()
            })
        }
        _ => Err(errors),
    }
}

/// The oracle's strength as typed: empty for a secret random one, else a number from 0 to H
/// (`height` is `None` while H itself is not valid, and then any number is taken).
pub fn parse_strength(text: &str, height: Option<u64>) -> Result<Option<u64>, String> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    let out_of_range = |height| format!("S must be from 0 to {height}");
    let strength = match height {
        Some(height) => parse_whole_number_or(text, |_| out_of_range(height))?,
        None => parse_whole_number(text)?,
    };
    match height {
        Some(height) if strength > height => Err(out_of_range(height)),
        _ => Ok(Some(strength)),
    }
}

/// The seats of the room: the chosen people and AI kinds. Dropping Bricks AIs answer at once
/// from the closed form, so their time budget is only the server's default.
pub fn seat_specs(
    agent: AgentChoice,
    answerer: AnswererChoice,
    strength: Option<u64>,
) -> Vec<SeatSpec> {
    let ai = |kind| SeatSpec::Ai {
        move_ms: DEFAULT_AI_MOVE_MS,
        kind,
    };
    let agent = match agent {
        AgentChoice::Human => SeatSpec::Human,
        AgentChoice::Winning => ai(AiKind::WinningAgent),
        AgentChoice::Random => ai(AiKind::RandomAgent),
    };
    let answerer = match answerer {
        AnswererChoice::Human => SeatSpec::Human,
        AnswererChoice::Adversary => ai(AiKind::Adversary),
        AnswererChoice::Oracle => ai(AiKind::Oracle { strength }),
    };
    vec![agent, answerer]
}

/// The room request for a checked setup.
pub fn game_setup(setup: Setup) -> GameSetup {
    GameSetup::Bricks {
        height: setup.height,
        drops: setup.drops,
        bricks: setup.bricks,
    }
}

/// What the closed form says about a setup, as the init phase shows it.
pub fn verdict_lines(setup: Setup) -> Vec<String> {
    let solution = Solution::new(setup);
    let Setup {
        height,
        drops,
        bricks,
    } = setup;
    let reach = distinguishable_heights(&solution);
    let mut lines = vec![if solution.winnable {
        format!("The agent can win whatever the answers: f(D, B) = {reach} >= H = {height}.")
    } else {
        format!(
            "An adversary can make the agent lose: f(D, B) = {reach} < H = {height} \
             (f is how many heights {drops} drops and {bricks} bricks tell apart)."
        )
    }];
    lines.push(match solution.fewest_drops {
        Some(fewest) => format!("Fewest drops that always suffice for H = {height}: {fewest}."),
        None => "Without bricks no number of drops finds S.".into(),
    });
    if let Some(first) = solution.first_drop {
        lines.push(format!("The winning agent drops first from {first}."));
    }
    lines
}

#[cfg(test)]
mod tests;
