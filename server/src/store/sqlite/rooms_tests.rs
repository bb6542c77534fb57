use super::*;
use crate::store::*;
use parlor_shared::hexapawn::{Brain, CurvePoint};
use parlor_shared::protocol::SeatSpec;
use parlor_shared::game::{GameSetup, Outcome};
use parlor_shared::hexapawn::{Dims, Pace};
use parlor_shared::protocol::AiKind;

fn block_on<T>(future: impl std::future::Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(future)
}

fn key_of(token: &str) -> SeatKey {
    SeatKey::of(&SeatToken(token.into()))
}

fn cave(square: &str) -> GameMove {
    GameMove::Cave(square.parse().unwrap())
}

fn cave_room(id: RoomId) -> RoomRow {
    RoomRow {
        id,
        start: GameSetup::Cave.start().unwrap(),
        seats: vec![
            SeatSpec::Human,
            SeatSpec::Ai {
                move_ms: 100,
                kind: AiKind::Easy,
            },
        ],
        keys: vec![Some(key_of("00ff")), None],
        players: vec![],
        creator: None,
        address: Some([10, 1, 2, 3].into()),
        seed: u64::MAX - 7,
        her: None,
        moves: Vec::new(),
        unfollowed_since: Some(1_700_000_000),
    }
}

fn match_setup() -> MatchSetup {
    MatchSetup {
        dims: Dims::HEXAPAWN,
        mirrors: false,
        rounds: 100,
        pace: Pace::FullSpeed,
        brains: ["A".into(), "B".into()],
    }
}

fn record(moves: Vec<GameMove>) -> NewRecord {
    NewRecord {
        game: GameKind::Cave,
        seats: vec!["human".into(), "human".into()],
        outcome: Outcome::Won { seat: 0 },
        start: GameSetup::Cave.start().unwrap(),
        moves,
    }
}

fn game_rows(unfinished: &Unfinished) -> Vec<&RoomRow> {
    unfinished
        .rooms
        .iter()
        .filter_map(|room| match room {
            StoredRoom::Game(row) => Some(&**row),
            StoredRoom::Match(_) => None,
        })
        .collect()
}

#[test]
fn rooms_come_back_with_their_moves_seat_keys_and_seeds_and_finished_ones_do_not() {
    let store = SqliteStore::in_memory().unwrap();
    let empty = store.load_rooms().unwrap();
    assert!(empty.rooms.is_empty());
    assert_eq!(empty.next_room, 1);
    block_on(async {
        store.insert_room(&cave_room(3)).done().await.unwrap();
        store.insert_room(&cave_room(5)).done().await.unwrap();
        for (ply, square) in ["a1", "h8", "b1"].into_iter().enumerate() {
            store
                .append_move(3, ply as u64, cave(square))
                .done()
                .await
                .unwrap();
        }
        // A ply written twice is refused and changes nothing.
        assert!(store.append_move(3, 1, cave("c1")).done().await.is_err());
        let keys = [Some(key_of("00ff")), Some(key_of("abcd"))];
        let players = [Some(crate::audience::test_player(7)), None];
        store.set_seats(3, &keys, &players).done().await.unwrap();
        let id = store
            .finish_room(5, record(vec![cave("a1")]), None)
            .done()
            .await
            .unwrap();
        assert_eq!(store.get(id).unwrap().unwrap().moves, vec![cave("a1")]);
    });
    let unfinished = store.load_rooms().unwrap();
    let rows = game_rows(&unfinished);
    assert_eq!(rows.len(), 1, "the finished room is not loaded");
    let mut expected = cave_room(3);
    expected.moves = vec![cave("a1"), cave("h8"), cave("b1")];
    expected.keys[1] = Some(key_of("abcd"));
    expected.players = vec![Some(crate::audience::test_player(7)), None];
    assert_eq!(rows[0], &expected);
    // Room 5 is gone but its id is never given out again.
    assert_eq!(unfinished.next_room, 6);
}

#[test]
fn since_when_nobody_follows_a_room_is_kept_and_cleared_and_a_forgotten_room_stays_forgotten() {
    let store = SqliteStore::in_memory().unwrap();
    let since = |store: &SqliteStore| {
        let unfinished = store.load_rooms().unwrap();
        game_rows(&unfinished)
            .iter()
            .map(|row| row.unfollowed_since)
            .collect::<Vec<_>>()
    };
    block_on(async {
        store.insert_room(&cave_room(3)).done().await.unwrap();
        store.set_unfollowed_since(3, None).done().await.unwrap();
    });
    assert_eq!(since(&store), [None]);
    block_on(async {
        store
            .set_unfollowed_since(3, Some(1_800_000_000))
            .done()
            .await
            .unwrap();
    });
    assert_eq!(since(&store), [Some(1_800_000_000)]);
    block_on(async {
        store.forget_room(3).done().await.unwrap();
        store.set_unfollowed_since(3, None).done().await.unwrap();
    });
    assert_eq!(since(&store), []);
}

#[test]
fn an_auto_match_comes_back_with_its_progress_and_curve() {
    let store = SqliteStore::in_memory().unwrap();
    let brain = Brain::new(Dims::HEXAPAWN, false);
    let source: std::net::IpAddr = "2001:db8:1:2::".parse().unwrap();
    block_on(async {
        store
            .insert_match(
                9,
                &match_setup(),
                42,
                &crate::audience::test_player(1),
                Some(source),
            )
            .done()
            .await
            .unwrap();
    });
    let fresh = store.load_rooms().unwrap();
    let unwatched_since = match &fresh.rooms[..] {
        [StoredRoom::Match(row)] => row.unfollowed_since,
        other => panic!("{other:?}"),
    };
    assert!(
        unwatched_since.is_some_and(|since| since.abs_diff(unix_now()) <= 1),
        "a new match is watched by nobody: {unwatched_since:?}"
    );
    let expected = MatchRow {
        id: 9,
        creator: Some(crate::audience::test_player(1)),
        address: Some(source),
        setup: match_setup(),
        seed: 42,
        progress: MatchProgress::default(),
        unfollowed_since: unwatched_since,
    };
    assert_eq!(
        fresh.rooms,
        vec![StoredRoom::Match(Box::new(expected.clone()))]
    );
    let mut progress = MatchProgress {
        rounds_played: 10,
        window_losses: [0, 0],
        ..MatchProgress::default()
    };
    progress.stats[1].wins = 10;
    let point = CurvePoint {
        round: 10,
        losses: [10, 0],
        beads: [3, 4],
    };
    block_on(async {
        for rounds_played in [10, 11] {
            let round = MatchRound {
                room: 9,
                brains: [
                    ("A".into(), BrainRow::of(&brain)),
                    ("B".into(), BrainRow::of(&brain)),
                ],
                progress: MatchProgress {
                    rounds_played,
                    ..progress.clone()
                },
                rounds: 1,
                points: (rounds_played == 10).then_some(point).into_iter().collect(),
            };
            store.save_match_round(round).done().await.unwrap();
        }
    });
    let resumed = store.load_rooms().unwrap();
    progress.rounds_played = 11;
    progress.curve = vec![point];
    assert_eq!(
        resumed.rooms,
        vec![StoredRoom::Match(Box::new(MatchRow {
            progress,
            ..expected
        }))]
    );
    assert_eq!(store.load_brain("A").unwrap().unwrap().1, 2);
    block_on(async { store.forget_room(9).done().await.unwrap() });
    let done = store.load_rooms().unwrap();
    assert!(done.rooms.is_empty());
    assert_eq!(done.next_room, 10);
}

#[test]
fn rows_that_do_not_read_back_are_skipped_and_others_still_load() {
    let store = SqliteStore::in_memory().unwrap();
    block_on(async {
        for id in 1..=7 {
            store.insert_room(&cave_room(id)).done().await.unwrap();
        }
        store.append_move(4, 0, cave("a1")).done().await.unwrap();
        // A hole in room 4's moves.
        store.append_move(4, 2, cave("b1")).done().await.unwrap();
    });
    {
        let connection = store.lock();
        connection
            .execute("UPDATE rooms SET start = '{\"Chess\":1}' WHERE id = 1", [])
            .unwrap();
        connection
            .execute(
                "INSERT INTO room_moves (room, ply, move) VALUES (2, 0, 'not json')",
                [],
            )
            .unwrap();
        // Columns of the wrong type: a text seed, a blob for the seat keys.
        connection
            .execute("UPDATE rooms SET seed = 'x' WHERE id = 5", [])
            .unwrap();
        connection
            .execute("UPDATE rooms SET tokens = x'00ff' WHERE id = 6", [])
            .unwrap();
    }
    // The migration from before seat keys passes the blob over, as load_rooms does the rows.
    assert_eq!(hide_stored_tokens(&store.lock()).unwrap(), 0);
    let unfinished = store.load_rooms().unwrap();
    let ids: Vec<RoomId> = game_rows(&unfinished).iter().map(|row| row.id).collect();
    assert_eq!(ids, vec![3, 7]);
    assert_eq!(
        unfinished.unreadable, 5,
        "counted for the log's skipped rooms"
    );
    assert_eq!(unfinished.next_room, 8);
}

#[test]
fn a_failing_job_undoes_only_itself_in_a_shared_transaction() {
    let store = SqliteStore::in_memory().unwrap();
    block_on(async {
        store.insert_room(&cave_room(1)).done().await.unwrap();
        // Queued together: the duplicate room fails, the moves around it commit.
        let first = store.append_move(1, 0, cave("a1"));
        let duplicate = store.insert_room(&cave_room(1));
        let second = store.append_move(1, 1, cave("h8"));
        assert!(first.done().await.is_ok());
        assert!(duplicate.done().await.is_err());
        assert!(second.done().await.is_ok());
    });
    let unfinished = store.load_rooms().unwrap();
    assert_eq!(
        game_rows(&unfinished)[0].moves,
        vec![cave("a1"), cave("h8")]
    );
}

/// Many rooms writing moves at once: every move lands, in order, and the writer's rate.
#[test]
fn the_writer_keeps_each_rooms_moves_in_order_under_load() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(dir.path()).unwrap();
    let rooms = 200u64;
    let plies = 20u64;
    let squares: Vec<GameMove> = (0..plies)
        .map(|i| GameMove::Cave(parlor_shared::cave::Square::from_index(i as u8).unwrap()))
        .collect();
    let started = std::time::Instant::now();
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap()
        .block_on(async {
            for id in 1..=rooms {
                store.insert_room(&cave_room(id)).done().await.unwrap();
            }
            let tasks: Vec<_> = (1..=rooms)
                .map(|id| {
                    let (store, squares) = (store.clone(), squares.clone());
                    tokio::spawn(async move {
                        for (ply, mv) in squares.into_iter().enumerate() {
                            store.append_move(id, ply as u64, mv).done().await.unwrap();
                        }
                    })
                })
                .collect();
            for task in tasks {
                task.await.unwrap();
            }
        });
    let elapsed = started.elapsed();
    let moves = rooms * plies;
    eprintln!(
        "{moves} moves from {rooms} rooms in {elapsed:?}: {:.0} moves/s",
        moves as f64 / elapsed.as_secs_f64()
    );
    let unfinished = store.load_rooms().unwrap();
    assert_eq!(unfinished.rooms.len(), rooms as usize);
    for row in game_rows(&unfinished) {
        assert_eq!(row.moves, squares);
    }
}

#[test]
fn a_job_that_panics_is_undone_and_the_writer_goes_on() {
    let store = SqliteStore::in_memory().unwrap();
    block_on(async {
        store.insert_room(&cave_room(1)).done().await.unwrap();
        let panicking = super::submit(&store.writer, |connection| {
            connection.execute("DELETE FROM rooms", [])?;
            panic!("a bug in a job");
            #[allow(unreachable_code)]
            Ok(())
        });
        assert!(panicking.done().await.is_err());
        store.append_move(1, 0, cave("a1")).done().await.unwrap();
    });
    let unfinished = store.load_rooms().unwrap();
    assert_eq!(game_rows(&unfinished)[0].moves, vec![cave("a1")]);
}

#[test]
fn a_store_from_before_seat_keys_has_its_tokens_replaced_by_their_keys_when_it_opens() {
    let dir = tempfile::tempdir().unwrap();
    let token = SeatToken::random();
    {
        let store = SqliteStore::open(dir.path()).unwrap();
        block_on(store.insert_room(&cave_room(4)).done()).unwrap();
        // What the rooms table held before: the token itself.
        let plain = format!("[null, \"{}\"]", token.0);
        let set = "UPDATE rooms SET tokens = ?1 WHERE id = 4";
        store.lock().execute(set, [&plain]).unwrap();
        // And the layout version from before seat keys.
        store.lock().pragma_update(None, "user_version", 0).unwrap();
    }
    let store = SqliteStore::open(dir.path()).unwrap();
    let column: String = store
        .lock()
        .query_row("SELECT tokens FROM rooms WHERE id = 4", [], |row| {
            row.get(0)
        })
        .unwrap();
    assert!(
        !column.contains(&token.0),
        "the token is still stored: {column}"
    );
    let version: i64 = store
        .lock()
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .unwrap();
    assert_eq!(
        version,
        crate::store::sqlite::SOURCES_VERSION,
        "migrated once, to the latest layout, not at every open"
    );
    let unfinished = store.load_rooms().unwrap();
    let rows = game_rows(&unfinished);
    assert_eq!(rows[0].keys, vec![None, Some(SeatKey::of(&token))]);
    assert_eq!(
        hide_stored_tokens(&store.lock()).unwrap(),
        0,
        "keys are not hashed again"
    );
}

#[test]
fn a_store_from_before_layouts_4_and_5_gets_its_columns_and_its_rooms_keep_working() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = SqliteStore::open(dir.path()).unwrap();
        block_on(store.insert_room(&cave_room(4)).done()).unwrap();
        // The rooms table of layout 3: no players, no creator, no time since unfollowed, no
        // address; and no brain sources.
        let connection = store.lock();
        for column in ["players", "creator", "unfollowed_since", "address"] {
            let drop = format!("ALTER TABLE rooms DROP COLUMN {column}");
            connection.execute_batch(&drop).unwrap();
        }
        connection
            .execute_batch("DROP TABLE brain_sources")
            .unwrap();
        connection.pragma_update(None, "user_version", 3).unwrap();
    }
    let store = SqliteStore::open(dir.path()).unwrap();
    let unfinished = store.load_rooms().unwrap();
    let rows = game_rows(&unfinished);
    assert_eq!((rows[0].id, rows[0].creator.clone()), (4, None));
    assert_eq!(rows[0].address, None, "it counts for its player only");
    assert!(
        rows[0].players.is_empty(),
        "taken before players were known"
    );
    assert_eq!(
        rows[0].unfollowed_since, None,
        "its clock starts when it is restored"
    );
    // Brains made now count against their address.
    let address = [10, 0, 0, 9].into();
    store
        .put_brain(
            "HER",
            &parlor_shared::hexapawn::Brain::new(Dims::HEXAPAWN, false),
        )
        .unwrap();
    store.note_brain_source("HER", address).unwrap();
    assert_eq!(store.brain_usage_from(address, "x").unwrap().0, 1);
    // A seat taken now is kept with its player.
    let players = [None, Some(crate::audience::test_player(3))];
    block_on(store.set_seats(4, &[None, None], &players).done()).unwrap();
    let unfinished = store.load_rooms().unwrap();
    assert_eq!(game_rows(&unfinished)[0].players, players.to_vec());
}
