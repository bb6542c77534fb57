//! `client ewn bench`: the solver timed on the built-in levels (or a folder of levels), and on
//! generated boards it was never tuned on: boards needing 23-25 moves, and boards with no
//! solution within the move limit.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};
use parlor_engines::ewn::{Solution, Wanted, generate, solve};
use parlor_shared::ewn::{DEFAULT_BLOCKED, DICE_LEN, Level, Rules, parse_level};

use crate::builtin_levels;
use crate::level_files::{files_with_extension, natural_key};
use crate::text_file::read_text_file;

/// Level files of a folder in natural order (level2 before level10).
fn level_files(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut files =
        files_with_extension(dir, "txt").with_context(|| format!("reading {}", dir.display()))?;
    files.sort_by_key(|path| natural_key(&path.file_stem().unwrap_or_default().to_string_lossy()));
    Ok(files)
}

/// The header of every table: what the board is called, then [`solve_row`]'s columns.
fn write_header(out: &mut impl Write, first: &str) -> std::io::Result<()> {
    writeln!(
        out,
        "{first:<16} {:>6} {:>10} {:>10} {:>9}",
        "moves", "positions", "regions", "seconds"
    )
}

/// Solves `level` and writes its row: the fewest moves (`>limit` for none), the real and the
/// relaxed positions the solver expanded, and the time. Returns the time.
fn solve_row(out: &mut impl Write, name: &str, level: &Level) -> std::io::Result<f64> {
    let timer = Instant::now();
    let solution = solve(level);
    let seconds = timer.elapsed().as_secs_f64();
    let (moves, nodes, region_nodes) = match &solution {
        Some(Solution {
            moves,
            nodes,
            region_nodes,
        }) => (
            moves.len().to_string(),
            nodes.to_string(),
            region_nodes.to_string(),
        ),
        None => (
            format!(">{}", level.rules().max_moves),
            "-".to_string(),
            "-".to_string(),
        ),
    };
    writeln!(
        out,
        "{name:<16} {moves:>6} {nodes:>10} {region_nodes:>10} {seconds:>9.4}"
    )?;
    Ok(seconds)
}

/// `client ewn bench`: every level of a folder (or every built-in level) solved, with moves
/// and time. A file that is not a level says why on its row and the others are still solved;
/// it makes the exit code 1, as does a folder without levels, unless generated boards follow
/// (`boards_follow`): then it says so and only they are solved.
pub fn bench(
    out: &mut impl Write,
    dir: Option<&Path>,
    rules: Rules,
    boards_follow: bool,
) -> anyhow::Result<ExitCode> {
    let levels: Vec<(String, anyhow::Result<String>)> = match dir {
        Some(dir) => {
            let files = level_files(dir)?;
            if files.is_empty() && boards_follow {
                writeln!(
                    out,
                    "no levels (.txt files) in {}: only the generated boards",
                    dir.display()
                )?;
                return Ok(ExitCode::SUCCESS);
            }
            if files.is_empty() {
                bail!("no levels (.txt files) in {}", dir.display());
            }
            (files.iter())
                .map(|path| {
                    let name = path.file_name().unwrap_or_default().to_string_lossy();
                    (
                        name.into_owned(),
                        read_text_file(path).map_err(anyhow::Error::from),
                    )
                })
                .collect()
        }
        None => (builtin_levels::in_folder("ewn").into_iter())
            .map(|level| (level.name.to_string(), Ok(level.text.to_string())))
            .collect(),
    };
    write_header(out, "level")?;
    let started = Instant::now();
    let mut refused = 0;
    for (name, text) in &levels {
        let read = (text.as_ref().map_err(|error| anyhow::anyhow!("{error:#}")))
            .and_then(|text| Ok(parse_level(text, rules)?));
        match read {
            Ok(level) => {
                solve_row(out, name, &level)?;
            }
            Err(error) => {
                refused += 1;
                writeln!(out, "{name:<16} error: {error:#}")?;
            }
        }
    }
    writeln!(out, "total {:.3} s", started.elapsed().as_secs_f64())?;
    if refused > 0 {
        writeln!(
            out,
            "{refused} of {} files are not levels (see their rows)",
            levels.len()
        )?;
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// What `client ewn bench --generated` was asked for.
pub struct GeneratedBench {
    /// Boards needing 23-25 moves.
    pub boards: u32,
    /// Boards with no solution within the move limit.
    pub unsolvable: u32,
    /// The first board's seed; the next ones take the next seeds.
    pub seed: u64,
    pub rules: Rules,
}

/// The hardest boards the course's bonus levels ask for.
const HARD_MOVES: (usize, usize) = (23, 25);
/// Candidates a hard board is looked for among (its generator's default).
const HARD_TRIES: u32 = 20_000;
/// Candidates a board without a solution is looked for among: about one random board in a
/// million has none within 30 moves.
const UNSOLVABLE_TRIES: u32 = 20_000_000;

/// `client ewn bench --generated N --unsolvable M`: the generator's boards of each kind, seeds
/// from `seed` on, each solved and timed (the time to find them is not counted), then the
/// mean and the worst of each kind. A seed that gives no board says why on its row and makes
/// the exit code 1.
pub fn bench_generated(
    out: &mut impl Write,
    log: &mut impl Write,
    request: &GeneratedBench,
) -> anyhow::Result<ExitCode> {
    let (at_least, at_most) = HARD_MOVES;
    let limit = request.rules.max_moves;
    let kinds = [
        (
            format!("{at_least}-{at_most} moves"),
            format!("ewn generate --moves-at-least {at_least} --moves-at-most {at_most}"),
            Wanted::Moves { at_least, at_most },
            request.boards,
            HARD_TRIES,
        ),
        (
            format!("no solution within {limit} moves"),
            "ewn generate --no-solution".to_string(),
            Wanted::NoSolution,
            request.unsolvable,
            UNSOLVABLE_TRIES,
        ),
    ];
    // The rules as `generate` takes them, where they are not the course's.
    let mut rules = String::new();
    if limit != DICE_LEN {
        rules.push_str(&format!(" --max-moves {limit}"));
    }
    if request.rules.blocked != DEFAULT_BLOCKED {
        rules.push_str(&format!(" --blocked {}", request.rules.blocked));
    }
    let mut failed = false;
    for (kind, command, wanted, count, tries) in kinds {
        if count == 0 {
            continue;
        }
        writeln!(out, "\n{kind}: `client {command}{rules} --seed S`")?;
        write_header(out, "seed")?;
        let mut times = Vec::new();
        for seed in (request.seed..).take(count as usize) {
            // Finding a board without a solution takes a minute or more: say what is going on.
            if wanted == Wanted::NoSolution {
                writeln!(log, "seed {seed}: looking for a board ({kind})")?;
            }
            match generate(wanted, seed, request.rules, tries) {
                Ok(generated) => {
                    let seconds = solve_row(out, &seed.to_string(), &generated.level)?;
                    times.push((seconds, seed));
                }
                Err(error) => {
                    failed = true;
                    writeln!(out, "{seed:<16} error: {error}")?;
                }
            }
        }
        if let Some(&(worst, worst_seed)) = times.iter().max_by(|a, b| a.0.total_cmp(&b.0)) {
            let mean = times.iter().map(|(seconds, _)| seconds).sum::<f64>() / times.len() as f64;
            writeln!(
                out,
                "{kind}: {} boards, mean {mean:.4} s, worst {worst:.4} s (seed {worst_seed})",
                times.len()
            )?;
        }
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
