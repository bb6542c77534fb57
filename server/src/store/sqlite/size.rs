//! How much the store holds, against its cap (`Limits::max_store_bytes`): what would only grow
//! it (new rooms, brain imports, an auto match's next rounds) is refused once it is full, while
//! the games under way go on and are stored.
//!
//! The size is the database's pages in use, `(page_count - freelist_count) * page_size`, as
//! the last commit left it (a page still only in the WAL counts). Pages freed by a delete or a
//! smaller brain are reused before the file grows, so freeing space brings the store back under
//! its cap although the file does not shrink. The WAL beside it is not counted: checkpoints
//! keep it to a few tens of MB (`checkpoints.rs`).
//!
//! It is measured after every use of the connection (the writer's batches, and each
//! [`Locked`] guard let go), never on demand, so asking whether the store is full is an atomic
//! read that never waits for the writer.

use std::ops::{Deref, DerefMut};
use std::sync::MutexGuard;
use std::sync::atomic::{AtomicU64, Ordering};

use rusqlite::Connection;
use tracing::{info, warn};

use crate::byte_size::ByteSize;
use crate::store::StoreFull;

/// The store's size as last measured, and its cap (none until [`StoreSize::cap`]).
pub(super) struct StoreSize {
    bytes: AtomicU64,
    max_bytes: AtomicU64,
}

impl StoreSize {
    pub(super) fn uncapped(connection: &Connection) -> StoreSize {
        let size = StoreSize {
            bytes: AtomicU64::new(0),
            max_bytes: AtomicU64::new(u64::MAX),
        };
        size.measure(connection);
        size
    }

    pub(super) fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    pub(super) fn cap(&self, max_bytes: u64) {
        self.max_bytes.store(max_bytes, Ordering::Relaxed);
        let bytes = self.bytes();
        if bytes >= max_bytes {
            warn!(
                size = %ByteSize(bytes),
                cap = %ByteSize(max_bytes),
                "the store is full from the start: new rooms and brain imports are refused"
            );
        }
    }

    pub(super) fn check_not_full(&self) -> Result<(), StoreFull> {
        let max_bytes = self.max_bytes.load(Ordering::Relaxed);
        match self.bytes() < max_bytes {
            true => Ok(()),
            false => Err(StoreFull { max_bytes }),
        }
    }

    /// Measures the store through `connection` (outside any transaction of its own), and
    /// logs when that takes it over its cap or back under it. A failed measure keeps the last.
    pub(super) fn measure(&self, connection: &Connection) {
        let measured = connection
            .prepare_cached(
                "SELECT (page_count - freelist_count) * page_size
                 FROM pragma_page_count(), pragma_freelist_count(), pragma_page_size()",
            )
            .and_then(|mut statement| statement.query_row([], |row| row.get::<_, i64>(0)));
        let bytes = match measured {
            Ok(bytes) => bytes.max(0) as u64,
            Err(error) => return warn!(%error, "could not measure the store"),
        };
        let before = self.bytes.swap(bytes, Ordering::Relaxed);
        let max_bytes = self.max_bytes.load(Ordering::Relaxed);
        if before < max_bytes && bytes >= max_bytes {
            warn!(
                size = %ByteSize(bytes),
                cap = %ByteSize(max_bytes),
                "the store is full: new rooms and brain imports are refused until it has room \
                 (free some, or raise --max-store-bytes)"
            );
        } else if before >= max_bytes && bytes < max_bytes {
            info!(size = %ByteSize(bytes), cap = %ByteSize(max_bytes), "the store has room again");
        }
    }
}

/// The store's connection, locked; its size is measured again as it is let go, so whatever
/// wrote through it (an import, a reset, a delete) counts at once.
pub(super) struct Locked<'a> {
    connection: MutexGuard<'a, Connection>,
    size: &'a StoreSize,
}

impl<'a> Locked<'a> {
    pub(super) fn new(connection: MutexGuard<'a, Connection>, size: &'a StoreSize) -> Self {
        Locked { connection, size }
    }
}

impl Deref for Locked<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        &self.connection
    }
}

impl DerefMut for Locked<'_> {
    fn deref_mut(&mut self) -> &mut Connection {
        &mut self.connection
    }
}

impl Drop for Locked<'_> {
    fn drop(&mut self) {
        // Transactions borrow the guard, so theirs are over: this measures what was committed.
        self.size.measure(&self.connection);
    }
}

#[cfg(test)]
mod tests {
    use super::super::SqliteStore;
    use super::super::writer;

    #[test]
    fn the_store_is_full_at_its_cap_and_has_room_again_once_space_is_freed() {
        let store = SqliteStore::in_memory().unwrap();
        let empty = store.size_bytes();
        assert!(empty > 0, "an empty store has its tables");
        let cap = empty + 64 * 1024;
        store.cap_size(cap);
        store.check_not_full().unwrap();
        (store.lock())
            .execute_batch(
                "CREATE TABLE filler (x BLOB); INSERT INTO filler VALUES (zeroblob(100000));",
            )
            .unwrap();
        assert!(store.size_bytes() > cap, "{} bytes", store.size_bytes());
        let full = store.check_not_full().unwrap_err();
        assert_eq!(full.max_bytes, cap);
        let cap_shown = crate::byte_size::ByteSize(cap).to_string();
        assert!(full.to_string().contains(&cap_shown), "{full}");
        // The file keeps its pages, free for what comes next: they no longer count.
        (store.lock()).execute("DELETE FROM filler", []).unwrap();
        store.check_not_full().unwrap();
        assert!(store.size_bytes() < cap);
    }

    #[tokio::test]
    async fn what_the_writer_stores_counts_by_the_time_its_commit_is_answered() {
        let store = SqliteStore::in_memory().unwrap();
        let before = store.size_bytes();
        writer::submit(&store.writer, |connection| {
            connection.execute_batch(
                "CREATE TABLE filler (x BLOB); INSERT INTO filler VALUES (zeroblob(1000000));",
            )?;
            Ok(())
        })
        .done()
        .await
        .unwrap();
        assert!(
            store.size_bytes() >= before + 1_000_000,
            "{before} then {}",
            store.size_bytes()
        );
    }
}
