//! An auto match room: two HERs play each other on a thread of their own while any number of
//! connections watch. The thread publishes the match's view into a `watch` channel (which keeps
//! only the latest), at every ply when paced, at most every [`THROTTLE`] at full speed; the
//! room's task sends each new view to its audience, at most every 50 ms (a match paced at a
//! few ms a ply, or none, is shown no faster). A spectator arriving late gets the latest
//! view at once. Both brains are stored with the match's progress as it goes, a batch of rounds
//! to a transaction (`writes.rs`), so a restarted server resumes the match from its
//! last stored round with the rounds still due.
//!
//! A match nobody has watched for [`RoomLifetimes::abandoned_after`] stops, as an abandoned
//! game does, however long it has still to play (else matches left behind would hold the
//! server's few match places for days): its room closes (`crate::abandon_clock`, kept across
//! restarts), and the thread, with nobody left to see its views, stores the rounds it has
//! played and forgets the match. Its brains keep everything they learned. A match its creator
//! (or an operator) ends stops the same way, in the middle of a round (which it drops), and
//! its room says so only once the match is forgotten: a restart cannot bring it back.
//!
//! A match that finds the store full (`Limits::max_store_bytes`) before a round stores the
//! rounds it has played and stops there too, telling its watchers why: else each round would
//! grow the store past its cap (an 8x8 match's brains by up to 15 MB a write).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use parlor_shared::hexapawn::{BoxView, Brain, MatchSetup, MatchView, Pace, Side};
use parlor_shared::identity::Player;
use parlor_shared::protocol::RoomId;
use tokio::sync::{mpsc, oneshot, watch};
use tracing::{info, warn};

use crate::abandon_clock::AbandonClock;
use crate::audience::Audience;
use crate::brain_uses::BrainClaim;
use crate::limits::RoomLifetimes;
use crate::room::{ROOM_INBOX, RoomHandle};
use crate::store::{MatchProgress, Store};

mod room;
mod run;
mod writes;

use room::{MatchRoom, summary_of};
use run::MatchRun;
use writes::RoundWriter;

/// The most often watchers hear of a match at full speed.
pub const THROTTLE: Duration = Duration::from_millis(100);

/// What an auto match starts with.
pub struct MatchInit {
    pub id: RoomId,
    pub creator: Option<Player>,
    pub setup: MatchSetup,
    /// The brains as stored (after the rounds of `progress`).
    pub brains: [Brain; 2],
    pub seed: u64,
    pub store: Store,
    /// Keeps the brains from other rooms, imports and resets until the match ends.
    pub claim: BrainClaim,
    /// The rounds already played (none for a new match; a restart resumes a stored one).
    pub progress: MatchProgress,
    /// How long the room stays open after the match ends, and how long it runs unwatched.
    pub lifetimes: RoomLifetimes,
    /// Since when nobody watches the match (unix seconds): its creation for a new match, as
    /// stored for a resumed one; `None` for a match watched when the server stopped.
    pub unfollowed_since: Option<u64>,
}

/// Starts the match's thread and its room's task; returns the room's handle.
pub fn spawn_match(init: MatchInit) -> anyhow::Result<RoomHandle> {
    let (id, lifetimes, creator) = (init.id, init.lifetimes, init.creator.clone());
    let store = init.store.clone();
    let abandon_clock = AbandonClock::start(
        id,
        store.clone(),
        lifetimes.abandoned_after,
        init.unfollowed_since,
    );
    let run = MatchRun::new(&init);
    let first_view = if init.progress.rounds_played == 0 {
        MatchView::new(init.setup.clone())
    } else {
        run.last_view(&init.setup)
    };
    let (views_tx, views_rx) = watch::channel(first_view.clone());
    let (why_stopped_tx, why_stopped) = oneshot::channel();
    let (forgotten_tx, forgotten) = oneshot::channel();
    let moved_away = Arc::new(AtomicBool::new(false));
    let stops = Stops {
        why: why_stopped_tx,
        moved_away: moved_away.clone(),
    };
    std::thread::Builder::new()
        .name(format!("her-match-{id}"))
        .spawn(move || {
            // A match at full speed takes a whole core; the sockets come first.
            crate::ai::pool::lower_priority();
            let _ = forgotten_tx.send(play_match(init, run, views_tx, stops));
        })?;
    let (inbox_tx, inbox_rx) = mpsc::channel(ROOM_INBOX);
    let first_summary = summary_of(id, creator.as_ref(), 0, 0, Some(&first_view));
    let room = MatchRoom {
        id,
        creator,
        version: 0,
        summary: watch::Sender::new(first_summary),
        view: first_view,
        audience: Audience::default(),
        lifetimes,
        abandon_clock,
        why_stopped,
        forgotten,
        moved_away,
        store,
    };
    let summary = room.summary.subscribe();
    tokio::spawn(room.run(inbox_rx, views_rx));
    Ok(RoomHandle {
        inbox: inbox_tx,
        summary,
    })
}

/// How the match's thread and its room tell each other why the match stops short.
struct Stops {
    /// Why the thread stopped the match, when it says (the store is full), for the room.
    why: oneshot::Sender<String>,
    /// Set by the room before it stops listening because another node plays the match on
    /// (`RoomCommand::Moved`): the thread then stores its rounds and must not forget the match,
    /// as it would a room that closed.
    moved_away: Arc<AtomicBool>,
}

/// The match itself, on its own thread. Its rounds are stored (both brains, the progress, the
/// curve's new points) in batches, one transaction each; the match's rows are dropped once every
/// round is played, once a brain is full, once the store is (its room is told why through
/// `why_stopped`), or once its room has closed (abandoned or ended) and so stopped listening
/// to its views. Answers whether the match's rows are gone from the store.
fn play_match(
    init: MatchInit,
    mut run: MatchRun,
    views: watch::Sender<MatchView>,
    stops: Stops,
) -> bool {
    let MatchInit {
        id,
        setup,
        store,
        claim,
        ..
    } = init;
    info!(
        room = id,
        rounds = setup.rounds,
        played = run.progress.rounds_played,
        "auto match starts"
    );
    let mut published = Instant::now();
    let paced = matches!(setup.pace, Pace::PerPly { .. });
    let offset = run.offset;
    // The rounds are written in the background: one write is in flight at a time, and the
    // rounds played meanwhile (and until the next write is due, see `WRITE_SPACING`) go into
    // the next, so at full speed many rounds share a commit. A view is published only once its
    // round has committed, so a watcher never sees a round a crash could take back. A paced
    // match waits for each of its writes, so while its brains are small its plies are shown
    // with the score of the round before.
    let mut writer = RoundWriter::new(id, store.clone());
    let mut stored = true;
    let mut abandoned = false;
    let mut store_full = None;
    // A match whose brains are full ends there, as if its rounds were all played.
    while stored && run.progress.rounds_played < setup.rounds && !run.game.brains_full() {
        if views.is_closed() {
            abandoned = true;
            break;
        }
        if let Err(full) = store.check_not_full() {
            store_full = Some(full);
            break;
        }
        // Only a paced match shows its plies, each with the score as last stored (the rounds
        // since, not yet written, are not to be seen); at full speed a view is made only to
        // publish.
        let between_rounds = paced.then(|| views.borrow().clone());
        // A room that closes stops the round in progress: it is not played out (a paced one
        // could take minutes), and teaches nothing.
        let round = run
            .game
            .play_round_watched(|position, last_move, mover, brain| {
                if views.is_closed() {
                    return false;
                }
                if let (Pace::PerPly { ms }, Some(between_rounds)) = (setup.pace, &between_rounds) {
                    let white = if position.to_move() == Side::White {
                        mover
                    } else {
                        1 - mover
                    };
                    views.send_replace(MatchView {
                        position: *position,
                        last_move,
                        white: ((white + offset) % 2) as u8,
                        matchbox: BoxView::of(brain, position),
                        ..between_rounds.clone()
                    });
                    return pause_unless_closed(&views, Duration::from_millis(u64::from(ms)));
                }
                true
            });
        let Some(round) = round else {
            abandoned = true;
            break;
        };
        let point = run.record(round);
        let view = (paced || published.elapsed() >= THROTTLE).then(|| {
            published = Instant::now();
            run.last_view(&setup)
        });
        writer.played(point, view);
        match writer.settle((&setup, &run), &views, false) {
            None => continue,
            Some(ok) => stored = ok,
        }
        stored = stored && writer.write_if_due((&setup, &run), &views, paced);
    }
    stored = stored && writer.finish((&setup, &run), &views);
    let moved_away = abandoned && stops.moved_away.load(Ordering::SeqCst);
    let forgotten = stored && !moved_away && {
        let dropped = store.forget_room(id).wait();
        if let Err(error) = &dropped {
            warn!(
                room = id,
                error = format!("{error:#}"),
                "could not drop the finished match's rows"
            );
        }
        dropped.is_ok()
    };
    // The brains are free again before anyone can see the match over. A match that stops
    // unstored (its room closed while the store failed, or another node owns it now) leaves
    // its rows in the store, for a restart or that node to go on from its last stored round,
    // which read the brains from the store; it is not shown finished (its room sees the views
    // end unfinished and says so).
    drop(claim);
    let rounds = run.progress.rounds_played;
    if moved_away {
        info!(
            room = id,
            rounds, stored, "auto match handed over to another node"
        );
        return false;
    }
    if !stored {
        if writer.fenced() {
            let _ = stops.why.send(format!(
                "auto match {id} is played on by another node of the hall: watch it again"
            ));
        }
        return false;
    }
    if abandoned {
        info!(room = id, rounds, "auto match stopped: its room closed");
        return forgotten;
    }
    if let Some(full) = store_full {
        info!(room = id, rounds, "auto match stopped: the store is full");
        let _ = stops.why.send(format!(
            "auto match {id} stopped after {rounds} of {} rounds: {full}; its brains keep \
             what they learned",
            setup.rounds
        ));
        return forgotten;
    }
    if rounds < setup.rounds {
        info!(
            room = id,
            rounds, "auto match stopped early: a brain is full"
        );
    }
    let mut last = run.last_view(&setup);
    last.finished = true;
    views.send_replace(last);
    info!(room = id, rounds, "auto match over");
    forgotten
}

/// Waits `pause` between two plies, or less once the room has closed: whether to go on.
fn pause_unless_closed(views: &watch::Sender<MatchView>, pause: Duration) -> bool {
    let until = Instant::now() + pause;
    loop {
        if views.is_closed() {
            return false;
        }
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return true;
        }
        std::thread::sleep(left.min(writes::CLOSED_CHECK));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::hexapawn::{Dims, RoundResult};

    fn full_speed_match(rounds: u64) -> MatchSetup {
        MatchSetup {
            dims: Dims::HEXAPAWN,
            mirrors: false,
            rounds,
            pace: Pace::FullSpeed,
            brains: ["A".into(), "B".into()],
        }
    }

    /// Plays `rounds` rounds, checking that the match's HER `round % 2` moves first in each.
    fn play(run: &mut MatchRun, rounds: u64) {
        for _ in 0..rounds {
            let round = run.game.play_round();
            run.record(round);
            let last = run.progress.last_round.unwrap();
            assert_eq!(last.first as u64, (run.progress.rounds_played - 1) % 2);
        }
    }

    #[test]
    fn a_resumed_match_goes_on_alternating_and_counting_from_its_round() {
        let setup = full_speed_match(40);
        let empty = || Brain::new(setup.dims, setup.mirrors);
        let mut run = MatchRun::resume(&setup, [empty(), empty()], 9, MatchProgress::default());
        play(&mut run, 17);
        let brains = [run.brain(0).clone(), run.brain(1).clone()];
        let mut resumed = MatchRun::resume(&setup, brains.clone(), 9, run.progress.clone());
        assert_eq!(
            [resumed.brain(0), resumed.brain(1)],
            [&brains[0], &brains[1]]
        );
        play(&mut resumed, 23);
        let progress = &resumed.progress;
        assert_eq!(progress.rounds_played, 40);
        assert_eq!(progress.stats[0].wins + progress.stats[1].wins, 40);
        let rounds: Vec<u64> = progress.curve.iter().map(|point| point.round).collect();
        assert_eq!(rounds, [10, 20, 30, 40]);
        let losses: u32 = progress.curve.iter().flat_map(|point| point.losses).sum();
        assert_eq!(losses, 40);
    }

    /// The beads `after` has lost since `before`, a box made since counting from the one bead
    /// per move it starts with: only a loss takes beads.
    fn beads_lost(before: &Brain, after: &Brain) -> u32 {
        let before = before.to_file().boxes;
        after
            .to_file()
            .boxes
            .iter()
            .flat_map(|(position, beads)| {
                let had = before.get(position);
                beads
                    .iter()
                    .map(move |(mv, &count)| had.map_or(1, |had| had[mv]) - count)
            })
            .sum()
    }

    #[test]
    fn a_match_resumed_at_an_odd_round_credits_each_win_to_the_her_that_kept_its_beads() {
        let setup = full_speed_match(40);
        let empty = || Brain::new(setup.dims, setup.mirrors);
        let mut run = MatchRun::resume(&setup, [empty(), empty()], 3, MatchProgress::default());
        play(&mut run, 17);
        let brains = [run.brain(0).clone(), run.brain(1).clone()];
        let mut resumed = MatchRun::resume(&setup, brains, 3, run.progress.clone());
        // The game's HERs are the match's the other way round.
        assert_eq!(resumed.swap(0), 1);
        let mut losers_punished = 0;
        for _ in 17..40 {
            let before = [resumed.brain(0).clone(), resumed.brain(1).clone()];
            let stats = resumed.progress.stats;
            let round = resumed.game.play_round();
            resumed.record(round);
            let last = resumed.progress.last_round.unwrap();
            let (winner, loser) = (last.winner, 1 - last.winner);
            let lost = [0, 1].map(|her| beads_lost(&before[her], resumed.brain(her)));
            // The loser gives back the bead of its last move, if it made one (a HER resigning
            // on its first turn drew none); the winner keeps all its beads.
            assert_eq!(
                lost[winner], 0,
                "the HER credited with {last:?} lost a bead"
            );
            assert_eq!(lost[loser], u32::from(last.plies >= 2), "{last:?}");
            losers_punished += lost[loser];
            let credited = resumed.progress.stats;
            assert_eq!(credited[winner].wins, stats[winner].wins + 1, "{last:?}");
            assert_eq!(credited[loser], stats[loser], "{last:?}");
            assert_eq!(
                credited[winner].wins_moving_first,
                stats[winner].wins_moving_first + u64::from(winner == last.first),
                "{last:?}"
            );
        }
        // Most rounds tell the HERs apart by their beads.
        assert!(losers_punished >= 12, "{losers_punished} of 23 rounds");
    }

    #[test]
    fn the_view_between_rounds_marks_the_move_that_ended_the_last_round() {
        let setup = full_speed_match(20);
        let empty = || Brain::new(setup.dims, setup.mirrors);
        let mut run = MatchRun::resume(&setup, [empty(), empty()], 5, MatchProgress::default());
        for _ in 0..20 {
            let round = run.game.play_round();
            run.record(round);
            let view = run.last_view(&setup);
            assert_eq!(view.position, round.end);
            assert_eq!(view.last_move, round.last_move);
            match view.last_move {
                Some(last) => {
                    assert_eq!(view.position.pawn_at(last.to), Some(last_mover(&round)))
                }
                None => assert!(round.resigned && round.plies == 0, "{round:?}"),
            }
        }
    }

    /// The colour of the HER that made a round's last move.
    fn last_mover(round: &RoundResult) -> Side {
        // White moves on odd plies; a resignation adds no ply.
        if round.plies % 2 == 1 {
            Side::White
        } else {
            Side::Black
        }
    }
}
