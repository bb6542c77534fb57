//! The tables, as the SQLite store's (`sqlite/tables.rs`, `sqlite/rooms.rs`) with
//! PostgreSQL's types, and the check that a database is a Parlor store before anything is
//! written to it. Several servers may start at once on one new database: the tables are made
//! under an advisory lock.

use anyhow::bail;
use tokio_postgres::{Client, Transaction};

/// The layout this server writes (`parlor_meta.layout`); a newer one is refused. Layout 2
/// keeps each finished game's player ids (`games.players`), layout 3 lists each game for its
/// players (`game_players`, as SQLite's layout 7).
pub const LAYOUT: i64 = 3;

/// The advisory lock key under which the tables are made (any number of Parlor's own).
const SCHEMA_LOCK: i64 = 0x7061_726c_6f72;

/// Parlor's tables, for the size and the check of a foreign database.
pub const TABLES: [&str; 11] = [
    "parlor_meta",
    "counters",
    "games",
    "game_players",
    "brains",
    "brain_sources",
    "rooms",
    "room_moves",
    "match_progress",
    "match_curve",
    "nodes",
];

const SCHEMA: &str = "
    CREATE TABLE IF NOT EXISTS parlor_meta (
        name        TEXT    PRIMARY KEY,
        value       BIGINT  NOT NULL
    );
    CREATE TABLE IF NOT EXISTS counters (
        name        TEXT    PRIMARY KEY,
        value       BIGINT  NOT NULL
    );
    CREATE TABLE IF NOT EXISTS games (
        id          BIGSERIAL PRIMARY KEY,
        game        TEXT    NOT NULL,
        seats       TEXT    NOT NULL,
        outcome     TEXT    NOT NULL,
        start       TEXT    NOT NULL,
        moves       TEXT    NOT NULL,
        move_count  BIGINT  NOT NULL,
        finished_at BIGINT  NOT NULL,
        -- From layout 2 on; NULL in games stored before.
        players     TEXT
    );
    -- Who played each finished game, for a player's own list. From layout 3 on.
    CREATE TABLE IF NOT EXISTS game_players (
        player      TEXT    NOT NULL,
        game        BIGINT  NOT NULL,
        PRIMARY KEY (player, game)
    );
    CREATE TABLE IF NOT EXISTS brains (
        name        TEXT    PRIMARY KEY,
        size        TEXT    NOT NULL,
        mirrors     BOOLEAN NOT NULL,
        -- The brain file packed with LZ4 (store/packed.rs).
        brain       BYTEA   NOT NULL,
        boxes       BIGINT  NOT NULL,
        beads       BIGINT  NOT NULL,
        games       BIGINT  NOT NULL,
        updated_at  BIGINT  NOT NULL,
        revision    BIGINT  NOT NULL DEFAULT 0
    );
    CREATE TABLE IF NOT EXISTS brain_sources (
        name        TEXT    PRIMARY KEY,
        address     TEXT    NOT NULL
    );
    CREATE TABLE IF NOT EXISTS rooms (
        id          BIGINT  PRIMARY KEY,
        game        TEXT    NOT NULL,
        start       TEXT    NOT NULL,
        seats       TEXT    NOT NULL,
        tokens      TEXT    NOT NULL,
        seed        BIGINT  NOT NULL,
        her         TEXT,
        created_at  BIGINT  NOT NULL,
        players     TEXT,
        creator     TEXT,
        unfollowed_since BIGINT,
        address     TEXT,
        -- The node that plays the room and the epoch of its claim (postgres/ownership.rs);
        -- NULL for the only server.
        owner       TEXT,
        epoch       BIGINT  NOT NULL DEFAULT 0
    );
    -- A cluster's nodes and until when (ms, the database's clock) each one's lease on its
    -- rooms holds.
    CREATE TABLE IF NOT EXISTS nodes (
        id          TEXT    PRIMARY KEY,
        lease_until BIGINT  NOT NULL
    );
    CREATE TABLE IF NOT EXISTS room_moves (
        room        BIGINT  NOT NULL,
        ply         BIGINT  NOT NULL,
        move        TEXT    NOT NULL,
        PRIMARY KEY (room, ply)
    );
    CREATE TABLE IF NOT EXISTS match_progress (
        room        BIGINT  PRIMARY KEY,
        progress    TEXT    NOT NULL
    );
    CREATE TABLE IF NOT EXISTS match_curve (
        room        BIGINT  NOT NULL,
        round       BIGINT  NOT NULL,
        point       TEXT    NOT NULL,
        PRIMARY KEY (room, round)
    );";

/// Makes Parlor's tables in a new database, after checking that it is not another program's
/// or a newer Parlor's.
/// Makes the tables if needed; answers the hall's id, drawn at random by the first server to
/// use the database, which names the hall's subjects on the bus (`crate::cluster`), so that
/// halls sharing a NATS server never hear each other.
pub async fn create(client: &mut Client) -> anyhow::Result<i64> {
    let transaction = client.transaction().await?;
    // Not a notice for each table that already exists.
    transaction
        .batch_execute("SET LOCAL client_min_messages = warning")
        .await?;
    transaction
        .execute("SELECT pg_advisory_xact_lock($1)", &[&SCHEMA_LOCK])
        .await?;
    let found: Vec<String> = transaction
        .query(
            "SELECT table_name::text FROM information_schema.tables
             WHERE table_schema = current_schema() ORDER BY table_name",
            &[],
        )
        .await?
        .iter()
        .map(|row| row.get(0))
        .collect();
    let ours = |table: &String| TABLES.contains(&table.as_str());
    if !found.is_empty() && !found.iter().any(ours) {
        let named: Vec<&str> = found.iter().take(5).map(String::as_str).collect();
        bail!(
            "it is not a Parlor store: it holds tables of another program ({}) and none of \
             Parlor's; give the server another database",
            named.join(", ")
        );
    }
    let mut layout = None;
    if found.iter().any(|table| table == "parlor_meta") {
        layout = transaction
            .query_opt("SELECT value FROM parlor_meta WHERE name = 'layout'", &[])
            .await?
            .map(|row| row.get::<_, i64>(0));
        if let Some(layout) = layout.filter(|&layout| layout > LAYOUT) {
            bail!(
                "a newer Parlor wrote it (layout {layout}; this server knows up to {LAYOUT}): \
                 run that version"
            );
        }
    }
    transaction.batch_execute(SCHEMA).await?;
    if let Some(older) = layout.filter(|&layout| layout < LAYOUT) {
        migrate(&transaction, older).await?;
    }
    // The hall's id is drawn here and kept only by the first server to get this far.
    let drawn = i64::from_le_bytes(getrandom::u64()?.to_le_bytes()) & i64::MAX;
    transaction
        .execute(
            "INSERT INTO parlor_meta (name, value) VALUES ('layout', $1), ('hall', $2)
             ON CONFLICT (name) DO NOTHING",
            &[&LAYOUT, &drawn],
        )
        .await?;
    let hall: i64 = transaction
        .query_one("SELECT value FROM parlor_meta WHERE name = 'hall'", &[])
        .await?
        .get(0);
    transaction.commit().await?;
    Ok(hall)
}

/// Brings a database of layout `from` to this one. Nodes of the older layout may still be
/// running: what they write leaves the new columns `NULL`, which the new code reads.
async fn migrate(transaction: &Transaction<'_>, from: i64) -> anyhow::Result<()> {
    if from < 2 {
        transaction
            .batch_execute("ALTER TABLE games ADD COLUMN IF NOT EXISTS players TEXT")
            .await?;
    }
    if from < 3 {
        super::records::index_stored_games(transaction).await?;
    }
    transaction
        .execute(
            "UPDATE parlor_meta SET value = $1 WHERE name = 'layout'",
            &[&LAYOUT],
        )
        .await?;
    Ok(())
}

/// The bytes Parlor's tables take (with their indexes and TOAST).
pub async fn bytes(client: &Client) -> anyhow::Result<u64> {
    let tables: Vec<String> = TABLES.iter().map(|table| table.to_string()).collect();
    let bytes: i64 = client
        .query_one(
            "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint
             FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = current_schema() AND c.relname = ANY($1)",
            &[&tables],
        )
        .await?
        .get(0);
    Ok(bytes.max(0) as u64)
}
