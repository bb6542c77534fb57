//! Files the client writes (the cave book, moves and level files, brain files, charts) replace
//! the old file whole or not at all: the new one is made beside it under a temporary name and
//! renamed over it once complete. A full disk, a quota or Ctrl-C during the write leaves the old
//! file as it was, which matters most for the cave book, built up over many runs.

use std::fs::{self, File, OpenOptions};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use anyhow::{Context, anyhow};

/// Writes `contents` to `path`, replacing any old file only once the new one is whole.
pub fn write(path: &Path, contents: impl AsRef<[u8]>) -> anyhow::Result<()> {
    replace_with(path, |temp| Ok(fs::write(temp, contents)?))
}

/// Has `make` write the new file at a temporary path beside `path` (same folder, same
/// extension, for writers that pick the format by it), then renames it over `path`, keeping
/// an old file's permissions. On any error the temporary file goes and `path` is unchanged.
pub fn replace_with(
    path: &Path,
    make: impl FnOnce(&Path) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let temp = temp_path(path);
    let replaced = create_new(&temp)
        .and_then(|()| make(&temp))
        .and_then(|()| finish(path, &temp));
    if replaced.is_err() {
        let _ = fs::remove_file(&temp);
    }
    replaced.with_context(|| format!("writing {}", path.display()))
}

/// Refuses `path` unless a file could be written there, before any long work: its folder must
/// exist and take a new file, and an existing `path` must be a file that can be written. Leaves
/// everything as it is. The error says why; the caller says what was to be written.
pub fn check_writable(path: &Path) -> anyhow::Result<()> {
    match OpenOptions::new().append(true).open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == ErrorKind::NotFound => {
            let temp = temp_path(path);
            create_new(&temp)?;
            Ok(fs::remove_file(&temp)?)
        }
        Err(e) => Err(e.into()),
    }
}

/// Refuses to write `out` when it is the file `input` (by any name, a hard link too): what was
/// read would be lost, replaced by what was made from it.
pub fn check_not_input(out: &Path, input: &Path) -> anyhow::Result<()> {
    if is_same_file(out, input) {
        anyhow::bail!(
            "{} is the input file {} itself: writing it would lose it; choose another path",
            out.display(),
            input.display()
        );
    }
    Ok(())
}

/// Whether the two paths name one file: on Unix the same device and inode, which also finds
/// hard links; elsewhere the same canonical path.
fn is_same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        matches!((fs::metadata(a), fs::metadata(b)),
            (Ok(a), Ok(b)) if (a.dev(), a.ino()) == (b.dev(), b.ino()))
    }
    #[cfg(not(unix))]
    {
        matches!((fs::canonicalize(a), fs::canonicalize(b)), (Ok(a), Ok(b)) if a == b)
    }
}

/// `.NAME-PID-RANDOM.partial.EXT` beside `path`: hidden, with `path`'s extension, and a name
/// no other writer uses: processes (or threads) writing the same file at once must each have
/// their own, or one renames the other's half-written file into place.
pub fn temp_path(path: &Path) -> PathBuf {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let extension = path
        .extension()
        .map(|extension| format!(".{}", extension.to_string_lossy()))
        .unwrap_or_default();
    let unique = rand::random::<u64>();
    let name = format!(
        ".{stem}-{}-{unique:016x}.partial{extension}",
        std::process::id()
    );
    path.with_file_name(name)
}

/// Whether `path` names a file in a folder that does not exist: the plain words for an error
/// that the system reports as "No such file or directory".
pub fn folder_is_missing(path: &Path) -> bool {
    path.parent()
        .filter(|folder| !folder.as_os_str().is_empty())
        .is_some_and(|folder| !folder.is_dir())
}

fn create_new(temp: &Path) -> anyhow::Result<()> {
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(temp)
        .map(drop)
        .map_err(|e| match folder_is_missing(temp) {
            true => anyhow!("its folder does not exist"),
            false => e.into(),
        })
}

/// Makes the temporary file durable, gives it the old file's permissions, and puts it in place.
fn finish(path: &Path, temp: &Path) -> anyhow::Result<()> {
    File::open(temp)?.sync_all()?;
    if let Ok(old) = fs::metadata(path) {
        fs::set_permissions(temp, old.permissions())?;
    }
    fs::rename(temp, path)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leftovers(dir: &Path) -> Vec<String> {
        fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.contains(".partial"))
            .collect()
    }

    #[test]
    fn a_file_is_replaced_whole_and_a_failed_write_leaves_the_old_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book.txt");
        write(&path, "old\n").unwrap();
        write(&path, "new\n").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new\n");
        let failed = replace_with(&path, |temp| {
            fs::write(temp, "half")?;
            Err(anyhow!("the disk is full"))
        });
        let message = format!("{:#}", failed.unwrap_err());
        assert!(message.contains("book.txt") && message.contains("the disk is full"));
        assert_eq!(fs::read_to_string(&path).unwrap(), "new\n");
        assert_eq!(leftovers(dir.path()), Vec::<String>::new());
    }

    #[test]
    fn the_writer_gets_a_path_with_the_same_extension_in_the_same_folder() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("chart.png");
        replace_with(&path, |temp| {
            assert_eq!(temp.parent(), Some(dir.path()));
            assert_eq!(temp.extension().unwrap(), "png");
            Ok(fs::write(temp, "png")?)
        })
        .unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "png");
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("moves.txt");
        write(&path, "1").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        write(&path, "2").unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
    }

    #[test]
    fn the_input_file_is_not_written_over_by_any_of_its_names() {
        let dir = tempfile::tempdir().unwrap();
        let level = dir.path().join("level1.txt");
        write(&level, "2\n").unwrap();
        let same = dir.path().join(".").join("level1.txt");
        assert!(check_not_input(&same, &level).is_err());
        let linked = dir.path().join("linked.txt");
        std::fs::hard_link(&level, &linked).unwrap();
        assert!(
            check_not_input(&linked, &level).is_err(),
            "a hard link is the file"
        );
        check_not_input(&dir.path().join("moves.txt"), &level).unwrap();
    }

    #[test]
    fn writability_is_checked_without_leaving_anything_behind() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("new.txt");
        check_writable(&missing).unwrap();
        assert!(!missing.exists());
        let in_no_folder = dir.path().join("no-such-folder").join("new.txt");
        let refused = format!("{:#}", check_writable(&in_no_folder).unwrap_err());
        assert!(refused.contains("its folder does not exist"), "{refused}");
        let refused = format!("{:#}", check_writable(dir.path()).unwrap_err());
        assert!(refused.contains("directory"), "{refused}");
        assert_eq!(leftovers(dir.path()), Vec::<String>::new());
        let refused = format!("{:#}", write(&in_no_folder, "x").unwrap_err());
        assert!(refused.contains("its folder does not exist"), "{refused}");
    }
}
