//! The record that a table file's full checksum was verified: a small file beside it
//! (`<table file>.verified`) holding the file's length, modification time and inode as they
//! were when its every byte was checked, and the checksum that held then.
//!
//! Why a record rather than a check on every start: the 7-8 tables are 276 MiB, and reading
//! them whole costs a process a tenth of a second or more (as much as its whole search), so
//! a process maps the file, checks its header (format, version, board, split, lengths, the
//! file's length) and this record, and reads nothing more. The checksum is checked in full
//! when the file is written, by `client klotski tables status`, and by the first process that
//! finds the record missing or not matching the file; that process records it again, or
//! deletes the file as damaged. Whatever changes a file through the file system (another
//! program writing into it, a copy cut short, a file put in its place) changes its length,
//! modification time or inode, so the record no longer matches and the whole file is checked
//! again. What the record cannot see is damage below the file system that leaves all three
//! as they were (a failing disk), or someone who sets the time back on purpose: `tables
//! status` finds that, and so does a process that runs for hours (the server, a window),
//! which reads each file whole before its first use (`TableCache::checking_whole`). A
//! command-line search, over in milliseconds, cannot afford to and trusts the record.

use std::fs::Metadata;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

/// The record's file for a table file.
pub fn path_of(table_file: &Path) -> PathBuf {
    let mut name = table_file.as_os_str().to_owned();
    name.push(".verified");
    PathBuf::from(name)
}

/// The record's line for a file of this metadata whose tables sum to `checksum`.
fn line(metadata: &Metadata, checksum: u64) -> String {
    let modified = (metadata.modified().ok())
        .and_then(|time| time.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |since| since.as_nanos());
    format!(
        "length {} modified {modified} inode {} checksum {checksum:016x}\n",
        metadata.len(),
        inode(metadata)
    )
}

#[cfg(unix)]
fn inode(metadata: &Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::ino(metadata)
}

#[cfg(not(unix))]
fn inode(_: &Metadata) -> u64 {
    0
}

/// Whether the file of this metadata, whose header gives `checksum`, is the one verified.
pub fn matches(table_file: &Path, metadata: &Metadata, checksum: u64) -> bool {
    std::fs::read_to_string(path_of(table_file))
        .is_ok_and(|recorded| recorded == line(metadata, checksum))
}

/// Records that the file of this metadata was verified with `checksum`. A record that cannot
/// be written costs the next process a full check, nothing worse.
pub fn record(table_file: &Path, metadata: &Metadata, checksum: u64) {
    let path = path_of(table_file);
    let temp = super::temp_beside(&path);
    let written = std::fs::write(&temp, line(metadata, checksum))
        .and_then(|()| std::fs::rename(&temp, &path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
}

/// Forgets the record (the file is gone or replaced).
pub fn forget(table_file: &Path) {
    let _ = std::fs::remove_file(path_of(table_file));
}
