//! Who this person is to every Parlor server: a secret made on first use and the name they go
//! by, kept in `identity.json` in their config directory, so that a new window, a reboot or
//! another machine (after `client identity export` and `import`) is the same player, holding
//! the same seats.
//!
//! The directory is the platform's config directory for Parlor (the `directories` crate), or
//! `$PARLOR_HOME/config` when `PARLOR_HOME` is set: for tests, and for several people on one
//! machine. The file holds a secret, so it is written readable by its owner only, and a file
//! that does not read is reported, never replaced: replacing it would lose the person's seats.

use std::fs;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, bail};
use parlor_shared::identity::{PlayerSecret, check_name};
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

    /// The identity kept in `home`, made and kept there on first use.
    pub fn load_or_create(home: &Home) -> anyhow::Result<Identity> {
        let path = home.identity_file();
        if path.exists() {
            return Identity::read(&path);
        }
        let identity = Identity::fresh();
        identity.write(&path)?;
        Ok(identity)
    }

    /// The identity in `path` (a kept one or an export), checked as a server would check it.
    pub fn read(path: &Path) -> anyhow::Result<Identity> {
        let text =
            read_text_file(path).with_context(|| format!("cannot read {}", path.display()))?;
        let identity: Identity = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a Parlor identity file", path.display()))?;
        if !identity.secret.is_strong() {
            bail!(
                "{}: its secret is not {} random hex digits; the file was damaged or made by hand",
                path.display(),
                PlayerSecret::LENGTH
            );
        }
        check_name(&identity.name).map_err(|why| anyhow::anyhow!("{}: {why}", path.display()))?;
        Ok(identity)
    }

    /// Writes the identity to `path` whole or not at all (a new file renamed over the old),
    /// readable by its owner only.
    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        let folder = path.parent().unwrap_or(Path::new("."));
        fs::create_dir_all(folder)
            .with_context(|| format!("cannot create {}", folder.display()))?;
        let mut text = serde_json::to_string_pretty(self)?;
        text.push('\n');
        let partial = path.with_extension("json.partial");
        let written = (|| {
            let mut file = owner_only(&partial)?;
            file.write_all(text.as_bytes())?;
            file.sync_all()?;
            fs::rename(&partial, path)
        })();
        if written.is_err() {
            let _ = fs::remove_file(&partial);
        }
        written.with_context(|| format!("cannot write {}", path.display()))
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

#[cfg(unix)]
fn owner_only(path: &Path) -> std::io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::File::options()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
}

#[cfg(not(unix))]
fn owner_only(path: &Path) -> std::io::Result<fs::File> {
    fs::File::create(path)
}

#[cfg(test)]
mod tests {
    use super::*;

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
