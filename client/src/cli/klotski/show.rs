//! `client klotski show --moves FILE < input`: a list of slides played on the puzzle read from
//! standard input, in the window's replay view (the one a finished room's record opens in).
//! The moves file is `terminal`'s answer (`Yes`, the count, one `x S` line per step) or just
//! the `x S` lines.

use anyhow::{Context, bail};
use parlor_shared::klotski::Move;

/// The slides of a moves file; a line that is no slide, a count that does not match or a
/// `No` answer is an error naming the line.
pub fn parse_moves_file(text: &str) -> anyhow::Result<Vec<Move>> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty())
        .peekable();
    let mut count = None;
    match lines.peek() {
        Some((_, "No")) => bail!("the moves file answers No: there are no slides to show"),
        Some((_, "Yes")) => {
            lines.next();
            let (number, line) = lines.next().context("the moves file ends after Yes")?;
            let steps: usize = line
                .parse()
                .with_context(|| format!("line {number}: {line:?} is not a step count"))?;
            count = Some(steps);
        }
        _ => {}
    }
    let moves = lines
        .map(|(number, line)| {
            line.parse::<Move>()
                .map_err(|error| anyhow::anyhow!("line {number}: {error}"))
        })
        .collect::<anyhow::Result<Vec<Move>>>()?;
    if let Some(steps) = count.filter(|&steps| steps != moves.len()) {
        bail!(
            "the moves file announces {steps} steps but lists {}",
            moves.len()
        );
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_answers_and_bare_slide_lists_are_read() {
        let moves = parse_moves_file("Yes\n2\n9 L\n5 U\n").unwrap();
        let text: Vec<String> = moves.iter().map(Move::to_string).collect();
        assert_eq!(text, ["9 L", "5 U"]);
        assert_eq!(parse_moves_file("\n9 L\r\n\n5 U").unwrap(), moves);
        assert!(parse_moves_file("").unwrap().is_empty());
    }

    #[test]
    fn bad_files_say_which_line_is_wrong() {
        let error = |text: &str| parse_moves_file(text).unwrap_err().to_string();
        assert!(error("No\n").contains("answers No"));
        assert!(error("Yes\n").contains("ends after Yes"));
        assert!(error("Yes\nmany\n").starts_with("line 2: \"many\""));
        assert!(error("Yes\n3\n9 L\n").contains("announces 3 steps but lists 1"));
        // The line with the reason, not the line alone.
        assert_eq!(
            error("9 L\n5 X\n"),
            "line 2: \"5 X\" is not a move: expected a number and one of L, R, U, D, e.g. \"16 U\""
        );
    }
}
