//! Copying the WAL back into `games.db`, beside the writer. SQLite checkpoints by itself in the
//! commit that takes the WAL past 1,000 pages, on the connection that commits: here the
//! store's one writer, where every room's next move waits. An auto match's write of both its
//! brains (15 MB packed on 8x8) made each such commit copy them again. So the writer's
//! connection never checkpoints (`wal_autocheckpoint = 0`), and a thread of its own runs a
//! passive checkpoint, which never blocks the writer, every [`CHECKPOINT_EVERY`].

use std::path::Path;
use std::sync::mpsc::{Sender, channel};
use std::time::Duration;

use anyhow::Context;
use rusqlite::Connection;
use tracing::warn;

/// How often the WAL is copied back: the WAL holds at most about this much time's writes
/// more than it would otherwise.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

/// The checkpointing thread, which ends when this is dropped (with the last handle of the
/// store).
pub struct Checkpoints {
    _stop: Sender<()>,
}

/// Stops `writer` checkpointing in its commits and starts a thread that checkpoints
/// `database` instead.
pub fn take_over(writer: &Connection, database: &Path) -> anyhow::Result<Checkpoints> {
    writer.pragma_update(None, "wal_autocheckpoint", 0)?;
    let checkpointer = Connection::open(database)
        .with_context(|| format!("cannot open {} to checkpoint it", database.display()))?;
    let (stop, stopped) = channel::<()>();
    std::thread::Builder::new()
        .name("parlor-store-checkpoints".into())
        .spawn(move || {
            // Only the sender's drop ends the wait early.
            while stopped
                .recv_timeout(CHECKPOINT_EVERY)
                .is_err_and(is_timeout)
            {
                let passive =
                    checkpointer.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
                if let Err(error) = passive {
                    warn!(%error, "could not checkpoint the store's WAL");
                }
            }
        })?;
    Ok(Checkpoints { _stop: stop })
}

fn is_timeout(error: std::sync::mpsc::RecvTimeoutError) -> bool {
    error == std::sync::mpsc::RecvTimeoutError::Timeout
}

#[cfg(test)]
mod tests {
    use super::super::Store;

    #[tokio::test]
    async fn the_wal_is_copied_back_beside_the_writer_not_in_its_commits() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let autocheckpoint: i64 = (store.lock())
            .pragma_query_value(None, "wal_autocheckpoint", |row| row.get(0))
            .unwrap();
        assert_eq!(autocheckpoint, 0, "the writer's commits do not checkpoint");
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
}
