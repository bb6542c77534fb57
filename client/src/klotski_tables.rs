//! Numeric Klotski's pattern tables kept in the machine's cache folder (`PARLOR_HOME/cache`,
//! else the platform's), so that they are built once per machine rather than once per process:
//! the 4x4 tables take seconds to build and 32 MiB to keep. A file carries its format's name
//! and version, the board size, each table's length, and a checksum of all of it (64 bits,
//! eight bytes a step: it guards against damage, not against someone who means it, and reads
//! 32 MiB in milliseconds); a file that is damaged, of another version or not ours is never
//! trusted: the tables are built again and the file replaced.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use parlor_engines::klotski::{TableStore, table_lengths};

/// What a table file starts with.
const MAGIC: &[u8] = b"PARLOR KLOTSKI PATTERN TABLES\n";
/// The layout of the file and of the tables in it: a change of either raises it.
pub const TABLES_VERSION: u32 = 1;
const CHECKSUM_BYTES: usize = 8;

/// The table files of one cache folder.
pub struct TableCache {
    folder: PathBuf,
}

impl TableCache {
    pub fn new(cache_folder: &Path) -> TableCache {
        TableCache {
            folder: cache_folder.to_path_buf(),
        }
    }

    /// The file of a `rows` x `cols` board's tables.
    pub fn file(&self, rows: u8, cols: u8) -> PathBuf {
        self.folder
            .join(format!("klotski-tables-{rows}x{cols}.bin"))
    }

    /// The tables kept for a `rows` x `cols` board, or why there are none to use.
    pub fn read(&self, rows: u8, cols: u8) -> Result<Vec<Vec<u8>>, String> {
        let path = self.file(rows, cols);
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Err("not built yet".into());
            }
            Err(error) => return Err(format!("cannot be read: {error}")),
        };
        decode(&bytes, rows, cols)
    }

    /// Writes the tables of a `rows` x `cols` board, replacing any old file whole.
    pub fn write(&self, rows: u8, cols: u8, tables: &[Vec<u8>]) -> anyhow::Result<PathBuf> {
        std::fs::create_dir_all(&self.folder)
            .with_context(|| format!("cannot create {}", self.folder.display()))?;
        let path = self.file(rows, cols);
        crate::out_file::write(&path, encode(rows, cols, tables))?;
        Ok(path)
    }

    /// The table files in the folder, with the board size their names give.
    fn files(&self) -> Vec<(PathBuf, (u8, u8))> {
        let Ok(entries) = std::fs::read_dir(&self.folder) else {
            return Vec::new();
        };
        let mut found: Vec<_> = entries
            .flatten()
            .filter_map(|entry| {
                let name = entry.file_name().into_string().ok()?;
                let size = name.strip_prefix("klotski-tables-")?.strip_suffix(".bin")?;
                let (rows, cols) = size.split_once('x')?;
                Some((entry.path(), (rows.parse().ok()?, cols.parse().ok()?)))
            })
            .collect();
        found.sort();
        found
    }

    /// The table files in the folder, each with its size in bytes and whether it can be used
    /// (which reads it whole).
    pub fn status(&self) -> Vec<(PathBuf, u64, Result<(), String>)> {
        (self.files().into_iter())
            .map(|(path, (rows, cols))| {
                let bytes = std::fs::metadata(&path).map_or(0, |meta| meta.len());
                let usable = self.read(rows, cols).map(|_| ());
                (path, bytes, usable)
            })
            .collect()
    }

    /// Deletes every table file; how many there were.
    pub fn clear(&self) -> anyhow::Result<usize> {
        let files = self.files();
        for (path, _) in &files {
            std::fs::remove_file(path)
                .with_context(|| format!("cannot delete {}", path.display()))?;
        }
        Ok(files.len())
    }
}

impl TableStore for TableCache {
    fn load(&self, rows: u8, cols: u8) -> Option<Vec<Vec<u8>>> {
        match self.read(rows, cols) {
            Ok(tables) => Some(tables),
            Err(why) => {
                // Said where the person sees it: the search waits seconds for the build.
                let _ = writeln!(
                    std::io::stderr(),
                    "klotski: the {rows}x{cols} pattern tables in {} are {why}; building them \
                     now (once; `client klotski tables build` does it ahead)",
                    self.folder.display()
                );
                None
            }
        }
    }

    fn save(&self, rows: u8, cols: u8, tables: &[Vec<u8>]) {
        if let Err(error) = self.write(rows, cols, tables) {
            let _ = writeln!(
                std::io::stderr(),
                "klotski: the pattern tables could not be kept: {error:#}"
            );
        }
    }
}

/// A 64-bit checksum of `bytes`, eight at a time: each word is mixed in by a multiply and a
/// rotation, so a changed, moved or missing byte changes the sum.
fn checksum(bytes: &[u8]) -> u64 {
    const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut words = bytes.chunks_exact(8);
    let mut sum = bytes.len() as u64;
    for word in words.by_ref() {
        let word = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        sum = (sum ^ word).wrapping_mul(MULTIPLIER).rotate_left(29);
    }
    for &byte in words.remainder() {
        sum = (sum ^ u64::from(byte))
            .wrapping_mul(MULTIPLIER)
            .rotate_left(29);
    }
    sum
}

fn encode(rows: u8, cols: u8, tables: &[Vec<u8>]) -> Vec<u8> {
    let mut bytes = MAGIC.to_vec();
    bytes.extend(TABLES_VERSION.to_le_bytes());
    bytes.extend([rows, cols]);
    bytes.extend((tables.len() as u32).to_le_bytes());
    for table in tables {
        bytes.extend((table.len() as u64).to_le_bytes());
    }
    for table in tables {
        bytes.extend(table);
    }
    let checksum = checksum(&bytes);
    bytes.extend(checksum.to_le_bytes());
    bytes
}

fn decode(bytes: &[u8], rows: u8, cols: u8) -> Result<Vec<Vec<u8>>, String> {
    let damaged = || "damaged (they will be built again)".to_string();
    let body_len = bytes
        .len()
        .checked_sub(CHECKSUM_BYTES)
        .ok_or_else(damaged)?;
    let (body, checksum) = bytes.split_at(body_len);
    let rest = body.strip_prefix(MAGIC).ok_or("not Parlor's table file")?;
    let stored = checksum.try_into().ok().map(u64::from_le_bytes);
    if stored != Some(self::checksum(body)) {
        return Err(damaged());
    }
    let (version, rest) = rest.split_first_chunk::<4>().ok_or_else(damaged)?;
    let version = u32::from_le_bytes(*version);
    if version != TABLES_VERSION {
        return Err(format!("of format {version}, not {TABLES_VERSION}"));
    }
    let ([file_rows, file_cols], rest) = rest.split_first_chunk::<2>().ok_or_else(damaged)?;
    if (*file_rows, *file_cols) != (rows, cols) {
        return Err(format!("for {file_rows}x{file_cols} boards"));
    }
    let (count, mut rest) = rest.split_first_chunk::<4>().ok_or_else(damaged)?;
    let expected = table_lengths(rows, cols);
    if u32::from_le_bytes(*count) as usize != expected.len() {
        return Err(damaged());
    }
    for &length in &expected {
        let (stored, after) = rest.split_first_chunk::<8>().ok_or_else(damaged)?;
        if u64::from_le_bytes(*stored) != length as u64 {
            return Err(damaged());
        }
        rest = after;
    }
    let mut tables = Vec::with_capacity(expected.len());
    for length in expected {
        let (table, after) = rest.split_at_checked(length).ok_or_else(damaged)?;
        tables.push(table.to_vec());
        rest = after;
    }
    if !rest.is_empty() {
        return Err(damaged());
    }
    Ok(tables)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tables of the right lengths for a 3x3 board, with made-up contents.
    fn small_tables() -> Vec<Vec<u8>> {
        (table_lengths(3, 3).into_iter().enumerate())
            .map(|(index, length)| vec![index as u8 + 1; length])
            .collect()
    }

    #[test]
    fn kept_tables_come_back_and_damaged_foreign_or_other_files_are_refused() {
        let folder = tempfile::tempdir().unwrap();
        let cache = TableCache::new(folder.path());
        assert_eq!(cache.read(3, 3).unwrap_err(), "not built yet");
        let tables = small_tables();
        let path = cache.write(3, 3, &tables).unwrap();
        assert_eq!(cache.read(3, 3).unwrap(), tables);
        assert_eq!(cache.load(3, 3), Some(tables.clone()));
        let status = cache.status();
        assert_eq!(status.len(), 1);
        assert!(status[0].2.is_ok());

        // One byte changed anywhere: the checksum refuses it.
        let mut bytes = std::fs::read(&path).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(cache.read(3, 3).unwrap_err().contains("damaged"));
        assert_eq!(cache.load(3, 3), None, "built again, not trusted");
        // Cut short, or another program's file.
        std::fs::write(&path, &bytes[..10]).unwrap();
        assert!(cache.read(3, 3).is_err());
        std::fs::write(
            &path,
            b"some other program's file, long enough to have a checksum",
        )
        .unwrap();
        assert_eq!(cache.read(3, 3).unwrap_err(), "not Parlor's table file");
        // A file of another board size under this name.
        std::fs::write(&path, encode(3, 4, &small_tables())).unwrap();
        assert!(cache.read(3, 3).unwrap_err().contains("3x4"));
        assert!(cache.status()[0].2.is_err());
        assert_eq!(cache.clear().unwrap(), 1);
        assert!(cache.status().is_empty());
    }
}
