//! The store: records, migrations, the data directory's lock, damaged, truncated and foreign
//! files.

use super::*;
use crate::store::*;
use parlor_shared::game::GameSetup;

#[test]
fn a_saved_game_comes_back_whole_and_survives_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let moves: Vec<GameMove> = ["a1", "h8", "b1"]
        .iter()
        .map(|m| GameMove::Cave(m.parse().unwrap()))
        .collect();
    let record = NewRecord {
        game: GameKind::Cave,
        seats: vec!["human".into(), "AI 1000 ms".into()],
        players: vec![None, None],
        outcome: Outcome::Won { seat: 1 },
        start: GameSetup::Cave.start().unwrap(),
        moves: moves.clone(),
    };
    let id = SqliteStore::open(dir.path())
        .unwrap()
        .save(&record)
        .unwrap();
    let store = SqliteStore::open(dir.path()).unwrap();
    let got = store.get(id).unwrap().unwrap();
    assert_eq!(got.moves, moves);
    assert_eq!(got.start, GameSetup::Cave.start().unwrap());
    assert_eq!(got.summary.outcome, Outcome::Won { seat: 1 });
    assert_eq!(got.summary.moves, 3);
    assert_eq!(store.list(None).unwrap()[0].id, id);
    assert!(store.get(id + 1000).unwrap().is_none());
}

fn cave_record() -> NewRecord {
    NewRecord {
        game: GameKind::Cave,
        seats: vec!["human".into(), "human".into()],
        players: vec![None, None],
        outcome: Outcome::Tie,
        start: GameSetup::Cave.start().unwrap(),
        moves: vec![GameMove::Cave("a1".parse().unwrap())],
    }
}

#[test]
fn a_store_from_before_brain_revisions_gets_them_and_keeps_its_brains() {
    let dir = tempfile::tempdir().unwrap();
    let brain = parlor_shared::hexapawn::Brain::new(parlor_shared::hexapawn::Dims::HEXAPAWN, false);
    {
        let old = Connection::open(dir.path().join("games.db")).unwrap();
        old.execute_batch(
            "CREATE TABLE brains (name TEXT PRIMARY KEY, size TEXT NOT NULL,
                 mirrors INTEGER NOT NULL, brain TEXT NOT NULL, boxes INTEGER NOT NULL,
                 beads INTEGER NOT NULL, games INTEGER NOT NULL, updated_at INTEGER NOT NULL);
             PRAGMA user_version = 1;",
        )
        .unwrap();
        old.execute(
            "INSERT INTO brains VALUES ('OLD', '3x3', 0, ?1, 0, 0, 5, 0)",
            [brain.to_json()],
        )
        .unwrap();
    }
    let store = SqliteStore::open(dir.path()).unwrap();
    assert_eq!(store.load_brain("OLD").unwrap(), Some((brain, 5)));
    store
        .put_brain(
            "OLD",
            &parlor_shared::hexapawn::Brain::new(parlor_shared::hexapawn::Dims::HEXAPAWN, true),
        )
        .unwrap();
    let (revision, stored_as): (i64, String) = (store.lock())
        .query_row(
            "SELECT revision, typeof(brain) FROM brains WHERE name = 'OLD'",
            [],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .unwrap();
    assert_eq!(revision, 1, "counted from the migration's 0");
    assert_eq!(
        stored_as, "blob",
        "rewritten packed; the JSON text row was read above"
    );
}

#[test]
fn a_store_from_before_record_players_keeps_its_games_and_then_keeps_players() {
    let dir = tempfile::tempdir().unwrap();
    {
        let old = Connection::open(dir.path().join("games.db")).unwrap();
        old.execute_batch(
            "CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL,
                 seats TEXT NOT NULL, outcome TEXT NOT NULL, start TEXT NOT NULL,
                 moves TEXT NOT NULL, move_count INTEGER NOT NULL,
                 finished_at INTEGER NOT NULL);
             PRAGMA user_version = 5;",
        )
        .unwrap();
        let start = serde_json::to_string(&GameSetup::Cave.start().unwrap()).unwrap();
        old.execute(
            r#"INSERT INTO games VALUES (1, '"Cave"', '["ada #0000","bob #1111"]', '"Tie"',
                 ?1, '[]', 0, 1700000000)"#,
            [start],
        )
        .unwrap();
    }
    let store = SqliteStore::open(dir.path()).unwrap();
    let version: i64 = (store.lock())
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .unwrap();
    assert_eq!(version, LAYOUT);
    let old = store.get(1).unwrap().expect("the old game stays");
    assert_eq!(old.summary.seats, ["ada #0000", "bob #1111"]);
    assert_eq!(old.summary.players, [None, None], "kept no players");
    let mut record = cave_record();
    record.players = vec![Some(parlor_shared::identity::PlayerId(7)), None];
    let id = store.save(&record).unwrap();
    drop(store);
    let store = SqliteStore::open(dir.path()).unwrap();
    assert_eq!(store.list(None).unwrap()[0].id, id);
    assert_eq!(store.list(None).unwrap()[0].players, record.players);
    assert_eq!(store.list(None).unwrap()[1].players, [None, None]);
}

#[test]
fn a_data_directory_serves_one_store_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let first = SqliteStore::open(dir.path()).unwrap();
    let second = first.clone();
    let refused = SqliteStore::open(dir.path())
        .err()
        .expect("refused while in use");
    let message = format!("{refused:#}");
    assert!(message.contains("another Parlor server uses"), "{message}");
    drop(first);
    assert!(
        SqliteStore::open(dir.path()).is_err(),
        "a clone still holds it"
    );
    drop(second);
    let third = SqliteStore::open(dir.path()).expect("free once every handle is gone");
    // The lock file deleted by hand: the folder's own lock still keeps a second server out.
    std::fs::remove_file(dir.path().join("server.lock")).unwrap();
    let refused = SqliteStore::open(dir.path()).err().expect("still refused");
    assert!(format!("{refused:#}").contains("another Parlor server uses"));
    drop(third);
}

#[test]
fn a_damaged_database_is_refused_at_the_start_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = SqliteStore::open(dir.path()).unwrap();
        for _ in 0..200 {
            store.save(&cave_record()).unwrap();
        }
        // The checkpoint thread may hold the checkpoint a moment: then it is busy (1).
        let all_copied_back = (0..100).any(|_| {
            let busy: i64 = (store.lock())
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| row.get(0))
                .unwrap();
            busy == 0 || {
                std::thread::sleep(std::time::Duration::from_millis(20));
                false
            }
        });
        assert!(all_copied_back);
    }
    let path = dir.path().join("games.db");
    let mut bytes = std::fs::read(&path).unwrap();
    assert!(bytes.len() > 3 * 4096, "{} bytes", bytes.len());
    bytes[2 * 4096..3 * 4096].fill(0x5a);
    std::fs::write(&path, bytes).unwrap();
    let refused = SqliteStore::open(dir.path())
        .err()
        .expect("a damaged store is refused");
    let message = format!("{refused:#}");
    assert!(message.contains(&path.display().to_string()), "{message}");
    assert!(
        message.contains("damaged") || message.contains("malformed"),
        "{message}"
    );
}

#[test]
fn a_file_named_as_the_data_directory_is_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("data");
    std::fs::write(&file, b"notes").unwrap();
    let refused = SqliteStore::open(&file).err().expect("a file is no folder");
    let message = format!("{refused:#}");
    assert!(message.contains("is a file: name a folder"), "{message}");
    assert_eq!(std::fs::read(&file).unwrap(), b"notes", "left as it was");
}

#[test]
fn a_folder_where_the_database_goes_is_refused_in_words_and_nothing_is_made() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("games.db");
    std::fs::create_dir(&folder).unwrap();
    let refused = SqliteStore::open(dir.path())
        .err()
        .expect("a folder is no database");
    let message = format!("{refused:#}");
    assert!(
        message.contains(&format!("{} is a folder", folder.display())),
        "{message}"
    );
    assert!(message.contains("needs a file"), "{message}");
    assert!(
        !message.contains("Error code"),
        "SQLite's own words: {message}"
    );
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 1, "no lock file or WAL beside it: {left:?}");
}

#[test]
fn a_database_that_can_only_be_read_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    drop(SqliteStore::open(dir.path()).unwrap());
    // Root may write files without write permission, so the read-only opening that SQLite
    // falls back to for such a file is asked for directly.
    let read_only = Connection::open_with_flags(
        dir.path().join("games.db"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    let refused = check_usable(&read_only).unwrap_err().to_string();
    assert!(refused.contains("can only be read"), "{refused}");
}

#[test]
fn a_stored_game_that_does_not_read_back_is_left_out_of_the_list_not_the_others() {
    let store = SqliteStore::in_memory().unwrap();
    let ids: Vec<RecordId> = (0..3)
        .map(|_| store.save(&cave_record()).unwrap())
        .collect();
    (store.lock())
        .execute(
            "UPDATE games SET outcome = '{bad' WHERE id = ?1",
            [ids[1] as i64],
        )
        .unwrap();
    let listed: Vec<RecordId> = store.list(None).unwrap().iter().map(|r| r.id).collect();
    assert_eq!(listed, vec![ids[2], ids[0]]);
}

#[test]
fn a_store_of_a_newer_layout_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    {
        let newer = Connection::open(dir.path().join("games.db")).unwrap();
        newer.pragma_update(None, "user_version", 99).unwrap();
    }
    let refused = SqliteStore::open(dir.path()).err().expect("refused");
    let message = format!("{refused:#}");
    assert!(
        message.contains("a newer Parlor wrote it (layout 99"),
        "{message}"
    );
    let after = Connection::open(dir.path().join("games.db")).unwrap();
    let version: i64 = after
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .unwrap();
    assert_eq!(version, 99);
    let tables: i64 = after
        .query_row("SELECT count(*) FROM sqlite_master", [], |row| row.get(0))
        .unwrap();
    assert_eq!(tables, 0, "nothing was created in it");
}

#[test]
fn every_connection_is_closed_when_the_last_handle_goes() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(dir.path()).unwrap();
    let second = store.clone();
    for _ in 0..50 {
        store.save(&cave_record()).unwrap();
    }
    drop(store);
    assert!(dir.path().join("games.db-wal").exists(), "a handle is left");
    drop(second);
    // The last connection to close copies the WAL back and removes it: so none is open.
    assert!(!dir.path().join("games.db-wal").exists());
    assert!(!dir.path().join("games.db-shm").exists());
}

/// Reads `files`, opens the store in `dir`, which must be refused, and checks that the files
/// are as they were; the refusal's message.
fn refused_leaving_untouched(dir: &Path, files: &[&str]) -> String {
    let read = || -> Vec<Option<Vec<u8>>> {
        (files.iter())
            .map(|file| std::fs::read(dir.join(file)).ok())
            .collect()
    };
    let before = read();
    let refused = SqliteStore::open(dir).err().expect("refused");
    assert_eq!(read(), before, "{files:?} changed");
    let message = format!("{refused:#}");
    let database = dir.join("games.db").display().to_string();
    assert!(message.contains(&database), "{message}");
    message
}

#[test]
fn a_database_truncated_while_its_wal_holds_data_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let wal = dir.path().join("games.db-wal");
    let database = dir.path().join("games.db");
    let store = SqliteStore::open(dir.path()).unwrap();
    for _ in 0..20 {
        store.save(&cave_record()).unwrap();
    }
    // The WAL as a crash leaves it: the last handle's close copies it back and removes it.
    let logged = std::fs::read(&wal).unwrap();
    assert!(!logged.is_empty());
    drop(store);
    std::fs::write(&database, b"").unwrap();
    std::fs::write(&wal, &logged).unwrap();
    let message = refused_leaving_untouched(dir.path(), &["games.db", "games.db-wal"]);
    assert!(message.contains("it is empty (0 bytes)"), "{message}");
    assert!(message.contains("truncated"), "{message}");
    assert!(message.contains(&wal.display().to_string()), "{message}");
    std::fs::remove_file(&database).unwrap();
    let message = refused_leaving_untouched(dir.path(), &["games.db", "games.db-wal"]);
    assert!(message.contains("it is missing"), "{message}");
    assert!(!database.exists(), "not created");
    // An empty database beside an empty WAL holds nothing to lose: a new store.
    std::fs::write(&database, b"").unwrap();
    std::fs::write(&wal, b"").unwrap();
    SqliteStore::open(dir.path()).expect("a new store");
}

#[test]
fn a_wal_whose_header_is_damaged_is_refused_not_started_over() {
    let dir = tempfile::tempdir().unwrap();
    let wal = dir.path().join("games.db-wal");
    let store = SqliteStore::open(dir.path()).unwrap();
    for _ in 0..20 {
        store.save(&cave_record()).unwrap();
    }
    // The WAL as a crash leaves it: the last handle's close copies it back and removes it.
    let logged = std::fs::read(&wal).unwrap();
    drop(store);
    std::fs::write(&wal, &logged).unwrap();
    SqliteStore::open(dir.path()).expect("a WAL a crash left is taken back");
    let mut damaged = logged.clone();
    damaged[..8].copy_from_slice(b"ZZZZZZZZ");
    std::fs::write(&wal, &damaged).unwrap();
    let message = refused_leaving_untouched(dir.path(), &["games.db", "games.db-wal"]);
    assert!(message.contains("its WAL"), "{message}");
    assert!(message.contains("is damaged"), "{message}");
    // The checksum too: one changed byte of the salt.
    let mut salted = logged;
    salted[17] ^= 1;
    std::fs::write(&wal, &salted).unwrap();
    let message = refused_leaving_untouched(dir.path(), &["games.db", "games.db-wal"]);
    assert!(message.contains("is damaged"), "{message}");
}

#[test]
fn another_programs_database_is_refused_and_left_as_it_was() {
    for foreign in [
        "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);
         INSERT INTO customers (name) VALUES ('Ann');",
        "CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT, price REAL);
         INSERT INTO games (title, price) VALUES ('Go', 5.0);",
    ] {
        let dir = tempfile::tempdir().unwrap();
        Connection::open(dir.path().join("games.db"))
            .unwrap()
            .execute_batch(foreign)
            .unwrap();
        let message = refused_leaving_untouched(dir.path(), &["games.db", "games.db-wal"]);
        assert!(message.contains("not a Parlor store"), "{message}");
        assert!(message.contains("another --data"), "{message}");
    }
}

#[test]
fn a_store_missing_one_of_its_tables_is_refused_not_made_again_empty() {
    for table in ["games", "room_moves", "brains"] {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteStore::open(dir.path()).unwrap();
        store.save(&cave_record()).unwrap();
        drop(store);
        let database = Connection::open(dir.path().join("games.db")).unwrap();
        database
            .execute_batch(&format!("DROP TABLE {table};"))
            .unwrap();
        drop(database);
        let message = refused_leaving_untouched(dir.path(), &["games.db", "games.db-wal"]);
        assert!(
            message.contains(&format!("it is damaged: its table {table} is missing")),
            "{message}"
        );
        assert!(message.contains("restore it from a copy"), "{message}");
    }
}

#[test]
fn a_file_that_is_not_a_database_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("games.db"),
        "name,score\nAnn,3\n".repeat(100),
    )
    .unwrap();
    let message = refused_leaving_untouched(dir.path(), &["games.db"]);
    assert!(
        message.contains("it is not an SQLite database"),
        "{message}"
    );
    assert!(message.contains("another --data"), "{message}");
}

#[test]
fn games_stored_before_layout_7_are_listed_for_their_players_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let ada = parlor_shared::identity::PlayerId(0xada);
    {
        let store = SqliteStore::open(dir.path()).unwrap();
        let mut record = cave_record();
        record.players = vec![Some(ada), None];
        store.save(&record).unwrap();
        // As a store of layout 6 was: no list of who played each game.
        (store.lock())
            .execute_batch("DROP TABLE game_players; PRAGMA user_version = 6;")
            .unwrap();
    }
    let store = SqliteStore::open(dir.path()).unwrap();
    let listed: Vec<(String, i64)> = {
        let connection = store.lock();
        let mut rows = connection
            .prepare("SELECT player, game FROM game_players")
            .unwrap();
        rows.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    assert_eq!(listed, [(ada.to_string(), 1)]);
}

/// Sealed for the process's end, the store has put its WAL back into `games.db`, which alone
/// holds the games saved, and takes no write after it.
#[test]
fn a_sealed_store_has_its_games_in_its_database_file_and_takes_no_more_writes() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(dir.path()).unwrap();
    let saved = store.save(&cave_record()).unwrap();
    store.seal_for_exit().unwrap();
    let wal = dir.path().join("games.db-wal");
    let wal_bytes = || std::fs::metadata(&wal).map_or(0, |meta| meta.len());
    assert_eq!(wal_bytes(), 0);
    let copy = tempfile::tempdir().unwrap();
    std::fs::copy(dir.path().join("games.db"), copy.path().join("games.db")).unwrap();
    let copied = rusqlite::Connection::open(copy.path().join("games.db")).unwrap();
    let count: i64 = copied
        .query_row("SELECT COUNT(*) FROM games", [], |row| row.get(0))
        .unwrap();
    assert_eq!(
        (count, saved),
        (1, 1),
        "the saved game is in games.db alone"
    );

    let writer = store.clone();
    std::thread::spawn(move || writer.save(&cave_record()));
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(wal_bytes(), 0, "a later write waits for ever");
}
