//! `client klotski tables build|status|clear`: the pattern tables kept in the cache folder
//! (`crate::klotski_tables`), built ahead of the first search that needs them, listed, or
//! deleted.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::bail;
use clap::Subcommand;
use parlor_engines::klotski::build_tables;

use crate::identity::Home;
use crate::klotski_tables::TableCache;

#[derive(Subcommand, Debug)]
pub enum TablesCommand {
    /// Build the pattern tables of a board size and keep them (4x4: a few seconds, 32 MiB).
    Build {
        /// The board, ROWSxCOLS: one blank, 1x1 tiles, 2 to 16 cells a side product.
        #[arg(long, default_value = "4x4")]
        size: String,
    },
    /// List the kept tables: their file, size, and whether they can be used.
    Status,
    /// Delete the kept tables (they are built again when a search needs them).
    Clear,
}

pub fn run(command: TablesCommand, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let cache = TableCache::new(&Home::locate()?.cache);
    run_in(&cache, command, out)
}

/// [`run`] on the tables of `cache`.
pub fn run_in(
    cache: &TableCache,
    command: TablesCommand,
    out: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    match command {
        TablesCommand::Build { size } => {
            let (rows, cols) = board_size(&size)?;
            let started = Instant::now();
            let tables = build_tables(rows, cols);
            let path = cache.write(rows, cols, &tables)?;
            let bytes: usize = tables.iter().map(Vec::len).sum();
            writeln!(
                out,
                "built the {rows}x{cols} tables ({} MiB) in {:.1} s: {}",
                bytes >> 20,
                started.elapsed().as_secs_f64(),
                path.display()
            )?;
        }
        TablesCommand::Status => {
            let files = cache.status();
            if files.is_empty() {
                writeln!(
                    out,
                    "no tables kept yet (they are built when a search needs them)"
                )?;
            }
            for (path, bytes, usable) in files {
                let state = match usable {
                    Ok(()) => "ready".to_string(),
                    Err(why) => why,
                };
                writeln!(out, "{} ({} MiB): {state}", path.display(), bytes >> 20)?;
            }
        }
        TablesCommand::Clear => {
            let deleted = cache.clear()?;
            writeln!(out, "deleted {deleted} table files")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A board size written ROWSxCOLS that pattern tables cover: at least 2 a side, at most 16
/// cells.
fn board_size(text: &str) -> anyhow::Result<(u8, u8)> {
    let size = text.split_once('x').and_then(|(rows, cols)| {
        let (rows, cols) = (rows.parse::<u8>().ok()?, cols.parse::<u8>().ok()?);
        (rows >= 2 && cols >= 2 && u16::from(rows) * u16::from(cols) <= 16).then_some((rows, cols))
    });
    match size {
        Some(size) => Ok(size),
        None => bail!(
            "{text:?} is not a board the tables cover: ROWSxCOLS, 2 or more a side, 16 cells at most"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_text(cache: &TableCache, command: TablesCommand) -> String {
        let mut out = Vec::new();
        run_in(cache, command, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn tables_are_built_listed_and_cleared() {
        let folder = tempfile::tempdir().unwrap();
        let cache = TableCache::new(folder.path());
        assert!(run_text(&cache, TablesCommand::Status).contains("no tables kept yet"));
        let built = run_text(&cache, TablesCommand::Build { size: "3x3".into() });
        assert!(built.contains("built the 3x3 tables"), "{built}");
        assert_eq!(cache.read(3, 3).unwrap(), build_tables(3, 3));
        let status = run_text(&cache, TablesCommand::Status);
        assert!(
            status.contains("klotski-tables-3x3.bin") && status.contains("ready"),
            "{status}"
        );
        assert!(run_text(&cache, TablesCommand::Clear).contains("deleted 1"));
        assert!(
            board_size("5x5").is_err() && board_size("1x9").is_err() && board_size("x").is_err()
        );
        assert_eq!(board_size("2x8").unwrap(), (2, 8));
    }
}
