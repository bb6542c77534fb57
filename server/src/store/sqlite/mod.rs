//! Finished games and HER's brains in SQLite (bundled): one row per game with its moves as
//! JSON, so the games stay readable with the `sqlite3` tool and independent of the wire codec,
//! and one row per brain with its brain file, packed with LZ4 (`packed.rs`; `client hexapawn
//! brains export` gives the JSON).

mod backend;
mod brains;
mod checkpoints;
mod record_players;
mod rooms;
mod size;
mod tables;
mod wal_header;
mod writer;

use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::{Context, anyhow, bail, ensure};
use parlor_shared::identity::PlayerId;
use parlor_shared::protocol::{GameRecord, RecordId, RecordSummary};
use rusqlite::{Connection, OptionalExtension, params};
use tracing::{info, warn};

use crate::store::record_columns::{OWN_RECORDS_LISTED, RawSummary, RecordColumns, viewer_key};
use crate::store::{NewRecord, RECORD_LIST_LIMIT, StoreFull};

/// The store's layout version (SQLite's `user_version`) from which seat tokens are stored as
/// their keys: an older store is migrated once, when it opens.
const SEAT_KEYS_VERSION: i64 = 1;
/// The layout version from which brains carry a revision (for lessons prepared beside the
/// writer, `brains::PreparedLesson`).
const BRAIN_REVISIONS_VERSION: i64 = 2;
/// The layout version from which brains may be stored packed (`packed.rs`), which servers
/// before it cannot read: they see a BLOB where they expect text.
const PACKED_BRAINS_VERSION: i64 = 3;
/// The layout version from which rooms keep who made them, who took each seat, and since when
/// nobody follows them.
const PLAYERS_VERSION: i64 = 4;
/// The layout version from which rooms and brains keep the source address they were made from
/// (`crate::source`), so the per-address quotas count them across restarts.
pub(crate) const SOURCES_VERSION: i64 = 5;
/// The layout version from which finished games keep each seat's player id beside its label,
/// so a player knows their games after a rename.
const RECORD_PLAYERS_VERSION: i64 = 6;
/// Layout 7: who played each finished game, for each player's own list (`record_players.rs`).
const GAME_PLAYERS_VERSION: i64 = 7;
/// The newest layout, the one this server writes; a store of a newer one is refused.
pub(crate) const LAYOUT: i64 = GAME_PLAYERS_VERSION;

/// A cheap handle to the database. Reads (and brain imports and resets) block, so async code
/// calls them through `spawn_blocking`; the writes of rooms go through the store's one writer
/// thread and answer with a [`Pending`] once committed.
#[derive(Clone)]
pub struct SqliteStore {
    connection: Arc<Mutex<Connection>>,
    /// What it holds, and its cap (see `size.rs`).
    size: Arc<size::StoreSize>,
    writer: writer::Jobs,
    /// Waits for the writer when the last handle goes: after `writer`, the last sender, and
    /// before the lock (fields are dropped in order).
    _writer_thread: Arc<writer::JoinedThread>,
    /// The thread that checkpoints the WAL beside the writer. `None` in memory. Before the
    /// lock: fields are dropped in order, and its connection must be closed first.
    checkpoints: Option<Arc<checkpoints::Checkpoints>>,
    /// The data directory's lock, held while any handle lives: two servers writing one store
    /// would hand out the same room ids and store games twice. `None` in memory.
    _data_dir_lock: Option<Arc<DataDirLock>>,
}

impl SqliteStore {
    /// Opens (creating if needed) `games.db` in `data_dir`, which no other server may be using.
    /// A database that cannot be written, is damaged, was cut off from the data in its WAL,
    /// or is not a Parlor store is refused here, at the start, naming it, rather than losing
    /// writes or failing every request later.
    pub fn open(data_dir: &Path) -> anyhow::Result<SqliteStore> {
        if data_dir.exists() && !data_dir.is_dir() {
            anyhow::bail!(
                "the data directory {} is a file: name a folder (made if missing)",
                data_dir.display()
            );
        }
        let path = data_dir.join("games.db");
        // Before the lock file is made, so that a refused folder is left as it was; SQLite's
        // own words for it ("unable to open database file") do not say what is wrong.
        if path.is_dir() {
            bail!(
                "the database {} is a folder: the server needs a file there (it makes one when \
                 none is there); move the folder away, or give the server another --data",
                path.display()
            );
        }
        std::fs::create_dir_all(data_dir)
            .with_context(|| format!("cannot create data directory {}", data_dir.display()))?;
        let lock = lock_data_dir(data_dir)?;
        // Before SQLite opens it: opening a database of no pages deletes the WAL beside it.
        check_not_truncated(&path)
            .and_then(|()| wal_header::check(&path))
            .with_context(|| format!("cannot use database {}", path.display()))?;
        let connection = Connection::open(&path)
            .with_context(|| format!("cannot open database {}", path.display()))?;
        check_usable(&connection)
            .and_then(|()| checkpoints::take_over(&connection, &path))
            .and_then(|checkpoints| {
                let on_disk = (Arc::new(checkpoints), Arc::new(lock));
                SqliteStore::init(connection, Some(on_disk))
            })
            .with_context(|| format!("cannot use database {}", path.display()))
    }

    /// A store that lives in memory only (tests, throwaway servers).
    pub fn in_memory() -> anyhow::Result<SqliteStore> {
        SqliteStore::init(Connection::open_in_memory()?, None)
    }

    /// `on_disk`: the checkpoint thread and the data directory's lock, for a store in a file.
    fn init(
        connection: Connection,
        on_disk: Option<(Arc<checkpoints::Checkpoints>, Arc<DataDirLock>)>,
    ) -> anyhow::Result<SqliteStore> {
        // Before anything is created in it.
        let version: i64 = connection.pragma_query_value(None, "user_version", |row| row.get(0))?;
        if version > LAYOUT {
            bail!(
                "a newer Parlor wrote it (layout {version}; this server knows up to \
                 {LAYOUT}): run that version, or give this one another --data"
            );
        }
        tables::check_parlor_store(&connection, version)?;
        connection.execute_batch(
            "PRAGMA journal_mode = WAL;
             PRAGMA synchronous = NORMAL;",
        )?;
        connection.execute_batch(tables::SCHEMA)?;
        // A store from before layout 5 gets its rooms' new columns before anything reads them.
        if version < SOURCES_VERSION {
            let has_rooms = connection
                .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'rooms'")?
                .exists([])?;
            if has_rooms {
                rooms::add_missing_columns(&connection)?;
            }
        }
        connection.execute_batch(rooms::SCHEMA)?;
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
        if version < BRAIN_REVISIONS_VERSION {
            let kind = "INTEGER NOT NULL DEFAULT 0";
            tables::add_column(&connection, "brains", "revision", kind)?;
            connection.pragma_update(None, "user_version", BRAIN_REVISIONS_VERSION)?;
        }
        if version < PACKED_BRAINS_VERSION {
            // Nothing to change: text rows are read as they are.
            connection.pragma_update(None, "user_version", PACKED_BRAINS_VERSION)?;
        }
        if version < SOURCES_VERSION {
            // Rooms and brains of older stores keep no address: they count for their player.
            connection.pragma_update(None, "user_version", SOURCES_VERSION)?;
        }
        if version < RECORD_PLAYERS_VERSION {
            // Games stored before keep no player ids (NULL): clients go by their labels.
            tables::add_column(&connection, "games", "players", "TEXT")?;
            connection.pragma_update(None, "user_version", RECORD_PLAYERS_VERSION)?;
        }
        connection.execute_batch(record_players::SCHEMA)?;
        if version < GAME_PLAYERS_VERSION {
            let transaction = connection.unchecked_transaction()?;
            let indexed = record_players::index_stored_games(&transaction)?;
            transaction.pragma_update(None, "user_version", GAME_PLAYERS_VERSION)?;
            transaction.commit()?;
            if indexed > 0 {
                info!(indexed, "stored games listed for their players");
            }
        }
        let size = Arc::new(size::StoreSize::uncapped(&connection));
        let connection = Arc::new(Mutex::new(connection));
        let (writer, writer_thread) = writer::spawn(Arc::clone(&connection), Arc::clone(&size))?;
        let (checkpoints, data_dir_lock) = on_disk.unzip();
        Ok(SqliteStore {
            connection,
            size,
            writer,
            _writer_thread: Arc::new(writer_thread),
            checkpoints,
            _data_dir_lock: data_dir_lock,
        })
    }

    fn lock(&self) -> size::Locked<'_> {
        // A panic while holding the lock cannot leave SQLite half-written: it has its own
        // transactions.
        size::Locked::new(crate::lock(&self.connection), &self.size)
    }

    /// Caps the store's size, for every handle (`Limits::max_store_bytes`; none by default):
    /// once it holds that much, [`Store::check_not_full`] refuses.
    pub fn cap_size(&self, max_bytes: u64) {
        self.size.cap(max_bytes);
    }

    /// Copies the whole WAL back into `games.db` and empties it, once the writer is between
    /// transactions (it holds the connection while it writes), then takes no write: see
    /// `Backend::seal_for_exit`.
    pub fn seal_for_exit(&self) -> anyhow::Result<()> {
        let connection = crate::lock(&self.connection);
        if let Some(checkpoints) = &self.checkpoints {
            checkpoints.stop();
        }
        let copied = checkpoints::copy_back_whole(&connection);
        // Held until the process ends, which it is about to: a write after the copy would put
        // pages in the WAL again, and a checkpoint cut short by the end would leave games.db
        // half written.
        std::mem::forget(connection);
        copied
    }

    /// The bytes the store holds, as its last write left it (see `size.rs`).
    pub fn size_bytes(&self) -> u64 {
        self.size.bytes()
    }

    /// Refuses once the store is at or over its cap: asked before what would only grow it (a
    /// new room, a brain import, an auto match's next rounds), never before a game's moves and
    /// end. Never waits: the size is measured after each write.
    pub fn check_not_full(&self) -> Result<(), StoreFull> {
        self.size.check_not_full()
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
        let connection = self.lock();
        let transaction = connection.unchecked_transaction()?;
        let id = insert_record(&transaction, record)?;
        transaction.commit()?;
        Ok(id)
    }

    /// The newest records first, and `viewer`'s own newest among or after them (see
    /// `record_players.rs`). A row that does not read back is logged and left out, so that
    /// it does not hide the others.
    pub fn list(&self, viewer: Option<PlayerId>) -> anyhow::Result<Vec<RecordSummary>> {
        let connection = self.lock();
        let mut statement = connection.prepare(record_players::LISTED)?;
        let (newest, own) = (RECORD_LIST_LIMIT, OWN_RECORDS_LISTED);
        let rows = statement.query_map(params![newest, viewer_key(viewer), own], |row| {
            Ok((row.get::<_, i64>(0)?, summary_columns(row)))
        })?;
        let mut summaries = Vec::new();
        for row in rows {
            let (id, columns) = row?;
            match columns
                .map_err(anyhow::Error::from)
                .and_then(RawSummary::decode)
            {
                Ok(summary) => summaries.push(summary),
                Err(error) => warn!(
                    record = id,
                    error = format!("{error:#}"),
                    "stored game left out of the list"
                ),
            }
        }
        Ok(summaries)
    }

    pub fn get(&self, id: RecordId) -> anyhow::Result<Option<GameRecord>> {
        let connection = self.lock();
        let row = connection
            .query_row(
                "SELECT id, game, seats, outcome, move_count, finished_at, players, start,
                        moves
                 FROM games WHERE id = ?1",
                [id as i64],
                |row| {
                    Ok((
                        summary_columns(row)?,
                        row.get::<_, String>(7)?,
                        row.get::<_, String>(8)?,
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

/// The data directory's locks, held while the store is open: its lock file, and the folder.
struct DataDirLock {
    _lock_file: File,
    _folder: Option<File>,
}

/// The refusal of a data directory another server holds: a command that embeds a server
/// tells its own way to reach that one (`downcast_ref` finds it).
#[derive(Debug)]
pub struct DataDirInUse(pub PathBuf);

impl std::fmt::Display for DataDirInUse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "another Parlor server uses {}: give this one another --data (or a window, \
             `client --server ADDRESS`, to join that one: a window shows its address in its \
             top bar)",
            self.0.display()
        )
    }
}

impl std::error::Error for DataDirInUse {}

/// Takes `data_dir`'s lock file (`server.lock`), refused while another process holds it. The
/// operating system lets go of it when the process ends, even by `kill -9`. On Unix the
/// folder itself is locked too: a lock file deleted by hand (a new one then locks anew) must
/// not let a second server in.
fn lock_data_dir(data_dir: &Path) -> anyhow::Result<DataDirLock> {
    let path = data_dir.join("server.lock");
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    let folder = cfg!(unix)
        .then(|| File::open(data_dir))
        .transpose()
        .with_context(|| format!("cannot open {}", data_dir.display()))?;
    let locked = (folder.iter())
        .chain([&file])
        .try_for_each(|locked| locked.try_lock());
    match locked {
        Ok(()) => Ok(DataDirLock {
            _lock_file: file,
            _folder: folder,
        }),
        Err(TryLockError::WouldBlock) => Err(DataDirInUse(data_dir.to_path_buf()).into()),
        Err(TryLockError::Error(error)) => {
            Err(error).with_context(|| format!("cannot lock {}", path.display()))
        }
    }
}

/// Refuses a `database` that is empty (0 bytes) or missing while its WAL beside it holds data:
/// the database was truncated, or moved away without its WAL, and SQLite, opening it, would
/// delete the WAL and start an empty store.
fn check_not_truncated(database: &Path) -> anyhow::Result<()> {
    let mut wal = database.as_os_str().to_owned();
    wal.push("-wal");
    let wal = Path::new(&wal);
    let wal_bytes = match file_bytes(wal)? {
        None | Some(0) => return Ok(()),
        Some(bytes) => bytes,
    };
    let state = match file_bytes(database)? {
        Some(0) => "it is empty (0 bytes)",
        None => "it is missing",
        Some(_) => return Ok(()),
    };
    bail!(
        "{state} while its WAL {} holds {wal_bytes} bytes: the database was truncated or moved \
         away without its WAL, and opening it would throw the WAL away. Restore {} from a copy, \
         or move both files away to start with an empty store",
        wal.display(),
        database.display()
    )
}

/// The size of the file at `path`; `None` when there is none.
fn file_bytes(path: &Path) -> anyhow::Result<Option<u64>> {
    match std::fs::metadata(path) {
        Ok(metadata) => Ok(Some(metadata.len())),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// Refuses a database this process can only read (SQLite then opens it read-only and fails
/// each write), a file that is no database, or a database that SQLite finds damaged.
fn check_usable(connection: &Connection) -> anyhow::Result<()> {
    if connection.is_readonly(rusqlite::MAIN_DB)? {
        bail!("it can only be read: check the permissions of the file and of its folder");
    }
    let check: String = connection
        .query_row("PRAGMA quick_check(1)", [], |row| row.get(0))
        .map_err(|error| match error.sqlite_error_code() {
            Some(rusqlite::ErrorCode::NotADatabase) => anyhow!(
                "it is not an SQLite database: if it was Parlor's store, restore it from a copy; \
                 if it is another program's file, give the server another --data"
            ),
            _ => error.into(),
        })?;
    ensure!(
        check == "ok",
        "it is damaged (SQLite's quick_check says: {}); restore it from a copy, or move it \
         away to start with an empty store",
        check.replace('\n', "; ")
    );
    // The write lock every write needs (the -wal and -shm files must be writable too).
    connection
        .execute_batch("BEGIN IMMEDIATE; COMMIT;")
        .context("it cannot be written")
}

fn insert_record(connection: &Connection, record: &NewRecord) -> anyhow::Result<RecordId> {
    let row = RecordColumns::of(record)?;
    connection.execute(
        "INSERT INTO games (game, seats, players, outcome, start, moves, move_count,
                            finished_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            row.game,
            row.seats,
            row.players,
            row.outcome,
            row.start,
            row.moves,
            row.move_count,
            row.finished_at,
        ],
    )?;
    let id = connection.last_insert_rowid() as RecordId;
    record_players::index(connection, id, record)?;
    Ok(id)
}

/// The summary columns of a `games` row, in `record_columns`' order.
fn summary_columns(row: &rusqlite::Row<'_>) -> rusqlite::Result<RawSummary> {
    Ok(RawSummary {
        id: row.get(0)?,
        game: row.get(1)?,
        seats: row.get(2)?,
        outcome: row.get(3)?,
        moves: row.get(4)?,
        finished_at: row.get(5)?,
        players: row.get(6)?,
    })
}

#[cfg(test)]
mod tests;
