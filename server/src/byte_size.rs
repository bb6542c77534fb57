//! A number of bytes as people write it: `4G`, `4 GiB`, `512MiB`, `65536`. Binary units (a
//! K is 1024 bytes), as disks and `du -h` count them. Shown back in the largest unit that
//! divides it exactly, so what `server --help` shows as a default reads back as itself.

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
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len());
        let (number, unit) = text.split_at(digits);
        let unit = unit.trim();
        let number: u64 = number
            .parse()
            .map_err(|_| format!("{text:?} is not a size: write it as 4G, 512MiB or 65536"))?;
        let multiplier = match UNITS.iter().find(|(short, long, _)| {
            unit.eq_ignore_ascii_case(short) || unit.eq_ignore_ascii_case(long)
        }) {
            Some(&(_, _, unit)) => unit,
            None if unit.is_empty()
                || unit.eq_ignore_ascii_case("B")
                || unit.eq_ignore_ascii_case("bytes") =>
            {
                1
            }
            None => return Err(format!("{unit:?} is not a unit: use K, M, G or T (KiB...)")),
        };
        number
            .checked_mul(multiplier)
            .map(ByteSize)
            .ok_or_else(|| format!("{text:?} is more bytes than a u64 holds"))
    }
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
        for text in ["", "G", "4 GB", "4X", "-4G", "1.5G", "20000000T"] {
            assert!(text.parse::<ByteSize>().is_err(), "{text}");
        }
    }
}
