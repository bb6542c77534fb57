//! What the console modes share: reading the person's answers line by line.

use std::io::BufRead;

/// Reads one line with surrounding whitespace removed; `None` at end of input.
pub fn read_trimmed_line(input: &mut impl BufRead) -> anyhow::Result<Option<String>> {
    let mut line = String::new();
    Ok(match input.read_line(&mut line)? {
        0 => None,
        _ => Some(line.trim().to_string()),
    })
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    #[test]
    fn lines_come_trimmed_and_the_end_of_input_is_none() {
        let mut input = Cursor::new("  d4 \r\n\nlast");
        assert_eq!(
            read_trimmed_line(&mut input).unwrap().as_deref(),
            Some("d4")
        );
        assert_eq!(read_trimmed_line(&mut input).unwrap().as_deref(), Some(""));
        assert_eq!(
            read_trimmed_line(&mut input).unwrap().as_deref(),
            Some("last")
        );
        assert_eq!(read_trimmed_line(&mut input).unwrap(), None);
    }
}
