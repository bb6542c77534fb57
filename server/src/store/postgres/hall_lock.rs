//! The hall's lock: a PostgreSQL advisory lock a server holds on a session of its own for as
//! long as it uses the database. Two servers on one database would hand out the same room ids
//! and both play every room, so a second one is refused at its start. A cluster's nodes share
//! the lock, which keeps a lone server out while they run and them out while it runs.
//!
//! The database lets go of the lock when the session ends: when the server is killed, and
//! also when the database restarts under a running server. So the session is watched: when
//! it ends, the lock is taken again as soon as the database answers, and the store uses no
//! connection meanwhile (`HallLock::wait_held`). Should another server have taken the lock in
//! between, this one has lost the hall: it stops using the database for good, and says why.

use std::time::Duration;

use anyhow::bail;
use tokio::sync::watch;
use tokio_postgres::{Client, Config, NoTls};
use tracing::{error, info, warn};

/// The advisory lock key a server holds for as long as it uses the database.
pub(super) const HALL_LOCK: i64 = 0x7061_726c_6f73;
/// How long the keeper waits before it tries the database again.
const RETRY: Duration = Duration::from_millis(500);
/// How often the lock's session is asked whether it still answers.
const PING_EVERY: Duration = Duration::from_secs(2);
/// How long a use of the store waits for the lock to be taken again before it fails: long
/// enough for the keeper's next try once the database answers again, and short, since a
/// database that does not answer fails the use anyway (a node's lease renewal included).
const WAIT_FOR_LOCK: Duration = Duration::from_secs(2);

/// Whether this server holds the hall's lock now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LockState {
    Held,
    /// The session ended; the lock is being taken again.
    Retaking,
    /// Another server took the lock while this one was away from the database.
    Lost,
}

/// The hall's lock as its keeper task holds it.
pub struct HallLock {
    state: watch::Receiver<LockState>,
}

impl HallLock {
    /// Takes the lock (`shared` for a cluster's node), refused while another server holds it,
    /// and keeps it on a task of the current runtime for as long as that runtime runs.
    pub async fn take(config: &Config, shared: bool) -> anyhow::Result<HallLock> {
        let session = match lock_session(config, shared).await? {
            Some(session) => session,
            None => bail!(
                "another Parlor server uses this database (a lone server, or the nodes of a \
                 cluster beside a lone server): stop that one first, or give this one a \
                 database of its own"
            ),
        };
        let (state, watched) = watch::channel(LockState::Held);
        tokio::spawn(keep(config.clone(), shared, session, state));
        Ok(HallLock { state: watched })
    }

    /// Waits until the lock is held (at most [`WAIT_FOR_LOCK`] while it is taken again),
    /// or says why the store may not be used.
    pub async fn wait_held(&self) -> anyhow::Result<()> {
        let mut state = self.state.clone();
        let settled = state.wait_for(|state| *state != LockState::Retaking);
        match tokio::time::timeout(WAIT_FOR_LOCK, settled).await {
            Ok(Ok(held)) if *held == LockState::Held => Ok(()),
            Ok(_) => bail!(
                "this server lost the hall's lock: another Parlor server took the database \
                 while it was away; restart this one once that one has stopped"
            ),
            Err(_) => bail!(
                "the database is out of reach (the hall's lock is being taken again since \
                 its session ended)"
            ),
        }
    }
}

/// A session holding the lock, with the task that runs its connection (which ends with
/// the session); `None` when another server holds the lock.
async fn lock_session(
    config: &Config,
    shared: bool,
) -> anyhow::Result<Option<(Client, tokio::task::JoinHandle<()>)>> {
    let (client, connection) = config.connect(NoTls).await?;
    let connection = tokio::spawn(async move {
        if let Err(error) = connection.await {
            warn!(%error, "the session holding the hall's lock has ended");
        }
    });
    let query = match shared {
        true => "SELECT pg_try_advisory_lock_shared($1)",
        false => "SELECT pg_try_advisory_lock($1)",
    };
    let locked: bool = client.query_one(query, &[&HALL_LOCK]).await?.get(0);
    Ok(locked.then_some((client, connection)))
}

/// Waits until `session` ends: its connection closes, or it stops answering (a database
/// host gone without a word leaves the connection open long after its sessions ended).
async fn held_until_it_ends(session: &mut (Client, tokio::task::JoinHandle<()>)) {
    let (client, connection) = session;
    let mut ping = tokio::time::interval(PING_EVERY);
    loop {
        tokio::select! {
            _ = &mut *connection => return,
            _ = ping.tick() => {
                let answer = tokio::time::timeout(PING_EVERY, client.simple_query("SELECT 1"));
                if !matches!(answer.await, Ok(Ok(_))) {
                    return;
                }
            }
        }
    }
}

/// Holds the lock's session until it ends, then takes the lock again on a new one, for as
/// long as the runtime runs, or until another server has taken it.
async fn keep(
    config: Config,
    shared: bool,
    mut session: (Client, tokio::task::JoinHandle<()>),
    state: watch::Sender<LockState>,
) {
    loop {
        // The client stays alive with the session, which holds the lock.
        held_until_it_ends(&mut session).await;
        drop(session);
        state.send_replace(LockState::Retaking);
        warn!("the database let go of the hall's lock: this server takes it again");
        // At once (a session ended by the database's operator, a network fault), then while
        // the database does not answer.
        session = loop {
            match lock_session(&config, shared).await {
                Ok(Some(session)) => break session,
                Ok(None) => {
                    state.send_replace(LockState::Lost);
                    error!(
                        "another Parlor server took the hall's lock while this one was away \
                         from the database: this server no longer uses the database; restart \
                         it once that one has stopped"
                    );
                    return;
                }
                Err(_) => tokio::time::sleep(RETRY).await,
            }
        };
        state.send_replace(LockState::Held);
        info!("this server holds the hall's lock again");
    }
}
