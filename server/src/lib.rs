//! Parlor's server: a tokio WebSocket service with a lobby, one task per room, AI seats that
//! search on blocking threads, and finished games stored in SQLite.
//!
//! The `server` binary wraps [`run`]; the client embeds the same server with
//! [`start_in_background`] when it is given no `--server`.

mod abandon_clock;
mod address_slots;
pub mod ai;
mod audience;
mod big_blocks;
mod brain_quota;
mod brain_transfer;
mod brain_uses;
pub mod byte_size;
pub mod cluster;
mod connection;
mod follows;
mod frame_fit;
pub mod hall;
mod her_match;
pub mod her_seat;
pub mod limits;
pub mod logging;
mod memory_trim;
mod outbox;
pub mod players;
pub mod room;
mod room_caps;
pub mod seat_key;
pub mod source;
pub mod store;
mod store_requests;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use anyhow::Context;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tracing::{debug, info, warn};

use crate::hall::Hall;
pub use crate::limits::Limits;
use crate::store::Store;

/// Polls `done` every 10 ms until it holds; panics with `never` after 5 s (tests of what
/// rooms do in their own time).
#[cfg(test)]
pub(crate) async fn eventually(never: &str, mut done: impl FnMut() -> bool) {
    let mut waited = 0;
    while !done() {
        assert!(waited < 500, "{never}");
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        waited += 1;
    }
}

/// Locks `mutex`, also after a thread panicked while holding it: the server's mutexes guard
/// data a panic cannot leave half-changed (each call site says why), so the server goes on
/// rather than failing every later request.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Where to listen, where to keep data, and what one client may cost.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    pub addr: SocketAddr,
    /// Directory of the game database; `None` keeps everything in memory.
    pub data_dir: Option<PathBuf>,
    /// A PostgreSQL database to keep the hall in instead (`postgres://…`); `data_dir` is then
    /// not used.
    pub store_url: Option<String>,
    pub limits: Limits,
    /// Players who run the hall (`server --operator ID`): they may end any room or match and
    /// delete any brain.
    pub operators: Vec<parlor_shared::identity::PlayerId>,
    /// This server as one node of several sharing the PostgreSQL store `store_url`, over a
    /// NATS bus (`crate::cluster`).
    pub node: Option<cluster::NodeConfig>,
}

impl ServerConfig {
    /// A server on `addr` with the default limits.
    pub fn new(addr: SocketAddr, data_dir: Option<PathBuf>) -> ServerConfig {
        ServerConfig {
            addr,
            data_dir,
            store_url: None,
            limits: Limits::default(),
            operators: Vec::new(),
            node: None,
        }
    }
}

fn open_store(config: &ServerConfig) -> anyhow::Result<Store> {
    let store = match (&config.store_url, &config.data_dir) {
        (Some(url), _) => Store::with(store::postgres::PgStore::connect(url)?),
        (None, Some(dir)) => Store::open(dir)?,
        (None, None) => Store::in_memory()?,
    };
    let cap = config.limits.max_store_bytes;
    store.cap_size(cap);
    // A store full while it holds nothing at all was given a cap below what an empty one
    // takes: it would refuse every room, which is a mistake to say, not to run with.
    if store.check_not_full().is_err() && holds_nothing(&store)? {
        anyhow::bail!(
            "--max-store-bytes {} is less than an empty store takes ({}): every room would be \
             refused; give a larger cap",
            byte_size::ByteSize(cap),
            byte_size::ByteSize(store.size_bytes())
        );
    }
    Ok(store)
}

/// Whether `store` holds no game, room or brain.
fn holds_nothing(store: &Store) -> anyhow::Result<bool> {
    let brains = store.list_brains(parlor_shared::identity::PlayerId(0), true)?;
    Ok(store.list(None)?.is_empty() && store.load_rooms()?.rooms.is_empty() && brains.is_empty())
}

/// Binds the listening socket and opens the store (and joins the cluster, for a node):
/// everything that can fail at start-up.
pub async fn bind(config: &ServerConfig) -> anyhow::Result<(TcpListener, Arc<Hall>)> {
    big_blocks::give_big_blocks_back();
    let listener = TcpListener::bind(config.addr)
        .await
        .with_context(|| format!("cannot listen on {}", config.addr))?;
    let lifetimes = config.limits.room_lifetimes();
    let quotas = brain_quota::BrainQuotas::of(&config.limits);
    let Some(node) = &config.node else {
        let hall = Hall::restore(open_store(config)?, lifetimes)?
            .with_operators(&config.operators)
            .with_brain_quotas(quotas);
        return Ok((listener, Arc::new(hall)));
    };
    // A node restores nothing itself: it takes the rooms nobody holds as it claims them.
    let url = (config.store_url.as_deref())
        .context("a node of a cluster keeps its hall in PostgreSQL: give --store postgres://…")?;
    node.check()?;
    let pg = Arc::new(store::postgres::PgStore::connect_node(
        url,
        store::postgres::Node {
            id: node.id.clone(),
            lease: node.lease,
        },
    )?);
    let store = Store::shared(Arc::clone(&pg));
    store.cap_size(config.limits.max_store_bytes);
    let cluster = cluster::Cluster::join(pg, node, config.limits.clone()).await?;
    let hall = Arc::new(
        Hall::new(store, lifetimes)
            .with_operators(&config.operators)
            .with_brain_quotas(quotas)
            .with_cluster(Arc::clone(&cluster)),
    );
    cluster::start(&hall, &cluster).await?;
    info!(node = %node.id, "joined the hall's cluster");
    Ok((listener, hall))
}

/// How many clients over the connection cap are told so at a time (each for at most
/// `BUSY_REFUSAL_TIME`, in `connection/closing.rs`); more are dropped without a word.
pub const MAX_BUSY_REFUSALS: usize = 64;

/// Accepts connections forever, one task each, up to the connection cap.
pub async fn serve(listener: TcpListener, hall: Arc<Hall>, limits: Limits) -> anyhow::Result<()> {
    info!(addr = %listener.local_addr()?, "listening");
    memory_trim::spawn_trims();
    let limits = Arc::new(limits);
    let slots = Arc::new(address_slots::AddressSlots::default());
    let refusals = Arc::new(Semaphore::new(MAX_BUSY_REFUSALS));
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(error) => {
                // Running out of file descriptors must not end the server; wait and retry.
                warn!(%error, "accept failed");
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let (hall, limits) = (hall.clone(), limits.clone());
        let source = source::source_of(peer.ip(), limits.ipv6_prefix);
        let taken = slots.take(
            source,
            limits.connections_per_address,
            limits.max_connections,
        );
        let full = match taken {
            Ok(slot) => {
                tokio::spawn(async move {
                    connection::serve_connection(stream, peer, hall, limits).await;
                    drop(slot);
                });
                continue;
            }
            Err(full) => full,
        };
        // Over a cap, a client is told so while few others are being told; beyond that it is
        // dropped at once: else a flood of connections would hold a socket each for the
        // handshake's time, past the cap, until accept failed for everyone.
        match refusals.clone().try_acquire_owned() {
            Ok(refusal) => {
                warn!(%peer, ?full, "connection cap reached; turning a client away");
                tokio::spawn(async move {
                    connection::refuse_full(stream, limits, full).await;
                    drop(refusal);
                });
            }
            Err(_) => debug!(%peer, ?full, "connection cap reached; dropping a client"),
        }
    }
}

/// Binds and serves until the process is stopped (SIGTERM or Ctrl-C); a node of a cluster
/// hands its rooms over to the others first. A lone server just stops: every move it
/// acknowledged is stored already, and its rooms are back at the next start.
pub async fn run(config: ServerConfig) -> anyhow::Result<()> {
    let (listener, hall) = bind(&config).await?;
    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    let stopped_by = tokio::select! {
        served = serve(listener, Arc::clone(&hall), config.limits) => return served,
        _ = terminate.recv() => "SIGTERM",
        _ = tokio::signal::ctrl_c() => "Ctrl-C",
    };
    info!(signal = stopped_by, "stopping");
    if let Some(cluster) = hall.cluster() {
        cluster::hand_over(&hall, cluster).await;
    }
    Ok(())
}

/// A server running on its own thread and runtime, as the client embeds it.
pub struct BackgroundServer {
    pub addr: SocketAddr,
    store: Store,
}

impl BackgroundServer {
    pub fn url(&self) -> String {
        format!("ws://{}", self.addr)
    }

    /// For a window or command about to end: copies the store's write-ahead log back into
    /// `games.db`, which alone then holds every write acknowledged (a process that just exits
    /// leaves the last second's writes in the log, safe, but missed by anybody who copies
    /// `games.db` alone), and stops the store taking writes. Rooms and auto matches end with
    /// the process, as after `kill -9`, and carry on at the next start.
    pub fn seal_store(self) {
        if let Err(error) = self.store.seal_for_exit() {
            warn!(%error, "could not copy the store's log back into its database");
        }
    }
}

/// Starts a server on a thread of its own and returns once it listens (or why it cannot).
/// The thread lives until the process ends. Safe to call from inside another runtime.
pub fn start_in_background(config: ServerConfig) -> anyhow::Result<BackgroundServer> {
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("parlor-server".into())
        .spawn(move || {
            let runtime = match tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .thread_name("parlor-server-worker")
                .enable_all()
                .build()
            {
                Ok(runtime) => runtime,
                Err(error) => return drop(ready_tx.send(Err(anyhow::Error::from(error)))),
            };
            runtime.block_on(async move {
                let bound = bind(&config).await.and_then(|(listener, hall)| {
                    let addr = listener.local_addr()?;
                    Ok((listener, hall, addr))
                });
                match bound {
                    Ok((listener, hall, addr)) => {
                        let _ = ready_tx.send(Ok((addr, hall.store.clone())));
                        if let Err(error) = serve(listener, hall, config.limits).await {
                            warn!(%error, "embedded server stopped");
                        }
                    }
                    Err(error) => drop(ready_tx.send(Err(error))),
                }
            });
        })?;
    let (addr, store) = ready_rx
        .recv()
        .context("the server thread ended before listening")??;
    Ok(BackgroundServer { addr, store })
}
