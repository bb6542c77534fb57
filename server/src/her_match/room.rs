//! The room side of an auto match: the task that hands each new view of the match to its
//! watchers and keeps the lobby's summary, while the match plays on its own thread.

use parlor_shared::game::{GameKind, GameState};
use parlor_shared::hexapawn::MatchView;
use parlor_shared::identity::Player;
use parlor_shared::protocol::{
    ErrorCode, RoomId, RoomSnapshot, RoomSummary, ServerMsg, WATCHERS_SHOWN,
};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;
use tracing::{info, warn};

use crate::abandon_clock::AbandonClock;
use crate::audience::Audience;
use crate::limits::RoomLifetimes;
use crate::outbox::Broadcast;
use crate::players::rename_shown;
use crate::room::RoomCommand;

pub(super) fn summary_of(
    room: RoomId,
    creator: Option<&Player>,
    version: u64,
    spectators: u32,
    view: Option<&MatchView>,
) -> RoomSummary {
    RoomSummary {
        room,
        game: GameKind::HerMatch,
        creator: creator.cloned(),
        seats: Vec::new(),
        spectators,
        version,
        moves: view.map_or(0, |view| view.rounds_played.min(u64::from(u32::MAX)) as u32),
        outcome: view.and_then(MatchView::outcome),
        to_move: None,
        rematch: None,
    }
}

pub(super) struct MatchRoom {
    pub(super) id: RoomId,
    pub(super) creator: Option<Player>,
    /// Goes up with every view sent.
    pub(super) version: u64,
    pub(super) view: MatchView,
    pub(super) audience: Audience,
    pub(super) summary: watch::Sender<RoomSummary>,
    /// How long the room stays open after the match ends before it may close.
    pub(super) lifetimes: RoomLifetimes,
    /// When the unfinished match stops while nobody watches it (see `crate::abandon_clock`).
    pub(super) abandon_clock: AbandonClock,
    /// Why the match's thread stopped it short, when it says (the store is full).
    pub(super) why_stopped: oneshot::Receiver<String>,
    /// Where the room's creator is stored, under the name it goes by.
    pub(super) store: crate::store::Store,
}

impl Drop for MatchRoom {
    fn drop(&mut self) {
        // As a game room does: a panic tells the watchers the match's room is gone.
        if std::thread::panicking() {
            self.audience.farewell(self.id);
        }
    }
}

/// The least time between two views sent to a match's watchers: every ply of a match paced
/// at 50 ms or more is shown; one paced faster is shown 20 times a second.
const MIN_VIEW_GAP: std::time::Duration = std::time::Duration::from_millis(50);

impl MatchRoom {
    pub(super) async fn run(
        mut self,
        mut inbox: mpsc::Receiver<RoomCommand>,
        mut views: watch::Receiver<MatchView>,
    ) {
        let mut ended = None;
        // Until when a new view waits: a match paced faster than `MIN_VIEW_GAP` a ply (a few
        // ms, or none) is shown at most that often, as full speed is throttled, rather than
        // sending each watcher thousands of states a second.
        let mut quiet_until = Instant::now();
        loop {
            // A watch, a leaving, or a view a closed connection did not take may have changed
            // who watches.
            self.abandon_clock.note(self.audience.len() > 0);
            let closing = self.closing_time(ended);
            let quiet = quiet_until > Instant::now();
            tokio::select! {
                // Watched by nobody, and over and lingered, or abandoned: the hall stops
                // listing it, and an abandoned match's thread sees its views unheard and stops.
                () = tokio::time::sleep_until(closing.unwrap_or_else(Instant::now)),
                    if closing.is_some() => {
                    if ended.is_none() {
                        info!(room = self.id, "auto match abandoned: nobody watched it");
                    }
                    crate::room::turn_away(self.id, &mut inbox);
                    break;
                }
                command = inbox.recv() => match command {
                    Some(RoomCommand::Close { who }) if ended.is_none() => {
                        if self.close_by(&who) {
                            crate::room::turn_away(self.id, &mut inbox);
                            break;
                        }
                    }
                    Some(RoomCommand::Moved) => {
                        info!(room = self.id, "auto match moved to another node");
                        self.audience.send_elsewhere();
                        crate::room::send_away(&mut inbox);
                        break;
                    }
                    Some(command) => self.handle(command),
                    None => break,
                },
                () = tokio::time::sleep_until(quiet_until), if quiet => {}
                changed = views.changed(), if ended.is_none() && !quiet => match changed {
                    Ok(()) => {
                        self.view = views.borrow_and_update().clone();
                        self.version += 1;
                        self.broadcast();
                        quiet_until = Instant::now() + MIN_VIEW_GAP;
                    }
                    // The match's thread is done and its last view was sent.
                    Err(_) if self.view.finished => {
                        ended = Some(Instant::now());
                        self.abandon_clock.stop();
                    }
                    // It stopped short: the store is full, or its rounds could not be stored
                    // (or its thread failed).
                    Err(_) => {
                        let message = self.why_stopped.try_recv().unwrap_or_else(|_| format!(
                            "auto match {} stopped before its end; it goes on from its last \
                             stored round when the server restarts",
                            self.id
                        ));
                        self.audience.close_with(self.id, &message);
                        crate::room::turn_away(self.id, &mut inbox);
                        break;
                    }
                },
            }
        }
    }

    /// When the room may close if still unwatched: `linger` after the match ended, or,
    /// while the match goes on, `abandoned_after` after it lost its last watcher.
    fn closing_time(&self, ended: Option<Instant>) -> Option<Instant> {
        if ended.is_some() {
            return self.audience.closing_time(ended, self.lifetimes.linger);
        }
        self.abandon_clock.closing_time()
    }

    /// Whether `who` may end the match (its creator may, while it runs): its watchers hear
    /// so, and its thread, its views unheard, stores its last rounds and forgets the match.
    fn close_by(&self, who: &crate::audience::Subscriber) -> bool {
        if !who.may_close(self.creator.as_ref()) {
            who.error(
                ErrorCode::NotYours,
                format!(
                    "only the player who started auto match {} may end it",
                    self.id
                ),
            );
            return false;
        }
        let by = who.closer();
        info!(room = self.id, by, "auto match ended");
        let message = format!("auto match {} was ended by {by}", self.id);
        self.audience.close_at_request(self.id, who, &message);
        true
    }

    fn handle(&mut self, command: RoomCommand) {
        let refuse = |who: &crate::audience::Subscriber| {
            who.error(
                ErrorCode::NoSuchSeat,
                "an auto match has no seats: its HERs play each other; watch it instead",
            )
        };
        match command {
            RoomCommand::Watch { who, spectator_cap } => {
                let watchers = self.audience.len();
                if !self.audience.admit(self.id, &who, watchers, spectator_cap) {
                    return;
                }
                // Only the newcomer needs the view now; the others see the count next time.
                self.publish_summary();
                let state = Broadcast::new(ServerMsg::State(self.snapshot()));
                who.send_state(self.id, state);
            }
            RoomCommand::Renamed { who } => {
                let creator = self.creator.as_mut();
                if creator.is_some_and(|creator| rename_shown(creator, &who.player)) {
                    // Not waited for: the name shows at once. A refusal is logged, and the
                    // creator's next hello tells the room again.
                    let (room, stored) = (self.id, self.store.set_creator(self.id, &who.player));
                    tokio::spawn(async move {
                        if let Err(error) = stored.done().await {
                            let error = format!("{error:#}");
                            warn!(room, error, "could not store the creator's new name");
                        }
                    });
                    self.broadcast();
                }
            }
            RoomCommand::Resend { who } => {
                if self.audience.contains(who.id) {
                    who.send_state(self.id, Broadcast::new(ServerMsg::State(self.snapshot())));
                }
            }
            RoomCommand::Leave { who } => {
                let followed = self.audience.remove(who.id).is_some();
                who.send(ServerMsg::Left { room: self.id });
                if followed {
                    self.publish_summary();
                }
            }
            RoomCommand::Join { who, .. }
            | RoomCommand::Reclaim { who, .. }
            | RoomCommand::Move { who, .. } => refuse(&who),
            RoomCommand::Close { who } => who.error(
                ErrorCode::GameOver,
                "the auto match is over; it closes by itself",
            ),
            // An auto match offers no Play again.
            RoomCommand::AiMoved { .. }
            | RoomCommand::Moved
            | RoomCommand::PlayedAgain { .. }
            | RoomCommand::RematchClosed { .. } => {}
            #[cfg(test)]
            RoomCommand::Panic => panic!("a bug in auto match {}", self.id),
        }
    }

    fn snapshot(&self) -> RoomSnapshot {
        RoomSnapshot {
            room: self.id,
            version: self.version,
            seats: Vec::new(),
            spectators: self.audience.len() as u32,
            watchers: self.audience.players(|_| true, WATCHERS_SHOWN),
            creator: self.creator.clone(),
            state: GameState::HerMatch(self.view.clone()),
            moves: Vec::new(),
            plan_ahead: vec![],
            outcome: self.view.outcome(),
            record: None,
            // A new match is made from the lobby's form (its brains have learnt meanwhile).
            again: None,
        }
    }

    fn publish_summary(&mut self) {
        let spectators = self.audience.len() as u32;
        self.summary.send_replace(summary_of(
            self.id,
            self.creator.as_ref(),
            self.version,
            spectators,
            Some(&self.view),
        ));
    }

    /// Publishes the lobby summary and sends the view to every watcher.
    fn broadcast(&mut self) {
        self.publish_summary();
        let state = Broadcast::new(ServerMsg::State(self.snapshot()));
        for gone in self.audience.send_state(self.id, &state) {
            self.audience.remove(gone);
        }
    }
}

#[cfg(test)]
mod tests {
    use parlor_shared::game::GameSetup;
    use parlor_shared::hexapawn::{MatchSetup, Pace};

    use super::*;
    use crate::audience::TestFollower;
    use crate::hall::Hall;
    use crate::store::Store;

    /// The canonical name of the creator's brain `name` (test player 1 creates the matches).
    fn owned(name: &str) -> String {
        format!("{}/{name}", crate::audience::test_player(1).id)
    }

    /// A hall with an auto match of brains "A" and "B" on `dims` at `pace`, just created.
    async fn match_room(
        lifetimes: RoomLifetimes,
        dims: &str,
        rounds: u64,
        pace: Pace,
    ) -> (Hall, Store, RoomId) {
        let store = Store::in_memory().unwrap();
        let hall = Hall::new(store.clone(), lifetimes);
        let setup = MatchSetup {
            dims: dims.parse().unwrap(),
            mirrors: false,
            rounds,
            pace,
            brains: ["A".into(), "B".into()],
        };
        let id = hall
            .create_room(
                GameSetup::HerMatch(setup),
                vec![],
                &crate::audience::test_player(1),
            )
            .await
            .unwrap();
        (hall, store, id)
    }

    #[tokio::test]
    async fn a_match_paced_faster_than_watchers_can_follow_is_shown_twenty_times_a_second() {
        let lifetimes = crate::Limits::default().room_lifetimes();
        let (hall, _store, id) =
            match_room(lifetimes, "3x3", 1_000_000, Pace::PerPly { ms: 0 }).await;
        let follower = TestFollower::new(1);
        let inbox = hall.room(id).unwrap().inbox;
        inbox.send(follower.watch()).await.unwrap();
        // Thousands of plies a second: each one sent made 4,600 states a second.
        let heard = (follower
            .spectator_counts(std::time::Duration::from_secs(1))
            .await)
            .len();
        assert!((5..=23).contains(&heard), "{heard} states in a second");
    }

    #[tokio::test]
    async fn a_creator_back_under_a_new_name_is_stored_by_it() {
        let lifetimes = crate::Limits::default().room_lifetimes();
        let (hall, store, id) =
            match_room(lifetimes, "3x3", 100_000, Pace::PerPly { ms: 20 }).await;
        let mut renamed = TestFollower::new(1);
        renamed.who.player.name = "Ada L".into();
        let room = hall.room(id).unwrap();
        room.inbox
            .send(RoomCommand::Renamed { who: renamed.who })
            .await
            .unwrap();
        let stored =
            crate::room::tests::stored_creator_once(&store, |stored| stored.name == "Ada L").await;
        assert_eq!(stored.id, crate::audience::test_player(1).id);
    }

    #[tokio::test]
    async fn a_match_whose_rounds_cannot_be_stored_waits_and_goes_on_once_they_can() {
        let lifetimes = crate::Limits::default().room_lifetimes();
        let (hall, store, id) = match_room(lifetimes, "3x3", 100_000, Pace::PerPly { ms: 5 }).await;
        let follower = TestFollower::new(1);
        let room = hall.room(id).unwrap();
        room.inbox.send(follower.watch()).await.unwrap();
        let mut summary = room.summary;
        let wait = |summary: &mut watch::Receiver<RoomSummary>, rounds: u32| {
            let mut summary = summary.clone();
            async move {
                let seen = summary.wait_for(|summary| summary.moves >= rounds);
                tokio::time::timeout(std::time::Duration::from_secs(20), seen)
                    .await
                    .expect("rounds stored")
                    .unwrap()
                    .moves
            }
        };
        wait(&mut summary, 2).await;
        // The database out of reach, as far as the match can tell.
        store.rename_table("match_progress", "progress_away");
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let paused_at = summary.borrow().moves;
        let heard = follower
            .states(std::time::Duration::from_millis(1500))
            .await;
        assert!(
            summary.borrow().moves <= paused_at + 1,
            "no round shown that is not stored"
        );
        let waiting = |states: &[RoomSnapshot]| match states.last().map(|state| &state.state) {
            Some(GameState::HerMatch(view)) => view.store_waiting,
            other => panic!("no match's state heard: {other:?}"),
        };
        assert!(
            waiting(&heard),
            "its watchers are told it waits for the store"
        );
        assert!(hall.room(id).is_some(), "the room waits open");
        assert!(
            hall.check_brain_free(&owned("A")).is_err(),
            "its brains too"
        );
        store.rename_table("progress_away", "match_progress");
        let went_on = wait(&mut summary, paused_at + 3).await;
        assert!(went_on > paused_at + 2);
        let heard = follower.states(std::time::Duration::from_millis(300)).await;
        assert!(!waiting(&heard), "and that it no longer does");
        // The rounds shown are in the stored brains, those played before the pause too.
        let (_, games) = store.load_brain(&owned("A")).unwrap().unwrap();
        assert!(
            u64::from(went_on) <= games,
            "{went_on} shown, {games} stored"
        );
        let progress = store.load_rooms().unwrap();
        assert_eq!(progress.rooms.len(), 1, "still in progress");
        assert!(hall.room(id).is_some(), "never closed");
    }

    #[tokio::test]
    async fn a_match_nobody_watches_stops_and_is_forgotten_and_its_brains_keep_what_they_learned() {
        let lifetimes = RoomLifetimes {
            abandoned_after: std::time::Duration::from_millis(500),
            ..crate::Limits::default().room_lifetimes()
        };
        // Paced, far longer than the test.
        let (hall, store, id) =
            match_room(lifetimes, "3x3", 100_000, Pace::PerPly { ms: 20 }).await;
        let follower = TestFollower::new(1);
        let inbox = hall.room(id).unwrap().inbox;
        inbox.send(follower.watch()).await.unwrap();
        tokio::time::sleep(lifetimes.abandoned_after * 2).await;
        assert!(hall.room(id).is_some(), "a watched match goes on");
        let leave = RoomCommand::Leave {
            who: follower.who.clone(),
        };
        inbox.send(leave).await.unwrap();
        let stopped = async {
            while hall.room(id).is_some() || hall.check_brain_free(&owned("A")).is_err() {
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
        };
        tokio::time::timeout(std::time::Duration::from_secs(10), stopped)
            .await
            .expect("the unwatched match stops and frees its brains");
        let unfinished = store.load_rooms().unwrap();
        assert!(unfinished.rooms.is_empty(), "a restart would resume it");
        let (_, games) = store
            .load_brain(&owned("A"))
            .unwrap()
            .expect("A was stored");
        assert!(games > 0, "the rounds it played are kept");
    }

    #[tokio::test]
    async fn a_restart_stops_a_match_that_had_gone_unwatched_for_its_abandoned_time() {
        let store = Store::in_memory().unwrap();
        let setup = MatchSetup {
            dims: "3x3".parse().unwrap(),
            mirrors: false,
            rounds: 100_000,
            pace: Pace::PerPly { ms: 20 },
            brains: ["A".into(), "B".into()],
        };
        let player = crate::audience::test_player(1);
        (store.insert_match(1, &setup, 1, &player, None).done().await).unwrap();
        // Unwatched for 2 minutes when the server stopped.
        let since = crate::store::unix_now() - 120;
        (store.set_unfollowed_since(1, Some(since)).done().await).unwrap();
        let lifetimes = RoomLifetimes {
            abandoned_after: std::time::Duration::from_secs(60),
            ..crate::Limits::default().room_lifetimes()
        };
        let hall = Hall::restore(store.clone(), lifetimes).unwrap();
        crate::eventually("the match past its abandoned time went on", || {
            // Stored before brains had owners: the hall's brain "A".
            hall.room(1).is_none() && hall.check_brain_free("hall/A").is_ok()
        })
        .await;
        assert!(store.load_rooms().unwrap().rooms.is_empty(), "forgotten");
    }

    #[tokio::test]
    async fn a_match_whose_brain_fills_up_finishes_early_with_its_rounds_stored() {
        let lifetimes = crate::Limits::default().room_lifetimes();
        let rounds = parlor_shared::hexapawn::MAX_MATCH_ROUNDS;
        let (hall, store, id) = match_room(lifetimes, "8x8", rounds, Pace::FullSpeed).await;
        let mut summary = hall.room(id).unwrap().summary;
        let finished = summary.wait_for(|summary| summary.outcome.is_some());
        let rounds = tokio::time::timeout(std::time::Duration::from_secs(60), finished)
            .await
            .expect("the match ends")
            .unwrap()
            .moves;
        assert!((1_000..100_000).contains(&rounds), "{rounds}");
        let stored = ["A", "B"].map(|name| store.load_brain(&owned(name)).unwrap().unwrap());
        let boxes = stored.each_ref().map(|(brain, _)| brain.boxes());
        let full = parlor_shared::hexapawn::MAX_BRAIN_BOXES;
        assert!(boxes.iter().any(|&boxes| boxes >= full), "{boxes:?}");
        assert_eq!(stored.map(|(_, games)| games), [u64::from(rounds); 2]);
        assert!(store.load_rooms().unwrap().rooms.is_empty());
    }

    #[tokio::test]
    async fn a_match_that_finds_the_store_full_stores_its_rounds_and_stops_saying_why() {
        let lifetimes = crate::Limits::default().room_lifetimes();
        let rounds = parlor_shared::hexapawn::MAX_MATCH_ROUNDS;
        let (hall, store, id) = match_room(lifetimes, "8x8", rounds, Pace::FullSpeed).await;
        let follower = TestFollower::new(1);
        let inbox = hall.room(id).unwrap().inbox;
        inbox.send(follower.watch()).await.unwrap();
        // Room for a few writes of its growing brains, far from full ones.
        store.cap_size(store.size_bytes() + 64 * 1024);
        let told = follower.next_reply().await;
        let ServerMsg::RoomClosed { message, .. } = &told else {
            panic!("{told:?}")
        };
        assert!(message.contains("store is full"), "{message}");
        // Every round it counted is in its stored brains.
        let stored = ["A", "B"].map(|name| store.load_brain(&owned(name)).unwrap().unwrap());
        let played = stored[0].1;
        assert_eq!(stored[1].1, played);
        assert!(
            message.contains(&format!("after {played} of {rounds} rounds")),
            "{message}"
        );
        // Over: forgotten by the store, its brains free for other rooms.
        assert!(store.load_rooms().unwrap().rooms.is_empty());
        crate::eventually("the stopped match kept its brains", || {
            hall.check_brain_free(&owned("A")).is_ok()
        })
        .await;
    }
}
