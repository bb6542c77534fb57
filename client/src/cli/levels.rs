//! `client levels`: the levels built into the program (see `crate::builtin_levels`), by game,
//! and the text of one of them, so that a name can stand where a level file goes and a level
//! can be copied out to change it.

use std::io::Write;

use anyhow::{Context, bail};
use clap::Args;

use crate::builtin_levels::{FOLDERS, in_folder, named};

/// The widest a listing line grows before the next name goes on a new line.
const LINE_CHARS: usize = 78;

#[derive(Args, Debug)]
pub struct LevelsArgs {
    /// The game whose levels to list: ewn, klotski or cave. Default: every game's.
    game: Option<String>,
    /// A level to print whole (e.g. `client levels ewn level4 > mine.txt` to change a copy).
    name: Option<String>,
}

/// Lists the built-in levels, or prints one, to `out`.
pub fn run(args: LevelsArgs, out: &mut impl Write) -> anyhow::Result<std::process::ExitCode> {
    let games = match args.game.as_deref() {
        None => FOLDERS.iter().collect::<Vec<_>>(),
        Some(game) => match FOLDERS.iter().find(|(folder, ..)| *folder == game) {
            Some(folder) => vec![folder],
            None => bail!(
                "no built-in levels for {game:?}: there are {}",
                FOLDERS.map(|(folder, ..)| folder).join(", ")
            ),
        },
    };
    if let (Some(name), [(folder, ..)]) = (args.name.as_deref(), &games[..]) {
        let level = named(folder, name).with_context(|| {
            format!("no built-in {folder} level is called {name:?} (`client levels {folder}` lists them)")
        })?;
        out.write_all(level.text.as_bytes())?;
        // A file whose last line has no line break still prints as whole lines.
        if !level.text.ends_with('\n') {
            writeln!(out)?;
        }
        return Ok(std::process::ExitCode::SUCCESS);
    }
    for (folder, _, about) in games {
        let levels = in_folder(folder);
        writeln!(out, "{folder}: {about} ({})", levels.len())?;
        let mut line = String::new();
        for level in &levels {
            if !line.is_empty() && line.len() + 2 + level.name.len() > LINE_CHARS {
                writeln!(out, "{line}")?;
                line.clear();
            }
            line.push_str("  ");
            line.push_str(level.name);
        }
        if !line.is_empty() {
            writeln!(out, "{line}")?;
        }
    }
    writeln!(
        out,
        "\nA name stands where a level file goes, e.g. `client ewn solve level4` or `client \
         klotski terminal --level lunaqu4kez_extra_04`; `client levels GAME NAME` prints one."
    )?;
    Ok(std::process::ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn levels(game: Option<&str>, name: Option<&str>) -> anyhow::Result<String> {
        let args = LevelsArgs {
            game: game.map(str::to_string),
            name: name.map(str::to_string),
        };
        let mut out = Vec::new();
        run(args, &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn every_game_is_listed_and_one_level_prints_whole() {
        let all = levels(None, None).unwrap();
        assert!(all.contains("ewn: EinStein"), "{all}");
        assert!(
            all.contains("klotski: Numeric Klotski boards (32)"),
            "{all}"
        );
        assert!(all.contains("  level1  level2  level3"), "{all}");
        let ewn = levels(Some("ewn"), None).unwrap();
        assert!(!ewn.contains("klotski:"), "{ewn}");
        for name in ["level1", "level4"] {
            let printed = levels(Some("ewn"), Some(name)).unwrap();
            let text = named("ewn", name).unwrap().text;
            assert_eq!(printed.trim_end(), text.trim_end());
            assert!(printed.ends_with('\n'), "{name} ends its last line");
        }
        let unknown = levels(Some("chess"), None).unwrap_err().to_string();
        assert!(unknown.contains("ewn, klotski, cave"), "{unknown}");
        let missing = levels(Some("ewn"), Some("level99"))
            .unwrap_err()
            .to_string();
        assert!(missing.contains("client levels ewn"), "{missing}");
    }
}
