//! A number of bytes as people write it: `4G`, `1.5G`, `4 GiB`, `512MiB`, `65536`. Binary
//! units (a K is 1024 bytes, so 1.5G is 1.5 * 2^30 bytes), as disks and `du -h` count them.
//! Shown back in the largest unit that divides it exactly, so what `server --help` shows as a
//! default reads back as itself.

use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByteSize(pub u64);

/// Units from the largest, with their short and long names.
const UNITS: [(&str, &str, u64); 4] = [
    ("T", "TiB", 1 << 40),
    ("G", "GiB", 1 << 30),
    ("M", "MiB", 1 << 20),
    ("K", "KiB", 1 << 10),
];

impl fmt::Display for ByteSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bytes = self.0;
        match UNITS
            .iter()
            .find(|&&(_, _, unit)| bytes != 0 && bytes.is_multiple_of(unit))
        {
            Some((_, name, unit)) => write!(f, "{} {name}", bytes / unit),
            None => write!(f, "{bytes} bytes"),
        }
    }
}

impl FromStr for ByteSize {
    type Err = String;

    fn from_str(text: &str) -> Result<ByteSize, String> {
        let text = text.trim();
        let digits = text
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(text.len());
        let (number, unit) = text.split_at(digits);
        let unit = unit.trim();
        let not_a_size =
            || format!("{text:?} is not a size: write it as 4G, 1.5G, 512MiB or 65536");
        // `number` holds only digits and points: a fraction is digits after the one point.
        let (whole, fraction) = match number.split_once('.') {
            Some((whole, fraction)) => (whole, Some(fraction)),
            None => (number, None),
        };
        let whole: u64 = whole.parse().map_err(|_| not_a_size())?;
        if fraction.is_some_and(|digits| digits.is_empty() || digits.contains('.')) {
            return Err(not_a_size());
        }
        let multiplier = match UNITS.iter().find(|(short, long, _)| {
            unit.eq_ignore_ascii_case(short) || unit.eq_ignore_ascii_case(long)
        }) {
            Some(&(_, _, unit)) => unit,
            None if unit.is_empty()
                || unit.eq_ignore_ascii_case("B")
                || unit.eq_ignore_ascii_case("bytes") =>
            {
                if fraction.is_some() {
                    let text = format!("{text:?} has a fraction of a byte");
                    return Err(format!("{text}: write whole bytes (1536) or a unit (1.5K)"));
                }
                1
            }
            None if !unit.chars().all(|c| c.is_ascii_alphabetic()) => return Err(not_a_size()),
            None => return Err(format!("{unit:?} is not a unit: use K, M, G or T (KiB...)")),
        };
        whole
            .checked_mul(multiplier)
            .and_then(|bytes| bytes.checked_add(fraction_of(fraction.unwrap_or(""), multiplier)))
            .map(ByteSize)
            .ok_or_else(|| format!("{text:?} is more bytes than a u64 holds"))
    }
}

/// The whole bytes in `0.fraction` of `unit` (decimal digits), rounded down, exactly however
/// many digits are given: multiplied in from the last digit, as by hand, each step's tenths
/// carried to the digit before it. A cap a byte lower than written harms nobody.
fn fraction_of(fraction: &str, unit: u64) -> u64 {
    // Below 10 * unit at each step (a digit's 9 * unit and a carry below unit): no overflow
    // for units up to 2^40.
    fraction.bytes().rev().fold(0, |carry, digit| {
        (u64::from(digit - b'0') * unit + carry) / 10
    })
}

#[cfg(test)]
mod tests {
    use super::ByteSize;

    #[test]
    fn sizes_read_as_people_write_them_and_show_as_they_read() {
        for (text, bytes) in [
            ("4G", 4 << 30),
            ("4 GiB", 4 << 30),
            ("4gib", 4 << 30),
            ("512M", 512 << 20),
            ("64k", 64 << 10),
            ("2T", 2 << 40),
            ("65536", 65_536),
            ("100 bytes", 100),
            ("0", 0),
            // A fraction of a unit, rounded down to whole bytes.
            ("1.5G", 3 << 29),
            ("1.5 GiB", 3 << 29),
            ("0.25T", 1 << 38),
            ("2.0M", 2 << 20),
            ("1.1K", 1126),
            ("0.0000000001K", 0),
            ("15.999999999999999999999T", (16 << 40) - 1),
        ] {
            assert_eq!(text.parse::<ByteSize>(), Ok(ByteSize(bytes)), "{text}");
        }
        for size in [4 << 30, 1536 << 20, 100_000, 0, 1, 3 << 40, u64::MAX] {
            let shown = ByteSize(size).to_string();
            assert_eq!(shown.parse::<ByteSize>(), Ok(ByteSize(size)), "{shown}");
        }
        assert_eq!(ByteSize(4 << 30).to_string(), "4 GiB");
        assert_eq!(ByteSize(1536 << 20).to_string(), "1536 MiB");
        assert_eq!(ByteSize(100_000).to_string(), "100000 bytes");
    }

    #[test]
    fn what_is_no_size_is_refused() {
        for text in [
            "",
            "G",
            "4 GB",
            "4X",
            "-4G",
            "20000000T",
            ".5G",
            "1.G",
            "1.2.3G",
            "1,5G",
            "16777216.0T",
        ] {
            assert!(text.parse::<ByteSize>().is_err(), "{text}");
        }
        let fraction_of_a_byte = "1.5".parse::<ByteSize>().unwrap_err();
        assert!(fraction_of_a_byte.contains("whole"), "{fraction_of_a_byte}");
        let misplaced = "1,5G".parse::<ByteSize>().unwrap_err();
        assert!(misplaced.contains("is not a size"), "{misplaced}");
    }
}
