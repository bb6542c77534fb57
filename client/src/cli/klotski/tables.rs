//! `client klotski tables build|status|clear`: the pattern tables kept in the cache folder
//! (`parlor_home::klotski_tables`), built ahead of the searches that use them, listed, or
//! deleted. The 4x4 7-8 tables are only ever built here: a search that finds them missing
//! uses the small ones (6-6-3) and says so.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::bail;
use clap::Subcommand;
use parlor_engines::klotski::{BuildProgress, MAX_TABLE_CELLS, TableSpec, build_tables};
use parlor_home::klotski_tables::TableCache;

use crate::identity::Home;

#[derive(Subcommand, Debug)]
pub enum TablesCommand {
    /// Build the pattern tables of a board size and keep them, with a progress bar on standard
    /// error. On 4x4: the 7-8 tables (275 MiB kept; about 5 minutes and 6 GB of memory on two
    /// cores) and the small 6-6-3 ones (5.5 MiB, seconds). On 5x5: the 6-6-6-6 tables (243
    /// MiB kept; about 3 minutes and 2.7 GB of memory) and the small 5-5-5-5-4 ones (12 MiB,
    /// seconds).
    Build {
        /// The board, ROWSxCOLS: one blank, 1x1 tiles, 2 or more a side, 25 cells at most.
        #[arg(long, default_value = "4x4")]
        size: String,
        /// Build the small tables only (6-6-3 on 4x4, 5-5-5-5-4 on 5x5: a few seconds).
        #[arg(long)]
        small: bool,
    },
    /// List the kept tables: their file, size, and whether they can be used (every byte is
    /// checked, which takes a few tenths of a second for the 7-8 tables).
    Status,
    /// Delete the kept tables (the small ones are built again when a search needs them).
    Clear,
}

pub fn run(command: TablesCommand, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let cache = TableCache::new(&Home::locate()?.cache);
    run_in(&cache, command, out, &mut std::io::stderr())
}

/// [`run`] on the tables of `cache`, the progress of a build on `progress`.
pub fn run_in(
    cache: &TableCache,
    command: TablesCommand,
    out: &mut impl Write,
    progress: &mut (impl Write + Send),
) -> anyhow::Result<ExitCode> {
    match command {
        TablesCommand::Build { size, small } => {
            let (rows, cols) = board_size(&size)?;
            let specs = match small {
                true => vec![TableSpec::on_demand(rows, cols)],
                false => TableSpec::all(rows, cols),
            };
            for spec in specs {
                let started = Instant::now();
                let bar = std::sync::Mutex::new(&mut *progress);
                let tables = build_tables(&spec, &|step| {
                    let mut bar = bar.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                    let _ = write!(bar, "\r{}", progress_line(&spec, step, started));
                    let _ = bar.flush();
                });
                writeln!(progress)?;
                let built = started.elapsed();
                let slices: Vec<&[u8]> = tables.iter().map(Vec::as_slice).collect();
                let path = cache.write(&spec, &slices)?;
                let bytes: usize = tables.iter().map(Vec::len).sum();
                writeln!(
                    out,
                    "built the {} tables ({:.1} MiB) in {:.1} s: {}",
                    spec.label(),
                    bytes as f64 / f64::from(1 << 20),
                    built.as_secs_f64(),
                    path.display()
                )?;
            }
        }
        TablesCommand::Status => {
            let files = cache.status();
            if files.is_empty() {
                writeln!(
                    out,
                    "no tables kept yet in {} (`klotski tables build` builds them)",
                    cache.folder().display()
                )?;
            }
            for file in files {
                let state = match file.usable {
                    Ok(tables) => format!("the {tables} tables, ready"),
                    Err(why) => why,
                };
                let mib = file.bytes as f64 / f64::from(1 << 20);
                writeln!(out, "{} ({mib:.1} MiB): {state}", file.path.display())?;
            }
        }
        TablesCommand::Clear => {
            let deleted = cache.clear()?;
            writeln!(out, "deleted {deleted} table files")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// "4x4 7-8 [#########.........] group 2 of 2 (8 tiles): 48% of placements, 31 moves, 40 s"
fn progress_line(spec: &TableSpec, step: &BuildProgress, started: Instant) -> String {
    const WIDTH: usize = 30;
    let share = step.reached as f64 / step.placements.max(1) as f64;
    let filled = ((share * WIDTH as f64) as usize).min(WIDTH);
    format!(
        "{} [{}{}] group {} of {} ({} tiles): {:>3.0}% of placements, {} moves, {:.0} s ",
        spec.label(),
        "#".repeat(filled),
        ".".repeat(WIDTH - filled),
        step.group + 1,
        step.groups,
        step.tiles,
        share * 100.0,
        step.depth,
        started.elapsed().as_secs_f64()
    )
}

/// A board size written ROWSxCOLS that pattern tables cover: at least 2 a side, at most
/// [`MAX_TABLE_CELLS`] cells.
fn board_size(text: &str) -> anyhow::Result<(u8, u8)> {
    let size = text.split_once('x').and_then(|(rows, cols)| {
        let (rows, cols) = (rows.parse::<u8>().ok()?, cols.parse::<u8>().ok()?);
        let cells = usize::from(rows) * usize::from(cols);
        (rows >= 2 && cols >= 2 && cells <= MAX_TABLE_CELLS).then_some((rows, cols))
    });
    match size {
        Some(size) => Ok(size),
        None => bail!(
            "{text:?} is not a board the tables cover: ROWSxCOLS, 2 or more a side, \
             {MAX_TABLE_CELLS} cells at most"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_text(cache: &TableCache, command: TablesCommand) -> (String, String) {
        let (mut out, mut progress) = (Vec::new(), Vec::new());
        run_in(cache, command, &mut out, &mut progress).unwrap();
        let text = |bytes| String::from_utf8(bytes).unwrap();
        (text(out), text(progress))
    }

    #[test]
    fn tables_are_built_with_a_progress_bar_listed_and_cleared() {
        let folder = tempfile::tempdir().unwrap();
        let cache = TableCache::new(folder.path());
        let status = |cache| run_text(cache, TablesCommand::Status).0;
        assert!(status(&cache).contains("no tables kept yet"));
        let build = TablesCommand::Build {
            size: "3x3".into(),
            small: false,
        };
        let (built, progress) = run_text(&cache, build);
        assert!(built.contains("built the 3x3 4-4 tables"), "{built}");
        assert!(
            progress.contains("group 2 of 2 (4 tiles): 100% of placements"),
            "{progress}"
        );
        let spec = TableSpec::on_demand(3, 3);
        let kept: Vec<Vec<u8>> = (cache.map(&spec).unwrap().tables().iter())
            .map(|table| table.to_vec())
            .collect();
        assert_eq!(kept, build_tables(&spec, &|_| {}));
        let listed = status(&cache);
        assert!(
            listed.contains("klotski-tables-3x3-4-4.bin") && listed.contains("ready"),
            "{listed}"
        );
        assert!(
            run_text(&cache, TablesCommand::Clear)
                .0
                .contains("deleted 1")
        );
        assert!(
            board_size("5x6").is_err() && board_size("1x9").is_err() && board_size("x").is_err()
        );
        assert_eq!(board_size("2x8").unwrap(), (2, 8));
        assert_eq!(board_size("5x5").unwrap(), (5, 5));
    }
}
