//! `client cave tune`: fits the strong engine's evaluation weights (Texel's method, see
//! `parlor_engines::cave::tune`) to proven positions in the book's format
//! (`parlor_engines::cave::dfpn::book`), and prints the `WEIGHTS` constant to paste into
//! `engines/src/cave/strong/eval.rs`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use parlor_engines::cave::dfpn::book;
use parlor_engines::cave::strong::eval::{COLOUR_BLIND, FEATURE_NAMES, FEATURES, WEIGHTS};
use parlor_engines::cave::tune::{EPOCHS, HOLD_OUT_EVERY, fit, prediction_error, split};

#[derive(Args, Debug, Clone)]
pub struct TuneArgs {
    /// Files of proven positions in the book's format (`MOVES | VALUE | BEST | NODES`, as
    /// in levels/cave/eval_positions.txt and levels/cave/proven.txt), or the names of built-in
    /// lists (`eval_positions`, `proven`). Positions whose value is not win, loss or tie
    /// (unknown, tie-or-better, ...) are skipped.
    #[arg(long, num_args = 1.., required = true)]
    proven: Vec<PathBuf>,
    /// Steps of the fit, each over every training position.
    #[arg(long, default_value_t = EPOCHS)]
    epochs: usize,
    /// Every K-th position is held out of the fit and only measured.
    #[arg(long, default_value_t = HOLD_OUT_EVERY, value_parser = parlor_wire::at_least(2usize))]
    hold_out_every: usize,
}

/// Fewer training positions than this per weight, and the fit learns the positions rather
/// than the game.
const POSITIONS_PER_WEIGHT: usize = 10;

/// What to tell the user before they paste a fit from `training` positions whose held-out
/// errors were `held_out_error` (colour-blind, fitted).
fn warnings(training: usize, held_out_error: (f64, f64)) -> Vec<String> {
    let mut warnings = Vec::new();
    if training < POSITIONS_PER_WEIGHT * FEATURES {
        warnings.push(format!(
            "only {training} positions to fit {FEATURES} weights to: expect weights that do \
             not carry over to other positions"
        ));
    }
    let (blind, fitted) = held_out_error;
    if fitted >= blind {
        warnings.push(format!(
            "the fitted weights predict the held-out positions no better than the colour-blind \
             ones ({fitted:.5} against {blind:.5}): they are not worth playing"
        ));
    }
    warnings
}

pub fn run(args: &TuneArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let mut proven = Vec::new();
    for path in &args.proven {
        let text = crate::builtin_levels::level_text("cave", path)
            .with_context(|| format!("reading {}", path.display()))?;
        proven.extend(book::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?);
    }
    let (train, held_out) = split(&proven, args.hold_out_every);
    if train.is_empty() || held_out.is_empty() {
        anyhow::bail!(
            "too few quiet positions with exact values: {} to fit to, {} to hold out",
            train.len(),
            held_out.len()
        );
    }
    let _ = writeln!(
        std::io::stderr(),
        "fitting to {} of {} proven positions ({} held out; the rest are not quiet or not exact)",
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
    for warning in warnings(train.len(), fitted.held_out_error) {
        let _ = writeln!(std::io::stderr(), "warning: {warning}");
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::cave::temp_file;

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
    fn small_or_unhelpful_fits_are_warned_about() {
        assert!(
            warnings(2291, (0.104, 0.069)).is_empty(),
            "the committed fit"
        );
        let small = warnings(100, (0.104, 0.069));
        assert_eq!(small.len(), 1);
        assert!(small[0].contains("only 100 positions"), "{small:?}");
        let worse = warnings(2291, (0.104, 0.110));
        assert_eq!(worse.len(), 1);
        assert!(worse[0].contains("no better"), "{worse:?}");
    }

    #[test]
    fn bad_lines_are_named_and_too_few_positions_are_refused() {
        let bad = temp_file(
            "tune-bad",
            "# a comment\na1 h8 | win | b1 | 9\na1 a1 | tie | - | 9\n",
        );
        let error = tune(bad.to_path_buf()).unwrap_err().to_string();
        assert!(error.contains("bad: line 3: move 2"), "{error}");
        let few = temp_file(
            "tune-few",
            "a1 h8 | win | b1 | 9\na1 h8 b1 | unknown | - | 9\n",
        );
        let error = tune(few.to_path_buf()).unwrap_err().to_string();
        assert!(error.contains("too few"), "{error}");
    }
}
