//! The PostgreSQL store's one writer of rooms: a task fed by a FIFO channel that takes what is
//! queued (up to [`MAX_BATCH`] jobs) and runs it in one transaction, each job in a savepoint
//! of its own so that a failing job undoes only itself, as the SQLite writer does. A job's
//! answer is sent only after the commit.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use anyhow::anyhow;
use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use tokio::sync::mpsc;
use tokio_postgres::Client;
use tracing::warn;

use super::Shared;
use crate::store::Pending;

/// The most jobs one transaction takes.
const MAX_BATCH: usize = 256;

/// Called once the job's transaction is over, with the commit's error if it failed.
type Reply = Box<dyn FnOnce(Option<&str>) + Send>;
/// A job: runs inside the batch's transaction.
type Work = Box<dyn for<'a> FnOnce(&'a Client) -> BoxFuture<'a, Reply> + Send>;

/// The queue into the writer task.
pub type Jobs = mpsc::UnboundedSender<Work>;

/// Starts the writer on the store's runtime; it ends once every sender of jobs is gone.
pub fn spawn(shared: Arc<Shared>) -> Jobs {
    let (jobs, queue) = mpsc::unbounded_channel();
    let runtime = shared.runtime.get().handle().clone();
    runtime.spawn(run(shared, queue));
    jobs
}

/// Queues `job`; its answer comes once its transaction has committed.
pub fn submit<T, F>(jobs: &Jobs, job: F) -> Pending<T>
where
    T: Send + 'static,
    F: for<'a> FnOnce(&'a Client) -> BoxFuture<'a, anyhow::Result<T>> + Send + 'static,
{
    let (answer, pending) = Pending::channel();
    let work: Work = Box::new(move |client| {
        Box::pin(async move {
            let result = in_savepoint(client, job).await;
            Box::new(move |commit_error: Option<&str>| {
                let result = match commit_error {
                    None => result,
                    Some(error) => Err(anyhow!("the store could not commit: {error}")),
                };
                let _ = answer.send(result);
            }) as Reply
        })
    });
    // If the writer is gone the job is dropped with its sender, and `done` says so.
    let _ = jobs.send(work);
    pending
}

async fn in_savepoint<T, F>(client: &Client, job: F) -> anyhow::Result<T>
where
    F: for<'a> FnOnce(&'a Client) -> BoxFuture<'a, anyhow::Result<T>>,
{
    client.batch_execute("SAVEPOINT job").await?;
    // A job that panics is undone like one that fails, and the writer goes on.
    let result = AssertUnwindSafe(job(client))
        .catch_unwind()
        .await
        .unwrap_or_else(|_| Err(anyhow!("a store job panicked")));
    if result.is_err() {
        client.batch_execute("ROLLBACK TO SAVEPOINT job").await?;
    }
    client.batch_execute("RELEASE SAVEPOINT job").await?;
    result
}

async fn run(shared: Arc<Shared>, mut queue: mpsc::UnboundedReceiver<Work>) {
    while let Some(first) = queue.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(work) => batch.push(work),
                Err(_) => break,
            }
        }
        let client = match shared.connection().await {
            Ok(client) => client,
            Err(error) => {
                // The pool waited for a connection already (`PgStore::connect`). The jobs are
                // dropped with their answers, which then say the writer could not write.
                let error = format!("{error:#}");
                warn!(
                    error,
                    jobs = batch.len(),
                    "the store cannot reach the database"
                );
                continue;
            }
        };
        let began = client.batch_execute("BEGIN").await.is_ok();
        let mut replies = Vec::with_capacity(batch.len());
        for work in batch {
            replies.push(work(&client).await);
        }
        let commit_error = match began {
            true => match client.batch_execute("COMMIT").await {
                Ok(()) => None,
                Err(error) => {
                    let _ = client.batch_execute("ROLLBACK").await;
                    warn!(%error, jobs = replies.len(), "the store could not commit");
                    Some(error.to_string())
                }
            },
            false => Some("the transaction could not begin".to_string()),
        };
        // Before anyone hears of the batch: a room created by it counts at once.
        shared.measure_soon(&client).await;
        drop(client);
        for reply in replies {
            reply(commit_error.as_deref());
        }
    }
}
