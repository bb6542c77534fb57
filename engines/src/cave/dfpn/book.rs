//! Proven results as a book: `levels/cave/proven.txt`, written by
//! `client cave prove --write`, read by the strong engine, which plays a stored winning move
//! in any position that mirrors a stored win.
//!
//! The file format, one position per line (blank lines and lines starting with `#` are
//! comments):
//!
//! ```text
//! MOVES | VALUE | BEST | NODES
//! a1 h8 | win | b1 | 123456
//! ```
//!
//! MOVES is the game from the empty cave (`-` for the empty cave itself), VALUE what df-pn
//! proved for the side to move (`win`, `loss`, `tie`, `tie-or-better`, `tie-or-worse`), BEST
//! the proving move of a win or the holding move of a tie (`-` when there is none), NODES the
//! nodes df-pn searched for it with the default table (each of its two searches fits in that
//! many; `engines/tests/cave_proven.rs` proves every line again within it).

use std::collections::HashMap;
use std::sync::OnceLock;

use parlor_shared::cave::{Position, Square};

use super::board::position_key;
use super::{Solution, Value};
use crate::cave::strong::transform;

/// The first lines of a written book.
pub const HEADER: &str = "\
# Magnetic Cave positions proved by df-pn (engines/src/cave/dfpn), written by
# `client cave prove --write levels/cave/proven.txt`; the strong engine plays the stored
# move of every win, in the position and in its mirror images.
# MOVES (from the empty cave, - for none) | VALUE for the side to move | BEST (- for none) | NODES
# (NODES: what df-pn searched for it with the default table)
";

/// One stored result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub moves: Vec<Square>,
    pub value: Value,
    pub best: Option<Square>,
    pub nodes: u64,
}

impl Line {
    pub fn new(moves: Vec<Square>, solution: &Solution) -> Line {
        Line {
            moves,
            value: solution.value,
            best: solution.best,
            nodes: solution.nodes,
        }
    }

    /// The line as it is written in the file.
    pub fn text(&self) -> String {
        let moves: Vec<String> = self.moves.iter().map(Square::to_string).collect();
        let moves = if moves.is_empty() {
            "-".to_string()
        } else {
            moves.join(" ")
        };
        let best = self.best.map_or("-".to_string(), |s| s.to_string());
        format!("{moves} | {} | {best} | {}", self.value.name(), self.nodes)
    }

    /// The position after the line's moves.
    pub fn position(&self) -> Position {
        Position::from_moves(&self.moves).expect("parsed lines are legal games")
    }
}

/// Parses a book; an error names the line and what is wrong with it.
pub fn parse(text: &str) -> Result<Vec<Line>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .map(|(index, line)| parse_line(line).map_err(|e| format!("line {}: {e}", index + 1)))
        .collect()
}

fn parse_line(line: &str) -> Result<Line, String> {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let [moves, value, best, nodes] = fields[..] else {
        return Err("expected MOVES | VALUE | BEST | NODES".into());
    };
    let square = |word: &str| word.parse::<Square>().map_err(|e| format!("{word}: {e}"));
    let moves = match moves {
        "-" => Vec::new(),
        moves => moves
            .split_whitespace()
            .map(square)
            .collect::<Result<_, _>>()?,
    };
    let position =
        Position::from_moves(&moves).map_err(|(ply, e)| format!("move {}: {e}", ply + 1))?;
    let value = Value::from_name(value).ok_or_else(|| format!("unknown value {value:?}"))?;
    let best = match best {
        "-" => None,
        best => Some(square(best)?),
    };
    if let Some(best) = best {
        position
            .check(best)
            .map_err(|e| format!("best move {best}: {e}"))?;
    }
    let nodes = nodes.parse().map_err(|e| format!("nodes {nodes:?}: {e}"))?;
    Ok(Line {
        moves,
        value,
        best,
        nodes,
    })
}

/// Stored results by position, up to mirror images.
#[derive(Debug, Default)]
pub struct Book {
    /// Value and best move (as a cell of the canonical image) by canonical key.
    entries: HashMap<(u64, u64), (Value, Option<u8>)>,
}

impl Book {
    pub fn new(lines: &[Line]) -> Book {
        let entries = lines
            .iter()
            .map(|line| {
                let (key, symmetry) = position_key(&line.position());
                let best = line.best.map(|s| transform(symmetry, s.index()));
                (key, (line.value, best))
            })
            .collect();
        Book { entries }
    }

    /// The stored value of `position` or of one of its mirror images, with the best move
    /// carried over to `position`.
    pub fn lookup(&self, position: &Position) -> Option<(Value, Option<Square>)> {
        let (key, symmetry) = position_key(position);
        let &(value, best) = self.entries.get(&key)?;
        let best = best.and_then(|cell| Square::from_index(transform(symmetry, cell)));
        Some((value, best))
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// The text of `levels/cave/proven.txt`, built in.
pub const PROVEN: &str = include_str!("../../../../levels/cave/proven.txt");

/// The built-in book, parsed once.
pub fn proven() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| Book::new(&parse(PROVEN).expect("levels/cave/proven.txt parses")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squares(text: &str) -> Vec<Square> {
        text.split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect()
    }

    #[test]
    fn lines_round_trip_and_bad_lines_are_named() {
        let text = format!("{HEADER}\na1 h8 | win | b1 | 42\n- | unknown | - | 7\n");
        let lines = parse(&text).unwrap();
        assert_eq!(lines[0].moves, squares("a1 h8"));
        assert_eq!(lines[0].best, Some("b1".parse().unwrap()));
        assert_eq!(lines[1].value, Value::Unknown);
        let written: Vec<String> = lines.iter().map(Line::text).collect();
        assert_eq!(written, ["a1 h8 | win | b1 | 42", "- | unknown | - | 7"]);
        let bad = parse("a1 | win | c5 | 3").unwrap_err();
        assert!(bad.starts_with("line 1: best move c5"), "{bad}");
        assert!(
            parse("a1 | sure | - | 3")
                .unwrap_err()
                .contains("unknown value")
        );
        assert!(parse("a1 | win | -").is_err());
    }

    #[test]
    fn a_stored_move_is_found_in_every_mirror_image() {
        let stored = Line {
            moves: squares("a1 h8"),
            value: Value::Win,
            best: Some("b1".parse().unwrap()),
            nodes: 1,
        };
        let book = Book::new(&[stored]);
        let mirrored = Position::from_moves(&squares("h1 a8")).unwrap();
        assert_eq!(
            book.lookup(&mirrored),
            Some((Value::Win, Some("g1".parse().unwrap())))
        );
        let upside_down = Position::from_moves(&squares("a8 h1")).unwrap();
        assert_eq!(book.lookup(&upside_down).unwrap().1, "b8".parse().ok());
        let other = Position::from_moves(&squares("a1 h7")).unwrap();
        assert_eq!(book.lookup(&other), None);
    }
}
