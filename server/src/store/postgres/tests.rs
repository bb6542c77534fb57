//! What only the PostgreSQL store does: refusing a database that is not Parlor's, sharing one
//! database between handles (the way several servers share a hall), and its size.

use super::PgStore;
use super::test_database::{TestDatabase, execute as run};
use parlor_shared::game::GameSetup;
use parlor_shared::identity::PlayerId;

use crate::store::conformance::{block_on, cave, cave_room, game_rows, record};

#[test]
fn another_programs_database_is_refused_and_a_newer_layout_too() {
    let Some(database) = TestDatabase::create() else {
        return;
    };
    let url = database.url();
    run(&url, "CREATE TABLE customers (id INTEGER PRIMARY KEY)");
    let refused = format!("{:#}", PgStore::connect(&url).err().unwrap());
    assert!(
        refused.contains("not a Parlor store") && refused.contains("customers"),
        "{refused}"
    );
    assert!(
        !refused.contains(":parlor@"),
        "no password in messages: {refused}"
    );

    let Some(newer) = TestDatabase::create() else {
        return;
    };
    drop(newer.store());
    run(
        &newer.url(),
        "UPDATE parlor_meta SET value = 99 WHERE name = 'layout'",
    );
    let refused = format!("{:#}", PgStore::connect(&newer.url()).err().unwrap());
    assert!(refused.contains("newer Parlor"), "{refused}");
}

#[test]
fn a_second_server_is_refused_while_the_first_uses_the_database_and_a_reopened_store_keeps_all() {
    let Some(database) = TestDatabase::create() else {
        return;
    };
    let first = database.store();
    let refused = format!("{:#}", PgStore::connect(&database.url()).err().unwrap());
    assert!(refused.contains("another Parlor server"), "{refused}");
    block_on(async {
        first.insert_room(&cave_room(4)).done().await.unwrap();
        first.append_move(4, 0, cave("a1")).done().await.unwrap();
        first.append_move(4, 1, cave("h8")).done().await.unwrap();
    });
    drop(first);
    let reopened = database.store();
    let unfinished = reopened.load_rooms().unwrap();
    assert_eq!(
        game_rows(&unfinished)[0].moves,
        vec![cave("a1"), cave("h8")]
    );
    assert_eq!(unfinished.next_room, 5);
    assert!(reopened.size_bytes() > 0, "the tables are measured");
}

#[test]
fn a_bad_address_is_a_clear_error() {
    let refused = format!(
        "{:#}",
        PgStore::connect("postgres://nobody@/").err().unwrap()
    );
    assert!(refused.contains("cannot use the database"), "{refused}");
    let refused = format!("{:#}", PgStore::connect("mysql:/x").err().unwrap());
    assert!(refused.contains("not a PostgreSQL address"), "{refused}");
}

/// The message of a store refused at `address`, where nothing listens on the port `{port}`.
fn refusal_at(address: &str) -> String {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let address = address.replace("{port}", &port.to_string());
    let refused = PgStore::connect(&address).err().expect("nothing listens");
    format!("{refused:#}").replace(&port.to_string(), "{port}")
}

#[test]
fn an_address_is_shown_with_its_password_masked_only_when_it_has_one() {
    let refused = refusal_at("postgres://parlor@127.0.0.1:{port}/hall");
    assert!(
        refused.contains("postgres://parlor@127.0.0.1:{port}/hall:"),
        "{refused}"
    );
    for with_password in [
        "postgres://parlor:secret@127.0.0.1:{port}/hall",
        "postgresql://127.0.0.1:{port}/hall?user=parlor&password=secret",
        "host=127.0.0.1 port={port} user=parlor password='secret' dbname=hall",
    ] {
        let refused = refusal_at(with_password);
        assert!(
            refused.contains("postgres://parlor:…@127.0.0.1:{port}/hall:"),
            "{with_password}: {refused}"
        );
        assert!(!refused.contains("secret"), "{with_password}: {refused}");
    }
    let unparsed = format!(
        "{:#}",
        PgStore::connect("postgres://parlor:secret@db:port/x")
            .err()
            .unwrap()
    );
    assert!(unparsed.contains("not a PostgreSQL address"), "{unparsed}");
    assert!(!unparsed.contains("secret"), "{unparsed}");
}

#[test]
fn a_failed_connection_is_said_once() {
    let refused = refusal_at("postgres://parlor@127.0.0.1:{port}/hall");
    assert_eq!(
        refused.matches("error connecting to server").count(),
        1,
        "{refused}"
    );
    assert!(!refused.contains("creating a new object"), "{refused}");
    assert!(refused.contains("Connection refused"), "{refused}");
}

/// A new database, made a store of an older layout by `sql`, where `START` stands for a
/// Magnetic Cave game's start as stored; `None` without a test PostgreSQL.
fn older_database(sql: &str) -> Option<TestDatabase> {
    let database = TestDatabase::create()?;
    drop(database.store());
    let start = serde_json::to_string(&GameSetup::Cave.start().unwrap()).unwrap();
    run(&database.url(), &sql.replace("START", &start));
    Some(database)
}

#[test]
fn a_layout_1_database_gets_record_players_and_keeps_its_games() {
    let Some(database) = older_database(
        r#"ALTER TABLE games DROP COLUMN players;
           UPDATE parlor_meta SET value = 1 WHERE name = 'layout';
           INSERT INTO games (game, seats, outcome, start, moves, move_count, finished_at)
           VALUES ('"Cave"', '["ada #0000","bob #1111"]', '"Tie"', 'START', '[]', 0, 1)"#,
    ) else {
        return;
    };
    let store = database.store();
    let old = store.list(None).unwrap();
    assert_eq!(old[0].seats, ["ada #0000", "bob #1111"]);
    assert_eq!(old[0].players, [None, None], "kept no players");
    let mut game = record(vec![cave("a1")]);
    game.players = vec![Some(PlayerId(7)), None];
    let id = store.save(&game).unwrap();
    assert_eq!(
        store.get(id).unwrap().unwrap().summary.players,
        game.players
    );
    drop(store);
    run(
        &database.url(),
        "DO $$ BEGIN
             IF (SELECT value FROM parlor_meta WHERE name = 'layout') <> 3 THEN
                 RAISE EXCEPTION 'layout not raised';
             END IF;
         END $$",
    );
}

#[test]
fn a_layout_2_database_lists_its_stored_games_for_their_players() {
    let Some(database) = older_database(
        r#"DROP TABLE game_players;
           UPDATE parlor_meta SET value = 2 WHERE name = 'layout';
           INSERT INTO games (game, seats, players, outcome, start, moves, move_count,
                              finished_at)
           VALUES ('"Cave"', '["ada #0007","bob"]', '[7,null]', '"Tie"', 'START', '[]', 0, 1)"#,
    ) else {
        return;
    };
    drop(database.store());
    let ada = PlayerId(7).to_string();
    run(
        &database.url(),
        &format!(
            "DO $$ BEGIN
                 IF NOT EXISTS (SELECT 1 FROM game_players WHERE player = '{ada}') THEN
                     RAISE EXCEPTION 'the old game is not listed for its player';
                 END IF;
             END $$"
        ),
    );
}

/// Ends every other session on `database` (as a restart of the database does), then runs
/// `also` on the same session in the same round trip; the session is kept open until the
/// returned sender is dropped.
fn end_sessions_then(database: &TestDatabase, also: &str) -> std::sync::mpsc::Sender<()> {
    let (url, also) = (database.url(), also.to_string());
    let (done, until) = std::sync::mpsc::channel::<()>();
    let (ran, has_run) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build();
        runtime.unwrap().block_on(async {
            let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                .await
                .unwrap();
            let connection = tokio::spawn(connection);
            let statement = format!(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                 WHERE datname = current_database() AND pid <> pg_backend_pid(); {also}"
            );
            client.batch_execute(&statement).await.unwrap();
            ran.send(()).unwrap();
            let _ = until.recv();
            drop(client);
            let _ = connection.await;
        })
    });
    has_run.recv().unwrap();
    done
}

/// How many sessions hold the hall's lock on `database`.
fn hall_lock_holders(database: &TestDatabase) -> i64 {
    let url = database.url();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build();
        runtime.unwrap().block_on(async {
            let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                .await
                .unwrap();
            let connection = tokio::spawn(connection);
            let key = super::hall_lock::HALL_LOCK;
            let holders: i64 = client
                .query_one(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted
                     AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                     AND classid = ($1::bigint >> 32)::oid AND objid = ($1::bigint & 4294967295)::oid",
                    &[&key],
                )
                .await
                .unwrap()
                .get(0);
            drop(client);
            let _ = connection.await;
            holders
        })
    })
    .join()
    .unwrap()
}

#[test]
fn a_server_takes_the_halls_lock_again_when_the_database_let_it_go() {
    let Some(database) = TestDatabase::create() else {
        return;
    };
    let first = database.store();
    drop(end_sessions_then(&database, ""));
    let taken_again = (0..500).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(10));
        hall_lock_holders(&database) == 1
    });
    assert!(taken_again, "the lock is held again");
    // The pool's connections went with the others: a write may fail on one, not after.
    block_on(async {
        let _ = first.insert_room(&cave_room(3)).done().await;
        first.insert_room(&cave_room(4)).done().await.unwrap()
    });
    let refused = format!("{:#}", PgStore::connect(&database.url()).err().unwrap());
    assert!(refused.contains("another Parlor server"), "{refused}");
    let unfinished = first.load_rooms().unwrap();
    let rooms = game_rows(&unfinished);
    assert!(rooms.iter().any(|room| room.id == 4), "written after");
}

#[test]
fn a_server_whose_hall_another_took_while_it_was_away_uses_the_database_no_more() {
    let Some(database) = TestDatabase::create() else {
        return;
    };
    let first = database.store();
    block_on(async { first.insert_room(&cave_room(4)).done().await.unwrap() });
    // Another server's lock, taken before this one's keeper tries again.
    let hall_lock = format!("SELECT pg_advisory_lock({})", super::hall_lock::HALL_LOCK);
    let other = end_sessions_then(&database, &hall_lock);
    let refused = block_on(async { first.insert_room(&cave_room(5)).done().await });
    assert!(refused.is_err(), "no write (the writer logs why)");
    let read = format!("{:#}", first.load_rooms().err().unwrap());
    assert!(read.contains("lost the hall's lock"), "{read}");
    drop(other);
}
