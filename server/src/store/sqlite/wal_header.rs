//! The WAL's header, checked before SQLite opens the database. SQLite takes a WAL whose header
//! does not hold (a damaged first sector) for an empty one, and starts it over: the commits
//! not yet copied back into the database (up to a second of them) would be gone without a
//! word, and the ids they took handed out again. The header's layout and checksum are
//! SQLite's (sqlite.org/fileformat.html, "WAL file format").

use std::io::Read;
use std::path::Path;

use anyhow::{Context, bail};

/// The header's length; its checksum covers the bytes before its last eight.
const HEADER_BYTES: usize = 32;
/// The magic numbers: the checksums' words are read little-endian, or big-endian.
const MAGIC_LITTLE: u32 = 0x377f_0682;
const MAGIC_BIG: u32 = 0x377f_0683;
/// The only WAL format version there is.
const FORMAT_VERSION: u32 = 3_007_000;

/// Refuses a WAL beside `database` whose header is not one SQLite wrote. A WAL missing, or too
/// short to hold a header (nothing was committed through it), is no concern.
pub(super) fn check(database: &Path) -> anyhow::Result<()> {
    let mut wal = database.as_os_str().to_owned();
    wal.push("-wal");
    let wal = Path::new(&wal);
    let mut header = [0u8; HEADER_BYTES];
    let read = match std::fs::File::open(wal) {
        Ok(file) => file.take(HEADER_BYTES as u64).read(&mut header),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(error) => Err(error),
    };
    let read = read.with_context(|| format!("cannot read {}", wal.display()))?;
    if read < HEADER_BYTES || holds(&header) {
        return Ok(());
    }
    bail!(
        "its WAL {} is damaged (its header is not SQLite's), and opening it would throw away \
         the commits it holds that are not yet in {}: restore both files from a copy, or move \
         the WAL away to start from what the database holds",
        wal.display(),
        database.display()
    )
}

/// Whether `header` is a WAL header as SQLite writes it: its magic, its version and its
/// checksum.
fn holds(header: &[u8; HEADER_BYTES]) -> bool {
    let word = |at: usize| u32::from_be_bytes(header[at..at + 4].try_into().unwrap());
    let big = match word(0) {
        MAGIC_LITTLE => false,
        MAGIC_BIG => true,
        _ => return false,
    };
    word(4) == FORMAT_VERSION && checksum(&header[..24], big) == (word(24), word(28))
}

/// SQLite's WAL checksum of `bytes` (a multiple of eight), its words read in the byte order
/// the magic number gives.
fn checksum(bytes: &[u8], big: bool) -> (u32, u32) {
    let word = |chunk: &[u8]| {
        let bytes: [u8; 4] = chunk.try_into().unwrap();
        if big {
            u32::from_be_bytes(bytes)
        } else {
            u32::from_le_bytes(bytes)
        }
    };
    (bytes.chunks_exact(8)).fold((0u32, 0u32), |(s0, s1), pair| {
        let s0 = s0.wrapping_add(word(&pair[..4])).wrapping_add(s1);
        let s1 = s1.wrapping_add(word(&pair[4..])).wrapping_add(s0);
        (s0, s1)
    })
}
