//! A room's AI seats keep their Magnetic Cave engines while its game runs and give them back
//! when it ends. This test has its binary to itself: the quota of kept engines is process-wide,
//! so another test's rooms would change the count.

use std::time::Duration;

use parlor_server::Limits;
use parlor_server::ai::kept_cave_engines;
use parlor_server::hall::Hall;
use parlor_server::store::Store;
use parlor_shared::game::GameSetup;
use parlor_shared::protocol::{AiKind, SeatSpec};

/// Waits, checking every 10 ms for up to `seconds`, until `done` holds.
async fn wait_until(seconds: u64, what: &str, mut done: impl FnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(seconds);
    while !done() {
        assert!(tokio::time::Instant::now() < deadline, "timed out: {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ai_room_keeps_two_engines_while_it_plays_and_none_once_its_game_is_over() {
    let hall = Hall::new(
        Store::in_memory().unwrap(),
        Limits::default().room_lifetimes(),
    );
    let seats = vec![
        SeatSpec::Ai {
            move_ms: 5,
            kind: AiKind::Normal,
        };
        2
    ];
    assert_eq!(kept_cave_engines(), 0);
    let creator = parlor_shared::identity::Player {
        id: parlor_shared::identity::PlayerId(1),
        name: "tester".into(),
    };
    let id = hall
        .create_room(GameSetup::Cave, seats, &creator)
        .await
        .unwrap();
    let summary = hall.room(id).unwrap().summary;
    wait_until(30, "four moves", || summary.borrow().moves >= 4).await;
    if summary.borrow().outcome.is_none() {
        assert_eq!(kept_cave_engines(), 2, "each seat keeps its engine");
    }
    wait_until(60, "the end of the game", || {
        summary.borrow().outcome.is_some()
    })
    .await;
    wait_until(5, "the engines given back", || kept_cave_engines() == 0).await;
}
