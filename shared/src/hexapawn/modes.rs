//! Auto mode (HER against a copy of itself, who moves first alternating) with its statistics
//! and learning curve, and the check for when HER can no longer lose (the training against the
//! exploiter that uses it is in `parlor-engines`). Slow and fast mode are single turns: [`Her::choose`] with
//! [`Pick::Forced`] or [`Pick::Random`], shown with [`Brain::matchbox`].

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::board::{Move, Position, Status};
use super::her::{Brain, Her, HerChoice, HerResult};
use super::{Dims, HexapawnError, Side};

/// Rounds per point of the learning curve.
pub const CURVE_WINDOW: u64 = 10;

/// The settings of an auto match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AutoConfig {
    pub dims: Dims,
    /// Whether each HER's brain merges mirror images into one box.
    pub mirrors: bool,
    pub rounds: u64,
    /// The first HER draws with `seed`, the second with `seed + 1`.
    pub seed: u64,
}

/// One HER's results in an auto match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HerStats {
    pub wins: u64,
    /// The wins in rounds where this HER moved first.
    pub wins_moving_first: u64,
}

impl HerStats {
    /// The share of the wins that came when this HER moved first; `None` without wins.
    pub fn share_moving_first(&self) -> Option<f64> {
        (self.wins > 0).then(|| self.wins_moving_first as f64 / self.wins as f64)
    }
}

/// A point of the learning curve: each HER's losses in the last [`CURVE_WINDOW`] rounds (fewer
/// for a last, partial window) and the beads left in its brain after them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CurvePoint {
    /// Rounds played so far.
    pub round: u64,
    pub losses: [u32; 2],
    pub beads: [u64; 2],
}

/// Reads the number of one of the two HERs, 0 or 1, and refuses any other: screens index
/// two-element arrays with it, and a peer may send anything.
pub(super) fn her_index<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de> + From<u8> + PartialOrd + std::fmt::Display,
{
    let index = T::deserialize(deserializer)?;
    if index < T::from(2) {
        Ok(index)
    } else {
        Err(serde::de::Error::custom(format!(
            "HERs are numbered 0 and 1, not {index}"
        )))
    }
}

/// How one round ended; HERs are 0 and 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundResult {
    /// The HER that moved first (played White).
    #[serde(deserialize_with = "her_index")]
    pub first: usize,
    #[serde(deserialize_with = "her_index")]
    pub winner: usize,
    pub plies: u32,
    /// The loser resigned in front of an empty box.
    pub resigned: bool,
    /// The board at the end.
    pub end: Position,
    /// The move that led to `end` (none if the first mover resigned at once). Rounds stored
    /// before it was kept read as none.
    #[serde(default)]
    pub last_move: Option<Move>,
}

/// An auto match stops early once either brain holds this many boxes. Big boards never stop
/// meeting new positions (8x8 opens about 23 boxes a round in each brain), so without a bound a
/// long match would grow its brains to gigabytes. At this size a brain's file (about 160 bytes
/// a box on 8x8) stays well within what may be exported and imported, and a brain in memory
/// takes about 70 MB. Boards up to 4x4 (4,500 boxes) never come near it.
pub const MAX_BRAIN_BOXES: usize = 200_000;

/// An auto match in progress: two HERs, starting from the same empty brain, play rounds.
pub struct AutoMatch {
    config: AutoConfig,
    hers: [Her; 2],
    rounds_played: u64,
    stats: [HerStats; 2],
    window_losses: [u32; 2],
    curve: Vec<CurvePoint>,
    last_round: Option<RoundResult>,
}

/// What an auto match ends with.
pub struct AutoReport {
    pub config: AutoConfig,
    /// Fewer than `config.rounds` when the brains filled up first ([`MAX_BRAIN_BOXES`]).
    pub rounds_played: u64,
    pub stats: [HerStats; 2],
    pub curve: Vec<CurvePoint>,
    pub brains: [Brain; 2],
}

impl AutoMatch {
    pub fn new(config: AutoConfig) -> AutoMatch {
        let brain = || Brain::new(config.dims, config.mirrors);
        AutoMatch::with_brains(config, [brain(), brain()])
    }

    /// A match between HERs that already know something (brains of `config`'s size).
    pub fn with_brains(config: AutoConfig, brains: [Brain; 2]) -> AutoMatch {
        let [first, second] = brains;
        AutoMatch {
            config,
            hers: [
                Her::new(first, config.seed),
                Her::new(second, config.seed.wrapping_add(1)),
            ],
            rounds_played: 0,
            stats: [HerStats::default(); 2],
            window_losses: [0; 2],
            // Capped: a match may be set up for more rounds than it will ever play.
            curve: Vec::with_capacity((config.rounds / CURVE_WINDOW + 1).min(1 << 16) as usize),
            last_round: None,
        }
    }

    pub fn rounds_played(&self) -> u64 {
        self.rounds_played
    }

    pub fn stats(&self) -> [HerStats; 2] {
        self.stats
    }

    pub fn curve(&self) -> &[CurvePoint] {
        &self.curve
    }

    /// How the last round played ended.
    pub fn last_round(&self) -> Option<RoundResult> {
        self.last_round
    }

    pub fn her(&self, index: usize) -> &Her {
        &self.hers[index]
    }

    /// Whether a brain holds [`MAX_BRAIN_BOXES`] boxes, so the match must stop.
    pub fn brains_full(&self) -> bool {
        self.hers
            .iter()
            .any(|her| her.brain().boxes() >= MAX_BRAIN_BOXES)
    }

    /// Plays the next round: HER 0 moves first in even rounds, HER 1 in odd ones.
    pub fn play_round(&mut self) -> RoundResult {
        let round = self.play_round_watched(|_, _, _, _| true);
        round.unwrap_or_else(|| unreachable!("a round nobody stops is played to its end"))
    }

    /// Plays the next round, showing `watch` every position, with the move that led to it,
    /// before HER `mover` draws for it with its brain. When `watch` answers false the round
    /// stops there, unplayed: `None`, nothing learnt and nothing counted (the brains may hold
    /// boxes for the positions met, with their first beads).
    pub fn play_round_watched(
        &mut self,
        mut watch: impl FnMut(&Position, Option<Move>, usize, &Brain) -> bool,
    ) -> Option<RoundResult> {
        let first = (self.rounds_played % 2) as usize;
        let mut position = Position::start(self.config.dims);
        let mut last_move = None;
        let mut mover = first;
        let mut plies = 0;
        let (winner, resigned) = loop {
            if !watch(&position, last_move, mover, self.hers[mover].brain()) {
                self.hers.iter_mut().for_each(Her::forget_draws);
                return None;
            }
            match self.hers[mover].choose_random(&position) {
                HerChoice::Play(mv) => {
                    position = position.play_unchecked(mv);
                    last_move = Some(mv);
                }
                HerChoice::Resign => break (1 - mover, true),
            }
            plies += 1;
            // Every end of a game is a win for the side that just moved.
            if position.status() != Status::Playing {
                break (mover, false);
            }
            mover = 1 - mover;
        };
        self.hers[winner].finish(HerResult::Won);
        self.hers[1 - winner].finish(HerResult::Lost);
        self.stats[winner].wins += 1;
        if winner == first {
            self.stats[winner].wins_moving_first += 1;
        }
        self.window_losses[1 - winner] += 1;
        self.rounds_played += 1;
        if self.rounds_played.is_multiple_of(CURVE_WINDOW) {
            self.close_window();
        }
        let result = RoundResult {
            first,
            winner,
            plies,
            resigned,
            end: position,
            last_move,
        };
        self.last_round = Some(result);
        Some(result)
    }

    fn close_window(&mut self) {
        self.curve.push(CurvePoint {
            round: self.rounds_played,
            losses: self.window_losses,
            beads: [self.hers[0].brain().beads(), self.hers[1].brain().beads()],
        });
        self.window_losses = [0; 2];
    }

    /// Plays the rounds still due (or until the brains are full) and hands over the results
    /// and both brains.
    pub fn run(mut self) -> AutoReport {
        while self.rounds_played < self.config.rounds && !self.brains_full() {
            self.play_round();
        }
        if !self.rounds_played.is_multiple_of(CURVE_WINDOW) {
            self.close_window();
        }
        let [first, second] = self.hers;
        AutoReport {
            config: self.config,
            rounds_played: self.rounds_played,
            stats: self.stats,
            curve: self.curve,
            brains: [first.into_brain(), second.into_brain()],
        }
    }
}

/// Whether HER, playing `her_side` with this brain, can no longer lose whatever its opponent
/// does: every game it can get into ends in its win. Boxes HER has not made yet count as full
/// (one bead per legal move), since that is what HER would make on meeting them.
pub fn is_unbeatable(brain: &Brain, her_side: Side) -> Result<bool, HexapawnError> {
    let mut safe = HashSet::new();
    never_loses_from(brain, her_side, Position::start(brain.dims()), &mut safe)
}

/// Depth-first: whether every game from `position` ends in HER's win; `safe` remembers the
/// positions already shown to, so shared subtrees are walked once.
fn never_loses_from(
    brain: &Brain,
    her_side: Side,
    position: Position,
    safe: &mut HashSet<Position>,
) -> Result<bool, HexapawnError> {
    if let Status::Won { winner, .. } = position.status() {
        return Ok(winner == her_side);
    }
    if safe.contains(&position) {
        return Ok(true);
    }
    let moves: Vec<_> = if position.to_move() == her_side {
        let matchbox = brain.matchbox(&position)?;
        if matchbox.total == 0 {
            return Ok(false); // HER resigns here
        }
        let with_bead = matchbox.beads.iter().filter(|bead| bead.beads > 0);
        with_bead.map(|bead| bead.mv).collect()
    } else {
        position.legal_moves().to_vec()
    };
    for mv in moves {
        if !never_loses_from(brain, her_side, position.play(mv)?, safe)? {
            return Ok(false);
        }
    }
    safe.insert(position);
    Ok(true)
}
