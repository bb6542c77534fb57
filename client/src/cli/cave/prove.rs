//! `client cave prove`: the df-pn solver on a position (the empty cave by default) and on every
//! position a few plies below it, one per mirror image; results go to stdout (text or JSON),
//! progress to stderr, and with `--write` into the book the strong engine plays from.

use std::collections::HashSet;
use std::fs::File;
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Args;
use parlor_engines::cave::dfpn::book::{self, Line};
use parlor_engines::cave::dfpn::{DEFAULT_TABLE_BITS, Dfpn, Question, Solution, Value, canonical};
use parlor_shared::cave::{Position, Square};
use serde_json::json;

use crate::text_file::read_text_file;

#[derive(Args, Debug, Clone)]
pub struct ProveArgs {
    /// Node budget of each of the two searches per position.
    #[arg(long, default_value_t = 1_000_000)]
    nodes: u64,
    /// Also prove every position this many plies below the start (1: each first move; 0 to 4).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(0..=4))]
    plies: u32,
    /// The start, as moves from the empty cave ("a1 h8 ..."); the empty cave if omitted.
    #[arg(long, default_value = "")]
    position: String,
    /// Starts from a file instead of --position: a move list per line (`#` comments), each
    /// proved with the positions --plies below it. Lines of `cave arena --games-out` are
    /// finished games: give --start-bricks with them. With `--plies 0` and
    /// levels/cave/dfpn_bench.txt this is df-pn's speed benchmark.
    #[arg(long, conflicts_with = "position")]
    positions: Option<PathBuf>,
    /// Keep only the first N moves of each line of --positions, as `cave arena --start-bricks`
    /// does: proves a `--games-out` file's games from brick N. A game over by then is refused.
    // `requires` alone lets `--position` through: clap waives --positions' requirement when
    // an argument it conflicts with is given.
    #[arg(long, requires = "positions", conflicts_with = "position")]
    start_bricks: Option<usize>,
    /// Transposition table size: 2^BITS entries of 32 bytes (4 to 26). Node counts written to
    /// a book are only reproducible with the default.
    #[arg(long, default_value_t = DEFAULT_TABLE_BITS, value_parser = clap::value_parser!(u32).range(4..=26))]
    table_bits: u32,
    /// Print the results as JSON.
    #[arg(long)]
    json: bool,
    /// Add what was proved to this book (e.g. levels/cave/proven.txt), replacing older lines
    /// for the same positions (up to mirror images); unknown results are not written. The
    /// engine plays levels/cave/proven.txt as built in: from the next build on.
    #[arg(long)]
    write: Option<PathBuf>,
}

/// One proved (or not) position.
struct Proved {
    moves: Vec<Square>,
    solution: Solution,
    time: Duration,
}

/// The start and the positions `plies` below it, one per mirror image, in breadth-first order.
fn positions_below(start: &[Square], plies: u32) -> Vec<Vec<Square>> {
    let mut seen = HashSet::new();
    let mut level = vec![start.to_vec()];
    let mut all = level.clone();
    for _ in 0..plies {
        let mut next = Vec::new();
        for moves in &level {
            let position = Position::from_moves(moves).expect("built from legal moves");
            for square in position.legal_squares() {
                let child = position.play_unchecked(square);
                if child.outcome().is_none() && seen.insert(canonical(&child)) {
                    next.push([moves.clone(), vec![square]].concat());
                }
            }
        }
        all.extend(next.iter().cloned());
        level = next;
    }
    all
}

pub fn run(args: &ProveArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let starts = match &args.positions {
        Some(path) => super::games::load_starts(path, args.start_bricks)?,
        None => vec![super::parse_game(&args.position)?],
    };
    let todo: Vec<Vec<Square>> = starts
        .iter()
        .flat_map(|start| positions_below(start, args.plies))
        .collect();
    // A book that is not one, whose folder is missing, or that cannot be written is found
    // before hours of proving.
    if let Some(path) = &args.write {
        read_book(path)?;
        crate::out_file::check_writable(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let mut solver = Dfpn::new(args.table_bits);
    solver.progress_every = 1 << 20;
    let mut results = Vec::new();
    let mut written = 0;
    for (i, moves) in todo.iter().enumerate() {
        let position = Position::from_moves(moves).expect("built from legal moves");
        let name = game_text(moves);
        let _ = writeln!(
            std::io::stderr(),
            "[{}/{}] proving {name} ...",
            i + 1,
            todo.len()
        );
        let started = Instant::now();
        let solution = solver.solve_with_progress(&position, args.nodes, &mut |p| {
            let question = match p.question {
                Question::Win => "can the side to move win?",
                Question::NoLoss => "can it keep from losing?",
            };
            let _ = writeln!(
                std::io::stderr(),
                "    {question} {} of {} nodes, {:.0} s",
                p.nodes,
                args.nodes,
                started.elapsed().as_secs_f64()
            );
        });
        let proved = Proved {
            moves: moves.clone(),
            solution,
            time: started.elapsed(),
        };
        let _ = writeln!(std::io::stderr(), "    {}", summary(&proved));
        // Each result goes into the book as soon as it is proved, before it is printed (a
        // closed stdout ends the run): a run stopped hours in keeps what it proved.
        if let Some(path) = &args.write {
            written += usize::from(write_book(path, &proved)?);
        }
        if !args.json {
            writeln!(out, "{}", summary(&proved))?;
        }
        results.push(proved);
    }
    if args.json {
        let report: Vec<_> = results
            .iter()
            .map(|r| {
                json!({
                    "moves": game_text(&r.moves),
                    "value": r.solution.value.name(),
                    "best": r.solution.best.map(|s| s.to_string()),
                    "nodes": r.solution.nodes,
                    "seconds": r.time.as_secs_f64(),
                })
            })
            .collect();
        writeln!(out, "{:#}", serde_json::Value::from(report))?;
    }
    if let Some(path) = &args.write {
        let _ = writeln!(
            std::io::stderr(),
            "{written} proved position(s) written to {}",
            path.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Waits for, then holds, the lock of the book at `path`: `.NAME.lock` beside it. Two `--write`
/// runs that finish together then merge one after the other, and neither drops the other's
/// new lines. The book itself cannot carry the lock, as a write replaces it by a rename; the
/// lock file stays, since removing it would race a run waiting on it.
fn lock_book(path: &Path) -> anyhow::Result<File> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let lock_path = path.with_file_name(format!(".{name}.lock"));
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .with_context(|| format!("cannot open {}", lock_path.display()))?;
    file.lock()
        .with_context(|| format!("cannot lock {}", lock_path.display()))?;
    Ok(file)
}

fn game_text(moves: &[Square]) -> String {
    if moves.is_empty() {
        "(empty cave)".to_string()
    } else {
        moves
            .iter()
            .map(Square::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn summary(proved: &Proved) -> String {
    let best = proved
        .solution
        .best
        .map_or(String::new(), |s| format!(", best {s}"));
    format!(
        "{}: {}{best}, {} nodes, {:.2} s",
        game_text(&proved.moves),
        proved.solution.value.name(),
        proved.solution.nodes,
        proved.time.as_secs_f64()
    )
}

/// The lines of the book at `path` (none if it does not exist yet); refused when it is not a
/// book.
fn read_book(path: &Path) -> anyhow::Result<Vec<Line>> {
    match read_text_file(path) {
        Ok(text) => book::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display())),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
    }
}

/// Adds a proved result to the book at `path`, read again now (another run may have written
/// it meanwhile): its line replaces an old one for the same position up to mirror images.
/// Returns whether it was added (an unknown result is not).
fn write_book(path: &Path, proved: &Proved) -> anyhow::Result<bool> {
    if proved.solution.value == Value::Unknown {
        return Ok(false);
    }
    let new = Line::new(proved.moves.clone(), &proved.solution);
    let _held = lock_book(path)?;
    let replaced = canonical(&new.position());
    let mut lines: Vec<Line> = read_book(path)?
        .into_iter()
        .filter(|l| canonical(&l.position()) != replaced)
        .chain([new])
        .collect();
    lines.sort_by_key(|l| (l.moves.len(), game_text(&l.moves)));
    let mut text = book::HEADER.to_string();
    for line in &lines {
        text.push_str(&line.text());
        text.push('\n');
    }
    crate::out_file::write(path, text)?;
    Ok(true)
}

#[cfg(test)]
#[path = "prove_tests.rs"]
mod tests;
