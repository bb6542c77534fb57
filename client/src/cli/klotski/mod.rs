//! Numeric Klotski on the command line: `terminal` prints exactly the seed's answer to a puzzle
//! read from standard input, `gui` shows that answer in a window, `show` replays a given list
//! of slides in the window's replay view, `solve` does the same as
//! `terminal` with a chosen search and its statistics, `generate` prints random puzzles, `bench`
//! compares the searches. Standard output carries only the answer; everything else goes to
//! standard error.

mod bench;
mod chart;
mod input;
mod show;
mod tables;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::{Subcommand, ValueEnum};
use parlor_engines::klotski::{
    GenerateOptions, HeuristicKind, Method, Report, SolveOptions, Verdict, generate, solve,
};
use parlor_shared::klotski::{Shape, parse_puzzle};

use crate::gui::klotski::{StartStep, ViewerWindow, count_steps};
use crate::gui::show_klotski_game;
use crate::seed::clock_seed;
use crate::text_file::read_text_file;

pub use bench::BenchArgs;
pub use input::PuzzleInput;

/// The default search time: the seed's 5x6 sample gets a solution well within 5 s.
const DEFAULT_BUDGET_MS: u64 = 4000;
/// The fewest positions `solve --max-positions` takes: IDA*'s table and the anytime search's
/// first beam hold 1024 positions whatever the cap, so a smaller one would not be the cap
/// searched with; and it would only stop the other searches at once.
const MIN_POSITIONS: usize = 1 << 10;

/// `--max-positions` as typed: a whole number, at least [`MIN_POSITIONS`].
fn positions_cap(typed: &str) -> Result<usize, String> {
    let cap: usize = typed
        .parse()
        .map_err(|_| format!("{typed:?} is not a whole number"))?;
    if cap < MIN_POSITIONS {
        return Err(format!(
            "at least {MIN_POSITIONS}: the searches keep that many positions anyway, so a \
             smaller cap would not be the one searched with"
        ));
    }
    Ok(cap)
}
/// Exit code when neither a solution nor a proof of `No` was found in time.
const UNDECIDED_EXIT: u8 = 2;
/// What `terminal` and `solve` say about their exit codes after their help.
const EXIT_CODES: &str = "Exit code: 0 with an answer (Yes or No); 1 on an error such as bad \
    input; 2 when there is no answer: neither a solution nor a proof of No was found within the \
    search time (or the cap on stored positions), and nothing is printed on standard output. \
    A command line that is refused before any search also exits with 2.";

#[derive(Subcommand, Debug)]
pub enum KlotskiCommand {
    /// Read a puzzle from standard input and print the seed's answer: `Yes`, the number of
    /// steps and one `x S` line per step (a shortest solution whenever one is proved in time),
    /// or `No` (only when proved). Notes go to standard error; bad input is an error there.
    /// No answer in time is exit code 2. 15-puzzles are solved with the 7-8 pattern tables
    /// and 24-puzzles with the 6-6-6-6 ones that `klotski tables build` keeps, on every core;
    /// without them a note says so and the small tables are used (built in a few seconds, and
    /// kept).
    #[command(after_help = EXIT_CODES)]
    Terminal {
        /// Search time in milliseconds.
        #[arg(long, default_value_t = DEFAULT_BUDGET_MS)]
        budget_ms: u64,
        #[command(flatten)]
        input: PuzzleInput,
    },
    /// Read a puzzle from standard input, solve it as `terminal` does and show the solution in
    /// a window: Next / Right arrow steps (the moving piece slides), Back / Left arrow steps
    /// back, Home / End jump to the start / end. The answer is also said on standard error.
    Gui {
        /// Search time in milliseconds.
        #[arg(long, default_value_t = DEFAULT_BUDGET_MS)]
        budget_ms: u64,
        #[command(flatten)]
        input: PuzzleInput,
        /// The step to open at: a number from 0, or `end`.
        #[arg(long, default_value_t = StartStep::At(0))]
        step: StartStep,
        /// Save the window as PNG after a few frames and exit.
        #[arg(long)]
        screenshot: Option<PathBuf>,
    },
    /// Read a puzzle from standard input and show the slides of a moves file (`terminal`'s
    /// answer, or one `x S` line per slide) in the replay view of a stored room game: Right /
    /// Left step (the piece slides), Home / End jump. An illegal slide opens no window.
    Show {
        /// The moves file.
        #[arg(long)]
        moves: PathBuf,
        #[command(flatten)]
        input: PuzzleInput,
        /// The step to open at: a number from 0, or `end`.
        #[arg(long, default_value_t = StartStep::End)]
        step: StartStep,
        /// Save the window as PNG after a few frames and exit.
        #[arg(long)]
        screenshot: Option<PathBuf>,
    },
    /// The same answer by a chosen search, with its statistics on standard error. No answer
    /// in time is exit code 2.
    #[command(after_help = EXIT_CODES)]
    Solve {
        /// The search; auto is the one `terminal` and `gui` use.
        #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
        method: MethodArg,
        /// Search time in milliseconds.
        #[arg(long, default_value_t = DEFAULT_BUDGET_MS)]
        budget_ms: u64,
        /// Most positions a search may store (about 64 bytes each); at least 1024.
        #[arg(
            long,
            default_value_t = SolveOptions::default().max_positions,
            value_parser = positions_cap
        )]
        max_positions: usize,
        /// The strongest heuristic to use (databases apply to one-blank boards of 1x1 tiles of
        /// up to 25 cells, and fall back to conflicts elsewhere).
        #[arg(long, value_enum, default_value_t = HeuristicArg::Databases)]
        heuristic: HeuristicArg,
        /// Threads of IDA* (the tile boards' search, and IDA* on boards with blocks or several
        /// blanks, weighted or not); every core by default.
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: Option<u16>,
        #[command(flatten)]
        input: PuzzleInput,
    },
    /// Print a random puzzle in the input format: solvable, or unsolvable with --unsolvable.
    Generate {
        /// Rows of the board: at least 1, and rows times columns at most 64 cells.
        #[arg(long)]
        rows: u32,
        /// Columns of the board: at least 1, and rows times columns at most 64 cells.
        #[arg(long)]
        cols: u32,
        /// Empty cells: fewer than the board's cells (0 gives a board that is already solved).
        #[arg(long, default_value_t = 1)]
        blanks: u32,
        /// Blocks to tie, e.g. `2*2,1*2,2*1` (rows*columns).
        #[arg(long, value_delimiter = ',', value_parser = parse_shape)]
        blocks: Vec<Shape>,
        /// Random seed (default: from the clock, printed on standard error).
        #[arg(long)]
        seed: Option<u64>,
        /// Make a puzzle that has no solution (proved by an invariant).
        #[arg(long)]
        unsolvable: bool,
        /// Scrambling walk length (at most a million, about half a second on 8x8). Boards with
        /// blocks or several blanks always walk, 100 steps a cell by default; one-blank boards
        /// of 1x1 tiles are drawn uniformly unless a walk is given.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_WALK))]
        walk: Option<u32>,
    },
    /// Compare the searches on a fixed suite: every course input, boards of up to 12 cells,
    /// seeded random 15-puzzles and the seed's 5x6 sample.
    Bench(BenchArgs),
    /// The pattern tables kept in the cache folder (PARLOR_HOME/cache, else the platform's):
    /// build them ahead, list them, or delete them.
    Tables {
        #[command(subcommand)]
        command: tables::TablesCommand,
    },
}

/// The searches, as named on the command line.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum MethodArg {
    /// IDA* with pattern databases on one-blank boards of 1x1 tiles, A* elsewhere, then
    /// anytime weighted A* if time runs out (what `terminal` uses).
    Auto,
    /// Breadth-first search.
    Bfs,
    /// Bidirectional breadth-first search.
    Bibfs,
    /// A*.
    Astar,
    /// IDA* with a transposition table.
    Idastar,
    /// Anytime weighted A* (weights 10 down to 1).
    Weighted,
}

impl MethodArg {
    pub fn method(self) -> Method {
        match self {
            MethodArg::Auto => Method::Auto,
            MethodArg::Bfs => Method::Bfs,
            MethodArg::Bibfs => Method::Bibfs,
            MethodArg::Astar => Method::Astar,
            MethodArg::Idastar => Method::Idastar,
            MethodArg::Weighted => Method::Weighted,
        }
    }
}

/// The heuristics, as named on the command line.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeuristicArg {
    /// Sum of the pieces' Manhattan distances.
    Manhattan,
    /// Manhattan plus linear conflicts of 1x1 tiles.
    Conflicts,
    /// Additive pattern databases, where they apply: the 7-8 tables on 4x4 when they are
    /// kept (`klotski tables build`), else the small ones, built in the process.
    Databases,
    /// The small pattern databases only (6-6-3 on 4x4), built in the process when not kept.
    SmallDatabases,
    /// Additive pattern databases for any board, blocks and several blanks included (groups
    /// of pieces whose goals are near, up to six partitions), built in the process for the board.
    BlockDatabases,
}

impl HeuristicArg {
    pub fn kind(self) -> HeuristicKind {
        match self {
            HeuristicArg::Manhattan => HeuristicKind::Manhattan,
            HeuristicArg::Conflicts => HeuristicKind::Conflicts,
            HeuristicArg::Databases => HeuristicKind::PatternDatabases,
            HeuristicArg::SmallDatabases => HeuristicKind::SmallPatternDatabases,
            HeuristicArg::BlockDatabases => HeuristicKind::BlockDatabases,
        }
    }
}

fn parse_shape(text: &str) -> Result<Shape, String> {
    Shape::parse_block(text)
        .ok_or_else(|| format!("{text:?} is not a block shape: use 2*2, 1*2 or 2*1"))
}

pub fn run(command: KlotskiCommand) -> anyhow::Result<ExitCode> {
    let (stdout, stderr) = (&mut std::io::stdout().lock(), &mut std::io::stderr().lock());
    match command {
        KlotskiCommand::Terminal { budget_ms, input } => {
            answer(&input.read()?, &auto(budget_ms), false, stdout, stderr)
        }
        KlotskiCommand::Gui {
            budget_ms,
            input,
            step,
            screenshot,
        } => {
            let puzzle = parse_puzzle(&input.read()?).context("the puzzle")?;
            let window = ViewerWindow::check(screenshot.as_deref())?;
            let options = auto(budget_ms);
            let report = solve(&puzzle, &options);
            let summary = summary(&report, &options);
            writeln!(stderr, "{summary}")?;
            window.show(&puzzle, &report.verdict, summary, step)
        }
        KlotskiCommand::Show {
            moves,
            input,
            step,
            screenshot,
        } => {
            let puzzle = parse_puzzle(&input.read()?).context("the puzzle")?;
            let text =
                read_text_file(&moves).with_context(|| format!("reading {}", moves.display()))?;
            let slides =
                show::parse_moves_file(&text).with_context(|| format!("{}", moves.display()))?;
            show_klotski_game(&puzzle, slides, step, screenshot)
        }
        KlotskiCommand::Solve {
            method,
            budget_ms,
            max_positions,
            heuristic,
            threads,
            input,
        } => {
            let options = SolveOptions {
                method: method.method(),
                budget: Duration::from_millis(budget_ms),
                max_positions,
                heuristic: heuristic.kind(),
                threads: threads.map_or_else(every_core, usize::from),
            };
            answer(&input.read()?, &options, true, stdout, stderr)
        }
        KlotskiCommand::Generate {
            rows,
            cols,
            blanks,
            blocks,
            seed,
            unsolvable,
            walk,
        } => {
            let seed = seed.unwrap_or_else(|| {
                let seed = clock_seed();
                let _ = writeln!(std::io::stderr(), "seed {seed}");
                seed
            });
            let options = GenerateOptions {
                rows,
                cols,
                blanks,
                blocks,
                seed,
                unsolvable,
                walk,
            };
            write!(stdout, "{}", generate(&options)?.to_text())?;
            Ok(ExitCode::SUCCESS)
        }
        KlotskiCommand::Bench(args) => bench::run(&args, stdout, stderr),
        KlotskiCommand::Tables { command } => tables::run(command, stdout),
    }
}

/// The longest scrambling walk `generate` takes: far more than scrambles any board, and a
/// typo's four billion steps would take the better part of an hour.
const MAX_WALK: i64 = 1_000_000;

/// What `terminal` and `gui` solve with: the automatic choice of search.
fn auto(budget_ms: u64) -> SolveOptions {
    SolveOptions {
        method: Method::Auto,
        budget: Duration::from_millis(budget_ms),
        threads: every_core(),
        ..SolveOptions::default()
    }
}

/// The machine's cores: a search run from the command line has them to itself.
fn every_core() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The answer in one line, for the window and standard error: "Yes: 17 steps, proved
/// shortest", "No solution: <reason>", or that there is no answer.
pub fn summary(report: &Report, options: &SolveOptions) -> String {
    match &report.verdict {
        Verdict::Solved {
            moves,
            proved_shortest: true,
        } => format!("Yes: {}, proved shortest", count_steps(moves.len())),
        Verdict::Solved { moves, .. } => format!(
            "Yes: {}, not proved shortest (the shortest needs at least {})",
            count_steps(moves.len()),
            report.stats.lower_bound
        ),
        Verdict::Unsolvable(proof) => format!("No solution: {proof}"),
        Verdict::Undecided if stopped_at_position_cap(report, options) => format!(
            "Undecided: no solution and no proof that none exists found within {} stored \
             positions, the most a search may store",
            options.max_positions
        ),
        Verdict::Undecided => format!(
            "Undecided: no solution and no proof that none exists found in {} ms; try a \
             larger --budget-ms",
            options.budget.as_millis()
        ),
    }
}

/// Whether a search that found no answer stopped at `options.max_positions` rather than at
/// its time. The solver does not say why it gave up, so this is read from its statistics: it
/// stored as many positions as allowed and its time was not up. IDA* never stops at the cap
/// (its table is a cache of fixed size, reported as stored), so it is left out.
fn stopped_at_position_cap(report: &Report, options: &SolveOptions) -> bool {
    options.method != Method::Idastar
        && report.stats.stored >= options.max_positions as u64
        && report.elapsed < options.budget
}

/// Solves the puzzle in `input` and writes the seed's answer to `out`, notes (and with
/// `stats`, the search's statistics) to `notes`. Bad input is an error; no answer in time is
/// exit code 2 with nothing on `out`.
pub fn answer(
    input: &str,
    options: &SolveOptions,
    stats: bool,
    out: &mut impl Write,
    notes: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    let puzzle = parse_puzzle(input).context("the puzzle")?;
    let report = solve(&puzzle, options);
    if stats {
        writeln!(notes, "{}", statistics(&report))?;
    }
    match &report.verdict {
        Verdict::Solved {
            moves,
            proved_shortest,
        } => {
            let mut text = format!("Yes\n{}\n", moves.len());
            for mv in moves {
                text += &format!("{mv}\n");
            }
            out.write_all(text.as_bytes())?;
            if !proved_shortest {
                writeln!(
                    notes,
                    "note: this solution of {} steps is not proved shortest; the shortest needs at \
                     least {} (search time {} ms)",
                    moves.len(),
                    report.stats.lower_bound,
                    options.budget.as_millis()
                )?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Verdict::Unsolvable(proof) => {
            writeln!(out, "No")?;
            writeln!(notes, "no solution: {proof}")?;
            Ok(ExitCode::SUCCESS)
        }
        Verdict::Undecided => {
            let (limit, hint) = if stopped_at_position_cap(&report, options) {
                let hint = if stats {
                    "try a larger --max-positions"
                } else {
                    "`klotski solve` takes a larger --max-positions"
                };
                (
                    format!(
                        "within the cap of {} stored positions",
                        options.max_positions
                    ),
                    hint,
                )
            } else {
                (
                    format!("in {} ms", options.budget.as_millis()),
                    "try a larger --budget-ms",
                )
            };
            writeln!(
                notes,
                "no answer: neither a solution nor a proof that none exists was found {limit} \
                 (the shortest solution, if any, needs at least {} steps); {hint}",
                report.stats.lower_bound
            )?;
            Ok(ExitCode::from(UNDECIDED_EXIT))
        }
    }
}

/// One line of statistics: method, heuristic, positions, bound and time.
fn statistics(report: &Report) -> String {
    let tables = (report.tables.as_ref()).map_or(String::new(), |tables| format!(" ({tables})"));
    let heuristic = report.heuristic.map_or(String::new(), |kind| {
        format!(" with {}{tables}", kind.name())
    });
    format!(
        "{}{heuristic}: {} positions expanded, {} stored, lower bound {}, {:.3} s",
        report.method,
        report.stats.expanded,
        report.stats.stored,
        report.stats.lower_bound,
        report.elapsed.as_secs_f64()
    )
}

#[cfg(test)]
mod tests;
