//! The store: finished games, rooms in progress with every move, auto matches, and HER's
//! brains. It is the truth after a restart: a room shows a state only once the store has it.
//!
//! One interface, [`Backend`], with the database behind it: SQLite in the data directory
//! (`sqlite/`, the default, one server per store). Rooms, the hall and the requests hold a
//! [`Store`], a cheap handle, and never know which database it is.
//!
//! Reads (and brain imports and resets) block, so async code calls them on a blocking thread;
//! the writes of rooms answer with a [`Pending`] once durable.

mod backend;
pub(crate) mod columns;
#[cfg(test)]
mod conformance;
mod lessons;
mod packed;
mod pending;
pub mod postgres;
mod record_columns;
mod rows;
pub mod sqlite;

use std::path::Path;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use parlor_shared::game::{GameKind, GameMove, GameState, Outcome};
use parlor_shared::identity::PlayerId;

pub use backend::Backend;
pub use pending::Pending;
pub use rows::{
    BrainRow, BrainUse, HerStart, MAX_LISTED_BRAINS, MatchProgress, MatchRound, MatchRow,
    PreparedLesson, RoomRow, StoreFull, StoredRoom, Unfinished,
};

/// How many records `ListRecords` returns at most.
pub const RECORD_LIST_LIMIT: u32 = 200;

/// A cheap handle to the store, whichever database holds it.
#[derive(Clone)]
pub struct Store(Arc<dyn Backend>);

impl Store {
    /// The SQLite store `games.db` in `data_dir` (created if needed), which no other server
    /// may be using (see [`sqlite::SqliteStore::open`]).
    pub fn open(data_dir: &Path) -> anyhow::Result<Store> {
        Ok(Store(Arc::new(sqlite::SqliteStore::open(data_dir)?)))
    }

    /// A store that lives in memory only (tests, throwaway servers).
    pub fn in_memory() -> anyhow::Result<Store> {
        Ok(Store(Arc::new(sqlite::SqliteStore::in_memory()?)))
    }

    /// A store in another database.
    pub fn with(backend: impl Backend) -> Store {
        Store(Arc::new(backend))
    }

    /// A store in another database that the caller keeps using beside it (a cluster node's
    /// claims on rooms go to its PostgreSQL store directly).
    pub fn shared(backend: Arc<impl Backend>) -> Store {
        Store(backend)
    }
}

impl std::ops::Deref for Store {
    type Target = dyn Backend;

    fn deref(&self) -> &(dyn Backend + 'static) {
        &*self.0
    }
}

/// A finished game about to be stored.
#[derive(Clone)]
pub struct NewRecord {
    pub game: GameKind,
    pub seats: Vec<String>,
    /// Who held each seat (`None` for an AI or an empty seat), beside its label.
    pub players: Vec<Option<PlayerId>>,
    pub outcome: Outcome,
    pub start: GameState,
    pub moves: Vec<GameMove>,
}

/// Whether a write was refused because another node of the hall owns its room now: no try
/// again can succeed there (see `postgres::Fenced`).
pub fn taken_elsewhere(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| cause.is::<postgres::Fenced>())
}

/// Seconds since the Unix epoch.
pub(crate) fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod fenced_tests {
    use super::*;

    #[test]
    fn a_fenced_write_is_told_apart_from_one_that_may_succeed_later() {
        let fenced = anyhow::Error::from(postgres::Fenced { room: 3 }).context("storing rounds");
        assert!(taken_elsewhere(&fenced));
        let unreachable = anyhow::anyhow!("the store cannot reach the database");
        assert!(!taken_elsewhere(&unreachable));
    }
}
