//! `client cave tune`: fits the strong engine's evaluation weights (Texel's method, see
//! `parlor_server::ai::cave_tune`) to proven positions, the lines `client cave prove` prints,
//! and prints the `WEIGHTS` constant to paste into `server/src/ai/cave_strong/eval.rs`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use parlor_server::ai::cave_strong::eval::{COLOUR_BLIND, FEATURE_NAMES, WEIGHTS};
use parlor_server::ai::cave_tune::{
    EPOCHS, HOLD_OUT_EVERY, fit, prediction_error, proven_position, split,
};

#[derive(Args, Debug, Clone)]
pub struct TuneArgs {
    /// Files of proven positions (levels/cave/eval_positions.txt), a line each as
    /// `cave prove` prints them: the moves from the empty cave, ": ", and the value for the
    /// side to move. Lines whose value is not win, loss or tie (unknown, tie-or-better, ...)
    /// are skipped, and so are lines starting with #.
    #[arg(long, num_args = 1.., required = true)]
    proven: Vec<PathBuf>,
    /// Steps of the fit, each over every training position.
    #[arg(long, default_value_t = EPOCHS)]
    epochs: usize,
    /// Every K-th position is held out of the fit and only measured.
    #[arg(long, default_value_t = HOLD_OUT_EVERY, value_parser = at_least_two)]
    hold_out_every: usize,
}

fn at_least_two(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(every) if every >= 2 => Ok(every),
        _ => Err("a whole number, 2 or more".into()),
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
    let mut proven = Vec::new();
    for path in &args.proven {
        for (number, line) in lines_of(path)? {
            let position = proven_position(&line)
                .map_err(|e| anyhow::anyhow!("{}:{number}: {e}", path.display()))?;
            proven.extend(position);
        }
    }
    let (train, held_out) = split(&proven, args.hold_out_every);
    if train.is_empty() || held_out.is_empty() {
        anyhow::bail!(
            "too few quiet positions with exact values: {} to fit to, {} to hold out",
            train.len(),
            held_out.len()
        );
    }
    eprintln!(
        "fitting to {} of {} positions with exact values ({} held out; the rest are not quiet)",
        train.len(),
        proven.len(),
        held_out.len()
    );
    let fitted = fit(&train, &held_out, &COLOUR_BLIND, args.epochs);
    writeln!(out, "scale {:.0}", fitted.scale)?;
    writeln!(
        out,
        "mean squared error, training:  {:.5} colour-blind -> {:.5} fitted",
        fitted.train_error.0, fitted.train_error.1
    )?;
    writeln!(
        out,
        "mean squared error, held out:  {:.5} colour-blind -> {:.5} fitted ({:.5} played)",
        fitted.held_out_error.0,
        fitted.held_out_error.1,
        prediction_error(&WEIGHTS, &held_out)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn tune(proven: PathBuf) -> anyhow::Result<String> {
        let args = TuneArgs {
            proven: vec![proven],
            epochs: EPOCHS,
            hold_out_every: HOLD_OUT_EVERY,
        };
        let mut out = Vec::new();
        run(&args, &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    fn file(name: &str, text: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("parlor-tune-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn the_committed_positions_give_the_played_weights() {
        let proven =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../levels/cave/eval_positions.txt");
        let text = tune(proven).unwrap();
        assert!(
            text.contains(&format!("pub const WEIGHTS: Weights = {WEIGHTS:?};")),
            "{text}"
        );
        assert!(text.contains("upright"), "{text}");
    }

    #[test]
    fn bad_lines_are_named_and_too_few_positions_are_refused() {
        let bad = file("bad", "# a comment\na1 h8: win\na1 zz: tie\n");
        let error = tune(bad.clone()).unwrap_err().to_string();
        assert!(error.contains("bad:3: move 2"), "{error}");
        let few = file("few", "a1 h8: win\na1 h8 b1: unknown\n");
        let error = tune(few.clone()).unwrap_err().to_string();
        assert!(error.contains("too few"), "{error}");
        for path in [bad, few] {
            std::fs::remove_file(path).unwrap();
        }
    }
}
