//! Rooms in progress: written, read back after a restart, finished, forgotten.

use parlor_shared::game::GameMove;
use parlor_shared::hexapawn::{Brain, CurvePoint, Dims};

use super::*;
use crate::store::{BrainRow, MatchProgress, MatchRound, MatchRow, Store, unix_now};

on_every_database!(
    rooms_come_back_with_their_moves_seat_keys_and_seeds_and_finished_ones_do_not,
    since_when_nobody_follows_a_room_is_kept_and_cleared_and_a_forgotten_room_stays_forgotten,
    an_auto_match_comes_back_with_its_progress_and_curve,
    a_failing_job_undoes_only_itself_in_a_shared_transaction,
    the_writer_keeps_each_rooms_moves_in_order_under_load,
);

fn rooms_come_back_with_their_moves_seat_keys_and_seeds_and_finished_ones_do_not(store: Store) {
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
        let creator = crate::audience::test_player(9);
        store.set_creator(3, &creator).done().await.unwrap();
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
    expected.creator = Some(crate::audience::test_player(9));
    assert_eq!(rows[0], &expected);
    // Room 5 is gone but its id is never given out again.
    assert_eq!(unfinished.next_room, 6);
}

fn since_when_nobody_follows_a_room_is_kept_and_cleared_and_a_forgotten_room_stays_forgotten(
    store: Store,
) {
    let since = |store: &Store| {
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

fn an_auto_match_comes_back_with_its_progress_and_curve(store: Store) {
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
    // A batch of rounds brings several points at once.
    let earlier = CurvePoint {
        round: 5,
        losses: [5, 0],
        beads: [2, 4],
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
                points: match rounds_played {
                    10 => vec![earlier, point],
                    _ => Vec::new(),
                },
            };
            store.save_match_round(round).done().await.unwrap();
        }
    });
    let resumed = store.load_rooms().unwrap();
    progress.rounds_played = 11;
    progress.curve = vec![earlier, point];
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

fn a_failing_job_undoes_only_itself_in_a_shared_transaction(store: Store) {
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
fn the_writer_keeps_each_rooms_moves_in_order_under_load(store: Store) {
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
