//! The store in PostgreSQL (`server --store postgres://…`): the same tables as the SQLite
//! store (`schema.rs`), written the same way. A hall's only server holds the hall's lock
//! (`hall_lock.rs`), as one locks a data directory; the nodes of a hall that several
//! servers share own its rooms one by one instead, fenced by epochs (`ownership.rs`).
//!
//! The store runs on a small tokio runtime of its own, so that its blocking calls (made on
//! blocking threads, see `Backend`) never wait on the server's runtime and its writes go on
//! whatever the server's threads do. Room writes go through one writer task that takes what
//! is queued and commits it in one transaction, each write in a savepoint of its own
//! (`writer.rs`), as the SQLite writer does: the writes of one room keep their order, and a
//! write's answer comes only once it is committed.

mod address;
mod backend;
mod brains;
mod hall_lock;
pub mod ownership;
pub use ownership::{Fenced, Node};
mod records;
mod rooms;
mod schema;
#[doc(hidden)]
pub mod test_database;
mod writer;

#[cfg(test)]
mod ownership_tests;
#[cfg(test)]
mod tests;

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow};
use deadpool_postgres::{Manager, ManagerConfig, Pool, PoolError, RecyclingMethod};
use tokio::runtime::Runtime;
use tokio_postgres::NoTls;
use tracing::warn;

use crate::store::StoreFull;

/// How many connections one server keeps to the database at most: the writer's and the
/// blocking calls' (brains, records, restores).
const MAX_CONNECTIONS: usize = 16;
/// How often the store's size is measured at most (after writes).
const MEASURE_EVERY: Duration = Duration::from_secs(1);

/// A handle to a hall's PostgreSQL database.
pub struct PgStore {
    shared: Arc<Shared>,
    writer: writer::Jobs,
}

/// What the store's tasks share.
struct Shared {
    pool: Pool,
    size: Size,
    /// What a cluster node's store owns (`ownership.rs`); `None` for a hall's only server.
    claims: Option<ownership::Claims>,
    /// The hall's lock, held on the store's runtime for as long as the store lives; no
    /// connection is used while it is not held.
    hall_lock: hall_lock::HallLock,
    /// The hall's id, drawn by its first server (`schema::create`).
    hall_id: i64,
    runtime: RuntimeHolder,
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://user:password@host:port/database`) as the
    /// hall's only server, creating Parlor's tables when it has none. A database of another
    /// program, of a newer Parlor, or that another server uses, is refused here, naming why.
    pub fn connect(url: &str) -> anyhow::Result<PgStore> {
        PgStore::open(url, None)
    }

    /// Connects to the database at `url` as one `node` of a hall that several share: rooms
    /// are written only while this node owns them (`ownership.rs`).
    pub fn connect_node(url: &str, node: ownership::Node) -> anyhow::Result<PgStore> {
        PgStore::open(url, Some(node))
    }

    fn open(url: &str, node: Option<ownership::Node>) -> anyhow::Result<PgStore> {
        // Not shown: it failed to parse, so where its password is cannot be told.
        let config: tokio_postgres::Config = url.parse().context(
            "the store's address is not a PostgreSQL address \
             (postgres://user:password@host:port/database)",
        )?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("parlor-postgres")
            .enable_all()
            .build()
            .context("cannot start the store's runtime")?;
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(MAX_CONNECTIONS)
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .wait_timeout(Some(Duration::from_secs(30)))
            .create_timeout(Some(Duration::from_secs(10)))
            .build()
            .context("cannot make the store's connection pool")?;
        let runtime = RuntimeHolder(Some(runtime));
        let setup = {
            let (pool, config, node) = (pool.clone(), config.clone(), node.clone());
            run_on(&runtime, async move {
                let mut client = pooled(&pool).await?;
                let hall = schema::create(&mut client).await?;
                let lock = hall_lock::HallLock::take(&config, node.is_some()).await?;
                // A node holds what it owns from the start (a restarted one, its old rooms).
                if let Some(node) = &node {
                    let lease_ms = i64::try_from(node.lease.as_millis()).unwrap_or(i64::MAX);
                    ownership::renew_lease(&client, &node.id, lease_ms).await?;
                }
                Ok((hall, lock))
            })
        };
        let (hall_id, hall_lock) = setup
            .with_context(|| format!("cannot use the database {}", address::shown(&config)))?;
        let shared = Arc::new(Shared {
            pool,
            size: Size::default(),
            claims: node.map(ownership::Claims::new),
            hall_lock,
            hall_id,
            runtime,
        });
        shared.measure_now();
        let writer = writer::spawn(Arc::clone(&shared));
        Ok(PgStore { shared, writer })
    }
}

impl Shared {
    /// Runs `work` on the store's runtime and waits for it on this thread (never a tokio
    /// worker of the server's: see `Backend`).
    fn run<T: Send + 'static>(
        &self,
        work: impl Future<Output = anyhow::Result<T>> + Send + 'static,
    ) -> anyhow::Result<T> {
        run_on(&self.runtime, work)
    }

    /// A pooled connection, once this server holds the hall's lock (see `hall_lock.rs`).
    async fn connection(&self) -> anyhow::Result<deadpool_postgres::Object> {
        self.hall_lock.wait_held().await?;
        pooled(&self.pool).await
    }

    /// Measures the store's size now, waiting for the answer.
    fn measure_now(&self) {
        let pool = self.pool.clone();
        match self.run(async move { schema::bytes(&*pooled(&pool).await?).await }) {
            Ok(bytes) => self.size.set(bytes),
            Err(error) => warn!(error = format!("{error:#}"), "cannot measure the store"),
        }
    }

    /// Measures the store's size unless it was measured in the last [`MEASURE_EVERY`].
    async fn measure_soon(&self, client: &tokio_postgres::Client) {
        if !self.size.due() {
            return;
        }
        match schema::bytes(client).await {
            Ok(bytes) => self.size.set(bytes),
            Err(error) => warn!(error = format!("{error:#}"), "cannot measure the store"),
        }
    }
}

/// The store's size as last measured, and its cap.
struct Size {
    bytes: AtomicU64,
    max_bytes: AtomicU64,
    measured: std::sync::Mutex<Option<Instant>>,
}

impl Default for Size {
    fn default() -> Size {
        Size {
            bytes: AtomicU64::new(0),
            max_bytes: AtomicU64::new(u64::MAX),
            measured: std::sync::Mutex::new(None),
        }
    }
}

impl Size {
    fn set(&self, bytes: u64) {
        self.bytes.store(bytes, Ordering::Relaxed);
        *crate::lock(&self.measured) = Some(Instant::now());
    }

    fn due(&self) -> bool {
        crate::lock(&self.measured).is_none_or(|at| at.elapsed() >= MEASURE_EVERY)
    }

    fn check_not_full(&self) -> Result<(), StoreFull> {
        let max_bytes = self.max_bytes.load(Ordering::Relaxed);
        match self.bytes.load(Ordering::Relaxed) < max_bytes {
            true => Ok(()),
            false => Err(StoreFull { max_bytes }),
        }
    }
}

/// The store's runtime, shut down without waiting when the last handle goes: dropping a
/// runtime where blocking is not allowed (inside the server's async code) would panic.
struct RuntimeHolder(Option<Runtime>);

impl RuntimeHolder {
    fn get(&self) -> &Runtime {
        self.0
            .as_ref()
            .expect("the runtime lives as long as its holder")
    }
}

impl Drop for RuntimeHolder {
    fn drop(&mut self) {
        if let Some(runtime) = self.0.take() {
            runtime.shutdown_background();
        }
    }
}

/// Runs `work` on `runtime` and waits for it on this thread.
fn run_on<T: Send + 'static>(
    runtime: &RuntimeHolder,
    work: impl Future<Output = anyhow::Result<T>> + Send + 'static,
) -> anyhow::Result<T> {
    let (answer, answered) = std::sync::mpsc::channel();
    runtime.get().spawn(async move {
        let _ = answer.send(work.await);
    });
    answered
        .recv()
        .unwrap_or_else(|_| Err(anyhow!("the store's runtime has stopped")))
}

/// A connection from `pool`. deadpool's error says its cause in its own words and then gives
/// the cause as its source too, so a refused connection read "error connecting to server"
/// twice: the cause alone says it once.
async fn pooled(pool: &Pool) -> anyhow::Result<deadpool_postgres::Object> {
    pool.get().await.map_err(|error| match error {
        PoolError::Backend(cause) => cause.into(),
        other => other.into(),
    })
}
