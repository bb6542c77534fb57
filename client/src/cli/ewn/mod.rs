//! EinStein würfelt nicht! puzzle in the terminal: the seed's simulator (`play`), its viewer as
//! a strict moves.txt checker (`view`), the optimal solver (`solve`, `bench`) and the level
//! generator (`generate`). Console logic is written against `BufRead`/`Write` for the tests.

mod bench;
mod play;
mod show;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use parlor_engines::ewn::{Wanted, generate_with_progress, solve};
use parlor_shared::ewn::{
    BOARD_SIZE, Checked, DEFAULT_BLOCKED, DICE_LEN, FileError, Level, MovesFile, Pieces, Rules,
    Status, check_moves, parse_level, parse_moves,
};

use crate::builtin_levels;
use crate::gui::describe::count_s;
use crate::seed::clock_seed;
use crate::text_file::read_text_file;

pub use bench::{GeneratedBench, bench, bench_generated};
pub use play::{PlayOptions, PlayerKind, play};

#[derive(Subcommand, Debug)]
pub enum EwnCommand {
    /// Play a level as a human, the random player or the AI, and write moves.txt. Whatever is
    /// not given (player, name, level) is asked for.
    Play {
        /// The level file (target, start positions, dice), or a built-in level's name such as
        /// level4. Asked for if omitted.
        #[arg(long)]
        level: Option<PathBuf>,
        /// Who plays. Asked for if omitted.
        #[arg(long, value_enum)]
        player: Option<PlayerKind>,
        /// The player's name (default: asked for a human, "Random Player", "AI Player").
        #[arg(long)]
        name: Option<String>,
        /// Where the game is written.
        #[arg(long, default_value = "moves.txt")]
        out: PathBuf,
        /// Where a level number typed at the prompt is looked up (levelN.txt). Default: the
        /// levels built in (`client levels ewn`).
        #[arg(long)]
        levels_dir: Option<PathBuf>,
        /// Seed of the random player (default: a fresh one, printed).
        #[arg(long)]
        seed: Option<u64>,
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Check a moves.txt strictly, as the seed's viewer does: prints
    /// "File loaded successfully with no errors." or the first error; exit code 1 on error.
    View {
        /// The moves file.
        file: PathBuf,
        /// Also check that the file plays this level (its dice, target and start): a file, or
        /// a built-in level's name.
        #[arg(long)]
        level: Option<PathBuf>,
        /// After the check passes, open the file in the window (Prev/Next, Home/End keys).
        #[arg(long)]
        gui: bool,
        /// With --gui: save the window as PNG after a few frames and exit.
        #[arg(long, requires = "gui")]
        screenshot: Option<PathBuf>,
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Print a fewest-move solution of a level.
    Solve {
        /// The level file, or a built-in level's name such as level4 (`client levels`).
        file: PathBuf,
        /// Also write the solution as a moves file.
        #[arg(long)]
        out: Option<PathBuf>,
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Solve every level in a folder and print moves and time per level; then, if asked,
    /// generated boards of two kinds, each with its time, and each kind's mean and worst.
    Bench {
        /// The folder whose .txt files are solved, each a level, in natural order (level2
        /// before level10); its subfolders are not read. Default: the levels built in.
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Also solve this many generated boards needing 23-25 moves (`generate
        /// --moves-at-least 23 --moves-at-most 25`, seeds from --seed on).
        #[arg(long, default_value_t = 0)]
        generated: u32,
        /// Also solve this many generated boards with no solution within the move limit
        /// (`generate --no-solution`, seeds from --seed on). Finding each takes a minute or
        /// more.
        #[arg(long, default_value_t = 0)]
        unsolvable: u32,
        /// The first generated board's seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Make a new level whose fewest-move solution is in the range asked for, or that has no
    /// solution at all. Meanwhile stderr says how many candidates were tried, about every
    /// second.
    #[command(group(clap::ArgGroup::new("wanted").required(true).args(["moves_at_least", "no_solution"])))]
    Generate {
        /// The fewest moves the level may need (this or --no-solution).
        #[arg(long)]
        moves_at_least: Option<usize>,
        /// The most moves the level may need.
        #[arg(long, default_value_t = 25)]
        moves_at_most: usize,
        /// Instead, a level with no solution within the move limit: about one random level in a
        /// million under the course's rules, so this takes a minute or more.
        #[arg(long)]
        no_solution: bool,
        /// The same seed gives the same level.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Candidates to try before giving up (default 20,000; 20,000,000 with
        /// --no-solution).
        #[arg(long)]
        tries: Option<u32>,
        /// Write the level here instead of to standard output.
        #[arg(long)]
        out: Option<PathBuf>,
        #[command(flatten)]
        rules: RulesArgs,
    },
}

#[derive(Args, Debug, Clone, Copy)]
pub struct RulesArgs {
    /// The removed square (22 on the course's boards; another course's remove 33).
    #[arg(long, default_value_t = DEFAULT_BLOCKED,
          value_parser = clap::value_parser!(u8).range(1..=99))]
    blocked: u8,
    /// Moves allowed before the puzzle is lost. The course's levels 1-4 keep their own lower
    /// limits (6, 10, 10, 15), as SPEC §1 says, whatever is asked.
    #[arg(long, default_value_t = DICE_LEN as u8,
          value_parser = clap::value_parser!(u8).range(1..=DICE_LEN as i64))]
    max_moves: u8,
}

impl RulesArgs {
    fn rules(self) -> Rules {
        Rules {
            blocked: self.blocked,
            max_moves: usize::from(self.max_moves),
        }
    }
}

pub fn run(command: EwnCommand) -> anyhow::Result<ExitCode> {
    let out = &mut std::io::stdout();
    match command {
        EwnCommand::Play {
            level,
            player,
            name,
            out: moves_path,
            levels_dir,
            seed,
            rules,
        } => {
            let options = PlayOptions {
                level,
                player,
                name,
                out: moves_path,
                rules: rules.rules(),
                levels_dir,
                // Drawn here, below 2^53 like every seed drawn (see `seed`), not by `play`.
                seed: Some(seed.unwrap_or_else(clock_seed)),
            };
            play(&mut std::io::stdin().lock(), out, options)
        }
        EwnCommand::View {
            file,
            level,
            gui,
            screenshot,
            rules,
        } => match gui {
            true => show::view_in_window(out, &file, level.as_deref(), rules.rules(), screenshot),
            false => view(out, &file, level.as_deref(), rules.rules()),
        },
        EwnCommand::Solve {
            file,
            out: moves_path,
            rules,
        } => solve_level(out, &file, moves_path.as_deref(), rules.rules()),
        EwnCommand::Bench {
            dir,
            generated,
            unsolvable,
            seed,
            rules,
        } => {
            let boards_follow = generated > 0 || unsolvable > 0;
            let levels = bench(out, dir.as_deref(), rules.rules(), boards_follow)?;
            let request = GeneratedBench {
                boards: generated,
                unsolvable,
                seed,
                rules: rules.rules(),
            };
            let boards = bench_generated(out, &mut std::io::stderr(), &request)?;
            Ok(if levels == ExitCode::SUCCESS {
                boards
            } else {
                levels
            })
        }
        EwnCommand::Generate {
            moves_at_least,
            moves_at_most,
            no_solution,
            seed,
            tries,
            out: level_path,
            rules,
        } => {
            let wanted = match moves_at_least {
                Some(at_least) if !no_solution => Wanted::Moves {
                    at_least,
                    at_most: moves_at_most,
                },
                _ => Wanted::NoSolution,
            };
            if let Some(at_least) = moves_at_least.filter(|&at_least| at_least > moves_at_most) {
                bail!(
                    "--moves-at-least {at_least} is more than --moves-at-most {moves_at_most} \
                     (its default unless given): give --moves-at-most {at_least} or more"
                );
            }
            let default_tries = match wanted {
                Wanted::Moves { .. } => 20_000,
                Wanted::NoSolution => 20_000_000,
            };
            let request = GenerateRequest {
                wanted,
                seed,
                tries: tries.unwrap_or(default_tries),
                rules: rules.rules(),
            };
            generate_level(out, &mut std::io::stderr(), request, level_path.as_deref())
        }
    }
}

fn read_text(path: &Path) -> anyhow::Result<String> {
    read_text_file(path).with_context(|| format!("reading {}", path.display()))
}

/// The text of a level: the file at `path`, or the built-in level it names.
fn read_level_text(path: &Path) -> anyhow::Result<String> {
    builtin_levels::level_text("ewn", path).with_context(|| format!("reading {}", path.display()))
}

fn write_text(path: &Path, text: &str) -> anyhow::Result<()> {
    crate::out_file::write(path, text)
}

/// Reads and checks a level file.
pub fn read_level(path: &Path, rules: Rules) -> anyhow::Result<Level> {
    let text = read_level_text(path)?;
    parse_level(&text, rules).with_context(|| format!("level {}", path.display()))
}

/// The board as text, square 0 at the top left: piece numbers, the target in brackets, `X`
/// on the removed square, `.` elsewhere; each row starts with its first square's number.
pub fn board_picture(level: &Level, pieces: &Pieces) -> String {
    let mut picture = String::new();
    for row in 0..BOARD_SIZE {
        picture.push_str(&format!("{:>3} ", row * BOARD_SIZE));
        for col in 0..BOARD_SIZE {
            let square = row * BOARD_SIZE + col;
            let cell = match pieces.piece_on(square) {
                Some(piece) if piece == level.target() => format!("[{piece}]"),
                Some(piece) => format!(" {piece} "),
                None if square == level.rules().blocked => " X ".to_string(),
                None => " . ".to_string(),
            };
            picture.push_str(&cell);
        }
        picture.truncate(picture.trim_end().len());
        picture.push('\n');
    }
    picture
}

/// Reads and checks a moves file against `level`, or against its own header without one.
fn check_file(
    text: &str,
    level: Option<&Level>,
    rules: Rules,
) -> Result<(MovesFile, Checked), FileError> {
    let moves = parse_moves(text)?;
    let own;
    let level = match level {
        Some(level) => level,
        None => {
            own = moves.level(rules)?;
            &own
        }
    };
    let checked = check_moves(&moves, level)?;
    Ok((moves, checked))
}

/// `client ewn view`: the seed's viewer message and what the game came to, or the first error.
pub fn view(
    out: &mut impl Write,
    file: &Path,
    level: Option<&Path>,
    rules: Rules,
) -> anyhow::Result<ExitCode> {
    let text = read_text(file)?;
    let level = level.map(|path| read_level(path, rules)).transpose()?;
    let (moves, checked) = match check_file(&text, level.as_ref(), rules) {
        Ok(read) => read,
        Err(error) => {
            writeln!(out, "{}: {error}", file.display())?;
            return Ok(ExitCode::FAILURE);
        }
    };
    writeln!(out, "File loaded successfully with no errors.")?;
    let summary = match checked.status {
        Status::Won => format!("solved in {}", count_s(checked.moves as u64, "move")),
        Status::Playing => format!("unfinished after {}", count_s(checked.moves as u64, "move")),
        Status::Lost(_) => format!("not solved: {}", checked.status),
    };
    writeln!(out, "{}: {summary}.", moves.name)?;
    Ok(ExitCode::SUCCESS)
}

/// `client ewn solve`: the fewest moves, one line each, and optionally the moves file.
pub fn solve_level(
    out: &mut impl Write,
    file: &Path,
    moves_out: Option<&Path>,
    rules: Rules,
) -> anyhow::Result<ExitCode> {
    let level = read_level(file, rules)?;
    if let Some(moves_out) = moves_out {
        crate::out_file::check_not_input(moves_out, file)?;
    }
    let Some(solution) = solve(&level) else {
        writeln!(out, "No solution within {} moves.", level.rules().max_moves)?;
        return Ok(ExitCode::FAILURE);
    };
    let states = solution
        .replay(&level)
        .context("the solution does not replay")?;
    for (number, (mv, before)) in solution.moves.iter().zip(&states).enumerate() {
        let from = before
            .pieces
            .square_of(mv.piece)
            .context("a moved piece is live")?;
        let capture = match before.pieces.piece_on(mv.to) {
            Some(victim) => format!(", capturing piece {victim}"),
            None => String::new(),
        };
        let die = level.dice()[before.turn];
        writeln!(
            out,
            "{:>2}. die {die}: piece {} {from} -> {}{capture}",
            number + 1,
            mv.piece,
            mv.to
        )?;
    }
    writeln!(out, "{} moves (fewest possible).", solution.moves.len())?;
    if let Some(path) = moves_out {
        let positions = states.iter().map(|state| state.pieces).collect();
        let record = MovesFile::record("AI Player", &level, positions);
        write_text(path, &record.to_string())?;
        writeln!(out, "Moves written to {}.", path.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// What `client ewn generate` was asked for.
pub struct GenerateRequest {
    pub wanted: Wanted,
    pub seed: u64,
    pub tries: u32,
    pub rules: Rules,
}

/// The shortest gap between two notes of how far `client ewn generate` got, on standard
/// error; it looks only between candidates, so a slow candidate makes the gap longer.
const GENERATE_PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// `client ewn generate`: the level to `out` (or to a file), what it needs to `log`, and until
/// then, about every second (between candidates), the candidates tried so far.
pub fn generate_level(
    out: &mut impl Write,
    log: &mut impl Write,
    request: GenerateRequest,
    level_out: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    generate_level_reporting(out, log, request, level_out, GENERATE_PROGRESS_EVERY)
}

/// [`generate_level`] with progress on `log` at most every `every`.
fn generate_level_reporting(
    out: &mut impl Write,
    log: &mut impl Write,
    request: GenerateRequest,
    level_out: Option<&Path>,
    every: Duration,
) -> anyhow::Result<ExitCode> {
    // A path that cannot take the level is found before a search that may take an hour.
    if let Some(path) = level_out {
        crate::out_file::check_writable(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let (started, mut reported) = (Instant::now(), Instant::now());
    let mut progress = |tries: u32| {
        if reported.elapsed() >= every {
            reported = Instant::now();
            // Only a note: a failed write to the log must not stop the search.
            let _ = writeln!(
                log,
                "{tries} of {} candidates tried, {} s",
                request.tries,
                started.elapsed().as_secs()
            );
        }
    };
    let generated = generate_with_progress(
        request.wanted,
        request.seed,
        request.rules,
        request.tries,
        &mut progress,
    )?;
    let text = generated.level.to_string();
    match level_out {
        Some(path) => {
            write_text(path, &text)?;
        }
        None => write!(out, "{text}")?,
    }
    let needs = match &generated.solution {
        Some(solution) => format!("Needs {} moves", solution.moves.len()),
        None => format!(
            "No solution within {} moves",
            generated.level.rules().max_moves
        ),
    };
    writeln!(
        log,
        "{needs} (seed {}, candidate {}).",
        request.seed, generated.tries
    )?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests;
