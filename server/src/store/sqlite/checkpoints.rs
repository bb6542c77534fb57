//! Copying the WAL back into `games.db`, mostly beside the writer. SQLite checkpoints by itself
//! in the commit that takes the WAL past 1,000 pages, on the connection that commits: here the
//! store's one writer, where every room's next move waits. An auto match's write of both its
//! brains (15 MB packed on 8x8) made each such commit copy them again. So a thread of its own
//! runs a passive checkpoint, which never blocks the writer, every [`CHECKPOINT_EVERY`].
//!
//! The writer still checkpoints past [`BACKSTOP_PAGES`], by then mostly copied back: SQLite
//! starts the WAL over only when a write begins with every page copied back, which a checkpoint
//! beside a busy writer never sees (commits land during it). Without the backstop, 500 moves a
//! second grew the WAL by 160 MB a minute, without end. `journal_size_limit` then gives the
//! file's space back.

use std::path::Path;
use std::sync::Mutex;
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::time::Duration;

use anyhow::Context;
use rusqlite::Connection;
use tracing::warn;

use super::writer::JoinedThread;

/// How often the WAL is copied back.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

/// The writer's own checkpoint, past this many pages of WAL (SQLite's default is 1,000).
pub const BACKSTOP_PAGES: i64 = 10_000;

/// The checkpointing thread. [`Checkpoints::stop`], or dropping this (with the last handle of
/// the store), ends it and waits for it.
pub struct Checkpoints {
    /// Dropped to end the thread's wait.
    stop: Mutex<Option<Sender<()>>>,
    thread: Mutex<Option<JoinedThread>>,
}

impl Checkpoints {
    /// Ends the thread and waits for it: no checkpoint runs beside the caller from now on.
    pub fn stop(&self) {
        drop(crate::lock(&self.stop).take());
        drop(crate::lock(&self.thread).take());
    }
}

impl Drop for Checkpoints {
    fn drop(&mut self) {
        self.stop();
    }
}

/// What the WAL file is cut back to once it starts over.
const KEPT_WAL_BYTES: i64 = 16 * 1024 * 1024;

/// Leaves `writer` only the backstop of checkpoints and starts a thread that checkpoints
/// `database` the rest of the time.
pub fn take_over(writer: &Connection, database: &Path) -> anyhow::Result<Checkpoints> {
    writer.pragma_update(None, "wal_autocheckpoint", BACKSTOP_PAGES)?;
    writer.pragma_update(None, "journal_size_limit", KEPT_WAL_BYTES)?;
    let checkpointer = Connection::open(database)
        .with_context(|| format!("cannot open {} to checkpoint it", database.display()))?;
    let (stop, stopped) = channel::<()>();
    let thread = JoinedThread::spawn("parlor-store-checkpoints", move || {
        // Only the sender's drop ends the wait early.
        while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(CHECKPOINT_EVERY) {
            let passive = checkpointer.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
            if let Err(error) = passive {
                warn!(%error, "could not checkpoint the store's WAL");
            }
        }
    })?;
    Ok(Checkpoints {
        stop: Mutex::new(Some(stop)),
        thread: Mutex::new(Some(thread)),
    })
}

/// Copies every page of the WAL back into the database and cuts the WAL to nothing; the
/// database file alone then holds every commit so far. The caller has stopped every other
/// connection's checkpoints (one under way makes this one busy at once, whatever the busy
/// timeout).
pub fn copy_back_whole(connection: &Connection) -> anyhow::Result<()> {
    let busy: i64 =
        connection.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| row.get(0))?;
    anyhow::ensure!(busy == 0, "other connections kept the WAL busy");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::SqliteStore;
    use super::BACKSTOP_PAGES;

    #[tokio::test]
    async fn the_wal_is_copied_back_beside_the_writer_not_in_its_commits() {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteStore::open(dir.path()).unwrap();
        let autocheckpoint: i64 = (store.lock())
            .pragma_query_value(None, "wal_autocheckpoint", |row| row.get(0))
            .unwrap();
        assert_eq!(
            autocheckpoint, BACKSTOP_PAGES,
            "the writer's commits checkpoint rarely"
        );
        let database = dir.path().join("games.db");
        let size = || std::fs::metadata(&database).unwrap().len();
        let before = size();
        // 8 MB, about 2,000 pages: past the 1,000 at which SQLite would checkpoint by itself.
        (store.lock())
            .execute_batch(
                "CREATE TABLE filler (x BLOB); INSERT INTO filler VALUES (zeroblob(8000000));",
            )
            .unwrap();
        crate::eventually("the WAL was never copied back", || {
            size() > before + 7_000_000
        })
        .await;
    }

    #[test]
    fn many_small_commits_do_not_grow_the_wal_without_end() {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteStore::open(dir.path()).unwrap();
        (store.lock())
            .execute_batch("CREATE TABLE filler (x INTEGER)")
            .unwrap();
        // One page a commit, as a room's move is: three times the backstop's pages, while the
        // thread's passive checkpoints copy back behind them.
        for i in 0..3 * BACKSTOP_PAGES {
            super::super::writer::submit(&store.writer, move |connection| {
                connection.execute("INSERT INTO filler VALUES (?1)", [i])?;
                Ok(())
            })
            .wait()
            .unwrap();
        }
        let wal = std::fs::metadata(dir.path().join("games.db-wal"))
            .unwrap()
            .len();
        assert!(
            wal < 2 * BACKSTOP_PAGES as u64 * 4096,
            "the WAL grew to {wal} bytes"
        );
    }
}
