//! Hexapawn and HER without the window: `auto` (HER against a copy of itself, with statistics,
//! JSON and a learning-curve plot), console `play` against HER in slow or fast mode, `solve`
//! (the game's value) and `bench` (self-play speed and how fast HER learns).

mod brains;
mod play;
mod plot;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Subcommand;
use parlor_engines::hexapawn::{Solver, games_until_unbeatable};
use parlor_shared::hexapawn::{
    AutoConfig, AutoMatch, AutoReport, CurvePoint, Dims, MAX_BRAIN_BOXES, MAX_MATCH_ROUNDS,
    Position, Side,
};
use serde_json::json;

use crate::seed::clock_seed;

pub use play::{Mode, PlayOptions, play};

#[derive(Subcommand, Debug)]
pub enum HexapawnCommand {
    /// HER plays a copy of itself for N rounds, who moves first alternating; prints each HER's
    /// wins, the share of them that came when it moved first, and the learning curve.
    Auto {
        /// Rounds to play (one game each), at most a million, as for the server's matches. As
        /// there, a match stops early once a brain holds 200,000 boxes (boards from about 5x5
        /// up: 8x8 after about 8,500 rounds, 5x5 after about 100,000).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_MATCH_ROUNDS))]
        rounds: u64,
        /// Seed for the HERs' draws; taken from the clock and printed if omitted.
        #[arg(long)]
        seed: Option<u64>,
        /// The board, ROWSxCOLS (3 to 8 rows, 1 to 8 columns).
        #[arg(long, default_value_t = Dims::HEXAPAWN)]
        size: Dims,
        /// A position and its left-right mirror image share a matchbox.
        #[arg(long)]
        mirrors: bool,
        /// Print the statistics, the curve and both final brains as JSON.
        #[arg(long)]
        json: bool,
        /// Draw the learning curve (losses per 10 rounds, beads left) into this PNG file.
        #[arg(long)]
        plot: Option<PathBuf>,
    },
    /// Play HER in the terminal: you are White and move first by typing a move like a1-a2 or
    /// b2xc3. In slow mode HER's matchbox is shown before each of its moves and you force a
    /// move or type `her` to let it draw a bead. HER learns from game to game.
    Play {
        /// The board, ROWSxCOLS (3 to 8 rows, 1 to 8 columns).
        #[arg(long, default_value_t = Dims::HEXAPAWN)]
        size: Dims,
        /// How HER moves: slow shows its matchbox first and lets you force its move or type
        /// `her` for a bead draw; fast just moves.
        #[arg(long, value_enum, default_value_t = Mode::Slow)]
        mode: Mode,
        /// Seed for HER's draws; taken from the clock and printed if omitted.
        #[arg(long)]
        seed: Option<u64>,
        /// A position and its left-right mirror image share a matchbox.
        #[arg(long)]
        mirrors: bool,
    },
    /// HER's brains kept by a server (or by the embedded server's --data): list, export,
    /// import, reset.
    Brains(brains::BrainsArgs),
    /// The game's value with perfect play, by exact search.
    Solve {
        /// The board, ROWSxCOLS (3 to 8 rows, 1 to 8 columns). The solver stores at most
        /// 4,000,000 positions; on a board that needs more it stops and says it is too large.
        #[arg(long, default_value_t = Dims::HEXAPAWN)]
        size: Dims,
    },
    /// 3x3 self-play speed on one core (games a second, the share where HER resigns before a
    /// move because its matchbox is empty, plies a second), and the games HER playing second
    /// needs against a perfect opponent until it can never lose again (over 100 seeds).
    Bench {
        /// How long to time self-play, in seconds.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
    },
}

pub fn run(command: HexapawnCommand) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout();
    match command {
        HexapawnCommand::Auto {
            rounds,
            seed,
            size,
            mirrors,
            json,
            plot,
        } => {
            let config = AutoConfig {
                dims: size,
                mirrors,
                rounds,
                seed: seed.unwrap_or_else(clock_seed),
            };
            auto(&mut out, config, json, plot)
        }
        HexapawnCommand::Play {
            size,
            mode,
            seed,
            mirrors,
        } => {
            let options = PlayOptions {
                dims: size,
                mode,
                seed: seed.unwrap_or_else(clock_seed),
                mirrors,
            };
            let stdin = std::io::stdin();
            play(&mut stdin.lock(), &mut out, options)
        }
        HexapawnCommand::Brains(args) => brains::run(args, &mut out),
        HexapawnCommand::Solve { size } => solve(&mut out, size),
        HexapawnCommand::Bench { seconds } => bench(&mut out, seconds),
    }
}

/// `client hexapawn auto`: runs the match, then prints text or JSON and draws the plot.
pub fn auto(
    out: &mut impl Write,
    config: AutoConfig,
    json: bool,
    plot_path: Option<PathBuf>,
) -> anyhow::Result<ExitCode> {
    if let Some(path) = &plot_path {
        crate::png_file::check_png_path(path, "plot")?;
    }
    let report = AutoMatch::new(config).run();
    if json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&auto_json(&report))?
        )?;
    } else {
        write_auto_text(out, &report)?;
    }
    if let Some(path) = plot_path {
        let note = plot::draw_learning_curve(&path, &report)?;
        // Keep stdout pure JSON with --json.
        if !json {
            writeln!(out, "Learning curve drawn to {}{note}.", path.display())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn auto_json(report: &AutoReport) -> serde_json::Value {
    let hers: Vec<serde_json::Value> = (0..2)
        .map(|her| {
            let stats = report.stats[her];
            let brain = &report.brains[her];
            json!({
                "wins": stats.wins,
                "wins_moving_first": stats.wins_moving_first,
                "share_moving_first": stats.share_moving_first(),
                "boxes": brain.boxes(),
                "beads": brain.beads(),
                "brain": brain.to_file(),
            })
        })
        .collect();
    json!({
        "size": report.config.dims.to_string(),
        "mirrors": report.config.mirrors,
        "rounds": report.config.rounds,
        "rounds_played": report.rounds_played,
        "seed": report.config.seed,
        "curve_window": parlor_shared::hexapawn::CURVE_WINDOW,
        "hers": hers,
        "curve": report.curve,
    })
}

/// The learning curve in stretches that double in length (1, 1, 2, 4, ... points), so the
/// fast early learning shows in detail and a long run still fits on a screen.
fn doubling_stretches(curve: &[CurvePoint]) -> Vec<&[CurvePoint]> {
    let mut stretches = Vec::new();
    let (mut start, mut length) = (0, 1);
    while start < curve.len() {
        let end = (start + length).min(curve.len());
        stretches.push(&curve[start..end]);
        if stretches.len() > 1 {
            length *= 2;
        }
        start = end;
    }
    stretches
}

fn write_auto_text(out: &mut impl Write, report: &AutoReport) -> anyhow::Result<()> {
    let AutoConfig {
        dims,
        mirrors,
        rounds,
        seed,
    } = report.config;
    let merged = if mirrors { "merged" } else { "not merged" };
    writeln!(
        out,
        "Auto mode, {dims}: {rounds} rounds, mirror images {merged}, seed {seed} \
         (replay with --seed {seed})."
    )?;
    if report.rounds_played < rounds {
        writeln!(
            out,
            "Stopped after {} rounds: a brain reached {MAX_BRAIN_BOXES} boxes, where a match stops.",
            report.rounds_played
        )?;
    }
    for her in 0..2 {
        let stats = report.stats[her];
        let share = stats
            .share_moving_first()
            .map_or("no wins".to_string(), |share| {
                format!("{:.1}%", share * 100.0)
            });
        writeln!(
            out,
            "HER {}: {} wins, {} of them moving first ({share}); {} boxes, {} beads left.",
            her + 1,
            stats.wins,
            stats.wins_moving_first,
            report.brains[her].boxes(),
            report.brains[her].beads()
        )?;
    }
    writeln!(
        out,
        "Learning curve: losses per 10 rounds (averaged over stretches that double in length) \
         and beads left after each stretch."
    )?;
    writeln!(
        out,
        "{:>12} {:>12} {:>12} {:>10} {:>10}",
        "rounds", "HER 1 losses", "HER 2 losses", "HER 1 beads", "HER 2 beads"
    )?;
    let mut start = 0;
    for stretch in doubling_stretches(&report.curve) {
        let last: &CurvePoint = &stretch[stretch.len() - 1];
        let rounds_in = (last.round - start) as f64;
        let average = |her: usize| {
            let losses: u64 = stretch
                .iter()
                .map(|point| u64::from(point.losses[her]))
                .sum();
            losses as f64 * 10.0 / rounds_in
        };
        writeln!(
            out,
            "{:>12} {:>12.2} {:>12.2} {:>11} {:>11}",
            format!("{}-{}", start + 1, last.round),
            average(0),
            average(1),
            last.beads[0],
            last.beads[1]
        )?;
        start = last.round;
    }
    Ok(())
}

/// `client hexapawn solve`: who wins with perfect play, and White's winning first moves.
pub fn solve(out: &mut impl Write, dims: Dims) -> anyhow::Result<ExitCode> {
    let start = Position::start(dims);
    let mut solver = Solver::new(dims);
    let winning = solver.winning_moves(&start)?;
    let winner = if winning.is_empty() {
        Side::Black
    } else {
        Side::White
    };
    let who = match winner {
        Side::White => "White, the first player,",
        Side::Black => "Black, the second player,",
    };
    writeln!(out, "Hexapawn {dims}: {who} wins with perfect play.")?;
    if winning.is_empty() {
        writeln!(out, "Every first move of White loses.")?;
    } else {
        let moves: Vec<String> = winning.iter().map(ToString::to_string).collect();
        writeln!(out, "White's winning first moves: {}.", moves.join(", "))?;
    }
    writeln!(
        out,
        "({} positions solved, mirror images and colours merged.)",
        solver.positions()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Seeds for the learning part of the bench.
const BENCH_SEEDS: u64 = 100;

/// The longest `bench` times self-play: past it, a typo (`1e30`) would run for ever.
const MAX_BENCH_SECONDS: f64 = 3600.0;

/// `client hexapawn bench`: self-play games per second on this one thread, and the games HER
/// needs as second player against the exploiter until it can never lose again.
pub fn bench(out: &mut impl Write, seconds: f64) -> anyhow::Result<ExitCode> {
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= MAX_BENCH_SECONDS) {
        anyhow::bail!(
            "--seconds must be a positive number of at most {MAX_BENCH_SECONDS} (an hour), \
             not {seconds}"
        );
    }
    writeln!(out, "Hexapawn 3x3 bench, one thread.")?;
    // Long matches are what auto mode runs; after learning, the HER moving first resigns at
    // once (every opening loses), so most of their rounds end before a move. Short matches from
    // empty brains time games played while learning, most of them to the end.
    writeln!(
        out,
        "Self-play from empty brains, as auto plays it. HER resigns when its matchbox is empty: \
         once the HER moving first has learned that every opening loses, it resigns before a \
         move, so in long matches most rounds end at once."
    )?;
    let matches = [
        ("1,000,000-round matches", 1_000_000),
        ("100-round matches", 100),
        ("10-round matches", 10),
    ];
    for (label, rounds) in matches {
        let share = seconds / matches.len() as f64;
        let Some(speed) = self_play_speed(rounds, share) else {
            anyhow::bail!(
                "--seconds {seconds} is too short: no self-play game was played in its share \
                 ({label}); give a larger --seconds"
            );
        };
        let played = match speed.plies_per_played_game {
            Some(plies) => format!("the others {plies:.2} plies each"),
            None => "no other game".to_string(),
        };
        writeln!(
            out,
            "{label}: {:.0} games/s, {:.2}% resigned before a move; {played}, {:.0} plies/s.",
            speed.games_per_second,
            speed.resigned_at_once * 100.0,
            speed.plies_per_second
        )?;
    }
    for mirrors in [false, true] {
        let mut games = Vec::with_capacity(BENCH_SEEDS as usize);
        for seed in 0..BENCH_SEEDS {
            let (needed, _) =
                games_until_unbeatable(Dims::HEXAPAWN, mirrors, Side::Black, seed, 1_000_000)?;
            games.push(needed.ok_or_else(|| {
                anyhow::anyhow!("seed {seed}: HER did not learn in 1,000,000 games")
            })?);
        }
        let mean = games.iter().sum::<u64>() as f64 / games.len() as f64;
        let worst = games.iter().max().copied().unwrap_or(0);
        let merged = if mirrors { "merged" } else { "not merged" };
        writeln!(
            out,
            "HER as second player against the exploiter, mirror images {merged}: it can never \
             lose again after {mean:.1} games on average, {worst} at worst ({BENCH_SEEDS} seeds)."
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

struct SelfPlaySpeed {
    /// Rounds played a second, a round being one game, however short.
    games_per_second: f64,
    /// The share of rounds where the first mover resigned before any move.
    resigned_at_once: f64,
    /// The plies of the other rounds, on average; `None` when there were none.
    plies_per_played_game: Option<f64>,
    plies_per_second: f64,
}

/// Plays auto matches of `rounds` rounds, each from empty brains, for about `seconds`; `None`
/// when the time was up before the first match (no figures to give).
fn self_play_speed(rounds: u64, seconds: f64) -> Option<SelfPlaySpeed> {
    let started = Instant::now();
    let (mut games, mut at_once, mut plies) = (0u64, 0u64, 0u64);
    let mut seed = 0;
    while started.elapsed().as_secs_f64() < seconds {
        let config = AutoConfig {
            dims: Dims::HEXAPAWN,
            mirrors: false,
            rounds,
            seed,
        };
        let mut auto = AutoMatch::new(config);
        for _ in 0..rounds {
            let round = auto.play_round();
            plies += u64::from(round.plies);
            at_once += u64::from(round.plies == 0);
        }
        games += rounds;
        seed += 2;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let played = games - at_once;
    (games > 0).then(|| SelfPlaySpeed {
        games_per_second: games as f64 / elapsed,
        resigned_at_once: at_once as f64 / games as f64,
        plies_per_played_game: (played > 0).then(|| plies as f64 / played as f64),
        plies_per_second: plies as f64 / elapsed,
    })
}

#[cfg(test)]
mod tests;
