//! The AI pool: every search and solve of the AI seats runs here, on a few threads of its own
//! at a lower scheduling priority, never on the tokio workers. On a 2-core machine this keeps
//! the network answering within milliseconds however many rooms are searching: the kernel
//! gives the sockets the cores first.
//!
//! Jobs run in the order they come (FIFO), one per AI room at a time; how many AI rooms exist
//! (and so how long the queue may grow) is capped at room creation (`Limits`).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};

use tokio::sync::oneshot;
use tracing::warn;

type Job = Box<dyn FnOnce() + Send>;

/// How much lower than the server's threads the AI threads run (as in `nice -n`).
const NICENESS: i32 = 10;

struct Pool {
    jobs: mpsc::Sender<Job>,
}

fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| {
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get().max(2));
        for index in 0..threads {
            let queue = Arc::clone(&queue);
            let spawned = std::thread::Builder::new()
                .name(format!("parlor-ai-{index}"))
                .spawn(move || work(&queue));
            if let Err(error) = spawned {
                warn!(%error, "could not start an AI thread");
            }
        }
        Pool { jobs }
    })
}

fn work(queue: &Mutex<mpsc::Receiver<Job>>) {
    lower_priority();
    loop {
        let job = {
            // A receiver is whole after any panic.
            let queue = crate::lock(queue);
            match queue.recv() {
                Ok(job) => job,
                Err(_) => return,
            }
        };
        // A search that panics loses its answer (the room hears `None`), not the thread.
        if catch_unwind(AssertUnwindSafe(job)).is_err() {
            warn!("an AI search panicked");
        }
    }
}

/// Makes the calling thread nicer than the rest of the server (Linux nices threads one by
/// one); auto matches call it too. Failing only costs latency under load, so it is logged, not fatal.
pub(crate) fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: get/setpriority touch no memory of ours; `who` 0 is the calling thread.
        let result = unsafe {
            let now = libc::getpriority(libc::PRIO_PROCESS, 0);
            libc::setpriority(libc::PRIO_PROCESS, 0, (now + NICENESS).min(19))
        };
        if result != 0 {
            warn!(error = %std::io::Error::last_os_error(), "could not lower the AI threads' priority");
        }
    }
}

/// Runs `job` on the AI pool; `None` if it panicked.
pub async fn run<T: Send + 'static>(job: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let (answer, answered) = oneshot::channel();
    let job: Job = Box::new(move || {
        let _ = answer.send(job());
    });
    if pool().jobs.send(job).is_err() {
        return None;
    }
    answered.await.ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn jobs_answer_and_a_panicking_job_does_not_kill_the_pool() {
        assert_eq!(run(|| 6 * 7).await, Some(42));
        assert_eq!(run(|| -> u32 { panic!("search bug") }).await, None);
        let answers = futures_util::future::join_all((0..20).map(|i| run(move || i * 2))).await;
        assert_eq!(answers, (0..20).map(|i| Some(i * 2)).collect::<Vec<_>>());
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn the_pool_runs_at_a_lower_priority() {
        // SAFETY: getpriority only reads the calling thread's niceness.
        let niceness = || unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        let ours = niceness();
        let pool = run(niceness).await.unwrap();
        assert_eq!(pool, (ours + NICENESS).min(19));
    }
}
