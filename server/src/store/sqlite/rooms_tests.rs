use super::*;
use crate::store::*;

use crate::store::conformance::{block_on, cave, cave_room, game_rows};

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
        crate::store::sqlite::LAYOUT,
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
            &parlor_shared::hexapawn::Brain::new(parlor_shared::hexapawn::Dims::HEXAPAWN, false),
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
