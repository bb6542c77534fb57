//! The levels offered in the lobby: the built-in ones (`crate::builtin_levels`), and the
//! `.txt` files of `levels/ewn/` under the current directory beside them (a file replaces the
//! built-in level of its name), in natural order (level2 before level10).

use std::path::Path;

use parlor_shared::ewn::{LevelSpec, Rules, parse_level};

use crate::builtin_levels;
use crate::level_files::{files_with_extension, natural_key};
use crate::text_file::read_text_file;

/// Where the lobby looks for levels of the user's own, relative to the current directory.
pub const LEVELS_DIR: &str = "levels/ewn";

/// A level the lobby can start a room with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelChoice {
    /// Short name for a button ("1", "12", or the file stem).
    pub name: String,
    pub spec: LevelSpec,
}

/// The built-in levels and those of `dir` that parse; files that do not are skipped.
pub fn load_levels(dir: &Path) -> Vec<LevelChoice> {
    let builtin = builtin_levels::in_folder("ewn")
        .into_iter()
        .map(|level| (level.name.to_string(), level.text.to_string()));
    let files = files_with_extension(dir, "txt")
        .unwrap_or_default()
        .into_iter()
        .filter_map(|path| {
            let stem = path.file_stem()?.to_string_lossy().to_string();
            Some((stem, read_text_file(&path).ok()?))
        });
    let mut found: Vec<(String, LevelChoice)> = Vec::new();
    for (stem, text) in builtin.chain(files) {
        let Ok(level) = parse_level(&text, Rules::default()) else {
            continue;
        };
        let choice = LevelChoice {
            name: short_name(&stem),
            spec: LevelSpec::of(&level),
        };
        found.retain(|(known, _)| *known != stem);
        found.push((stem, choice));
    }
    found.sort_by_key(|(stem, _)| natural_key(stem));
    found.into_iter().map(|(_, choice)| choice).collect()
}

/// "level12" -> "12"; other names stay as they are, cut to 8 characters.
fn short_name(stem: &str) -> String {
    match stem.strip_prefix("level") {
        Some(number) if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) => {
            number.to_string()
        }
        _ => stem.chars().take(8).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_levels_load_in_natural_order_from_any_folder() {
        let levels = load_levels(Path::new("/no/such/folder"));
        assert_eq!(levels.len(), 12, "{levels:?}");
        let names: Vec<&str> = levels.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(&names[..4], ["1", "2", "3", "4"]);
        assert_eq!(levels[0].spec.target, 2);
        let limits: Vec<u8> = levels.iter().map(|l| l.spec.max_moves).collect();
        assert_eq!(
            &limits[..5],
            [6, 10, 10, 15, 30],
            "the course's own, then the dice's"
        );
    }

    #[test]
    fn a_users_file_adds_a_level_or_replaces_the_built_in_one_of_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let level2 = builtin_levels::named("ewn", "level2").unwrap().text;
        // Their own level 1 is level 2's board under level 1's name; a bad file is skipped.
        std::fs::write(dir.path().join("level1.txt"), level2).unwrap();
        std::fs::write(dir.path().join("mine.txt"), level2).unwrap();
        std::fs::write(dir.path().join("level3.txt"), "not a level").unwrap();
        let levels = load_levels(dir.path());
        assert_eq!(levels.len(), 13);
        let spec = |name: &str| levels.iter().find(|level| level.name == name).unwrap().spec;
        assert_eq!(spec("1"), spec("2"), "their file in level 1's place");
        assert_eq!(spec("mine"), spec("2"));
        assert_eq!(spec("3").max_moves, 10, "the built-in level 3 stays");
    }

    #[test]
    fn names_are_short() {
        assert_eq!(short_name("level10"), "10");
        assert_eq!(short_name("levelx"), "levelx");
        assert_eq!(short_name("a-very-long-name"), "a-very-l");
    }
}
