//! The seed's input format: `n m`, n rows of m numbers (0 = blank), `w`, then w lines `x R*C`.
//!
//! Lenient where nothing is ambiguous: LF or CRLF, extra spaces and blank lines anywhere. The
//! `w` line is required (0 for no blocks). Everything else that is wrong is a [`ParseError`]
//! naming the 1-based line and the reason.

use super::grid::Shape;
use super::puzzle::{LayoutError, Puzzle};

/// Input that is not a puzzle: the line and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct ParseError {
    pub line: usize,
    pub problem: Problem,
}

/// What is wrong with one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    #[error("the input ends before {0}")]
    Missing(String),
    #[error("{0:?} is not a whole number")]
    NotANumber(String),
    #[error("expected {expected}, found {found} item(s)")]
    Count { expected: String, found: usize },
    #[error("{0:?} is not a block shape: blocks are 2*2, 1*2 or 2*1")]
    BadShape(String),
    #[error("unexpected text after the {0} block line(s): {1:?}")]
    Unexpected(usize, String),
    #[error(transparent)]
    Layout(#[from] LayoutError),
}

/// The non-blank lines with their 1-based numbers.
struct Lines<'a> {
    lines: Box<dyn Iterator<Item = (usize, &'a str)> + 'a>,
    /// The number of the last line read, for errors at the end of the input.
    last: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        let lines = text
            .split('\n')
            .enumerate()
            .map(|(index, line)| (index + 1, line.trim()))
            .filter(|(_, line)| !line.is_empty());
        Lines {
            lines: Box::new(lines),
            last: 0,
        }
    }

    fn next(&mut self) -> Option<(usize, Vec<&'a str>)> {
        let (number, line) = self.lines.next()?;
        self.last = number;
        Some((number, line.split_whitespace().collect()))
    }

    /// The next line, or an error saying what was expected there.
    fn expect(
        &mut self,
        what: impl FnOnce() -> String,
    ) -> Result<(usize, Vec<&'a str>), ParseError> {
        let last = self.last;
        self.next().ok_or_else(|| ParseError {
            line: last + 1,
            problem: Problem::Missing(what()),
        })
    }
}

fn number(line: usize, word: &str) -> Result<u64, ParseError> {
    word.parse().map_err(|_| ParseError {
        line,
        problem: Problem::NotANumber(word.to_string()),
    })
}

fn words_exactly<'a>(
    line: usize,
    words: Vec<&'a str>,
    count: usize,
    what: &str,
) -> Result<Vec<&'a str>, ParseError> {
    if words.len() == count {
        Ok(words)
    } else {
        Err(ParseError {
            line,
            problem: Problem::Count {
                expected: what.to_string(),
                found: words.len(),
            },
        })
    }
}

/// A block shape written `R*C` (or `RxC`).
fn shape(line: usize, word: &str) -> Result<Shape, ParseError> {
    Shape::parse_block(word).ok_or_else(|| ParseError {
        line,
        problem: Problem::BadShape(word.to_string()),
    })
}

/// Reads a puzzle, or says on which line and why it is not one.
pub fn parse_puzzle(text: &str) -> Result<Puzzle, ParseError> {
    let mut lines = Lines::new(text);
    let (size_line, words) = lines.expect(|| "the size line \"n m\"".to_string())?;
    let words = words_exactly(size_line, words, 2, "2 numbers (rows and columns)")?;
    let (rows, cols) = (number(size_line, words[0])?, number(size_line, words[1])?);
    let layout_error = |line: usize, error: LayoutError| ParseError {
        line,
        problem: Problem::Layout(error),
    };
    // The size is checked before anything is allocated for it.
    let (rows, cols) = match (u32::try_from(rows), u32::try_from(cols)) {
        (Ok(rows), Ok(cols))
            if rows >= 1
                && cols >= 1
                && rows as usize * cols as usize <= super::grid::MAX_CELLS =>
        {
            (rows, cols)
        }
        _ => return Err(layout_error(size_line, LayoutError::Size { rows, cols })),
    };
    let mut grid = Vec::with_capacity(rows as usize * cols as usize);
    let mut row_lines = Vec::with_capacity(rows as usize);
    for row in 1..=rows {
        let (line, words) = lines.expect(|| format!("row {row} of {rows}"))?;
        let words = words_exactly(
            line,
            words,
            cols as usize,
            &format!("{cols} numbers in row {row}"),
        )?;
        for word in words {
            grid.push(number(line, word)?);
        }
        row_lines.push(line);
    }
    let mut blocks = Vec::new();
    let mut block_lines = Vec::new();
    // Required, as the seed says: an input cut short after its rows would otherwise be read as
    // a puzzle without blocks, and solved as a different puzzle.
    let (count_line, words) = lines.expect(|| "the block count w (0 for no blocks)".to_string())?;
    let words = words_exactly(count_line, words, 1, "1 number (how many blocks)")?;
    let count = number(count_line, words[0])?;
    // Read line by line, so a huge count costs nothing until its lines are really there.
    for block in 1..=count {
        let (line, words) = lines.expect(|| format!("block line {block} of {count}"))?;
        let words = words_exactly(line, words, 2, "a number and a shape such as 2*1")?;
        blocks.push((number(line, words[0])?, shape(line, words[1])?));
        block_lines.push(line);
    }
    if let Some((line, words)) = lines.next() {
        return Err(ParseError {
            line,
            problem: Problem::Unexpected(blocks.len(), words.join(" ")),
        });
    }
    Puzzle::new(rows, cols, &grid, &blocks).map_err(|error| {
        let line = match &error {
            LayoutError::Size { .. } | LayoutError::CellCount { .. } => size_line,
            LayoutError::OutOfRange { cell, .. } | LayoutError::Repeated { cell, .. } => {
                row_lines[cell / cols as usize]
            }
            LayoutError::UnknownLabel { block, .. }
            | LayoutError::RepeatedBlock { block, .. }
            | LayoutError::Outside { block, .. }
            | LayoutError::CoversBlank { block, .. }
            | LayoutError::Overlap { block, .. } => block_lines[*block],
        };
        layout_error(line, error)
    })
}
