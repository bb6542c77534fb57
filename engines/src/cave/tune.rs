//! Fits the strong engine's evaluation weights to positions of known value (Texel's method):
//! every quiet position is a sample whose target is its value for Black (1, 1/2 or 0), and the
//! weights are moved to make `sigmoid(value / scale)` predict it.
//!
//! The values are proven ones, not the results of the games the positions came from: a game's
//! result says as much about who played it as about its positions. Fitted to game results,
//! the error on held-out games grew while the error on the training games fell.
//!
//! The scale is fitted first, to the starting weights, so the fitted weights stay in the
//! engine's units (a four is worth about 500). A constant term soaks up Black's advantage in
//! the fit and is reported, not played: the engine values positions, not colours.

use parlor_shared::cave::{Player, Position};

use super::dfpn::Value;
use super::dfpn::book::Line;
use super::lines::five_completions;
use super::strong::eval::{FEATURES, Weights, features};

/// One position: its features and its value for Black (1, 1/2 or 0).
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    features: [f64; FEATURES],
    result: f64,
}

/// `position` as a sample whose target is `result` for Black, unless it is not quiet: the
/// side to move can complete a five or must block one (the evaluation is only asked about
/// quiet positions).
pub fn sample_of_position(position: &Position, result: f64) -> Option<Sample> {
    let (black, white) = (
        position.bricks(Player::Black),
        position.bricks(Player::White),
    );
    let legal = position.anchored_empty_cells();
    if (five_completions(black, white) | five_completions(white, black)) & legal != 0 {
        return None;
    }
    let counts = features(black, white, legal, position.to_move());
    Some(Sample {
        features: counts.map(f64::from),
        result,
    })
}

/// The value for Black of a proven position, or `None` when it is not exact (tie-or-better,
/// unknown, ...).
pub fn value_for_black(line: &Line) -> Option<f64> {
    let for_mover = match line.value {
        Value::Win => 1.0,
        Value::Loss => 0.0,
        Value::Tie => 0.5,
        _ => return None,
    };
    Some(if line.moves.len().is_multiple_of(2) {
        for_mover // Black is to move
    } else {
        1.0 - for_mover
    })
}

/// How well `weights` predict `samples`: the mean squared error under the best scale.
pub fn prediction_error(weights: &Weights, samples: &[Sample]) -> f64 {
    let params = Params::of(weights);
    error(&params, best_scale(&params, samples), samples)
}

/// The fit's steps by default, and every how many positions one is held out: the played
/// weights come from a fit with these.
pub const EPOCHS: usize = 2000;
pub const HOLD_OUT_EVERY: usize = 4;

/// The samples of the `proven` positions with exact values, every `hold_out_every`-th of
/// those held out: (training, held out).
pub fn split(proven: &[Line], hold_out_every: usize) -> (Vec<Sample>, Vec<Sample>) {
    let (mut train, mut held_out) = (Vec::new(), Vec::new());
    let exact = proven
        .iter()
        .filter_map(|line| Some((line.position(), value_for_black(line)?)));
    for (index, (position, for_black)) in exact.enumerate() {
        let samples = if (index + 1).is_multiple_of(hold_out_every) {
            &mut held_out
        } else {
            &mut train
        };
        samples.extend(sample_of_position(&position, for_black));
    }
    (train, held_out)
}

/// Fitted weights and how well they predict.
#[derive(Clone, Debug)]
pub struct Fit {
    pub weights: Weights,
    /// Black's advantage the fit found, in evaluation units (not part of the weights).
    pub black_advantage: f64,
    pub scale: f64,
    /// Mean squared error of the prediction on the training and held-out samples, with the
    /// starting weights and with the fitted ones.
    pub train_error: (f64, f64),
    pub held_out_error: (f64, f64),
}

/// Real-valued weights: the engine's, then the constant.
#[derive(Clone, Copy, Debug)]
struct Params([f64; FEATURES + 1]);

impl Params {
    fn of(weights: &Weights) -> Params {
        let mut p = [0.0; FEATURES + 1];
        for (p, &w) in p.iter_mut().zip(weights) {
            *p = f64::from(w);
        }
        Params(p)
    }

    fn value(&self, sample: &Sample) -> f64 {
        let p = &self.0;
        p.iter()
            .zip(&sample.features)
            .map(|(p, f)| p * f)
            .sum::<f64>()
            + p[FEATURES]
    }

    fn weights(&self) -> Weights {
        std::array::from_fn(|i| self.0[i].round() as i32)
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn error(params: &Params, scale: f64, samples: &[Sample]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| (sigmoid(params.value(s) / scale) - s.result).powi(2))
        .sum();
    total / samples.len().max(1) as f64
}

/// The scale under which `params` predict `samples` best (golden-section search).
fn best_scale(params: &Params, samples: &[Sample]) -> f64 {
    let (mut low, mut high) = (10.0f64, 20_000.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if error(params, a, samples) < error(params, b, samples) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

/// Fits weights to `train` from `start` with `epochs` full-batch steps of Adam; `held_out`
/// only measures.
pub fn fit(train: &[Sample], held_out: &[Sample], start: &Weights, epochs: usize) -> Fit {
    const RATE: f64 = 2.0;
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    let mut params = Params::of(start);
    let scale = best_scale(&params, train);
    let before = (
        error(&params, scale, train),
        error(&params, scale, held_out),
    );
    let n = params.0.len();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    for epoch in 1..=epochs {
        let mut gradient = vec![0.0; n];
        for sample in train {
            let p = sigmoid(params.value(sample) / scale);
            let slope = 2.0 * (p - sample.result) * p * (1.0 - p) / scale;
            for (g, f) in gradient.iter_mut().zip(&sample.features) {
                *g += slope * f;
            }
            gradient[FEATURES] += slope;
        }
        for i in 0..n {
            let g = gradient[i] / train.len().max(1) as f64;
            m[i] = BETA1 * m[i] + (1.0 - BETA1) * g;
            v[i] = BETA2 * v[i] + (1.0 - BETA2) * g * g;
            let m_hat = m[i] / (1.0 - BETA1.powi(epoch as i32));
            let v_hat = v[i] / (1.0 - BETA2.powi(epoch as i32));
            params.0[i] -= RATE * m_hat / (v_hat.sqrt() + 1e-12);
        }
    }
    let mut rounded = Params::of(&params.weights());
    rounded.0[FEATURES] = params.0[FEATURES];
    Fit {
        weights: params.weights(),
        black_advantage: params.0[FEATURES],
        scale,
        train_error: (before.0, error(&rounded, scale, train)),
        held_out_error: (before.1, error(&rounded, scale, held_out)),
    }
}

#[cfg(test)]
mod tests {
    use parlor_shared::cave::parse_moves;

    use super::*;
    use crate::cave::dfpn::book;
    use crate::cave::strong::eval::{COLOUR_BLIND, WEIGHTS};

    #[test]
    fn only_quiet_positions_are_samples() {
        let position = |moves: &str| Position::from_moves(&parse_moves(moves).unwrap()).unwrap();
        let sample = sample_of_position(&position("a1 a8 b1 b8 c1"), 1.0).unwrap();
        assert_eq!(sample.features[11], 0.0, "White is to move");
        assert_eq!(sample.features[2], 1.0, "Black's a1-e1 holds three");
        // e1 completes Black's a1..d1 and is playable: not quiet.
        assert_eq!(
            sample_of_position(&position("a1 a8 b1 b8 c1 c8 d1"), 1.0),
            None
        );
    }

    #[test]
    fn the_played_weights_are_what_the_tuner_fits_to_the_committed_positions() {
        let proven = book::parse(include_str!("../../../levels/cave/eval_positions.txt")).unwrap();
        let (train, held_out) = split(&proven, HOLD_OUT_EVERY);
        assert!(train.len() > 2000);
        let fitted = fit(&train, &held_out, &COLOUR_BLIND, EPOCHS);
        assert_eq!(
            fitted.weights, WEIGHTS,
            "run `client cave tune --proven levels/cave/eval_positions.txt` and paste its weights"
        );
        let (blind, played) = fitted.held_out_error;
        assert!(played < 0.8 * blind, "{played} against {blind}");
    }

    #[test]
    fn proven_lines_give_the_value_for_black() {
        let value = |text: &str| value_for_black(&book::parse(text).unwrap()[0]);
        assert_eq!(
            value("a1 h8 a2 | loss | - | 12"),
            Some(1.0),
            "White to move loses"
        );
        assert_eq!(
            value("a1 h8 | loss | - | 12"),
            Some(0.0),
            "Black to move loses"
        );
        assert_eq!(value("a1 | tie | h8 | 12"), Some(0.5));
        assert_eq!(value("a1 | unknown | - | 4"), None);
        assert_eq!(value("a1 | tie-or-better | - | 4"), None);
    }

    #[test]
    fn fitting_lowers_the_error() {
        // Positions of random playouts, labelled with the playout's result.
        let mut samples = Vec::new();
        let mut rng = super::super::prover::Xorshift::new(7);
        while samples.len() < 3000 {
            let mut positions = vec![Position::new()];
            let mut position = Position::new();
            while position.outcome().is_none() {
                position = position.play_unchecked(rng.legal_move(&position).unwrap());
                positions.push(position);
            }
            let result = match position.outcome() {
                Some(parlor_shared::cave::Outcome::Win(Player::Black)) => 1.0,
                Some(parlor_shared::cave::Outcome::Win(Player::White)) => 0.0,
                _ => 0.5,
            };
            samples.extend(
                positions
                    .iter()
                    .filter_map(|p| sample_of_position(p, result)),
            );
        }
        let (train, held_out) = samples.split_at(2400);
        let fitted = fit(train, held_out, &COLOUR_BLIND, 300);
        assert!(fitted.train_error.1 < fitted.train_error.0);
        assert!(fitted.scale > 10.0 && fitted.scale < 20_000.0);
    }
}
