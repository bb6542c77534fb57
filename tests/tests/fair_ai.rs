//! The AI pool is fair between players: one player's sixteen AI rooms searching at 3 s a move
//! delay another player's 100 ms AI by about one search, not by sixteen. (A file of its own:
//! the busy rooms keep the process's AI pool full, which would slow any test beside them.)

mod common;

use std::time::{Duration, Instant};

use common::{Peer, start_server_with};
use parlor_server::Limits;
use parlor_server::limits::RoomQuota;
use parlor_shared::codec::Format;
use parlor_shared::game::{GameMove, GameSetup, GameState};
use parlor_shared::identity::PlayerSecret;
use parlor_shared::protocol::SeatSpec;

/// The busy player's AI-vs-AI rooms, and their seats' budget a move.
const BUSY_ROOMS: usize = 16;
const BUSY_MOVE_MS: u32 = 3000;
/// The other player's AI, and how many of its answers are timed.
const QUICK_MOVE_MS: u32 = 100;
const TIMED_MOVES: u64 = 5;
/// One busy search (the longest a thread stays taken), the quick AI's own, and slack for a
/// loaded machine. A first-come-first-served pool took about 21 s here.
const FAIR_WAIT: Duration = Duration::from_millis(4500);
/// How long an answer is waited for before the test fails (shorter than the peer's patience
/// for a message, so that the failure says what was slow).
const GIVE_UP_AFTER: Duration = Duration::from_secs(9);

#[tokio::test]
async fn one_players_sixteen_ai_rooms_delay_another_players_ai_by_about_one_search() {
    // The player quota is raised to let one player keep sixteen AI rooms: what is tested
    // here is the pool's order, not the quota (tested in `server/src/room_caps.rs`).
    let quota = RoomQuota {
        rooms: BUSY_ROOMS + 1,
        ai_rooms: BUSY_ROOMS + 1,
        matches: 1,
    };
    let limits = Limits {
        per_player: quota,
        per_address: quota,
        ..Limits::default()
    };
    let (server, _dir) = start_server_with("fair-ai", limits);
    let url = server.url();

    let mut busy = Peer::connect_as(&url, Format::Binary, &PlayerSecret::random()).await;
    for _ in 0..BUSY_ROOMS {
        let seats = vec![SeatSpec::ai(BUSY_MOVE_MS), SeatSpec::ai(BUSY_MOVE_MS)];
        busy.create_room(seats).await;
    }

    let mut other = Peer::connect(&url, Format::Binary).await;
    let room = other
        .create_room(vec![SeatSpec::Human, SeatSpec::ai(QUICK_MOVE_MS)])
        .await;
    let token = other.join(room, 0).await;
    let mut seen = GameSetup::Cave.start().unwrap();
    let mut waits = Vec::new();
    for version in (0..TIMED_MOVES).map(|move_number| 2 * move_number) {
        let GameState::Cave(position) = &seen else {
            panic!("not a Magnetic Cave room: {seen:?}")
        };
        let square = position.legal_squares().next().expect("a legal move");
        let sent = Instant::now();
        other
            .send_move(room, &token, version, GameMove::Cave(square))
            .await;
        let answer = other.state_where(room, |s| s.version == version + 2);
        let answered = tokio::time::timeout(GIVE_UP_AFTER, answer)
            .await
            .unwrap_or_else(|_| {
                panic!("the AI's answer to move {version} took over {GIVE_UP_AFTER:?}")
            });
        waits.push(sent.elapsed());
        seen = answered.state;
    }

    let worst = *waits.iter().max().unwrap();
    let mut sorted = waits.clone();
    sorted.sort();
    eprintln!(
        "with one player's {BUSY_ROOMS} AI rooms at {BUSY_MOVE_MS} ms a move busy, another \
         player's {QUICK_MOVE_MS} ms AI answered in p50 {} ms, max {} ms ({waits:?})",
        sorted[sorted.len() / 2].as_millis(),
        worst.as_millis()
    );
    assert!(
        worst < FAIR_WAIT,
        "an answer took {worst:?}, over {FAIR_WAIT:?}: {waits:?}"
    );
}
