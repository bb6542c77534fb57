//! The tables of finished games and brains, and the check that a database is a Parlor store
//! before anything is written to it: another program's database would start, then fail every
//! request.

use anyhow::{bail, ensure};
use rusqlite::Connection;

use super::{
    BRAIN_REVISIONS_VERSION, LAYOUT, PLAYERS_VERSION, RECORD_PLAYERS_VERSION, SOURCES_VERSION,
    record_players, rooms,
};

/// Finished games and HER's brains (the rooms in progress are `rooms::SCHEMA`).
pub(super) const SCHEMA: &str = "
    CREATE TABLE IF NOT EXISTS games (
        id          INTEGER PRIMARY KEY,
        game        TEXT    NOT NULL,
        seats       TEXT    NOT NULL,
        outcome     TEXT    NOT NULL,
        start       TEXT    NOT NULL,
        moves       TEXT    NOT NULL,
        move_count  INTEGER NOT NULL,
        finished_at INTEGER NOT NULL,
        -- Each seat's player id, JSON beside `seats`. From layout 6 on, NULL before.
        players     TEXT
    );
    CREATE TABLE IF NOT EXISTS brains (
        name        TEXT    PRIMARY KEY,
        size        TEXT    NOT NULL,
        mirrors     INTEGER NOT NULL,
        brain       TEXT    NOT NULL,
        boxes       INTEGER NOT NULL,
        beads       INTEGER NOT NULL,
        games       INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL,
        revision    INTEGER NOT NULL DEFAULT 0
    );
    -- The source address (crate::source) each brain was made or last imported from, for the
    -- per-address brain quota. Noted when a brain is allowed to be made, before its row may
    -- exist (a game's brain is stored when the game ends), so a note without a brain counts
    -- nothing. From layout 5 on.
    CREATE TABLE IF NOT EXISTS brain_sources (
        name        TEXT    PRIMARY KEY,
        address     TEXT    NOT NULL
    );";

/// Adds `column`, of SQL type `kind`, to `table` of an older store unless it has it already
/// (the layout's number is written after its columns: a migration cut short runs again).
pub(super) fn add_column(
    connection: &Connection,
    table: &str,
    column: &str,
    kind: &str,
) -> anyhow::Result<()> {
    if !column_names(connection, table)?
        .iter()
        .any(|has| has == column)
    {
        connection.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column} {kind}"))?;
    }
    Ok(())
}

/// How many of a foreign database's tables, or a foreign table's columns, a refusal names.
const NAMED: usize = 5;

/// Refuses a database that is not a Parlor store of layout `version`: one with tables but none
/// of Parlor's, or with a table of Parlor's name that lacks one of its columns. An empty
/// database is a new store. Only reads.
pub(super) fn check_parlor_store(database: &Connection, version: i64) -> anyhow::Result<()> {
    // Parlor's tables as this version creates them: the schema itself, so the check cannot
    // drift from it.
    let blueprint = Connection::open_in_memory()?;
    blueprint.execute_batch(SCHEMA)?;
    blueprint.execute_batch(rooms::SCHEMA)?;
    blueprint.execute_batch(record_players::SCHEMA)?;
    let ours = table_names(&blueprint)?;
    let found = table_names(database)?;
    if !found.is_empty() && !found.iter().any(|table| ours.contains(table)) {
        bail!(
            "it is not a Parlor store: it holds tables of another program ({}) and none of \
             Parlor's; give the server another --data",
            first_names(&found)
        );
    }
    // A store of this layout was made with every table: one gone was lost (dropped by hand,
    // a damaged schema), and the schema would make it again, empty, dropping what it held
    // without a word. (A store of an older layout may lack tables its migrations add.)
    let missing: Vec<&String> = ours.iter().filter(|table| !found.contains(table)).collect();
    if version == LAYOUT && !found.is_empty() && !missing.is_empty() {
        let missing: Vec<String> = missing.into_iter().cloned().collect();
        bail!(
            "it is damaged: its table {} is missing (it has {}); restore it from a copy, or \
             give the server another --data",
            missing.join(", "),
            first_names(&found)
        );
    }
    for table in ours.iter().filter(|table| found.contains(table)) {
        let has = column_names(database, table)?;
        let missing: Vec<String> = column_names(&blueprint, table)?
            .into_iter()
            .filter(|column| !has.contains(column) && !added_later(table, column, version))
            .collect();
        ensure!(
            missing.is_empty(),
            "it is not a Parlor store: its table {table} has no column {} (it has {}); give \
             the server another --data",
            missing.join(", "),
            first_names(&has)
        );
    }
    Ok(())
}

/// The first [`NAMED`] of `names`, and how many more there are.
fn first_names(names: &[String]) -> String {
    let mut named = names[..names.len().min(NAMED)].join(", ");
    if names.len() > NAMED {
        named.push_str(&format!(" and {} more", names.len() - NAMED));
    }
    named
}

/// Whether `table.column` is one that the store's migrations add to a store of layout
/// `version` (`Store::init`), so it may be missing yet.
fn added_later(table: &str, column: &str, version: i64) -> bool {
    match (table, column) {
        ("brains", "revision") => version < BRAIN_REVISIONS_VERSION,
        ("rooms", "players" | "creator" | "unfollowed_since") => version < PLAYERS_VERSION,
        ("rooms", "address") => version < SOURCES_VERSION,
        ("games", "players") => version < RECORD_PLAYERS_VERSION,
        _ => false,
    }
}

/// The tables in `database`, without SQLite's own (`sqlite_sequence`, `sqlite_stat1`).
fn table_names(database: &Connection) -> rusqlite::Result<Vec<String>> {
    database
        .prepare(
            "SELECT name FROM sqlite_master
             WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
             ORDER BY name",
        )?
        .query_map([], |row| row.get(0))?
        .collect()
}

fn column_names(database: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    database
        .prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")?
        .query_map([table], |row| row.get(0))?
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn database(sql: &str) -> Connection {
        let database = Connection::open_in_memory().unwrap();
        database.execute_batch(sql).unwrap();
        database
    }

    fn refusal(sql: &str, version: i64) -> String {
        let refused = check_parlor_store(&database(sql), version).unwrap_err();
        refused.to_string()
    }

    #[test]
    fn parlor_stores_of_every_layout_pass_and_new_ones_too() {
        check_parlor_store(&database(""), 0).unwrap();
        check_parlor_store(&database(SCHEMA), 3).unwrap();
        // The first layout: finished games only, then brains without their revision.
        let games_only = SCHEMA.split(";").next().unwrap();
        check_parlor_store(&database(games_only), 0).unwrap();
        let without_revision =
            SCHEMA.replace(",\n        revision    INTEGER NOT NULL DEFAULT 0", "");
        assert_ne!(without_revision, SCHEMA);
        check_parlor_store(&database(&without_revision), 1).unwrap();
        let refused = refusal(&without_revision, 2);
        assert!(
            refused.contains("brains has no column revision"),
            "{refused}"
        );
        // Finished games without their players, as layout 6 adds them.
        let without_players = SCHEMA.replace(
            ",\n        -- Each seat's player id, JSON beside `seats`. From layout 6 on, NULL \
             before.\n        players     TEXT",
            "",
        );
        assert_ne!(without_players, SCHEMA);
        check_parlor_store(&database(&without_players), 5).unwrap();
        let refused = refusal(&format!("{without_players}; {}", rooms::SCHEMA), 6);
        assert!(refused.contains("games has no column players"), "{refused}");
        // SQLite's own tables and one of someone's own beside Parlor's are no reason.
        check_parlor_store(
            &database(&format!("{SCHEMA}; CREATE TABLE notes (text); ANALYZE;")),
            3,
        )
        .unwrap();
    }

    #[test]
    fn another_programs_tables_are_refused_saying_which() {
        let refused = refusal("CREATE TABLE customers (id, name);", 0);
        assert!(refused.contains("not a Parlor store"), "{refused}");
        assert!(refused.contains("(customers)"), "{refused}");
        let many: String = (0..7).map(|n| format!("CREATE TABLE t{n} (x);")).collect();
        let refused = refusal(&many, 0);
        assert!(
            refused.contains("(t0, t1, t2, t3, t4 and 2 more)"),
            "{refused}"
        );
        let refused = refusal("CREATE TABLE games (id, title, price);", 0);
        assert!(
            refused.contains("its table games has no column game, seats, outcome, start"),
            "{refused}"
        );
        assert!(refused.contains("(it has id, title, price)"), "{refused}");
        assert!(refused.contains("another --data"), "{refused}");
    }
}
