//! Reading what a person hands over whole: the text files they name, on the command line or in
//! the window's folders, and standard input; always with a size limit. One leading UTF-8 byte
//! order mark (which some Windows editors write) is skipped, so such a file reads as without.

use std::io::{self, Read};
use std::path::Path;

/// The largest text file read. Every level, moves file, position list and brain is far smaller;
/// a bigger one (or one that never ends, like /dev/zero) is refused instead of filling the
/// memory.
pub const MAX_TEXT_FILE_BYTES: u64 = 64 << 20;

/// `std::fs::read_to_string` that refuses a file over [`MAX_TEXT_FILE_BYTES`] with an
/// `InvalidData` error, which callers put in context like any other read error, and skips a
/// leading byte order mark (see [`text_from_utf8`]).
pub fn read_text_file(path: impl AsRef<Path>) -> io::Result<String> {
    let invalid = |message: String| io::Error::new(io::ErrorKind::InvalidData, message);
    let bytes =
        read_at_most(std::fs::File::open(path)?, MAX_TEXT_FILE_BYTES)?.ok_or_else(|| {
            invalid(format!(
                "over {} MiB, larger than any file this reads",
                MAX_TEXT_FILE_BYTES >> 20
            ))
        })?;
    // Worded as standard input's refusal (`klotski terminal`) is.
    text_from_utf8(bytes)
        .map_err(|error| invalid(format!("not UTF-8 text: {}", error.utf8_error())))
}

/// The UTF-8 byte order mark, U+FEFF.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

/// `String::from_utf8` without one leading byte order mark: left in, it became part of the
/// first word (`"\u{feff}2" is not a whole number`, a player named with it).
pub fn text_from_utf8(mut bytes: Vec<u8>) -> Result<String, std::string::FromUtf8Error> {
    if bytes.starts_with(BYTE_ORDER_MARK) {
        bytes.drain(..BYTE_ORDER_MARK.len());
    }
    String::from_utf8(bytes)
}

/// All of `input`, or `None` when it runs past `limit` bytes: reading stops one byte beyond,
/// so input that never ends costs no more than the limit.
pub fn read_at_most(input: impl Read, limit: u64) -> io::Result<Option<Vec<u8>>> {
    let mut bytes = Vec::new();
    input.take(limit + 1).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= limit).then_some(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_read_whole_and_an_endless_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let level = dir.path().join("level.txt");
        std::fs::write(&level, "2 2\n1 2\n3 0\n0\n").unwrap();
        assert_eq!(read_text_file(&level).unwrap(), "2 2\n1 2\n3 0\n0\n");
        // /dev/zero never ends: the read stops one byte past the limit.
        let endless = read_text_file("/dev/zero").unwrap_err();
        assert_eq!(endless.kind(), io::ErrorKind::InvalidData);
        let junk = dir.path().join("junk");
        std::fs::write(&junk, b"2 2\n\xff\xfe").unwrap();
        let refused = read_text_file(&junk).unwrap_err().to_string();
        assert_eq!(
            refused,
            "not UTF-8 text: invalid utf-8 sequence of 1 bytes from index 4"
        );
        assert!(endless.to_string().contains("over 64 MiB"), "{endless}");
        let missing = read_text_file(dir.path().join("missing.txt")).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
    }

    #[test]
    fn one_leading_byte_order_mark_is_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let level = dir.path().join("level.txt");
        std::fs::write(&level, "\u{feff}2 2\n1 2\n3 0\n0\n").unwrap();
        assert_eq!(read_text_file(&level).unwrap(), "2 2\n1 2\n3 0\n0\n");
        let twice = "\u{feff}\u{feff}x".as_bytes().to_vec();
        assert_eq!(text_from_utf8(twice).unwrap(), "\u{feff}x");
        assert_eq!(text_from_utf8(b"\xEF\xBB".to_vec()).ok(), None);
        assert_eq!(text_from_utf8(Vec::new()).unwrap(), "");
    }
}
