//! How an auto match's rounds reach the store: in batches, one write in flight at a time, each
//! rewriting both brains whole, so writes are spaced by what the last one cost.

use std::time::{Duration, Instant};

use parlor_shared::hexapawn::{CurvePoint, MatchSetup, MatchView};
use parlor_shared::protocol::RoomId;
use tokio::sync::watch;
use tracing::warn;

use super::MatchRun;
use crate::store::{BrainRow, MatchProgress, MatchRound, Pending, Store};

/// A write of the brains may take at most about this share of a match's time: the next starts
/// only once `WRITE_SPACING` times the last one's cost has passed since it began. A write costs
/// the size of both brains (every box, rewritten), so small brains are written after almost
/// every round while big ones (up to 2 x 200,000 boxes on 8x8) are written every few seconds,
/// instead of the match spending nearly all its time rewriting them.
const WRITE_SPACING: u32 = 10;

/// When the brains were last written and what it cost, which says when the next write is due.
#[derive(Default)]
pub(super) struct WriteSchedule {
    /// When the write in flight (or the last) began.
    started: Option<Instant>,
    /// How long the last settled write took, from making its rows to its commit.
    cost: Duration,
    in_flight: bool,
}

impl WriteSchedule {
    pub(super) fn due(&self) -> bool {
        !self.in_flight
            && self
                .started
                .is_none_or(|started| started.elapsed() >= self.cost * WRITE_SPACING)
    }

    pub(super) fn start(&mut self) {
        self.started = Some(Instant::now());
        self.in_flight = true;
    }

    /// The write in flight, if any, has just committed (or failed).
    pub(super) fn settled(&mut self) {
        if let (true, Some(started)) = (self.in_flight, self.started) {
            self.cost = started.elapsed();
            self.in_flight = false;
        }
    }
}

/// Rounds played but not yet given to the store.
#[derive(Default)]
pub(super) struct Unsaved {
    pub(super) rounds: u64,
    pub(super) points: Vec<CurvePoint>,
    /// The view to publish once they are stored.
    pub(super) view: Option<MatchView>,
}

/// A write of rounds, and the view to publish once it has committed.
pub(super) type InFlight = (Pending<()>, Option<MatchView>);

/// Gives the unsaved rounds to the store (both brains as they are now).
pub(super) fn write_rounds(
    store: &Store,
    room: RoomId,
    setup: &MatchSetup,
    run: &MatchRun,
    unsaved: &mut Unsaved,
) -> InFlight {
    let brain = |her: usize| (setup.brains[her].clone(), BrainRow::of(run.brain(her)));
    let brains = [brain(0), brain(1)];
    let Unsaved {
        rounds,
        points,
        view,
    } = std::mem::take(unsaved);
    let saved = store.save_match_round(MatchRound {
        room,
        brains,
        rounds,
        progress: MatchProgress {
            curve: Vec::new(),
            ..run.progress.clone()
        },
        points,
    });
    (saved, view)
}

/// Whether the write in flight (if any) has committed, waiting for it if `wait`: `None` while
/// it is still being written, `Some(false)` if it failed (which stops the match). A committed
/// write's view is published.
pub(super) fn settle(
    room: RoomId,
    in_flight: &mut Option<InFlight>,
    views: &watch::Sender<MatchView>,
    wait: bool,
) -> Option<bool> {
    let Some((saved, view)) = in_flight.take() else {
        return Some(true);
    };
    let result = if wait {
        saved.wait()
    } else {
        let mut saved = saved;
        match saved.try_done() {
            Some(result) => result,
            None => {
                *in_flight = Some((saved, view));
                return None;
            }
        }
    };
    match result {
        Ok(()) => {
            if let Some(view) = view {
                views.send_replace(view);
            }
            Some(true)
        }
        Err(error) => {
            let error = format!("{error:#}");
            warn!(room, error, "could not store the rounds; the match stops");
            Some(false)
        }
    }
}
