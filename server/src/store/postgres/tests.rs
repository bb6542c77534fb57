//! What only the PostgreSQL store does: refusing a database that is not Parlor's, sharing one
//! database between handles (the way several servers share a hall), and its size.

use super::PgStore;
use super::test_database::{TestDatabase, execute as run};
use crate::store::conformance::{block_on, cave, cave_room, game_rows};

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
