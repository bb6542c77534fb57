//! What the window keeps of its lobby from one run to the next: the game whose form last made a
//! room, and each form's choices as they were when it did, in `lobby.json` in the person's
//! config folder (`parlor_home::Home::lobby_choices_file`). They are kept when a room is made,
//! the moment the person settled on them.
//!
//! The file is the person's to edit or to bring from another version, so nothing in it is
//! trusted: each form's part is read on its own, and each form takes only the values it offers
//! (`recall` in each form's module). A part that does not read leaves that form as new and the
//! others as kept, and the window says which part it was.

use std::path::Path;

use parlor_shared::game::GameKind;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::bricks::BricksChoices;
use super::cave::lobby_form::CaveChoices;
use super::ewn::EwnChoices;
use super::hexapawn::HexChoices;
use super::klotski::KlotskiChoices;
use super::text_field::{FIELD_MAX_CHARS, TextField};
use crate::text_file::read_at_most;

/// The largest file read: the choices take well under a kilobyte.
const MAX_FILE_BYTES: u64 = 64 << 10;

/// The lobby's choices as kept; a part is `None` where that form was never used to make a room
/// (or its part did not read).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LobbyChoices {
    pub game: Option<GameKind>,
    pub cave: Option<CaveChoices>,
    pub bricks: Option<BricksChoices>,
    pub ewn: Option<EwnChoices>,
    pub hexapawn: Option<HexChoices>,
    pub klotski: Option<KlotskiChoices>,
}

impl LobbyChoices {
    /// The choices kept in `path` (none when there is no file), and what the person should
    /// hear of a file that did not read, or not whole.
    pub fn read(path: &Path) -> (LobbyChoices, Option<String>) {
        let forgotten = |why: String| format!("{} {why}; the forms start as new", path.display());
        let parts = match parts_in(path) {
            Ok(Some(parts)) => parts,
            Ok(None) => return (LobbyChoices::default(), None),
            Err(why) => return (LobbyChoices::default(), Some(forgotten(why))),
        };
        let mut unread = Vec::new();
        let choices = LobbyChoices {
            game: read_part(&parts, "game", &mut unread),
            cave: read_part(&parts, "cave", &mut unread),
            bricks: read_part(&parts, "bricks", &mut unread),
            ewn: read_part(&parts, "ewn", &mut unread),
            hexapawn: read_part(&parts, "hexapawn", &mut unread),
            klotski: read_part(&parts, "klotski", &mut unread),
        };
        let note = (!unread.is_empty()).then(|| {
            format!(
                "{}: the choices for {} did not read; those start as new",
                path.display(),
                unread.join(", ")
            )
        });
        (choices, note)
    }

    /// Keeps the choices in `path` (its folder made if need be), replacing the old file whole
    /// but for what it holds that these choices do not name (a newer version's), which stays.
    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder)?;
        }
        let mut parts = parts_in(path).ok().flatten().unwrap_or_default();
        let Value::Object(ours) = serde_json::to_value(self)? else {
            anyhow::bail!("the lobby's choices are not a JSON object");
        };
        parts.extend(ours);
        crate::out_file::write(path, serde_json::to_string_pretty(&parts)? + "\n")
    }
}

/// The parts of the file at `path` by name: `None` when there is no file, else why it did not
/// read as a JSON object.
fn parts_in(path: &Path) -> Result<Option<Map<String, Value>>, String> {
    let text = match std::fs::File::open(path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        file => file.and_then(|file| read_at_most(file, MAX_FILE_BYTES)),
    };
    match text {
        Ok(Some(bytes)) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|error| format!("is not a JSON object: {error}")),
        Ok(None) => Err(format!("is over {} KiB", MAX_FILE_BYTES >> 10)),
        Err(error) => Err(format!("could not be read: {error}")),
    }
}

/// The part `name` of a file's `parts`, or `None`, noted in `unread`, when it is there but
/// does not read as one.
fn read_part<T: DeserializeOwned>(
    parts: &Map<String, Value>,
    name: &'static str,
    unread: &mut Vec<&'static str>,
) -> Option<T> {
    let value = parts.get(name).filter(|value| !value.is_null())?;
    let read = T::deserialize(value).ok();
    if read.is_none() {
        unread.push(name);
    }
    read
}

/// Where the item kept by name in `kept` is in a list of `names` just read, if still there;
/// `kept` is spent either way, so that the person's later choices stand.
pub fn kept_position<'a>(
    kept: &mut Option<String>,
    mut names: impl Iterator<Item = &'a str>,
) -> Option<usize> {
    let kept = kept.take()?;
    names.position(|name| name == kept)
}

/// Puts the kept `text` in `field` when a field could hold it: not too long, and with no
/// control characters (which no key types); else leaves the field as it is.
pub fn recall_text(field: &mut TextField, text: &str) {
    let fits = text.chars().count() <= FIELD_MAX_CHARS && !text.chars().any(char::is_control);
    if fits {
        *field = TextField::new(text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_written_read_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config").join("lobby.json");
        assert_eq!(LobbyChoices::read(&path), (LobbyChoices::default(), None));
        let choices = LobbyChoices {
            game: Some(GameKind::Klotski),
            ..LobbyChoices::default()
        };
        choices.write(&path).unwrap();
        assert_eq!(LobbyChoices::read(&path), (choices, None));
    }

    #[test]
    fn a_part_that_does_not_read_is_named_and_costs_only_itself() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lobby.json");
        std::fs::write(
            &path,
            r#"{"game": "Klotski", "cave": {"move_ms": "soon"}, "x": 1}"#,
        )
        .unwrap();
        let (choices, note) = LobbyChoices::read(&path);
        assert_eq!(
            choices.game,
            Some(GameKind::Klotski),
            "the good part is kept"
        );
        assert_eq!(choices.cave, None);
        let note = note.expect("the person hears of the bad part");
        assert!(
            note.contains("cave") && note.contains("lobby.json"),
            "{note}"
        );
        assert!(!note.contains("game"), "{note}");
    }

    #[test]
    fn a_file_that_is_no_json_object_or_too_big_is_said_and_left_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lobby.json");
        for (bytes, said) in [
            (b"[1, 2]".to_vec(), "not a JSON object"),
            (vec![0xff, 0xfe], "not a JSON object"),
            (vec![b' '; MAX_FILE_BYTES as usize + 1], "is over 64 KiB"),
        ] {
            std::fs::write(&path, &bytes).unwrap();
            let (choices, note) = LobbyChoices::read(&path);
            assert_eq!(choices, LobbyChoices::default());
            assert!(
                note.as_deref().is_some_and(|n| n.contains(said)),
                "{note:?}"
            );
            assert_eq!(
                std::fs::read(&path).unwrap(),
                bytes,
                "reading changes nothing"
            );
        }
        let folder = LobbyChoices::read(dir.path()).1;
        assert!(
            folder.is_some_and(|n| n.contains("could not be read")),
            "a folder is said too"
        );
    }

    #[test]
    fn what_a_newer_version_keeps_in_the_file_stays_and_a_spoilt_part_is_made_good() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lobby.json");
        std::fs::write(&path, r#"{"cave": 7, "theme": {"dark": true}}"#).unwrap();
        let choices = LobbyChoices {
            game: Some(GameKind::Ewn),
            ..LobbyChoices::default()
        };
        choices.write(&path).unwrap();
        let kept: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(kept["theme"]["dark"], Value::Bool(true), "{kept}");
        assert_eq!(
            kept["cave"],
            Value::Null,
            "the spoilt part is written anew: {kept}"
        );
        assert_eq!(LobbyChoices::read(&path), (choices, None));
    }

    #[test]
    fn only_text_a_field_could_hold_is_taken() {
        let recalled = |text: &str| {
            let mut field = TextField::new("before");
            recall_text(&mut field, text);
            field.text
        };
        assert_eq!(recalled("Ada's brain"), "Ada's brain");
        assert_eq!(recalled("a\nb"), "before");
        assert_eq!(recalled(&"x".repeat(FIELD_MAX_CHARS + 1)), "before");
    }
}
