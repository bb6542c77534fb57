//! The course's text formats: level files (target, start, dice) and moves.txt (player name,
//! dice, target, start, then the position after every move).
//!
//! Readers accept LF or CRLF line ends, trailing blank lines, and dice written either as 30
//! numbers or as one 30-digit token; writers write the seed's form (single spaces, LF).
//! A problem is a [`FileError`] naming the 1-based line.

use std::fmt;

use super::course::course_rules;
use super::pieces::{PIECES, Pieces, PositionError};
use super::rules::{DICE_LEN, Level, LevelError, MoveError, Rules, Status};

/// A file that cannot be read or checked: the line and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct FileError {
    pub line: usize,
    pub problem: LineProblem,
}

/// What is wrong with one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineProblem {
    #[error("the file ends before the {0} line")]
    Missing(&'static str),
    #[error("the line is empty")]
    Blank,
    #[error("{0:?} is not a whole number")]
    NotANumber(String),
    #[error("the player name is empty")]
    EmptyName,
    #[error("expected 6 positions (pieces 1..6), found {0}")]
    PositionCount(usize),
    #[error(transparent)]
    Position(#[from] PositionError),
    #[error("expected {DICE_LEN} dice, found {0}")]
    DiceCount(usize),
    #[error(transparent)]
    Level(#[from] LevelError),
    #[error("unexpected text after the dice line: {0:?}")]
    Unexpected(String),
    #[error("the {0} differs from the level's")]
    DiffersFromLevel(&'static str),
    #[error("no piece moved")]
    NoPieceMoved,
    #[error("pieces {0} and {1} both moved")]
    SeveralPiecesMoved(u8, u8),
    #[error("piece {0} came back after its capture")]
    Revived(u8),
    #[error("piece {0} left the board but no piece moved onto its square")]
    Vanished(u8),
    #[error("pieces {0} and {1} were both captured in one move")]
    TwoCaptured(u8, u8),
    #[error("move {number}: {error}")]
    IllegalMove { number: usize, error: MoveError },
    #[error("nothing may follow the end of the game ({0})")]
    AfterEnd(Status),
    #[error("more than {0} moves")]
    TooManyMoves(usize),
}

/// A moves.txt: who played, the level's dice and target, and the position before the first
/// move (`positions[0]`) and after each move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovesFile {
    pub name: String,
    pub dice: [u8; DICE_LEN],
    pub target: u8,
    pub positions: Vec<Pieces>,
}

/// The file's lines without line ends, trailing blank lines dropped.
fn content_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .collect();
    while lines.last().is_some_and(|line| line.trim().is_empty()) {
        lines.pop();
    }
    lines
}

fn number(word: &str) -> Result<i64, LineProblem> {
    word.parse()
        .map_err(|_| LineProblem::NotANumber(word.to_string()))
}

/// A line's text, or a problem if it is missing or blank.
fn required<'a>(lines: &[&'a str], index: usize, what: &'static str) -> Result<&'a str, FileError> {
    let problem = match lines.get(index) {
        None => LineProblem::Missing(what),
        Some(line) if line.trim().is_empty() => LineProblem::Blank,
        Some(line) => return Ok(line.trim()),
    };
    Err(FileError {
        line: index + 1,
        problem,
    })
}

fn parse_target(line: &str) -> Result<u8, LineProblem> {
    let target = number(line)?;
    match u8::try_from(target) {
        Ok(piece) if (1..=PIECES).contains(&piece) => Ok(piece),
        _ => Err(LevelError::Target(target).into()),
    }
}

fn parse_positions(line: &str) -> Result<Pieces, LineProblem> {
    let numbers = line
        .split_whitespace()
        .map(number)
        .collect::<Result<Vec<i64>, _>>()?;
    let numbers: [i64; PIECES as usize] = numbers
        .as_slice()
        .try_into()
        .map_err(|_| LineProblem::PositionCount(numbers.len()))?;
    Ok(Pieces::from_numbers(numbers)?)
}

/// Thirty dice, spaced (`3 3 5 ...`) or as one token of 30 digits (`335...`).
fn parse_dice(line: &str) -> Result<[u8; DICE_LEN], LineProblem> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let numbers: Vec<i64> = match words.as_slice() {
        [token] if token.len() == DICE_LEN && token.bytes().all(|b| b.is_ascii_digit()) => {
            token.bytes().map(|b| i64::from(b - b'0')).collect()
        }
        _ => words
            .iter()
            .map(|word| number(word))
            .collect::<Result<_, _>>()?,
    };
    if numbers.len() != DICE_LEN {
        return Err(LineProblem::DiceCount(numbers.len()));
    }
    let mut dice = [0; DICE_LEN];
    for (slot, &die) in dice.iter_mut().zip(&numbers) {
        *slot = match u8::try_from(die) {
            Ok(die) if (1..=PIECES).contains(&die) => die,
            _ => return Err(LevelError::Die(die).into()),
        };
    }
    Ok(dice)
}

/// Runs a line parser, naming the line (1-based `index + 1`) in its error.
fn at_line<T>(index: usize, parsed: Result<T, LineProblem>) -> Result<T, FileError> {
    parsed.map_err(|problem| FileError {
        line: index + 1,
        problem,
    })
}

/// A level file's three lines, each checked on its own: target, start and dice.
pub(super) fn level_lines(text: &str) -> Result<(u8, Pieces, [u8; DICE_LEN]), FileError> {
    let lines = content_lines(text);
    let target = at_line(0, parse_target(required(&lines, 0, "target")?))?;
    let start = at_line(1, parse_positions(required(&lines, 1, "positions")?))?;
    let dice = at_line(2, parse_dice(required(&lines, 2, "dice")?))?;
    if let Some(extra) = lines.get(3) {
        return at_line(3, Err(LineProblem::Unexpected(extra.to_string())));
    }
    Ok((target, start, dice))
}

/// Reads a level file: target piece, six start positions, dice; played by `rules`, or within
/// a course level's own lower move limit.
pub fn parse_level(text: &str, rules: Rules) -> Result<Level, FileError> {
    let (target, start, dice) = level_lines(text)?;
    // A level error is about the start (target absent, piece on the removed square) unless it is
    // about the rules, which no line holds; line 2 is the closest.
    let rules = course_rules(rules, target, &start, &dice);
    at_line(
        1,
        Level::new(target, start, dice, rules).map_err(Into::into),
    )
}

/// Reads a moves.txt for its form only (numbers in range, six positions per line); whether the
/// moves are legal is [`super::check_moves`]'s question.
pub fn parse_moves(text: &str) -> Result<MovesFile, FileError> {
    let lines = content_lines(text);
    let name = required(&lines, 0, "player name")
        .map_err(|error| match error.problem {
            LineProblem::Blank => FileError {
                line: 1,
                problem: LineProblem::EmptyName,
            },
            _ => error,
        })?
        .to_string();
    let dice = at_line(1, parse_dice(required(&lines, 1, "dice")?))?;
    let target = at_line(2, parse_target(required(&lines, 2, "target")?))?;
    required(&lines, 3, "start positions")?;
    let positions = (3..lines.len())
        .map(|index| {
            at_line(
                index,
                parse_positions(required(&lines, index, "positions")?),
            )
        })
        .collect::<Result<Vec<Pieces>, _>>()?;
    Ok(MovesFile {
        name,
        dice,
        target,
        positions,
    })
}

fn write_dice(f: &mut fmt::Formatter<'_>, dice: &[u8; DICE_LEN]) -> fmt::Result {
    let words: Vec<String> = dice.iter().map(u8::to_string).collect();
    writeln!(f, "{}", words.join(" "))
}

/// The level file form: target, start positions, dice, one per line.
impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.target())?;
        writeln!(f, "{}", self.start())?;
        write_dice(f, self.dice())
    }
}

/// The moves.txt form of the seed.
impl fmt::Display for MovesFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.name)?;
        write_dice(f, &self.dice)?;
        writeln!(f, "{}", self.target)?;
        for pieces in &self.positions {
            writeln!(f, "{pieces}")?;
        }
        Ok(())
    }
}

impl MovesFile {
    /// The record of a game of `level` by `name` that went through `positions` (start first).
    pub fn record(name: &str, level: &Level, positions: Vec<Pieces>) -> MovesFile {
        MovesFile {
            name: name.to_string(),
            dice: *level.dice(),
            target: level.target(),
            positions,
        }
    }
}
