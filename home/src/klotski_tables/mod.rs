//! Numeric Klotski's pattern tables kept in the machine's cache folder (`PARLOR_HOME/cache`,
//! else the platform's), so that they are built once per machine rather than once per
//! process, and mapped rather than read: a process that needs the 4x4 7-8 tables (276 MiB)
//! maps their file in well under a millisecond and the system reads only the pages its search
//! touches (shared by every process, in the page cache).
//!
//! A file carries its format's name and version, the board, the split, each table's length
//! and a checksum (`format.rs`); a file that is damaged, of another version or not ours is
//! never trusted: the search builds its small tables again (and replaces the file), or, for
//! the 7-8 ones, which take a minute or two to build, uses the small ones and says so. How a
//! process trusts a file without reading it whole is `stamp.rs`'s story.

mod format;
mod stamp;

use std::fmt::Display;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::Context;
use memmap2::Mmap;
use parlor_engines::klotski::{TableData, TableSpec, TableStore};

pub use format::TABLES_VERSION;
use format::{Header, tables_checksum};

/// Where notes go: standard error in the client, the log in the server.
type Notes = Box<dyn Fn(&str) + Send + Sync>;

/// The table files of one cache folder.
pub struct TableCache {
    folder: PathBuf,
    notes: Notes,
    /// Whether a file is read whole before its first use whatever its record says: for a
    /// process that runs for hours (a server, the window), to which a tenth of a second once
    /// is nothing, and which must not answer from a file damaged behind its record.
    check_whole: bool,
}

/// What `status` finds of one file.
pub struct FileStatus {
    pub path: PathBuf,
    pub bytes: u64,
    /// The tables it holds ("4x4 7-8"), checked byte by byte, or why it cannot be used.
    pub usable: Result<String, String>,
}

impl TableCache {
    /// The cache of `folder`, its notes written to standard error.
    pub fn new(folder: &Path) -> TableCache {
        TableCache::with_notes(
            folder,
            Box::new(|note| {
                let _ = writeln!(std::io::stderr(), "klotski: {note}");
            }),
        )
    }

    /// The cache of `folder`, its notes given to `notes`.
    pub fn with_notes(folder: &Path, notes: Notes) -> TableCache {
        TableCache {
            folder: folder.to_path_buf(),
            notes,
            check_whole: false,
        }
    }

    /// This cache, reading each file whole before its first use (see `stamp.rs` for what the
    /// record alone cannot see).
    pub fn checking_whole(self) -> TableCache {
        TableCache {
            check_whole: true,
            ..self
        }
    }

    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The file of `spec`'s tables.
    pub fn file(&self, spec: &TableSpec) -> PathBuf {
        self.folder
            .join(file_name(spec.rows, spec.cols, &spec.name()))
    }

    /// The kept tables of `spec`, mapped, or why there are none to use. A file whose header
    /// is right is trusted without reading it whole only if its verification record matches
    /// it (`stamp.rs`) and the cache is not [`checking_whole`](Self::checking_whole);
    /// otherwise it is checked whole, and deleted if damaged.
    pub fn map(&self, spec: &TableSpec) -> Result<TableData, String> {
        let path = self.file(spec);
        let (map, metadata, header) = open(&path)?;
        header.check(spec)?;
        if self.check_whole || !stamp::matches(&path, &metadata, header.checksum) {
            if !header.sums_up(&map) {
                discard(&path);
                return Err("damaged (the file is deleted)".into());
            }
            stamp::record(&path, &metadata, header.checksum);
        }
        // A search reads pages all over the tables. Ask the system to read the whole file now,
        // in the background and in order: after the file left the page cache (a reboot, or
        // others' memory needs), a search would otherwise wait on thousands of reads of one
        // page each (5 s seen for one 15-puzzle). When the file is cached this costs a walk
        // of its pages.
        let _ = map.advise(memmap2::Advice::WillNeed);
        TableData::new(Arc::new(map), header.ranges()).ok_or_else(|| "damaged: cut short".into())
    }

    /// Writes `spec`'s tables, replacing any old file whole, then checks the file written
    /// byte by byte and records that it was.
    pub fn write(&self, spec: &TableSpec, tables: &[&[u8]]) -> anyhow::Result<PathBuf> {
        std::fs::create_dir_all(&self.folder)
            .with_context(|| format!("cannot create {}", self.folder.display()))?;
        let path = self.file(spec);
        let header = Header::of(spec, tables_checksum(tables));
        // Builds of the same tables at once each write their own file; the last rename wins.
        let temp = temp_beside(&path);
        let written = write_file(&temp, &header, tables).and_then(|()| {
            std::fs::rename(&temp, &path).with_context(|| format!("renaming {}", temp.display()))
        });
        if let Err(error) = written {
            let _ = std::fs::remove_file(&temp);
            return Err(error.context(format!("writing {}", path.display())));
        }
        stamp::forget(&path);
        let (map, metadata, header) =
            open(&path).map_err(|why| anyhow::anyhow!("{}: {why}", path.display()))?;
        anyhow::ensure!(
            header.sums_up(&map),
            "{} does not read back as written",
            path.display()
        );
        stamp::record(&path, &metadata, header.checksum);
        Ok(path)
    }

    /// The table files in the folder, each checked byte by byte (and its record renewed). A
    /// damaged file is deleted, so that the next search that needs it builds it again rather
    /// than trust its record.
    pub fn status(&self) -> Vec<FileStatus> {
        (self.files().into_iter())
            .map(|path| FileStatus {
                bytes: std::fs::metadata(&path).map_or(0, |meta| meta.len()),
                usable: checked_whole(&path),
                path,
            })
            .collect()
    }

    /// Deletes every table file and its record, and what builds cut short left behind; how
    /// many table files there were.
    pub fn clear(&self) -> anyhow::Result<usize> {
        let files = self.files();
        for path in files
            .iter()
            .chain(&self.named(|name| name.ends_with(TEMP_SUFFIX)))
        {
            std::fs::remove_file(path)
                .with_context(|| format!("cannot delete {}", path.display()))?;
            stamp::forget(path);
        }
        Ok(files.len())
    }

    /// The table files in the folder (any version), by name.
    fn files(&self) -> Vec<PathBuf> {
        self.named(|name| name.ends_with(".bin"))
    }

    /// Our files in the folder whose name passes `wanted`, by name.
    fn named(&self, wanted: impl Fn(&str) -> bool) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(&self.folder) else {
            return Vec::new();
        };
        let mut found: Vec<PathBuf> = (entries.flatten())
            .filter(|entry| {
                let name = entry.file_name();
                let name = name.to_string_lossy();
                name.starts_with(FILE_PREFIX) && wanted(&name)
            })
            .map(|entry| entry.path())
            .collect();
        found.sort();
        found
    }
}

/// How every file of ours is named: the tables' files, their records and what a build writes
/// before it renames it.
const FILE_PREFIX: &str = "klotski-tables-";
/// The end of the name of a file being written, renamed when whole.
const TEMP_SUFFIX: &str = ".new";

/// The tables the file at `path` holds ("4x4 7-8"), checked byte by byte (and its record
/// renewed), or why it cannot be used. A damaged file is deleted.
fn checked_whole(path: &Path) -> Result<String, String> {
    // A file of another format is another version's, kept for it; a damaged one goes.
    let (map, metadata, header) = open(path).map_err(|why| match why.starts_with("damaged") {
        true => {
            discard(path);
            format!("{why} (deleted: built again when a search needs it)")
        }
        false => why,
    })?;
    let tables = format!("{}x{} {}", header.rows, header.cols, header.name);
    let own_name = file_name(header.rows, header.cols, &header.name);
    if path.file_name() != Some(own_name.as_ref()) {
        return Err(format!(
            "holds the {tables} tables under another name: not used"
        ));
    }
    if !header.sums_up(&map) {
        discard(path);
        return Err(
            "damaged: its checksum does not match (deleted: built again when a search needs it)"
                .to_string(),
        );
    }
    stamp::record(path, &metadata, header.checksum);
    Ok(tables)
}

/// Deletes a damaged table file and its record, so that no process trusts it again.
fn discard(path: &Path) {
    let _ = std::fs::remove_file(path);
    stamp::forget(path);
}

/// A temporary name beside `path`, for a file written whole and then renamed over it: this
/// write's own, since processes (and threads) writing the same file at once must not share
/// one, and ending in [`TEMP_SUFFIX`], so that `clear` takes what a write cut short left.
fn temp_beside(path: &Path) -> PathBuf {
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let write = WRITES.fetch_add(1, Ordering::Relaxed);
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".{}-{write}{TEMP_SUFFIX}", std::process::id()));
    PathBuf::from(name)
}

/// The name of the file of a board's tables of one split.
fn file_name(rows: impl Display, cols: impl Display, split: &str) -> String {
    format!("{FILE_PREFIX}{rows}x{cols}-{split}.bin")
}

/// The file at `path` mapped, its metadata and its header (checked against the file's
/// length), or why it cannot be used, in words that follow "the tables are".
fn open(path: &Path) -> Result<(Mmap, std::fs::Metadata, Header), String> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err("not built yet".into());
        }
        Err(error) => return Err(format!("not readable: {error}")),
    };
    let metadata = file
        .metadata()
        .map_err(|error| format!("not readable: {error}"))?;
    if !metadata.is_file() {
        return Err(format!("not readable: {} is not a file", path.display()));
    }
    // SAFETY: a mapped file must not change while mapped. Parlor never writes a table file in
    // place: it writes a new file and renames it over the old one, so a process keeps the
    // file it mapped. Another program that truncated the file in place would make reads of the
    // lost pages fault, as with any mapped file; one that wrote into it would be caught by the
    // next process's record check (`stamp.rs`), not by this one.
    let map = unsafe { Mmap::map(&file) }.map_err(|error| format!("not mappable: {error}"))?;
    let header = Header::decode(&map)?;
    if map.len() as u64 != header.file_len() {
        return Err("damaged: the file is not as long as its header says".into());
    }
    Ok((map, metadata, header))
}

fn write_file(path: &Path, header: &Header, tables: &[&[u8]]) -> anyhow::Result<()> {
    let mut out = BufWriter::new(File::create(path)?);
    out.write_all(&header.encode())?;
    for table in tables {
        out.write_all(table)?;
    }
    out.into_inner()
        .map_err(|error| error.into_error())?
        .sync_all()?;
    Ok(())
}

impl TableStore for TableCache {
    fn load(&self, spec: &TableSpec) -> Result<TableData, String> {
        self.map(spec)
    }

    fn save(&self, spec: &TableSpec, tables: &TableData) {
        if let Err(error) = self.write(spec, &tables.tables()) {
            self.note(&format!("the pattern tables could not be kept: {error:#}"));
        }
    }

    fn note(&self, text: &str) {
        (self.notes)(text);
    }
}

#[cfg(test)]
mod tests;
