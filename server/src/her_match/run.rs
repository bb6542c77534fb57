//! The match being played, round by round, with its progress counted across restarts.

use parlor_shared::hexapawn::{
    AutoConfig, AutoMatch, Brain, CURVE_WINDOW, CurvePoint, MAX_CURVE_POINTS, MatchSetup,
    MatchView, RoundResult, thin_curve,
};

use super::MatchInit;
use crate::store::MatchProgress;

/// The match being played: an [`AutoMatch`] for the rounds still due and the progress of the
/// whole match, counted here so that a resumed match goes on where it stopped. The HER moving
/// first alternates by the match's round, so after an odd number of rounds the game's HER 0 is
/// the match's HER 1 (`offset`).
pub(super) struct MatchRun {
    pub(super) game: AutoMatch,
    pub(super) offset: usize,
    pub(super) progress: MatchProgress,
}

impl MatchRun {
    pub(super) fn new(init: &MatchInit) -> MatchRun {
        MatchRun::resume(
            &init.setup,
            init.brains.clone(),
            init.seed,
            init.progress.clone(),
        )
    }

    /// The match from `progress` on, with the brains as they were after it.
    pub(super) fn resume(
        setup: &MatchSetup,
        brains: [Brain; 2],
        seed: u64,
        progress: MatchProgress,
    ) -> MatchRun {
        let played = progress.rounds_played;
        let offset = (played % 2) as usize;
        let [a, b] = brains;
        let brains = if offset == 0 { [a, b] } else { [b, a] };
        let config = AutoConfig {
            dims: setup.dims,
            mirrors: setup.mirrors,
            rounds: setup.rounds.saturating_sub(played),
            // A resumed match draws from a source of its own (a new match from `seed` itself).
            seed: seed ^ played.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        };
        MatchRun {
            game: AutoMatch::with_brains(config, brains),
            offset,
            progress,
        }
    }

    /// The match's HER `her` (0 or 1) in the game, and back: the same swap.
    pub(super) fn swap(&self, her: usize) -> usize {
        (her + self.offset) % 2
    }

    pub(super) fn brain(&self, her: usize) -> &Brain {
        self.game.her(self.swap(her)).brain()
    }

    /// Counts a round just played; returns the curve's new point if it closed a window.
    pub(super) fn record(&mut self, round: RoundResult) -> Option<CurvePoint> {
        let (first, winner) = (self.swap(round.first), self.swap(round.winner));
        let beads = [self.brain(0).beads(), self.brain(1).beads()];
        let progress = &mut self.progress;
        progress.stats[winner].wins += 1;
        if winner == first {
            progress.stats[winner].wins_moving_first += 1;
        }
        progress.window_losses[1 - winner] += 1;
        progress.rounds_played += 1;
        progress.last_round = Some(RoundResult {
            first,
            winner,
            ..round
        });
        if !progress.rounds_played.is_multiple_of(CURVE_WINDOW) {
            return None;
        }
        let point = CurvePoint {
            round: progress.rounds_played,
            losses: progress.window_losses,
            beads,
        };
        progress.curve.push(point);
        progress.window_losses = [0; 2];
        Some(point)
    }

    /// The view between rounds.
    pub(super) fn view(&self, setup: &MatchSetup) -> MatchView {
        let mut view = MatchView::new(setup.clone());
        let (curve, rounds_per_point) =
            thin_curve(&self.progress.curve, CURVE_WINDOW, MAX_CURVE_POINTS);
        let brains = [self.brain(0), self.brain(1)];
        view.rounds_played = self.progress.rounds_played;
        view.stats = self.progress.stats;
        view.last_round = self.progress.last_round;
        view.curve = curve;
        view.rounds_per_point = rounds_per_point;
        view.boxes = brains.map(|brain| brain.boxes() as u32);
        view.beads = brains.map(Brain::beads);
        view
    }

    /// The view between rounds with the last round's end on the board.
    pub(super) fn last_view(&self, setup: &MatchSetup) -> MatchView {
        let mut view = self.view(setup);
        if let Some(round) = view.last_round {
            view.position = round.end;
            view.last_move = round.last_move;
            view.white = round.first as u8;
        }
        view
    }
}
