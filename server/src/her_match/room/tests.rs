//! The auto match's room: its views, its store outages, its creator and its unwatched end.

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

/// An auto match of brains "A" and "B" on `dims`, `rounds` rounds at `pace`, without mirrors.
fn match_setup(dims: &str, rounds: u64, pace: Pace) -> MatchSetup {
    MatchSetup {
        dims: dims.parse().unwrap(),
        mirrors: false,
        rounds,
        pace,
        brains: ["A".into(), "B".into()],
    }
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
    let setup = match_setup(dims, rounds, pace);
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

#[test]
fn the_lobby_names_the_brains_of_a_match_which_counts_as_a_match_and_not_an_ai_room() {
    let mut setup = match_setup("3x3", 10, Pace::PerPly { ms: 300 });
    setup.brains = [owned("A"), "hall/B".into()];
    let summary = summary_of(7, None, 1, 0, Some(&MatchView::new(setup.clone())));
    let brain = |name: &str| SeatState::Ai {
        move_ms: 300,
        name: name.into(),
    };
    assert_eq!(summary.seats, [brain(&owned("A")), brain("hall/B")]);
    let kind = crate::room_caps::RoomKind::of(&summary);
    assert_eq!(
        kind,
        crate::room_caps::RoomKind::asked(&GameSetup::HerMatch(setup), &[])
    );
    assert!(
        summary_of(7, None, 0, 0, None).seats.is_empty(),
        "no view yet"
    );
}

#[tokio::test]
async fn a_match_paced_faster_than_watchers_can_follow_is_shown_twenty_times_a_second() {
    let lifetimes = crate::Limits::default().room_lifetimes();
    let (hall, _store, id) = match_room(lifetimes, "3x3", 1_000_000, Pace::PerPly { ms: 0 }).await;
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
    let (hall, store, id) = match_room(lifetimes, "3x3", 100_000, Pace::PerPly { ms: 20 }).await;
    let stored = crate::room::tests::creator_stored_after_a_rename(&hall, &store, id).await;
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
    let (hall, store, id) = match_room(lifetimes, "3x3", 100_000, Pace::PerPly { ms: 20 }).await;
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

/// A node that stops on SIGTERM hands its matches over: the thread stores its rounds and
/// leaves the match in the store for the next node, where a closed room's would forget it.
#[tokio::test]
async fn a_match_handed_over_to_another_node_stays_in_the_store() {
    let lifetimes = crate::Limits::default().room_lifetimes();
    for pace in [Pace::FullSpeed, Pace::PerPly { ms: 5 }] {
        let (hall, store, id) = match_room(lifetimes, "3x3", 1_000_000, pace).await;
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        hall.room_moved(id).await;
        let stopped = async {
            while hall.check_brain_free(&owned("A")).is_err() {
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
        };
        tokio::time::timeout(std::time::Duration::from_secs(10), stopped)
            .await
            .expect("the match's thread stops and lets its brains go");
        let stored = store.load_rooms().unwrap();
        assert_eq!(stored.rooms.len(), 1, "{pace:?}: left for the next node");
        let (_, games) = store.load_brain(&owned("A")).unwrap().unwrap();
        assert!(games > 0, "{pace:?}: its rounds are stored");
    }
}

#[tokio::test]
async fn a_match_ended_mid_round_stops_at_once_and_is_forgotten_before_it_says_so() {
    let lifetimes = crate::Limits::default().room_lifetimes();
    // A ply every 10 s: a round would take a minute.
    let pace = Pace::PerPly { ms: 10_000 };
    let (hall, store, id) = match_room(lifetimes, "3x3", 100_000, pace).await;
    let creator = TestFollower::new(1);
    let inbox = hall.room(id).unwrap().inbox;
    inbox.send(creator.watch()).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let asked = std::time::Instant::now();
    let close = RoomCommand::Close {
        who: creator.who.clone(),
    };
    inbox.send(close).await.unwrap();
    let reply = creator.next_reply().await;
    assert!(
        matches!(&reply, ServerMsg::RoomClosed { message, .. } if message.contains("ended")),
        "{reply:?}"
    );
    assert!(
        asked.elapsed() < std::time::Duration::from_secs(2),
        "not the round's end"
    );
    // Once it says so, a restart cannot bring the match back and its brains are free.
    assert!(store.load_rooms().unwrap().rooms.is_empty(), "forgotten");
    assert!(hall.check_brain_free(&owned("A")).is_ok());
    let games = store
        .load_brain(&owned("A"))
        .unwrap()
        .map_or(0, |(_, games)| games);
    assert_eq!(games, 0, "the round it stopped taught nothing");
}

#[tokio::test]
async fn a_restart_stops_a_match_that_had_gone_unwatched_for_its_abandoned_time() {
    let store = Store::in_memory().unwrap();
    let setup = match_setup("3x3", 100_000, Pace::PerPly { ms: 20 });
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

#[tokio::test]
async fn a_close_that_comes_as_the_match_ends_hears_it_is_over_not_ended_by_anyone() {
    let store = Store::in_memory().unwrap();
    let setup = match_setup("3x3", 1, Pace::FullSpeed);
    let creator = crate::audience::test_player(1);
    let first_view = MatchView::new(setup);
    let lifetimes = crate::Limits::default().room_lifetimes();
    let (views_tx, views) = watch::channel(first_view.clone());
    let (_why_stopped_tx, why_stopped) = oneshot::channel();
    let (forgotten_tx, forgotten) = oneshot::channel();
    let room = MatchRoom {
        id: 1,
        creator: Some(creator.clone()),
        version: 0,
        summary: watch::Sender::new(summary_of(1, Some(&creator), 0, 0, Some(&first_view))),
        view: first_view.clone(),
        audience: crate::audience::Audience::default(),
        lifetimes,
        abandon_clock: AbandonClock::start(1, store.clone(), lifetimes.abandoned_after, None),
        why_stopped,
        forgotten,
        moved_away: Default::default(),
        store,
    };
    // The match's thread has played its last round and stopped, and the creator's Close
    // comes before the room has seen it.
    let (inbox_tx, inbox) = mpsc::channel(8);
    let follower = TestFollower::new(1);
    inbox_tx.send(follower.watch()).await.unwrap();
    inbox_tx
        .send(RoomCommand::Close {
            who: follower.who.clone(),
        })
        .await
        .unwrap();
    views_tx.send_replace(MatchView {
        finished: true,
        ..first_view
    });
    forgotten_tx.send(true).unwrap();
    drop(views_tx);
    tokio::spawn(room.run(inbox, views));
    let reply = follower.next_reply().await;
    assert!(
        matches!(
            &reply,
            ServerMsg::Error {
                code: ErrorCode::GameOver,
                ..
            }
        ),
        "{reply:?}"
    );
}
