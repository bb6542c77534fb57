//! The levels offered in the lobby: the `.txt` files of `levels/ewn/` under the current
//! directory, in natural order (level2 before level10), or level 1 built in when there are none.

use std::path::Path;

use parlor_shared::ewn::{LevelSpec, Rules, parse_level};

use crate::level_files::{files_with_extension, natural_key};
use crate::text_file::read_text_file;

/// Where the lobby looks for levels, relative to the current directory.
pub const LEVELS_DIR: &str = "levels/ewn";
const BUILT_IN_LEVEL1: &str = include_str!("../../../../levels/ewn/level1.txt");

/// A level the lobby can start a room with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelChoice {
    /// Short name for a button ("1", "12", or the file stem).
    pub name: String,
    pub spec: LevelSpec,
}

/// The levels of `dir` that parse; files that do not are skipped. With none, level 1 built in.
pub fn load_levels(dir: &Path) -> Vec<LevelChoice> {
    let mut found: Vec<(String, LevelChoice)> = files_with_extension(dir, "txt")
        .unwrap_or_default()
        .into_iter()
        .filter_map(|path| {
            let stem = path.file_stem()?.to_string_lossy().to_string();
            let text = read_text_file(&path).ok()?;
            let level = parse_level(&text, Rules::default()).ok()?;
            let choice = LevelChoice {
                name: short_name(&stem),
                spec: LevelSpec::of(&level),
            };
            Some((stem, choice))
        })
        .collect();
    found.sort_by_key(|(stem, _)| natural_key(stem));
    if found.is_empty() {
        return built_in();
    }
    found.into_iter().map(|(_, choice)| choice).collect()
}

fn built_in() -> Vec<LevelChoice> {
    parse_level(BUILT_IN_LEVEL1, Rules::default())
        .map(|level| LevelChoice {
            name: "1".into(),
            spec: LevelSpec::of(&level),
        })
        .into_iter()
        .collect()
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
    fn the_project_levels_load_in_natural_order() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/ewn");
        let levels = load_levels(&dir);
        assert!(levels.len() >= 4, "{levels:?}");
        let names: Vec<&str> = levels.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(&names[..4], ["1", "2", "3", "4"]);
        assert_eq!(levels[0].spec, built_in()[0].spec);
        let limits: Vec<u8> = levels.iter().map(|l| l.spec.max_moves).collect();
        assert_eq!(
            &limits[..5],
            [6, 10, 10, 15, 30],
            "the course's own, then the dice's"
        );
    }

    #[test]
    fn a_missing_or_empty_folder_offers_the_built_in_level_1() {
        let levels = load_levels(Path::new("/no/such/folder"));
        assert_eq!(levels.len(), 1);
        assert_eq!(levels[0].spec.target, 2);
    }

    #[test]
    fn names_are_short() {
        assert_eq!(short_name("level10"), "10");
        assert_eq!(short_name("levelx"), "levelx");
        assert_eq!(short_name("a-very-long-name"), "a-very-l");
    }
}
