//! Who this person is to every Parlor server: a secret made on first use and the name they go
//! by, kept in `identity.json` in their config directory, so that a new window, a reboot or
//! another machine (after `client identity export` and `import`) is the same player, holding
//! the same seats.
//!
//! The directory is the platform's config directory for Parlor (the `directories` crate), or
//! `$PARLOR_HOME/config` when `PARLOR_HOME` is set: for tests, and for several people on one
//! machine. The file holds a secret, so it is written readable by its owner only, and a file
//! that does not read is reported, never replaced: replacing it would lose the person's seats.
//!
//! Several processes may start at once (a script, or windows opened together): the file is
//! always written under a temporary name of the writer's own and then put in place whole, so
//! a reader never sees half of it, and the first identity made is the one every process keeps.

use std::fs;
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use parlor_shared::identity::{PlayerSecret, check_name, without_refused_characters};
use serde::{Deserialize, Serialize};

use crate::text_file::read_text_file;

pub use parlor_home::{HOME_VARIABLE, Home};

/// A person's identity as the client keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Identity {
    /// Sent in every `Hello`; never shown (its `Debug` hides it).
    pub secret: PlayerSecret,
    pub name: String,
}

impl Identity {
    /// A new identity with a fresh secret, named after the system's user when that name is a
    /// valid one.
    pub fn fresh() -> Identity {
        let user = ["USER", "USERNAME"]
            .iter()
            .find_map(|variable| std::env::var(variable).ok())
            .and_then(|user| check_name(&user).ok());
        Identity {
            secret: PlayerSecret::random(),
            name: user.unwrap_or_else(|| "player".into()),
        }
    }

    /// The identity kept in `home`, made and kept there on first use. Processes starting at
    /// once on a new home all end up with the one identity that was kept first: the file is
    /// published only where none is, and a process that finds one there reads it instead.
    pub fn load_or_create(home: &Home) -> anyhow::Result<Identity> {
        let path = home.identity_file();
        if path.exists() {
            return Identity::read(&path).map_err(|error| {
                anyhow::anyhow!(
                    "{error:#}\nTo go on as yourself, put an identity you exported in its \
                     place with `client identity import FILE --replace`; or move {} away, and \
                     the next start makes you a new player (the old one's seats and brains \
                     stay theirs)",
                    path.display()
                )
            });
        }
        // Tolerates a folder another process made meanwhile.
        fs::create_dir_all(&home.config)
            .with_context(|| format!("cannot create {}", home.config.display()))?;
        let identity = Identity::fresh();
        let published = publish_new(&path, &identity.text()?)
            .with_context(|| format!("cannot write {}", path.display()))?;
        match published {
            true => Ok(identity),
            false => Identity::read(&path),
        }
    }

    /// The window's identity and where it is kept: the one kept (made on first use), renamed
    /// to `name` if given. `gui::run` asks for it only once nothing else can refuse to open
    /// the window, so that a window that does not open keeps neither a new identity nor a
    /// new name.
    pub fn for_window(name: Option<&str>) -> anyhow::Result<(Identity, PathBuf)> {
        let home = Home::locate()?;
        let path = home.identity_file();
        let kept = Identity::load_or_create(&home)?;
        match name {
            Some(name) if name.trim() != kept.name => {
                let renamed = kept
                    .renamed(name)
                    .map_err(|why| anyhow::anyhow!("--name: {why}"))?;
                renamed.write(&path)?;
                Ok((renamed, path))
            }
            _ => Ok((kept, path)),
        }
    }

    /// The identity in `path` (a kept one or an export), checked as a server would check it.
    pub fn read(path: &Path) -> anyhow::Result<Identity> {
        Identity::read_with_given_name(path).map(|(identity, _)| identity)
    }

    /// The identity in `path`, as [`Identity::read`] reads it, and the name as the file gives
    /// it, which may hold characters names may not have (read without them).
    pub fn read_with_given_name(path: &Path) -> anyhow::Result<(Identity, String)> {
        let text =
            read_text_file(path).with_context(|| format!("cannot read {}", path.display()))?;
        let mut identity: Identity = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a Parlor identity file", path.display()))?;
        let given = identity.name.clone();
        if !identity.secret.is_strong() {
            bail!(
                "{}: its secret is not {} random lowercase hex digits (0-9, a-f); the file was damaged or made by hand",
                path.display(),
                PlayerSecret::LENGTH
            );
        }
        // A name kept before invisible characters were refused reads without them.
        identity.name = check_name(&without_refused_characters(&identity.name))
            .map_err(|why| anyhow::anyhow!("{}: {why}", path.display()))?;
        Ok((identity, given))
    }

    /// Keeps the identity in `path` (the kept identity file, whose folder is made if need
    /// be), replacing the old file whole: readers see the old file or the new, never half.
    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        let folder = path.parent().unwrap_or(Path::new("."));
        fs::create_dir_all(folder)
            .with_context(|| format!("cannot create {}", folder.display()))?;
        let replaced = write_temp(path, &self.text()?).and_then(|temp| {
            let renamed = fs::rename(&temp, path);
            if renamed.is_err() {
                let _ = fs::remove_file(&temp);
            }
            renamed
        });
        replaced.with_context(|| format!("cannot write {}", path.display()))
    }

    /// Writes the identity to `path`, a new file (an export): an existing file is not
    /// replaced, and a folder that does not exist is not made (as every other file the client
    /// writes: a mistyped path must not leave folders behind).
    pub fn export(&self, path: &Path) -> anyhow::Result<()> {
        let why = match publish_new(path, &self.text()?) {
            Ok(true) => return Ok(()),
            Ok(false) => "it exists; name a new file".to_string(),
            Err(_) if crate::out_file::folder_is_missing(path) => {
                "its folder does not exist".to_string()
            }
            Err(error) => error.to_string(),
        };
        bail!("cannot write {}: {why}", path.display())
    }

    /// The file's text.
    fn text(&self) -> anyhow::Result<String> {
        Ok(serde_json::to_string_pretty(self)? + "\n")
    }

    /// The same identity under `name`, checked.
    pub fn renamed(&self, name: &str) -> anyhow::Result<Identity> {
        let name = check_name(name).map_err(anyhow::Error::msg)?;
        Ok(Identity {
            name,
            ..self.clone()
        })
    }
}

/// Writes `text` to a new file beside `path` under a name of its own (two writers at once
/// must not share one, or one publishes the other's half-written file), readable by its owner
/// only and synced; its path. Nothing is left behind on an error.
fn write_temp(path: &Path, text: &str) -> std::io::Result<PathBuf> {
    let temp = crate::out_file::temp_path(path);
    write_new(&temp, text)?;
    Ok(temp)
}

/// Writes `text` to a new file at `path` (never an existing one), readable by its owner only
/// and synced; a file it made and could not fill is removed.
fn write_new(path: &Path, text: &str) -> std::io::Result<()> {
    let mut file = owner_only_new(path)?;
    let written = file
        .write_all(text.as_bytes())
        .and_then(|()| file.sync_all());
    if written.is_err() {
        let _ = fs::remove_file(path);
    }
    written
}

/// Puts a file of `text` at `path` whole, unless a file is there: `false` then, and it is left
/// as it was. A hard link publishes the complete file in one step and, unlike a rename, fails
/// rather than replace one that another process published first.
fn publish_new(path: &Path, text: &str) -> std::io::Result<bool> {
    let temp = write_temp(path, text)?;
    let linked = fs::hard_link(&temp, path);
    let _ = fs::remove_file(&temp);
    match linked {
        Ok(()) => Ok(true),
        Err(error) if error.kind() == ErrorKind::AlreadyExists => Ok(false),
        // A file system without hard links (FAT): the file is made exclusively in place, so
        // still only one process makes it, though a reader could come upon it half written.
        Err(_) => match write_new(path, text) {
            Ok(()) => Ok(true),
            Err(error) if error.kind() == ErrorKind::AlreadyExists => Ok(false),
            Err(error) => Err(error),
        },
    }
}

/// A new file at `path` (never an existing one), readable by its owner only.
#[cfg(unix)]
fn owner_only_new(path: &Path) -> std::io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::File::options()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
}

#[cfg(not(unix))]
fn owner_only_new(path: &Path) -> std::io::Result<fs::File> {
    fs::File::options().write(true).create_new(true).open(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::identity::player_id;

    #[test]
    fn an_identity_is_made_once_and_then_kept() {
        let folder = tempfile::tempdir().unwrap();
        let home = Home::under(folder.path());
        let first = Identity::load_or_create(&home).unwrap();
        assert!(first.secret.is_strong());
        let again = Identity::load_or_create(&home).unwrap();
        assert_eq!(first, again);
        assert!(
            home.identity_file()
                .starts_with(folder.path().join("config"))
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(home.identity_file())
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600, "only its owner may read a secret");
        }
    }

    #[test]
    fn many_processes_starting_at_once_on_a_fresh_home_make_one_identity() {
        // Threads stand for the processes: each goes through the whole first use at once.
        const AT_ONCE: usize = 16;
        for _ in 0..5 {
            let folder = tempfile::tempdir().unwrap();
            let home = Home::under(folder.path());
            let start = std::sync::Barrier::new(AT_ONCE);
            let made: Vec<Identity> = std::thread::scope(|scope| {
                let runs: Vec<_> = (0..AT_ONCE)
                    .map(|_| {
                        scope.spawn(|| {
                            start.wait();
                            Identity::load_or_create(&home)
                        })
                    })
                    .collect();
                runs.into_iter()
                    .map(|run| run.join().unwrap().unwrap())
                    .collect()
            });
            let kept = Identity::read(&home.identity_file()).unwrap();
            for identity in &made {
                assert_eq!(player_id(&identity.secret), player_id(&kept.secret));
            }
            let names: Vec<_> = fs::read_dir(&home.config)
                .unwrap()
                .map(|entry| entry.unwrap().file_name())
                .collect();
            assert_eq!(names, ["identity.json"], "temporary files are removed");
        }
    }

    #[test]
    fn renames_at_once_each_replace_the_file_whole() {
        let folder = tempfile::tempdir().unwrap();
        let home = Home::under(folder.path());
        let ada = Identity::load_or_create(&home).unwrap();
        let path = home.identity_file();
        std::thread::scope(|scope| {
            for writer in 0..8 {
                let (ada, path) = (&ada, &path);
                scope.spawn(move || {
                    for round in 0..20 {
                        let renamed = ada.renamed(&format!("Ada {writer}-{round}")).unwrap();
                        renamed.write(path).unwrap();
                    }
                });
            }
            scope.spawn(|| {
                for _ in 0..200 {
                    assert_eq!(Identity::read(&path).unwrap().secret, ada.secret);
                }
            });
        });
        assert_eq!(Identity::read(&path).unwrap().secret, ada.secret);
    }

    #[test]
    fn an_export_is_a_new_file_in_a_folder_that_exists() {
        let folder = tempfile::tempdir().unwrap();
        let ada = Identity::fresh();
        let missing = folder.path().join("no-such-folder").join("ada.json");
        let refused = format!("{:#}", ada.export(&missing).unwrap_err());
        assert!(refused.contains("its folder does not exist"), "{refused}");
        assert!(!folder.path().join("no-such-folder").exists());
        let file = folder.path().join("ada.json");
        ada.export(&file).unwrap();
        assert_eq!(Identity::read(&file).unwrap(), ada);
        let refused = format!("{:#}", Identity::fresh().export(&file).unwrap_err());
        assert!(refused.contains("it exists"), "{refused}");
        assert_eq!(Identity::read(&file).unwrap(), ada, "left as it was");
        let names: Vec<_> = fs::read_dir(folder.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file is left");
    }

    #[test]
    fn a_damaged_identity_is_reported_and_left_as_it_was() {
        let folder = tempfile::tempdir().unwrap();
        let home = Home::under(folder.path());
        fs::create_dir_all(&home.config).unwrap();
        for damaged in [
            "not json".to_string(),
            r#"{"secret":"00","name":"Ada"}"#.to_string(),
            format!(r#"{{"secret":"{}","name":""}}"#, "0".repeat(64)),
        ] {
            fs::write(home.identity_file(), &damaged).unwrap();
            let error = format!("{:#}", Identity::load_or_create(&home).unwrap_err());
            assert!(error.contains("identity.json"), "{error}");
            assert_eq!(fs::read_to_string(home.identity_file()).unwrap(), damaged);
        }
    }

    /// A name kept before invisible characters were refused still reads, without them.
    #[test]
    fn a_kept_name_with_invisible_characters_reads_without_them() {
        let folder = tempfile::tempdir().unwrap();
        let home = Home::under(folder.path());
        fs::create_dir_all(&home.config).unwrap();
        let secret = PlayerSecret::random();
        let kept = format!(r#"{{"secret":"{}","name":"\u202eAda"}}"#, secret.0);
        fs::write(home.identity_file(), kept).unwrap();
        let identity = Identity::load_or_create(&home).unwrap();
        assert_eq!((identity.secret, identity.name.as_str()), (secret, "Ada"));
        assert!(Identity::fresh().renamed("\u{202e}Ada").is_err());
    }

    #[test]
    fn a_rename_keeps_the_secret_and_checks_the_name() {
        let ada = Identity::fresh();
        let renamed = ada.renamed("  Ada L. ").unwrap();
        assert_eq!(
            (renamed.secret.clone(), renamed.name.as_str()),
            (ada.secret.clone(), "Ada L.")
        );
        assert!(ada.renamed(&"x".repeat(40)).is_err());
    }
}
