//! The store's one writer: a thread fed by a FIFO channel. It takes whatever is queued (up to
//! [`MAX_BATCH`] jobs) and runs it in one transaction (group commit), each job in a savepoint of
//! its own so a failing job undoes only itself. With WAL and `synchronous = NORMAL` a committed
//! transaction survives `kill -9` (not a power cut) without an fsync per commit.
//!
//! Jobs of one room can never be written out of order: the channel is FIFO and one thread
//! writes. A job's answer arrives only after its transaction committed, so a room that awaits
//! it before broadcasting never shows a state that a crash could take back.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use anyhow::anyhow;
use rusqlite::Connection;
use tracing::warn;

use super::size::StoreSize;
use crate::store::Pending;

/// The most jobs one transaction takes.
pub const MAX_BATCH: usize = 1024;

/// Called once the job's transaction is over, with the commit's error if it failed.
type Reply = Box<dyn FnOnce(Option<&str>) + Send>;
/// A job: runs on the writer thread inside the batch's transaction.
pub(super) type Work = Box<dyn FnOnce(&Connection) -> Reply + Send>;

/// The queue into the writer thread.
pub(super) type Jobs = Sender<Work>;

/// One of the store's threads (the writer, the checkpoints), waited for when this is dropped,
/// so that its connection is closed before the store lets go of its data directory. Its
/// owner drops what ends the thread first (the last sender it reads from).
pub(super) struct JoinedThread(Option<JoinHandle<()>>);

impl JoinedThread {
    pub(super) fn spawn(name: &str, work: impl FnOnce() + Send + 'static) -> anyhow::Result<Self> {
        let thread = std::thread::Builder::new().name(name.into()).spawn(work)?;
        Ok(JoinedThread(Some(thread)))
    }
}

impl Drop for JoinedThread {
    fn drop(&mut self) {
        if let Some(thread) = self.0.take()
            // A job that dropped the last handle of the store would wait for itself.
            && thread.thread().id() != std::thread::current().id()
        {
            let _ = thread.join();
        }
    }
}

/// Starts the writer thread on the store's connection; it ends once every sender of jobs is
/// gone, after the jobs queued.
pub(super) fn spawn(
    connection: Arc<Mutex<Connection>>,
    size: Arc<StoreSize>,
) -> anyhow::Result<(Jobs, JoinedThread)> {
    let (jobs, queue) = channel::<Work>();
    let thread = JoinedThread::spawn("parlor-store-writer", move || {
        run(&connection, &size, &queue)
    })?;
    Ok((jobs, thread))
}

/// Queues `job`; its answer comes once its transaction has committed.
pub(super) fn submit<T: Send + 'static>(
    jobs: &Jobs,
    job: impl FnOnce(&Connection) -> anyhow::Result<T> + Send + 'static,
) -> Pending<T> {
    let (answer, pending) = Pending::channel();
    let work: Work = Box::new(move |connection| {
        let result = in_savepoint(connection, job);
        Box::new(move |commit_error: Option<&str>| {
            let result = match commit_error {
                None => result,
                Some(error) => Err(anyhow!("the store could not commit: {error}")),
            };
            let _ = answer.send(result);
        })
    });
    // If the writer is gone the job is dropped with its sender, and `done` says so.
    let _ = jobs.send(work);
    pending
}

fn in_savepoint<T>(
    connection: &Connection,
    job: impl FnOnce(&Connection) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    // Cached statements: a job is often a single small insert.
    connection.prepare_cached("SAVEPOINT job")?.execute([])?;
    // A job that panics is undone like one that fails, and the writer goes on.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(connection)))
        .unwrap_or_else(|_| Err(anyhow!("a store job panicked")));
    if result.is_err() {
        connection.prepare_cached("ROLLBACK TO job")?.execute([])?;
    }
    connection.prepare_cached("RELEASE job")?.execute([])?;
    result
}

fn run(connection: &Mutex<Connection>, size: &StoreSize, queue: &Receiver<Work>) {
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(work) => batch.push(work),
                Err(_) => break,
            }
        }
        // SQLite's own transactions keep it whole after a panic (see `Store::lock`).
        let connection = crate::lock(connection);
        // Outside a transaction (if BEGIN failed) each savepoint commits on its own.
        let began = connection.execute_batch("BEGIN").is_ok();
        let replies: Vec<Reply> = batch.into_iter().map(|work| work(&connection)).collect();
        let commit_error = if began {
            connection.execute_batch("COMMIT").err().map(|error| {
                let _ = connection.execute_batch("ROLLBACK");
                warn!(%error, jobs = replies.len(), "the store could not commit");
                error.to_string()
            })
        } else {
            None
        };
        // Before anyone hears of the batch: a room created by it counts at once.
        size.measure(&connection);
        drop(connection);
        for reply in replies {
            reply(commit_error.as_deref());
        }
    }
}
