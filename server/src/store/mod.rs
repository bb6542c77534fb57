//! Finished games and HER's brains in SQLite (bundled): one row per game with its moves as
//! JSON, one row per brain with its brain file, so the database stays readable with the
//! `sqlite3` tool and independent of the wire codec.

mod brains;
mod rooms;
mod writer;

pub use brains::{BrainRow, BrainUse};
pub use rooms::{HerStart, MatchProgress, MatchRound, MatchRow, RoomRow, StoredRoom, Unfinished};
pub use writer::Pending;

use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Context;
use parlor_shared::game::{GameKind, GameMove, GameState, Outcome};
use parlor_shared::protocol::{GameRecord, RecordId, RecordSummary};
use rusqlite::{Connection, OptionalExtension, params};
use tracing::info;

/// The store's layout version (SQLite's `user_version`) from which seat tokens are stored as
/// their keys: an older store is migrated once, when it opens.
const SEAT_KEYS_VERSION: i64 = 1;

/// How many records `ListRecords` returns at most.
pub const RECORD_LIST_LIMIT: u32 = 200;

/// A cheap handle to the database. Reads (and brain imports and resets) block, so async code
/// calls them through `spawn_blocking`; the writes of rooms go through the store's one writer
/// thread and answer with a [`Pending`] once committed.
#[derive(Clone)]
pub struct Store {
    connection: Arc<Mutex<Connection>>,
    writer: writer::Jobs,
}

/// A finished game about to be stored.
pub struct NewRecord {
    pub game: GameKind,
    pub seats: Vec<String>,
    pub outcome: Outcome,
    pub start: GameState,
    pub moves: Vec<GameMove>,
}

impl Store {
    /// Opens (creating if needed) `games.db` in `data_dir`.
    pub fn open(data_dir: &Path) -> anyhow::Result<Store> {
        std::fs::create_dir_all(data_dir)
            .with_context(|| format!("cannot create data directory {}", data_dir.display()))?;
        let path = data_dir.join("games.db");
        let connection = Connection::open(&path)
            .with_context(|| format!("cannot open database {}", path.display()))?;
        Store::init(connection)
    }

    /// A store that lives in memory only (tests, throwaway servers).
    pub fn in_memory() -> anyhow::Result<Store> {
        Store::init(Connection::open_in_memory()?)
    }

    fn init(connection: Connection) -> anyhow::Result<Store> {
        connection.execute_batch(
            "PRAGMA journal_mode = WAL;
             PRAGMA synchronous = NORMAL;
             CREATE TABLE IF NOT EXISTS games (
                 id          INTEGER PRIMARY KEY,
                 game        TEXT    NOT NULL,
                 seats       TEXT    NOT NULL,
                 outcome     TEXT    NOT NULL,
                 start       TEXT    NOT NULL,
                 moves       TEXT    NOT NULL,
                 move_count  INTEGER NOT NULL,
                 finished_at INTEGER NOT NULL
             );
             CREATE TABLE IF NOT EXISTS brains (
                 name        TEXT    PRIMARY KEY,
                 size        TEXT    NOT NULL,
                 mirrors     INTEGER NOT NULL,
                 brain       TEXT    NOT NULL,
                 boxes       INTEGER NOT NULL,
                 beads       INTEGER NOT NULL,
                 games       INTEGER NOT NULL,
                 updated_at  INTEGER NOT NULL
             );",
        )?;
        connection.execute_batch(rooms::SCHEMA)?;
        let version: i64 = connection.pragma_query_value(None, "user_version", |row| row.get(0))?;
        if version < SEAT_KEYS_VERSION {
            let hidden = rooms::hide_stored_tokens(&connection)?;
            if hidden > 0 {
                info!(
                    rooms = hidden,
                    "seat tokens in the store replaced by their keys"
                );
            }
            connection.pragma_update(None, "user_version", SEAT_KEYS_VERSION)?;
        }
        let connection = Arc::new(Mutex::new(connection));
        let writer = writer::spawn(Arc::clone(&connection))?;
        Ok(Store { connection, writer })
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave SQLite half-written: it has its own
        // transactions.
        crate::lock(&self.connection)
    }

    /// Drops `table`, so that the writes needing it fail: for tests of what a failed write
    /// does.
    #[cfg(test)]
    pub(crate) fn drop_table(&self, table: &str) {
        (self.lock())
            .execute(&format!("DROP TABLE {table}"), [])
            .expect("a table to drop");
    }

    /// Renames `table`: away, the writes needing it fail; back, they work again. For tests of
    /// what is tried again after a failed write.
    #[cfg(test)]
    pub(crate) fn rename_table(&self, table: &str, to: &str) {
        (self.lock())
            .execute(&format!("ALTER TABLE {table} RENAME TO {to}"), [])
            .expect("a table to rename");
    }

    pub fn save(&self, record: &NewRecord) -> anyhow::Result<RecordId> {
        insert_record(&self.lock(), record)
    }

    /// The newest records first.
    pub fn list(&self) -> anyhow::Result<Vec<RecordSummary>> {
        let connection = self.lock();
        let mut statement = connection.prepare(
            "SELECT id, game, seats, outcome, move_count, finished_at FROM games
             ORDER BY id DESC LIMIT ?1",
        )?;
        let rows = statement.query_map([RECORD_LIST_LIMIT], summary_columns)?;
        rows.map(|row| row?.decode()).collect()
    }

    pub fn get(&self, id: RecordId) -> anyhow::Result<Option<GameRecord>> {
        let connection = self.lock();
        let row = connection
            .query_row(
                "SELECT id, game, seats, outcome, move_count, finished_at, start, moves
                 FROM games WHERE id = ?1",
                [id as i64],
                |row| {
                    Ok((
                        summary_columns(row)?,
                        row.get::<_, String>(6)?,
                        row.get::<_, String>(7)?,
                    ))
                },
            )
            .optional()?;
        row.map(|(summary, start, moves)| {
            Ok(GameRecord {
                summary: summary.decode()?,
                start: serde_json::from_str(&start)?,
                moves: serde_json::from_str(&moves)?,
            })
        })
        .transpose()
    }
}

fn insert_record(connection: &Connection, record: &NewRecord) -> anyhow::Result<RecordId> {
    let finished_at = unix_now();
    connection.execute(
        "INSERT INTO games (game, seats, outcome, start, moves, move_count, finished_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            serde_json::to_string(&record.game)?,
            serde_json::to_string(&record.seats)?,
            serde_json::to_string(&record.outcome)?,
            serde_json::to_string(&record.start)?,
            serde_json::to_string(&record.moves)?,
            record.moves.len() as i64,
            finished_at as i64,
        ],
    )?;
    Ok(connection.last_insert_rowid() as RecordId)
}

/// Seconds since the Unix epoch.
fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The summary columns as read, before their JSON is decoded.
struct RawSummary {
    id: i64,
    game: String,
    seats: String,
    outcome: String,
    moves: i64,
    finished_at: i64,
}

fn summary_columns(row: &rusqlite::Row<'_>) -> rusqlite::Result<RawSummary> {
    Ok(RawSummary {
        id: row.get(0)?,
        game: row.get(1)?,
        seats: row.get(2)?,
        outcome: row.get(3)?,
        moves: row.get(4)?,
        finished_at: row.get(5)?,
    })
}

impl RawSummary {
    fn decode(self) -> anyhow::Result<RecordSummary> {
        Ok(RecordSummary {
            id: self.id as RecordId,
            game: serde_json::from_str(&self.game)?,
            seats: serde_json::from_str(&self.seats)?,
            outcome: serde_json::from_str(&self.outcome)?,
            moves: self.moves as u32,
            finished_at: self.finished_at as u64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
            outcome: Outcome::Won { seat: 1 },
            start: GameSetup::Cave.start().unwrap(),
            moves: moves.clone(),
        };
        let id = Store::open(dir.path()).unwrap().save(&record).unwrap();
        let store = Store::open(dir.path()).unwrap();
        let got = store.get(id).unwrap().unwrap();
        assert_eq!(got.moves, moves);
        assert_eq!(got.start, GameSetup::Cave.start().unwrap());
        assert_eq!(got.summary.outcome, Outcome::Won { seat: 1 });
        assert_eq!(got.summary.moves, 3);
        assert_eq!(store.list().unwrap()[0].id, id);
        assert!(store.get(id + 1000).unwrap().is_none());
    }
}
