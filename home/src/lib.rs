//! What Parlor's programs keep on this machine, shared by the client and the server (which
//! must not depend on the client): where the config and cache folders are ([`Home`],
//! `PARLOR_HOME` aware), and Klotski's pattern table files in the cache folder
//! ([`klotski_tables`]), which every process maps rather than reads.

pub mod klotski_tables;

use std::path::{Path, PathBuf};

use anyhow::Context;

/// The environment variable that moves everything Parlor keeps for a person and a machine.
pub const HOME_VARIABLE: &str = "PARLOR_HOME";

/// The identity file's name in the config directory.
const IDENTITY_FILE: &str = "identity.json";
/// The file of the window's lobby choices in the config directory.
const LOBBY_CHOICES_FILE: &str = "lobby.json";

/// Where Parlor keeps what belongs to the person (config) and to the machine (cache).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Home {
    pub config: PathBuf,
    pub cache: PathBuf,
}

impl Home {
    /// `$PARLOR_HOME/config` and `$PARLOR_HOME/cache` when `PARLOR_HOME` is set (and not
    /// empty), else the platform's directories for Parlor.
    pub fn locate() -> anyhow::Result<Home> {
        match std::env::var_os(HOME_VARIABLE).filter(|home| !home.is_empty()) {
            Some(home) => Ok(Home::under(Path::new(&home))),
            None => {
                let dirs = directories::ProjectDirs::from("", "", "parlor").context(
                    "this system names no home directory; set PARLOR_HOME to a folder for \
                     Parlor's settings",
                )?;
                Ok(Home {
                    config: dirs.config_dir().to_path_buf(),
                    cache: dirs.cache_dir().to_path_buf(),
                })
            }
        }
    }

    /// The layout under one folder, as `PARLOR_HOME` gives it.
    pub fn under(folder: &Path) -> Home {
        Home {
            config: folder.join("config"),
            cache: folder.join("cache"),
        }
    }

    /// The client's identity (its secret and name).
    pub fn identity_file(&self) -> PathBuf {
        self.config.join(IDENTITY_FILE)
    }

    /// The window's lobby choices, kept from one run to the next.
    pub fn lobby_choices_file(&self) -> PathBuf {
        self.config.join(LOBBY_CHOICES_FILE)
    }
}
