//! How an auto match's rounds reach the store: in batches, one write in flight at a time, each
//! rewriting both brains whole, so writes are spaced by what the last one cost. A write that
//! fails keeps its rounds for the next, and the match waits and writes again, ever less often,
//! until the store takes them: a database out of reach for a while pauses the match rather
//! than ending it, and its watchers are told so (`MatchView::store_waiting`). It ends only
//! when the room has closed meanwhile, or when another node of the hall owns it now (its
//! write was fenced off), which then plays it on from the store.

use std::time::{Duration, Instant};

use parlor_shared::hexapawn::{CurvePoint, MatchSetup, MatchView};
use parlor_shared::protocol::RoomId;
use tokio::sync::watch;
use tracing::{info, warn};

use super::MatchRun;
use crate::store::{BrainRow, MatchProgress, MatchRound, Pending, Store, taken_elsewhere};

/// A write of the brains may take at most about this share of a match's time: the next starts
/// only once `WRITE_SPACING` times the last one's cost has passed since it began. A write costs
/// the size of both brains (every box, rewritten), so small brains are written after almost
/// every round while big ones (up to 2 x 200,000 boxes on 8x8) are written every few seconds,
/// instead of the match spending nearly all its time rewriting them.
const WRITE_SPACING: u32 = 10;

/// When the brains were last written and what it cost, which says when the next write is due
/// (whether one is in flight is the writer's `in_flight`).
#[derive(Default)]
struct WriteSchedule {
    /// When the write in flight (or the last) began.
    started: Option<Instant>,
    /// How long the last settled write took, from making its rows to its commit.
    cost: Duration,
}

impl WriteSchedule {
    fn due(&self) -> bool {
        (self.started).is_none_or(|started| started.elapsed() >= self.cost * WRITE_SPACING)
    }

    fn start(&mut self) {
        self.started = Some(Instant::now());
    }

    /// The write begun last has just committed (or failed).
    fn settled(&mut self) {
        if let Some(started) = self.started {
            self.cost = started.elapsed();
        }
    }
}

/// The first wait before a failed write is tried again; each failure doubles it, up to
/// [`MOST_BETWEEN_TRIES`].
const FIRST_RETRY_AFTER: Duration = Duration::from_millis(250);
const MOST_BETWEEN_TRIES: Duration = Duration::from_secs(4);
/// How often a match waiting to write again looks whether its room has closed.
pub(super) const CLOSED_CHECK: Duration = Duration::from_millis(100);

/// Rounds played but not yet stored.
#[derive(Default)]
struct Unsaved {
    rounds: u64,
    points: Vec<CurvePoint>,
    /// The view to publish once they are stored.
    view: Option<MatchView>,
}

impl Unsaved {
    /// Puts back a batch whose write failed, before the rounds played since.
    fn put_back(&mut self, failed: Unsaved) {
        self.rounds += failed.rounds;
        let since = std::mem::replace(&mut self.points, failed.points);
        self.points.extend(since);
        self.view = self.view.take().or(failed.view);
    }
}

/// A write of rounds under way, and the rounds it holds.
struct InFlight {
    saved: Pending<()>,
    batch: Unsaved,
}

/// How a write came out.
enum Written {
    Stored,
    /// Another try may succeed (the database out of reach, a commit refused).
    Failed,
    /// Another node owns the room now: no try will.
    Fenced,
}

/// A match's rounds on their way to the store.
pub(super) struct RoundWriter {
    room: RoomId,
    store: Store,
    in_flight: Option<InFlight>,
    unsaved: Unsaved,
    schedule: WriteSchedule,
    /// Whether a write was fenced off: another node owns the room now.
    fenced: bool,
}

impl RoundWriter {
    pub(super) fn new(room: RoomId, store: Store) -> RoundWriter {
        RoundWriter {
            room,
            store,
            in_flight: None,
            unsaved: Unsaved::default(),
            schedule: WriteSchedule::default(),
            fenced: false,
        }
    }

    /// Whether the match stopped because another node of the hall owns its room now.
    pub(super) fn fenced(&self) -> bool {
        self.fenced
    }

    /// A round has been played: its curve's point, if it made one, and the view to publish
    /// once it is stored, if one is due.
    pub(super) fn played(&mut self, point: Option<CurvePoint>, view: Option<MatchView>) {
        self.unsaved.rounds += 1;
        self.unsaved.points.extend(point);
        if view.is_some() {
            self.unsaved.view = view;
        }
    }

    /// Whether the write in flight (if any) has committed, waiting for it if `wait`: `None`
    /// while it is still being written, `Some(false)` if the match must stop (its rounds could
    /// not be stored, see the module's comment). A committed write's view is published.
    pub(super) fn settle(
        &mut self,
        (setup, run): (&MatchSetup, &MatchRun),
        views: &watch::Sender<MatchView>,
        wait: bool,
    ) -> Option<bool> {
        let Some(InFlight { saved, batch }) = self.in_flight.take() else {
            return Some(true);
        };
        let result = if wait {
            saved.wait()
        } else {
            let mut saved = saved;
            match saved.try_done() {
                Some(result) => result,
                None => {
                    self.in_flight = Some(InFlight { saved, batch });
                    return None;
                }
            }
        };
        self.schedule.settled();
        let written = self.written(result, batch, views);
        Some(self.until_stored(written, (setup, run), views))
    }

    /// Gives the unsaved rounds to the store if a write is due (see [`WRITE_SPACING`]) and
    /// none is in flight; a paced match waits for it. Whether the match may go on.
    pub(super) fn write_if_due(
        &mut self,
        (setup, run): (&MatchSetup, &MatchRun),
        views: &watch::Sender<MatchView>,
        paced: bool,
    ) -> bool {
        if self.in_flight.is_some() || !self.schedule.due() {
            return true;
        }
        self.in_flight = Some(self.start_write(setup, run));
        !paced || self.settle((setup, run), views, true) == Some(true)
    }

    /// Stores every round played, waiting for it: whether they all are.
    pub(super) fn finish(
        &mut self,
        (setup, run): (&MatchSetup, &MatchRun),
        views: &watch::Sender<MatchView>,
    ) -> bool {
        if self.settle((setup, run), views, true) != Some(true) {
            return false;
        }
        if self.unsaved.rounds == 0 {
            return true;
        }
        self.in_flight = Some(self.start_write(setup, run));
        self.settle((setup, run), views, true) == Some(true)
    }

    /// Gives the unsaved rounds to the store (both brains as they are now): the write under way.
    fn start_write(&mut self, setup: &MatchSetup, run: &MatchRun) -> InFlight {
        let brain = |her: usize| (setup.brains[her].clone(), BrainRow::of(run.brain(her)));
        let batch = std::mem::take(&mut self.unsaved);
        self.schedule.start();
        let saved = self.store.save_match_round(MatchRound {
            room: self.room,
            brains: [brain(0), brain(1)],
            rounds: batch.rounds,
            progress: MatchProgress {
                curve: Vec::new(),
                ..run.progress.clone()
            },
            points: batch.points.clone(),
        });
        InFlight { saved, batch }
    }

    /// What a settled write's `result` means; a stored batch's view is published, a failed
    /// one's rounds are kept for the next write.
    fn written(
        &mut self,
        result: anyhow::Result<()>,
        batch: Unsaved,
        views: &watch::Sender<MatchView>,
    ) -> Written {
        let room = self.room;
        match result {
            Ok(()) => {
                if let Some(view) = batch.view {
                    views.send_replace(view);
                }
                Written::Stored
            }
            Err(error) if taken_elsewhere(&error) => {
                warn!(room, "the match is another node's now; it stops here");
                self.fenced = true;
                Written::Fenced
            }
            Err(error) => {
                let error = format!("{error:#}");
                warn!(
                    room,
                    error, "could not store the rounds; the match waits to try again"
                );
                self.unsaved.put_back(batch);
                Written::Failed
            }
        }
    }

    /// After `written`, writes again, waiting longer between tries, until the rounds are
    /// stored (true) or the match must stop: fenced off, or its room closed (no watcher is
    /// left to see it, and whoever owns it next plays it on from the store).
    fn until_stored(
        &mut self,
        mut written: Written,
        (setup, run): (&MatchSetup, &MatchRun),
        views: &watch::Sender<MatchView>,
    ) -> bool {
        let mut pause = FIRST_RETRY_AFTER;
        loop {
            match written {
                Written::Stored => {
                    views.send_if_modified(|view| std::mem::take(&mut view.store_waiting));
                    return true;
                }
                Written::Fenced => return false,
                Written::Failed => {
                    views
                        .send_if_modified(|view| !std::mem::replace(&mut view.store_waiting, true));
                }
            }
            let again_at = Instant::now() + pause;
            while Instant::now() < again_at {
                if views.is_closed() {
                    return false;
                }
                std::thread::sleep(CLOSED_CHECK.min(again_at - Instant::now()));
            }
            pause = (pause * 2).min(MOST_BETWEEN_TRIES);
            let InFlight { saved, batch } = self.start_write(setup, run);
            let result = saved.wait();
            self.schedule.settled();
            written = self.written(result, batch, views);
            if matches!(written, Written::Stored) {
                info!(
                    room = self.room,
                    "the rounds are stored again; the match goes on"
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(round: u64) -> CurvePoint {
        CurvePoint {
            round,
            losses: [0, 0],
            beads: [0, 0],
        }
    }

    #[test]
    fn a_failed_batch_goes_back_before_the_rounds_played_since() {
        let mut unsaved = Unsaved {
            rounds: 2,
            points: vec![point(12)],
            view: None,
        };
        let failed = Unsaved {
            rounds: 10,
            points: vec![point(5), point(10)],
            view: Some(MatchView::new(MatchSetup {
                dims: "3x3".parse().unwrap(),
                mirrors: false,
                rounds: 100,
                pace: parlor_shared::hexapawn::Pace::FullSpeed,
                brains: ["A".into(), "B".into()],
            })),
        };
        unsaved.put_back(failed);
        assert_eq!(unsaved.rounds, 12);
        let rounds: Vec<u64> = unsaved.points.iter().map(|point| point.round).collect();
        assert_eq!(rounds, [5, 10, 12], "in the order they were played");
        assert!(
            unsaved.view.is_some(),
            "the failed batch's view, none newer"
        );
    }
}
