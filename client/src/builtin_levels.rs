//! The levels shipped with Parlor (`levels/` in the repository), built into the binary, so
//! the window and the command-line tools find them whatever folder they run in. A built-in
//! level has a name: its file's stem (`level4`, `lunaqu4kez_extra_04`); commands that take a
//! level file take such a name too (see [`level_text`]), and `client levels` lists them.

use std::path::Path;

use include_dir::{Dir, include_dir};

use crate::level_files::natural_key;

static LEVELS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../levels");

/// The folders of built-in levels, each a game's, and the extension of its level files.
pub const FOLDERS: [(&str, &str, &str); 3] = [
    ("ewn", "txt", "EinStein würfelt nicht! puzzle levels"),
    ("klotski", "in", "Numeric Klotski boards"),
    (
        "cave",
        "txt",
        "Magnetic Cave position lists (tactics, benchmarks)",
    ),
];

/// One built-in level file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltIn {
    /// Its folder: `ewn`, `klotski` or `cave`.
    pub folder: &'static str,
    /// Its file's stem: what a command takes instead of a path.
    pub name: &'static str,
    pub text: &'static str,
}

/// The built-in levels of `folder` (see [`FOLDERS`]) in natural order (level2 before
/// level10).
pub fn in_folder(folder: &str) -> Vec<BuiltIn> {
    let Some(&(folder, extension, _)) = FOLDERS.iter().find(|(name, ..)| *name == folder) else {
        return Vec::new();
    };
    let mut found: Vec<BuiltIn> = LEVELS
        .get_dir(folder)
        .into_iter()
        .flat_map(|dir| dir.files())
        .filter(|file| file.path().extension().is_some_and(|ext| ext == extension))
        .filter_map(|file| {
            Some(BuiltIn {
                folder,
                name: file.path().file_stem()?.to_str()?,
                text: file.contents_utf8()?,
            })
        })
        .collect();
    found.sort_by_key(|level| natural_key(level.name));
    found
}

/// The built-in level of `folder` named `name` (its stem, or its file name).
pub fn named(folder: &str, name: &str) -> Option<BuiltIn> {
    let stem = Path::new(name).file_stem()?.to_str()?;
    in_folder(folder)
        .into_iter()
        .find(|level| level.name == stem)
}

/// The text of the level `argument` names for `folder`'s game: the file at that path when
/// there is one, else the built-in level of that name; with the file's error when neither.
pub fn level_text(folder: &str, argument: &Path) -> std::io::Result<String> {
    match crate::text_file::read_text_file(argument) {
        Ok(text) => Ok(text),
        Err(error) => {
            let bare_name = argument.components().count() == 1;
            let builtin = bare_name
                .then(|| named(folder, argument.to_str()?))
                .flatten();
            match builtin {
                Some(level) => Ok(level.text.to_string()),
                None if bare_name && error.kind() == std::io::ErrorKind::NotFound => {
                    Err(std::io::Error::new(
                        std::io::ErrorKind::NotFound,
                        format!(
                            "{error}, and no built-in level is called {} (`client levels` \
                         lists them)",
                            argument.display()
                        ),
                    ))
                }
                None => Err(error),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_level_is_built_in_in_natural_order() {
        let ewn = in_folder("ewn");
        let names: Vec<&str> = ewn.iter().map(|level| level.name).collect();
        assert_eq!(names.len(), 12, "{names:?}");
        assert_eq!(&names[..3], ["level1", "level2", "level3"]);
        assert_eq!(names[11], "level12");
        // The README beside them is not a level.
        assert!(!names.contains(&"README"));
        let on_disk = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/ewn/level4.txt"),
        )
        .unwrap();
        assert_eq!(named("ewn", "level4").unwrap().text, on_disk);
        assert_eq!(named("ewn", "level4.txt").unwrap().name, "level4");
        assert_eq!(in_folder("klotski").len(), 32);
        assert!(in_folder("nothing").is_empty());
    }

    #[test]
    fn a_name_opens_a_built_in_level_and_a_path_still_opens_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let own = dir.path().join("mine.txt");
        std::fs::write(&own, "my level").unwrap();
        assert_eq!(level_text("ewn", &own).unwrap(), "my level");
        let builtin = level_text("ewn", Path::new("level1")).unwrap();
        assert_eq!(builtin, named("ewn", "level1").unwrap().text);
        let missing = level_text("ewn", Path::new("level99")).unwrap_err();
        assert!(
            missing.to_string().contains("no built-in level"),
            "{missing}"
        );
        // A path is a path: no built-in level is looked for in its place.
        let elsewhere = level_text("ewn", &dir.path().join("level1")).unwrap_err();
        assert!(!elsewhere.to_string().contains("built-in"), "{elsewhere}");
    }
}
