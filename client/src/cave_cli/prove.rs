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
use parlor_server::ai::cave_dfpn::book::{self, Line};
use parlor_server::ai::cave_dfpn::{
    DEFAULT_TABLE_BITS, Dfpn, Question, Solution, Value, canonical,
};
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
    /// for the same positions (up to mirror images); unknown results are not written.
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
        Some(path) => crate::cave_arena::load_starts(path, args.start_bricks)?,
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
        eprintln!("[{}/{}] proving {name} ...", i + 1, todo.len());
        let started = Instant::now();
        let solution = solver.solve_with_progress(&position, args.nodes, &mut |p| {
            let question = match p.question {
                Question::Win => "can the side to move win?",
                Question::NoLoss => "can it keep from losing?",
            };
            eprintln!(
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
        eprintln!("    {}", summary(&proved));
        if !args.json {
            writeln!(out, "{}", summary(&proved))?;
        }
        // Each result goes into the book as soon as it is proved: a run stopped hours in
        // keeps what it proved.
        if let Some(path) = &args.write {
            written += write_book(path, std::slice::from_ref(&proved))?;
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
        eprintln!("{written} proved position(s) written to {}", path.display());
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

/// Merges the proved results into the book at `path`, read again now (another run may have
/// written it meanwhile): a new line replaces an old one for the same position up to mirror
/// images. Returns the lines added.
fn write_book(path: &Path, results: &[Proved]) -> anyhow::Result<usize> {
    let new: Vec<Line> = results
        .iter()
        .filter(|r| r.solution.value != Value::Unknown)
        .map(|r| Line::new(r.moves.clone(), &r.solution))
        .collect();
    if new.is_empty() {
        return Ok(0);
    }
    let _held = lock_book(path)?;
    let old = read_book(path)?;
    let replaced: HashSet<(u64, u64)> = new.iter().map(|l| canonical(&l.position())).collect();
    let mut lines: Vec<Line> = old
        .into_iter()
        .filter(|l| !replaced.contains(&canonical(&l.position())))
        .chain(new.iter().cloned())
        .collect();
    lines.sort_by_key(|l| (l.moves.len(), game_text(&l.moves)));
    let mut text = book::HEADER.to_string();
    for line in &lines {
        text.push_str(&line.text());
        text.push('\n');
    }
    crate::out_file::write(path, text)?;
    Ok(new.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// A small search of the empty cave alone, nothing written: what each test changes.
    fn small() -> ProveArgs {
        ProveArgs {
            nodes: 10_000,
            plies: 0,
            position: String::new(),
            positions: None,
            start_bricks: None,
            table_bits: 12,
            json: false,
            write: None,
        }
    }

    /// `cave prove` with `words`, as its command line parses them.
    fn parse(words: &[&str]) -> Result<ProveArgs, clap::Error> {
        #[derive(Parser)]
        struct Prove {
            #[command(flatten)]
            args: ProveArgs,
        }
        let words = ["prove"].iter().chain(words);
        Prove::try_parse_from(words).map(|prove| prove.args)
    }

    #[test]
    fn first_moves_are_one_per_mirror_image() {
        let all = positions_below(&[], 1);
        // The empty cave, then a1..a4 up to mirrors: 16 wall cells fall into 4 classes.
        assert_eq!(all.len(), 5);
        assert!(all[0].is_empty());
        // Each of those has 16 replies (15 wall cells and the cell beside the brick), and no
        // two of the 64 mirror each other.
        assert_eq!(positions_below(&[], 2).len(), 5 + 4 * 16);
    }

    #[test]
    fn a_won_puzzle_is_written_to_the_book_and_replaces_its_mirror_image() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("proven.txt");
        // The left-right mirror image of the tactics puzzle proved below, with a weaker value.
        let mirror = "h5 h8 h2 a4 b4 h6 g8 a6 h7 a5 f8";
        std::fs::write(&path, format!("{mirror} | tie-or-better | - | 1\n")).unwrap();
        let args = ProveArgs {
            position: "a5 a8 a2 h4 g4 a6 b8 h6 a7 h5 c8".into(),
            json: true,
            write: Some(path.clone()),
            ..small()
        };
        let mut out = Vec::new();
        run(&args, &mut out).unwrap();
        let report: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(report[0]["value"], "win");
        let stored = book::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(stored.len(), 1, "the mirror image's line was replaced");
        assert_eq!(stored[0].value, Value::Win);
        assert_eq!(game_text(&stored[0].moves), args.position);
    }

    /// A result for `moves`, as a run that proved it a "tie or better" would hold it.
    fn tie_or_better(moves: &str) -> Proved {
        Proved {
            moves: crate::cave_cli::parse_game(moves).unwrap(),
            solution: Solution {
                value: Value::TieOrBetter,
                best: None,
                nodes: 1,
            },
            time: Duration::ZERO,
        }
    }

    #[test]
    fn a_write_waits_for_another_runs_write_and_keeps_its_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("proven.txt");
        // Another run is writing: it holds the lock between reading the book and replacing it.
        let other_run = lock_book(&path).unwrap();
        let this_run = std::thread::spawn({
            let path = path.clone();
            move || write_book(&path, &[tie_or_better("a1")]).unwrap()
        });
        std::thread::sleep(Duration::from_millis(200));
        assert!(
            !path.exists(),
            "this run wrote while the other held the lock"
        );
        write_one_line_book(&path, "a2");
        drop(other_run);
        assert_eq!(this_run.join().unwrap(), 1);
        let stored = book::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let names: Vec<String> = stored.iter().map(|l| game_text(&l.moves)).collect();
        assert_eq!(names, ["a1", "a2"], "neither run's line was dropped");
    }

    /// What the other run writes while it holds the lock: a book of one line.
    fn write_one_line_book(path: &Path, moves: &str) {
        let line = Line::new(
            crate::cave_cli::parse_game(moves).unwrap(),
            &tie_or_better(moves).solution,
        );
        std::fs::write(path, format!("{}{}\n", book::HEADER, line.text())).unwrap();
    }

    #[test]
    fn a_book_that_cannot_be_read_or_written_is_refused_before_any_proving() {
        let dir = tempfile::tempdir().unwrap();
        let not_a_book =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/cave/dfpn_bench.txt");
        let nowhere = dir.path().join("no-such-folder").join("proven.txt");
        for (book, reason) in [(not_a_book, "dfpn_bench.txt: line"), (nowhere, "folder")] {
            let args = ProveArgs {
                // Hours of work if it were done first.
                nodes: u64::MAX,
                plies: 3,
                write: Some(book),
                ..small()
            };
            let refused = run(&args, &mut Vec::new()).expect_err("refused");
            assert!(format!("{refused:#}").contains(reason), "{refused:#}");
        }
    }

    #[test]
    fn a_book_that_cannot_be_written_is_refused_before_any_proving_and_left_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let book_text = "a1 | tie-or-better | - | 1\n";
        let read_only = dir.path().join("read-only.txt");
        std::fs::write(&read_only, book_text).unwrap();
        let mut permissions = std::fs::metadata(&read_only).unwrap().permissions();
        permissions.set_readonly(true);
        std::fs::set_permissions(&read_only, permissions).unwrap();
        // Root writes read-only files: there only a folder nothing can be made in (Linux's
        // /proc) is tested.
        let mut books = Vec::new();
        if cfg!(target_os = "linux") {
            books.push(PathBuf::from("/proc/parlor-proven.txt"));
        }
        if std::fs::OpenOptions::new()
            .append(true)
            .open(&read_only)
            .is_err()
        {
            books.push(read_only.clone());
        }
        for book in books {
            let args = ProveArgs {
                write: Some(book.clone()),
                ..small()
            };
            let mut out = Vec::new();
            let refused = run(&args, &mut out).expect_err("refused");
            let expected = format!("cannot write {}", book.display());
            assert!(format!("{refused:#}").contains(&expected), "{refused:#}");
            assert!(out.is_empty(), "nothing is proved first");
        }
        assert_eq!(std::fs::read_to_string(&read_only).unwrap(), book_text);
    }

    #[test]
    fn the_benchmark_file_holds_its_four_unfinished_positions() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/cave/dfpn_bench.txt");
        let starts = crate::cave_arena::load_starts(&path, None).unwrap();
        let bricks: Vec<usize> = starts.iter().map(Vec::len).collect();
        assert_eq!(bricks, [38, 30, 40, 27]);
    }

    /// What proving each start of the positions file at `path` prints, with small budgets.
    fn prove_file(path: &Path) -> String {
        let args = ProveArgs {
            positions: Some(path.to_path_buf()),
            ..small()
        };
        let mut out = Vec::new();
        run(&args, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_start_of_a_positions_file_is_proved_in_order() {
        // The tactics puzzle (a win in two moves) and a won game's line before its last move.
        let path = crate::cave_cli::temp_file(
            "prove-starts",
            "# two starts\na5 a8 a2 h4 g4 a6 b8 h6 a7 h5 c8\n\n\
             game   1: A as Black: Win(Black): a1 h8 b1 h7 c1 h6 d1 h5\n",
        );
        let text = prove_file(&path);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(lines[0].starts_with("a5 a8 a2 h4 g4 a6 b8 h6 a7 h5 c8: win, best"));
        assert!(lines[1].starts_with("a1 h8 b1 h7 c1 h6 d1 h5: win, best e1"));
    }

    #[test]
    fn a_positions_file_with_a_byte_order_mark_reads_as_without() {
        let path = crate::cave_cli::temp_file("prove-bom", "\u{feff}a1 h8 b1 h7\n");
        let text = prove_file(&path);
        assert!(text.starts_with("a1 h8 b1 h7: "), "{text}");
    }

    #[test]
    fn a_games_out_file_is_proved_from_its_first_start_bricks() {
        // A whole game as `cave arena --games-out` writes it: Black's five ends it.
        let path = crate::cave_cli::temp_file(
            "prove-games-out",
            "game   1: A as Black: Win(Black): a1 h8 b1 h7 c1 h6 d1 h5 e1\n",
        );
        let file = path.to_str().unwrap();
        let small = ["--nodes", "10000", "--plies", "0", "--table-bits", "12"];
        let whole = parse(&[&["--positions", file][..], &small].concat()).unwrap();
        let refused = run(&whole, &mut Vec::new()).expect_err("a finished game");
        let refused = format!("{refused:#}");
        assert!(
            refused.contains("the game is over; --start-bricks"),
            "{refused}"
        );

        let cut = [&["--positions", file, "--start-bricks", "8"][..], &small].concat();
        let mut out = Vec::new();
        run(&parse(&cut).unwrap(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with("a1 h8 b1 h7 c1 h6 d1 h5: win, best e1"),
            "{text}"
        );

        let cut_too_late = [&["--positions", file, "--start-bricks", "9"][..], &small].concat();
        let refused = run(&parse(&cut_too_late).unwrap(), &mut Vec::new()).expect_err("over");
        assert!(
            format!("{refused:#}").contains("over within 9 bricks"),
            "{refused:#}"
        );
        // Without a file there is nothing to cut, and a --position is not cut either.
        assert!(parse(&["--start-bricks", "8"]).is_err());
        let with_position = parse(&["--position", "a1 h1", "--start-bricks", "1"]);
        let refused = with_position.expect_err("--start-bricks with --position");
        assert!(refused.to_string().contains("--start-bricks"), "{refused}");
    }
}
