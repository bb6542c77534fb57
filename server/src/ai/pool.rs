//! The AI pool: every search and solve of the AI seats runs here, on threads of its own at a
//! lower scheduling priority, never on the tokio workers. On a 2-core machine this keeps the
//! network answering within milliseconds however many rooms are searching: the kernel gives
//! the sockets the cores first.
//!
//! Jobs run in the order they come (FIFO), one per AI room at a time; how many AI rooms exist
//! (and so how long the queues may grow) is capped at room creation (`Limits`). There are two
//! lanes: game searches get a thread per core, and puzzle solves get one thread of their own.
//! A solve may fill its memory budget (over a gigabyte on a large board with several blanks),
//! so one at a time bounds the server's memory whatever the machine's cores, and a queue of
//! long solves never holds up a game's next move.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};

use tokio::sync::oneshot;
use tracing::warn;

type Job = Box<dyn FnOnce() + Send>;

/// How much lower than the server's threads the AI threads run (as in `nice -n`).
const NICENESS: i32 = 10;

/// Which threads run a job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// A game's search, bounded in time and in memory: a thread per core.
    Search,
    /// A puzzle solve, which may use its whole memory budget: one at a time, server-wide.
    Solve,
}

struct Pool {
    jobs: mpsc::Sender<Job>,
}

impl Pool {
    fn start(name: &str, threads: usize) -> Pool {
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for index in 0..threads {
            let queue = Arc::clone(&queue);
            let spawned = std::thread::Builder::new()
                .name(format!("{name}-{index}"))
                .spawn(move || work(&queue));
            if let Err(error) = spawned {
                warn!(%error, "could not start an AI thread");
            }
        }
        Pool { jobs }
    }
}

fn pool(lane: Lane) -> &'static Pool {
    static SEARCH: OnceLock<Pool> = OnceLock::new();
    static SOLVE: OnceLock<Pool> = OnceLock::new();
    match lane {
        Lane::Search => SEARCH.get_or_init(|| {
            let cores = std::thread::available_parallelism().map_or(2, |n| n.get().max(2));
            Pool::start("parlor-ai", cores)
        }),
        Lane::Solve => SOLVE.get_or_init(|| Pool::start("parlor-solver", 1)),
    }
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

/// Runs `job` on the AI pool's `lane`; `None` if it panicked.
pub async fn run<T: Send + 'static>(
    lane: Lane,
    job: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    let (answer, answered) = oneshot::channel();
    let job: Job = Box::new(move || {
        let _ = answer.send(job());
    });
    if pool(lane).jobs.send(job).is_err() {
        return None;
    }
    answered.await.ok()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn jobs_answer_and_a_panicking_job_does_not_kill_the_pool() {
        for lane in [Lane::Search, Lane::Solve] {
            assert_eq!(run(lane, || 6 * 7).await, Some(42));
            assert_eq!(run(lane, || -> u32 { panic!("search bug") }).await, None);
            let answers =
                futures_util::future::join_all((0..20).map(|i| run(lane, move || i * 2))).await;
            assert_eq!(answers, (0..20).map(|i| Some(i * 2)).collect::<Vec<_>>());
        }
    }

    #[tokio::test]
    async fn solves_run_one_at_a_time_and_never_hold_up_a_search() {
        let (release, held) = mpsc::channel::<()>();
        let first = tokio::spawn(run(Lane::Solve, move || held.recv().is_ok()));
        let search = tokio::time::timeout(Duration::from_secs(10), run(Lane::Search, || 7));
        assert_eq!(
            search.await,
            Ok(Some(7)),
            "a held solve must not delay searches"
        );
        let second = tokio::spawn(run(Lane::Solve, || true));
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(!second.is_finished(), "a second solve ran beside the first");
        release.send(()).unwrap();
        assert_eq!(first.await.unwrap(), Some(true));
        assert_eq!(second.await.unwrap(), Some(true));
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn the_pool_runs_at_a_lower_priority() {
        // SAFETY: getpriority only reads the calling thread's niceness.
        let niceness = || unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        let ours = niceness();
        let pool = run(Lane::Search, niceness).await.unwrap();
        assert_eq!(run(Lane::Solve, niceness).await, Some(pool));
        assert_eq!(pool, (ours + NICENESS).min(19));
    }
}
