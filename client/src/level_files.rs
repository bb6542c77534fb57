//! Finding the level files of a folder, for the window's lobby and `client ewn bench`.

use std::io;
use std::path::{Path, PathBuf};

/// The regular files of `dir` whose names end in `.{extension}`, in no set order. Anything
/// else with such a name is left out: a folder, and above all a named pipe, whose opening
/// would wait for a writer and freeze the lobby. A symbolic link to a regular file counts.
/// Entries that cannot be looked at are left out too; only a folder that cannot be read is an
/// error.
pub fn files_with_extension(dir: &Path, extension: &str) -> io::Result<Vec<PathBuf>> {
    Ok(std::fs::read_dir(dir)?
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == extension))
        .filter(|path| std::fs::metadata(path).is_ok_and(|meta| meta.is_file()))
        .collect())
}

/// A key that sorts file stems in natural order: "level2" before "level10", by the number
/// after the leading non-digits, then by the whole stem.
pub fn natural_key(stem: &str) -> (usize, u64, String) {
    let digits = stem.trim_start_matches(|c: char| !c.is_ascii_digit());
    (
        stem.len() - digits.len(),
        digits.parse::<u64>().unwrap_or(u64::MAX),
        stem.to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn only_regular_files_with_the_extension_are_listed() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("level1.txt"), "x").unwrap();
        std::fs::write(dir.path().join("notes.md"), "x").unwrap();
        std::fs::create_dir(dir.path().join("folder.txt")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("level1.txt"), dir.path().join("link.txt"))
            .unwrap();
        std::os::unix::fs::symlink(dir.path().join("gone"), dir.path().join("dangling.txt"))
            .unwrap();
        let fifo = dir.path().join("pipe.txt");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|status| status.success()), "mkfifo");
        let mut names: Vec<String> = files_with_extension(dir.path(), "txt")
            .unwrap()
            .iter()
            .map(|path| path.file_name().unwrap().to_string_lossy().into())
            .collect();
        names.sort();
        assert_eq!(names, ["level1.txt", "link.txt"]);
        assert!(files_with_extension(&dir.path().join("missing"), "txt").is_err());
    }

    #[test]
    fn stems_sort_by_their_number() {
        let mut stems = ["level10", "level2", "b", "level1", "a"];
        stems.sort_by_key(|stem| natural_key(stem));
        assert_eq!(stems, ["a", "b", "level1", "level2", "level10"]);
    }
}
