//! Dropping Bricks in words: typed numbers read, drops checked with the reason a height is not
//! open, the status of a game and the agent's final statement. Pure functions, tested without a
//! window.

use parlor_engines::bricks::{Agent, WinningAgent};
use parlor_shared::bricks::{AGENT_SEAT, BricksGame, Statement, Status, Turn};

/// How a status line is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Plain,
    Dim,
    Safe,
    Broken,
    /// A drop waiting for its answer.
    Pending,
    /// The end: the agent's statement.
    Final,
}

/// A whole number as a person types it: digits, optionally grouped with `_`, `,` or spaces,
/// or a power-of-ten form such as `1e18`. The error says what is wrong, for a form to show.
pub fn parse_whole_number(text: &str) -> Result<u64, String> {
    parse_whole_number_or(text, |typed| format!("{typed} is too large"))
}

/// [`parse_whole_number`], where a number too large to read (past 2^64) is refused with
/// `too_large` of the text typed: a field with a limit of its own says that limit.
pub fn parse_whole_number_or(
    text: &str,
    too_large: impl Fn(&str) -> String,
) -> Result<u64, String> {
    let cleaned: String = text
        .trim()
        .chars()
        .filter(|c| !matches!(c, '_' | ',' | ' '))
        .collect();
    if cleaned.is_empty() {
        return Err("type a whole number".into());
    }
    if let Some(digits) = cleaned.strip_prefix('-')
        && !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(format!("{} is negative: type 0 or more", text.trim()));
    }
    let not_a_number = || format!("{:?} is not a whole number", text.trim());
    let (mantissa, exponent) = match cleaned.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => (mantissa, Some(exponent)),
        None => (cleaned.as_str(), None),
    };
    let digits_only = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits_only(mantissa) || !exponent.is_none_or(digits_only) {
        return Err(not_a_number());
    }
    let too_large = || too_large(text.trim());
    let mantissa: u64 = mantissa.parse().map_err(|_| too_large())?;
    let exponent: u32 = exponent
        .map_or(Ok(0), str::parse)
        .map_err(|_| too_large())?;
    10u64
        .checked_pow(exponent)
        .and_then(|power| mantissa.checked_mul(power))
        .ok_or_else(too_large)
}

/// "`low` to `high`", one number when they are equal, or `empty` when the range is.
pub fn range_text(low: u64, high: u64, empty: &str) -> String {
    match low.cmp(&high) {
        std::cmp::Ordering::Less => format!("{low} to {high}"),
        std::cmp::Ordering::Equal => low.to_string(),
        std::cmp::Ordering::Greater => empty.to_string(),
    }
}

/// The height typed for the agent's next drop, or why it cannot be dropped from now.
pub fn drop_height(text: &str, game: &BricksGame) -> Result<u64, String> {
    match game.turn() {
        Turn::Agent => {}
        Turn::Answerer { height } => {
            return Err(format!("The drop from {height} waits for its answer."));
        }
        Turn::Over(_) | Turn::Resigned { .. } => return Err("The game is over.".into()),
    }
    let state = game.state();
    let (low, high) = (state.min_safe() + 1, state.max_safe());
    let open = if low == high {
        format!("the only open height is {low}")
    } else {
        format!("drop from {low} to {high}")
    };
    let height =
        parse_whole_number(text).map_err(|error| format!("Not a height: {error}; {open}."))?;
    let why = if height == 0 {
        "0 is the ground".to_string()
    } else if height <= state.min_safe() {
        format!("{height} is known to be safe")
    } else if height > game.setup().height {
        format!("The tower ends at {}", game.setup().height)
    } else if height > state.max_safe() {
        format!("{height} is known to break")
    } else {
        return Ok(height);
    };
    Err(format!("{why}: {open}."))
}

/// The agent's last word once the game is over: the strength for certain, or a guess "with
/// doubts". The guess is the winning agent's (the middle of what is left): the server does not
/// send an AI agent's own guess, and a person's seat has no move to name one.
pub fn statement(game: &BricksGame) -> Option<Statement> {
    match game.turn() {
        Turn::Over(Status::Won { strength }) => Some(Statement::Certain(strength)),
        Turn::Over(Status::Lost { low, high }) => Some(Statement::Guess {
            guess: WinningAgent::new(game.setup()).guess(low, high),
            low,
            high,
        }),
        _ => None,
    }
}

/// What is known and what is left, then what happens next or, at the end, the statement.
pub fn status_lines(game: &BricksGame) -> Vec<(String, Tone)> {
    let setup = game.setup();
    let state = game.state();
    let (min_safe, max_safe) = (state.min_safe(), state.max_safe());
    let mut lines = vec![
        (
            format!(
                "H = {}, D = {}, B = {}",
                setup.height, setup.drops, setup.bricks
            ),
            Tone::Dim,
        ),
        (
            format!("Safe (green): {}", range_text(1, min_safe, "none yet")),
            Tone::Safe,
        ),
        (
            format!("Open: {}", range_text(min_safe + 1, max_safe, "none")),
            Tone::Plain,
        ),
        (
            format!(
                "Broken (red): {}",
                range_text(max_safe + 1, setup.height, "none yet")
            ),
            Tone::Broken,
        ),
        (
            format!("Strength S: {}", range_text(min_safe, max_safe, "")),
            Tone::Plain,
        ),
        (
            format!("Drops left: {} of {}", state.drops_left(), setup.drops),
            Tone::Plain,
        ),
        (
            format!("Bricks left: {} of {}", state.bricks_left(), setup.bricks),
            Tone::Plain,
        ),
    ];
    match game.turn() {
        Turn::Agent => lines.push(("The agent drops next.".into(), Tone::Plain)),
        Turn::Answerer { height } => lines.push((
            format!("A brick fell from {height}: safe or broken?"),
            Tone::Pending,
        )),
        Turn::Over(status) => {
            lines.push(("The agent says:".into(), Tone::Plain));
            if let Some(statement) = statement(game) {
                lines.push((statement.to_string(), Tone::Final));
            }
            let result = match status {
                Status::Won { .. } => "The agent wins: it knows S.",
                _ => "The agent loses: it had to guess.",
            };
            lines.push((result.into(), Tone::Plain));
        }
        Turn::Resigned { seat } => {
            let side = if seat == AGENT_SEAT {
                "The agent resigned: the answering side wins."
            } else {
                "The answering side resigned: the agent wins."
            };
            lines.push((side.into(), Tone::Plain));
        }
    }
    lines
}

#[cfg(test)]
mod tests;
