//! `client cave tune`: fits the strong engine's evaluation weights (Texel's method, see
//! `parlor_server::ai::cave_tune`) to positions with known values: proven ones (the lines
//! `client cave prove` prints) or, far weaker, every position of a played game labelled with
//! its result (what `client cave arena --games-out` writes). Prints the `WEIGHTS` constant to
//! paste into `server/src/ai/cave_strong/eval.rs`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use parlor_server::ai::cave_strong::eval::{FEATURE_NAMES, WEIGHTS};
use parlor_server::ai::cave_tune::{
    Sample, fit, proven_position, sample_of_position, samples_of_game,
};
use parlor_shared::cave::parse_moves;

#[derive(Args, Debug, Clone)]
pub struct TuneArgs {
    /// Files of proven positions (levels/cave/eval_positions.txt), a line each as
    /// `cave prove` prints them: the moves from the empty cave, ": ", and the value for the
    /// side to move. Lines whose value is not win, loss or tie (unknown, tie-or-better, ...)
    /// are skipped, and so are lines starting with #.
    #[arg(long, num_args = 1.., required_unless_present = "games")]
    proven: Vec<PathBuf>,
    /// Files of games, a line each, the moves from the empty cave after the line's last ": "
    /// (what `cave arena --games-out` writes); each position gets the game's result, so
    /// whatever decided the game but is not in the position is learned as noise. Unfinished
    /// games are refused.
    #[arg(long, num_args = 1..)]
    games: Vec<PathBuf>,
    /// Steps of the fit, each over every training position.
    #[arg(long, default_value_t = 2000)]
    epochs: usize,
    /// Every K-th game or proven position is held out of the fit and only measured.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(2..))]
    hold_out_every: u32,
}

/// Splits samples into training and held-out ones, every K-th source to the latter.
struct Split {
    every: u32,
    sources: u32,
    train: Vec<Sample>,
    held_out: Vec<Sample>,
}

impl Split {
    fn add(&mut self, samples: impl IntoIterator<Item = Sample>) {
        self.sources += 1;
        if self.sources.is_multiple_of(self.every) {
            self.held_out.extend(samples);
        } else {
            self.train.extend(samples);
        }
    }
}

/// The non-blank lines of `path`, numbered from 1.
fn lines_of(path: &PathBuf) -> anyhow::Result<Vec<(usize, String)>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(index, line)| (index + 1, line.to_string()))
        .collect())
}

pub fn run(args: &TuneArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let mut split = Split {
        every: args.hold_out_every,
        sources: 0,
        train: Vec::new(),
        held_out: Vec::new(),
    };
    for path in &args.proven {
        for (number, line) in lines_of(path)? {
            let proven = proven_position(&line)
                .map_err(|e| anyhow::anyhow!("{}:{number}: {e}", path.display()))?;
            if let Some((position, for_black)) = proven {
                split.add(sample_of_position(&position, for_black));
            }
        }
    }
    for path in &args.games {
        for (number, line) in lines_of(path)? {
            let moves_text = line.rsplit(": ").next().unwrap_or(&line);
            let samples = parse_moves(moves_text)
                .map_err(|e| e.to_string())
                .and_then(|moves| samples_of_game(&moves))
                .map_err(|e| anyhow::anyhow!("{}:{number}: {e}", path.display()))?;
            split.add(samples);
        }
    }
    let Split {
        sources,
        train,
        held_out,
        ..
    } = split;
    eprintln!(
        "fitting to {} positions from {sources} games or proofs ({} held out)",
        train.len(),
        held_out.len()
    );
    let fitted = fit(&train, &held_out, &WEIGHTS, args.epochs);
    writeln!(out, "scale {:.0}", fitted.scale)?;
    writeln!(
        out,
        "mean squared error, training:  {:.5} -> {:.5}",
        fitted.train_error.0, fitted.train_error.1
    )?;
    writeln!(
        out,
        "mean squared error, held out:  {:.5} -> {:.5}",
        fitted.held_out_error.0, fitted.held_out_error.1
    )?;
    writeln!(
        out,
        "Black's advantage: {:.0} (fitted, not played)",
        fitted.black_advantage
    )?;
    writeln!(out, "{:<22} {:>8}", "feature", "weight")?;
    for (name, weight) in FEATURE_NAMES.iter().zip(fitted.weights) {
        writeln!(out, "{name:<22} {weight:>8}")?;
    }
    writeln!(out, "pub const WEIGHTS: Weights = {:?};", fitted.weights)?;
    Ok(ExitCode::SUCCESS)
}
