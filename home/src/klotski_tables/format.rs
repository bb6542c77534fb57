//! A table file: a header of one page, then the tables. The header holds the format's name and
//! version, the board size, the split's name, each table's length and a checksum of the
//! tables; the tables start on a page boundary, so a mapped file is read in place.

use parlor_engines::klotski::TableSpec;

/// What a table file starts with.
pub const MAGIC: &[u8] = b"PARLOR KLOTSKI PATTERN TABLES\n";
/// The layout of the file and of the tables in it: a change of either raises it. Version 1
/// was one byte a 4-bit-indexed entry (6-6-3 only), read whole.
pub const TABLES_VERSION: u32 = 2;
/// The header's size: one page.
pub const HEADER_BYTES: usize = 4096;

/// What a file's header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub rows: u8,
    pub cols: u8,
    pub name: String,
    pub lengths: Vec<u64>,
    pub checksum: u64,
}

impl Header {
    /// The header of `spec`'s tables with this checksum.
    pub fn of(spec: &TableSpec, checksum: u64) -> Header {
        Header {
            rows: spec.rows,
            cols: spec.cols,
            name: spec.name(),
            lengths: spec.table_bytes().iter().map(|&len| len as u64).collect(),
            checksum,
        }
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend(TABLES_VERSION.to_le_bytes());
        bytes.extend([self.rows, self.cols, self.name.len() as u8]);
        bytes.extend(self.name.as_bytes());
        bytes.extend((self.lengths.len() as u32).to_le_bytes());
        for length in &self.lengths {
            bytes.extend(length.to_le_bytes());
        }
        bytes.extend(self.checksum.to_le_bytes());
        bytes.resize(HEADER_BYTES, 0);
        bytes
    }

    /// The header at the start of `file`, or why it is not one this program reads.
    pub fn decode(file: &[u8]) -> Result<Header, String> {
        let cut = || "damaged: its header is cut short".to_string();
        let header = file.get(..HEADER_BYTES).ok_or_else(cut)?;
        let rest = header
            .strip_prefix(MAGIC)
            .ok_or("not Parlor's table file")?;
        let (version, rest) = rest.split_first_chunk::<4>().ok_or_else(cut)?;
        let version = u32::from_le_bytes(*version);
        if version != TABLES_VERSION {
            return Err(format!("of format {version}, not {TABLES_VERSION}"));
        }
        let ([rows, cols, name_len], rest) = rest.split_first_chunk::<3>().ok_or_else(cut)?;
        let (name, rest) = rest
            .split_at_checked(usize::from(*name_len))
            .ok_or_else(cut)?;
        let name = std::str::from_utf8(name).map_err(|_| "damaged: its header is garbled")?;
        let (count, mut rest) = rest.split_first_chunk::<4>().ok_or_else(cut)?;
        let count = u32::from_le_bytes(*count);
        if count > 8 {
            return Err("damaged: its header is garbled".into());
        }
        let mut lengths = Vec::new();
        for _ in 0..count {
            let (length, after) = rest.split_first_chunk::<8>().ok_or_else(cut)?;
            lengths.push(u64::from_le_bytes(*length));
            rest = after;
        }
        let (checksum, _) = rest.split_first_chunk::<8>().ok_or_else(cut)?;
        Ok(Header {
            rows: *rows,
            cols: *cols,
            name: name.to_string(),
            lengths,
            checksum: u64::from_le_bytes(*checksum),
        })
    }

    /// Whether this header is that of `spec`'s tables; why not otherwise.
    pub fn check(&self, spec: &TableSpec) -> Result<(), String> {
        let expected = Header::of(spec, self.checksum);
        if (self.rows, self.cols, &self.name) != (expected.rows, expected.cols, &expected.name) {
            return Err(format!(
                "for the {}x{} {} split",
                self.rows, self.cols, self.name
            ));
        }
        if self.lengths != expected.lengths {
            return Err("damaged: its tables are of other sizes".into());
        }
        Ok(())
    }

    /// Where each table lies in the file.
    pub fn ranges(&self) -> Vec<std::ops::Range<usize>> {
        let mut start = HEADER_BYTES;
        (self.lengths.iter())
            .map(|&length| {
                let range = start..start + length as usize;
                start = range.end;
                range
            })
            .collect()
    }

    /// Whether the tables of `file` (whose length was checked) sum to the header's checksum.
    pub fn sums_up(&self, file: &[u8]) -> bool {
        let tables: Vec<&[u8]> = self
            .ranges()
            .into_iter()
            .map(|range| &file[range])
            .collect();
        tables_checksum(&tables) == self.checksum
    }

    /// The file's length: the header and the tables.
    pub fn file_len(&self) -> u64 {
        HEADER_BYTES as u64 + self.lengths.iter().sum::<u64>()
    }
}

/// The checksum of a set of tables: each table's, mixed in order.
pub fn tables_checksum(tables: &[&[u8]]) -> u64 {
    (tables.iter()).fold(tables.len() as u64, |sum, table| {
        (sum ^ checksum(table))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29)
    })
}

/// A 64-bit checksum of `bytes`: four lanes of eight bytes each, each word mixed in by a
/// multiply and a rotation, so a changed, moved or missing byte changes the sum; four lanes
/// so that 300 MB are summed in a tenth of a second. It guards against damage, not against
/// someone who means it.
pub fn checksum(bytes: &[u8]) -> u64 {
    const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;
    let mix = |sum: u64, word: u64| (sum ^ word).wrapping_mul(MULTIPLIER).rotate_left(29);
    let mut lanes = [1u64, 2, 3, 4];
    let mut blocks = bytes.chunks_exact(32);
    for block in blocks.by_ref() {
        for (lane, word) in lanes.iter_mut().zip(block.chunks_exact(8)) {
            *lane = mix(
                *lane,
                u64::from_le_bytes(word.try_into().expect("eight bytes")),
            );
        }
    }
    let mut sum = bytes.len() as u64;
    for lane in lanes {
        sum = mix(sum, lane);
    }
    for &byte in blocks.remainder() {
        sum = mix(sum, u64::from(byte));
    }
    sum
}
