//! A write's answer, once it is durable: the SQLite writer answers after its transaction
//! committed, the PostgreSQL store after its statement did.

use anyhow::anyhow;
use tokio::sync::oneshot;

/// A write dropped unanswered: its database could not be reached (the PostgreSQL writer drops
/// what it cannot begin to write), or the writer has stopped.
const NOT_WRITTEN: &str =
    "the store could not write it (its database out of reach, or its writer stopped)";

/// Where a write's answer is sent once it is durable.
pub type Answer<T> = oneshot::Sender<anyhow::Result<T>>;

/// A job's answer, once its transaction has committed.
pub struct Pending<T>(oneshot::Receiver<anyhow::Result<T>>);

impl<T> Pending<T> {
    /// A write's answer to come, and where to send it.
    pub fn channel() -> (Answer<T>, Pending<T>) {
        let (answer, pending) = oneshot::channel();
        (answer, Pending(pending))
    }
}

impl<T> Pending<T> {
    /// Waits (asynchronously) for the commit.
    pub async fn done(self) -> anyhow::Result<T> {
        self.0.await.unwrap_or_else(|_| Err(anyhow!(NOT_WRITTEN)))
    }

    /// The answer if it has come, without waiting.
    pub fn try_done(&mut self) -> Option<anyhow::Result<T>> {
        match self.0.try_recv() {
            Ok(result) => Some(result),
            Err(oneshot::error::TryRecvError::Empty) => None,
            Err(oneshot::error::TryRecvError::Closed) => Some(Err(anyhow!(NOT_WRITTEN))),
        }
    }

    /// Waits on a thread outside the async runtime (never on a tokio worker).
    pub fn wait(self) -> anyhow::Result<T> {
        self.0
            .blocking_recv()
            .unwrap_or_else(|_| Err(anyhow!(NOT_WRITTEN)))
    }
}
