//! What the console modes share: reading the person's answers line by line.

use std::io::{BufRead, Read};

/// The longest line read whole; no answer comes near it. The rest of a longer line is skipped,
/// so input without line breaks cannot fill the memory.
pub const MAX_LINE_BYTES: usize = 4096;

/// Reads one line with surrounding whitespace removed; `None` at end of input. Bytes that are
/// not UTF-8 become U+FFFD, and a line over [`MAX_LINE_BYTES`] is cut there and ends in `…`:
/// either way its parser refuses it with a message, and the game goes on.
pub fn read_trimmed_line(input: &mut impl BufRead) -> anyhow::Result<Option<String>> {
    let mut bytes = Vec::new();
    let limit = MAX_LINE_BYTES as u64 + 1;
    if input.by_ref().take(limit).read_until(b'\n', &mut bytes)? == 0 {
        return Ok(None);
    }
    let cut = bytes.len() > MAX_LINE_BYTES && !bytes.ends_with(b"\n");
    if cut {
        bytes.truncate(MAX_LINE_BYTES);
        input.skip_until(b'\n')?;
    }
    let mut line = String::from_utf8_lossy(&bytes).trim().to_string();
    if cut {
        line.push('…');
    }
    Ok(Some(line))
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

    #[test]
    fn bytes_that_are_not_utf8_and_overlong_lines_read_as_refusable_text() {
        let longest = "x".repeat(MAX_LINE_BYTES);
        let overlong = "y".repeat(3 * MAX_LINE_BYTES);
        // UTF-8 "dé", then Latin-1 "ÿ4" (0xFF is never UTF-8), then the long lines.
        let mut bytes = b"d\xc3\xa9\n\xff4\n".to_vec();
        bytes.extend(format!("{longest}\n{overlong}\nd4\n").into_bytes());
        let mut input = Cursor::new(bytes);
        let mut next = || read_trimmed_line(&mut input).unwrap();
        assert_eq!(next().as_deref(), Some("d\u{e9}"));
        assert_eq!(next().as_deref(), Some("\u{fffd}4"));
        assert_eq!(next(), Some(longest), "a line of the limit is whole");
        let cut = next().unwrap();
        assert_eq!(cut, format!("{}…", &overlong[..MAX_LINE_BYTES]));
        assert_eq!(
            next().as_deref(),
            Some("d4"),
            "the rest of the long line is skipped"
        );
        assert_eq!(next(), None);
    }
}
