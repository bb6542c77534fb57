//! The boards offered in the lobby: the built-in ones (`crate::builtin_levels`) and the `.in`
//! files of `levels/klotski/` under the current directory beside them (a file replaces the
//! built-in board of its name), by name, each parsed or with the parser's reason; and random
//! boards from shared's generator in a few sizes.

use std::path::Path;

use parlor_engines::klotski::{GenerateOptions, generate};
use parlor_shared::klotski::{Puzzle, Shape, parse_puzzle};

use crate::builtin_levels;
use crate::level_files::files_with_extension;
use crate::text_file::read_text_file;

/// Where the lobby looks for boards of the user's own, relative to the current directory.
pub const LEVELS_DIR: &str = "levels/klotski";

/// A board file: its name and its puzzle, or why it is not one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardFile {
    pub name: String,
    pub puzzle: Result<Puzzle, String>,
}

/// The built-in boards and the `.in` files of `dir`, by name.
pub fn load_boards(dir: &Path) -> Vec<BoardFile> {
    let parse = |text: &str| parse_puzzle(text).map_err(|error| error.to_string());
    let mut boards: Vec<BoardFile> = builtin_levels::in_folder("klotski")
        .into_iter()
        .map(|level| BoardFile {
            name: format!("{}.in", level.name),
            puzzle: parse(level.text),
        })
        .collect();
    for path in files_with_extension(dir, "in").unwrap_or_default() {
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into());
        let puzzle = read_text_file(&path)
            .map_err(|error| format!("cannot be read: {error}"))
            .and_then(|text| parse(&text));
        boards.retain(|board| board.name != name);
        boards.push(BoardFile { name, puzzle });
    }
    boards.sort_by(|a, b| a.name.cmp(&b.name));
    boards
}

/// The sizes of random board offered: a name for the button and the generator's options.
pub const RANDOM_SIZES: [(&str, u32, u32, u32, &[Shape]); 3] = [
    ("3x3", 3, 3, 1, &[]),
    ("4x4", 4, 4, 1, &[]),
    ("3x4 blocks", 3, 4, 2, &[Shape::Square, Shape::Tall]),
];

/// A random solvable board of size `RANDOM_SIZES[size]` from `seed`.
pub fn random_board(size: usize, seed: u64) -> Result<Puzzle, String> {
    let (_, rows, cols, blanks, blocks) = RANDOM_SIZES[size];
    let options = GenerateOptions {
        rows,
        cols,
        blanks,
        blocks: blocks.to_vec(),
        seed,
        ..GenerateOptions::default()
    };
    generate(&options).map_err(|error| error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_boards_load_by_name_from_any_folder_and_all_parse() {
        let boards = load_boards(Path::new("/no/such/folder"));
        assert_eq!(boards.len(), 32);
        assert!(boards.windows(2).all(|pair| pair[0].name < pair[1].name));
        let bad: Vec<&BoardFile> = boards.iter().filter(|b| b.puzzle.is_err()).collect();
        assert!(bad.is_empty(), "{bad:?}");
    }

    #[test]
    fn a_users_file_joins_them_and_keeps_the_parsers_reason() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bad.in"), "2 2\n1 2\n2 0\n0\n").unwrap();
        std::fs::write(dir.path().join("good.in"), "2 2\n1 2\n3 0\n0\n").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "not a board").unwrap();
        let boards = load_boards(dir.path());
        assert_eq!(boards.len(), 34);
        let bad = boards.iter().find(|board| board.name == "bad.in").unwrap();
        let reason = bad.puzzle.as_ref().unwrap_err();
        assert!(
            reason.starts_with("line 3: number 2 is repeated"),
            "{reason}"
        );
        let good = boards.iter().find(|board| board.name == "good.in").unwrap();
        assert!(good.puzzle.is_ok());
    }

    #[test]
    fn every_random_size_makes_a_board_of_that_size() {
        for (size, &(name, rows, cols, blanks, blocks)) in RANDOM_SIZES.iter().enumerate() {
            let puzzle = random_board(size, 7).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(
                (u32::from(puzzle.rows()), u32::from(puzzle.cols())),
                (rows, cols)
            );
            assert_eq!(puzzle.blank_count(), blanks as usize, "{name}");
            let shaped = puzzle.pieces().iter().filter(|p| p.shape != Shape::Single);
            assert_eq!(shaped.count(), blocks.len(), "{name}");
        }
    }
}
