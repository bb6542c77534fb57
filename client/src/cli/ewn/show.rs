//! `client ewn view FILE --gui`: the checker first, exactly as without `--gui`; only a file that
//! passes opens in the window's replay view (board, target in red, dice, steps, Prev/Next).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use parlor_shared::ewn::{EwnMove, LevelSpec, MovesFile, PIECES, Pieces, Rules};

use super::{check_file, read_level, read_text};

/// Checks `file` (against `level` if given) and opens it in a window, or prints the first
/// error and returns failure without opening one.
pub fn view_in_window(
    out: &mut impl Write,
    file: &Path,
    level: Option<&Path>,
    rules: Rules,
    screenshot: Option<PathBuf>,
) -> anyhow::Result<ExitCode> {
    let text = read_text(file)?;
    let level = level.map(|path| read_level(path, rules)).transpose()?;
    let moves = match check_file(&text, level.as_ref(), rules) {
        Ok((moves, _)) => moves,
        Err(error) => {
            writeln!(out, "{}: {error}", file.display())?;
            return Ok(ExitCode::FAILURE);
        }
    };
    writeln!(out, "File loaded successfully with no errors.")?;
    let level = match level {
        Some(level) => level,
        None => moves.level(rules)?,
    };
    let steps = file_moves(&moves);
    crate::gui::show_ewn_game(LevelSpec::of(&level), &moves.name, steps, screenshot)
}

/// The moves of a checked file: in each step the one piece that changed squares and stayed on
/// the board is the mover, and its new square the destination.
pub fn file_moves(file: &MovesFile) -> Vec<EwnMove> {
    file.positions
        .windows(2)
        .filter_map(|pair| step(&pair[0], &pair[1]))
        .collect()
}

fn step(before: &Pieces, after: &Pieces) -> Option<EwnMove> {
    (1..=PIECES).find_map(|piece| {
        let to = after.square_of(piece)?;
        (before.square_of(piece) != Some(to)).then_some(EwnMove { piece, to })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_engines::ewn::solve;
    use parlor_shared::ewn::parse_level;

    #[test]
    fn the_moves_of_a_solution_file_are_the_solution() {
        let text = include_str!("../../../../levels/ewn/level1.txt");
        let level = parse_level(text, Rules::default()).unwrap();
        let solution = solve(&level).unwrap();
        let states = solution.replay(&level).unwrap();
        let positions = states.iter().map(|state| state.pieces).collect();
        let record = MovesFile::record("AI Player", &level, positions);
        let moves = file_moves(&record);
        let expected: Vec<EwnMove> = solution
            .moves
            .iter()
            .map(|mv| EwnMove {
                piece: mv.piece,
                to: mv.to,
            })
            .collect();
        assert_eq!(moves, expected);
    }
}
