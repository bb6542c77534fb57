//! The AI pool: every search and solve of the AI seats runs here, on threads of its own at a
//! lower scheduling priority, never on the tokio workers. On a 2-core machine this keeps the
//! network answering within milliseconds however many rooms are searching: the kernel gives
//! the sockets the cores first.
//!
//! Jobs are shared fairly between the players they work for: each player's jobs wait in order
//! in a queue of their own, and the threads take the players' next jobs in turn (round robin,
//! `FairQueue`). So a player with sixteen AI rooms searching delays another player's search
//! by about one search budget, not sixteen. Each AI room has one job at a time; how many AI
//! rooms exist is capped at room creation (`Limits`). There are two lanes: game searches get
//! a thread per core, and puzzle solves get one thread of their own. A solve may fill its
//! memory cap (`ai::klotski::SOLVE_MEMORY`), so one at a time bounds the server's memory
//! whatever the machine's cores, and a queue of long solves never holds up a game's next move.

mod fair_queue;

use std::net::IpAddr;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, OnceLock};

use parlor_shared::identity::PlayerId;
use tokio::sync::oneshot;
use tracing::warn;

use fair_queue::FairQueue;

type Job = Box<dyn FnOnce() + Send>;

/// Whom a job works for: its room's creator and the address they made the room from. Jobs
/// take turns by address first, then by player (identities cost nothing). A room restored
/// after a restart has no address (its jobs share the turn of the unknown address), and one
/// from before players were known no player (they share one turn, as one player nobody knows:
/// a few rooms left from an older server, which a turn each would let crowd out today's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Owner {
    pub address: Option<IpAddr>,
    pub player: Option<PlayerId>,
}

/// How much lower than the server's threads the AI threads run (as in `nice -n`).
const NICENESS: i32 = 10;

/// Which threads run a job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// A game's search, bounded in time and in memory: a thread per core.
    Search,
    /// A puzzle solve, which may use its whole memory cap: one at a time, server-wide.
    Solve,
}

struct Pool {
    queue: Arc<FairQueue<Option<IpAddr>, Option<PlayerId>, Job>>,
    /// Threads that started: with none, a job queued would never be answered.
    threads: usize,
}

impl Pool {
    fn start(name: &str, threads: usize) -> Pool {
        let queue = Arc::new(FairQueue::new());
        let mut started = 0;
        for index in 0..threads {
            let queue = Arc::clone(&queue);
            let spawned = std::thread::Builder::new()
                .name(format!("{name}-{index}"))
                .spawn(move || work(&queue));
            match spawned {
                Ok(_) => started += 1,
                Err(error) => warn!(%error, "could not start an AI thread"),
            }
        }
        Pool {
            queue,
            threads: started,
        }
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

fn work(queue: &FairQueue<Option<IpAddr>, Option<PlayerId>, Job>) {
    lower_priority();
    loop {
        // A search that panics loses its answer (the room hears `None`), not the thread.
        if catch_unwind(AssertUnwindSafe(queue.pop())).is_err() {
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

/// Queues `job` for `owner` on the AI pool's `lane` at once (not when first awaited); its
/// answer, or `None` if it panicked.
pub fn run<T: Send + 'static>(
    lane: Lane,
    owner: Owner,
    job: impl FnOnce() -> T + Send + 'static,
) -> impl Future<Output = Option<T>> {
    let (answer, answered) = oneshot::channel();
    let pool = pool(lane);
    if pool.threads > 0 {
        pool.queue.push(
            owner.address,
            owner.player,
            Box::new(move || {
                let _ = answer.send(job());
            }),
        );
    }
    // With no thread, `answer` is dropped here and the answer is `None`.
    async move { answered.await.ok() }
}

#[cfg(test)]
mod tests {
    use std::sync::{Mutex, mpsc};
    use std::time::Duration;

    use super::*;

    const NOBODY: Owner = Owner {
        address: None,
        player: None,
    };

    #[tokio::test]
    async fn jobs_answer_and_a_panicking_job_does_not_kill_the_pool() {
        for lane in [Lane::Search, Lane::Solve] {
            assert_eq!(run(lane, NOBODY, || 6 * 7).await, Some(42));
            assert_eq!(
                run(lane, NOBODY, || -> u32 { panic!("search bug") }).await,
                None
            );
            let answers =
                futures_util::future::join_all((0..20).map(|i| run(lane, NOBODY, move || i * 2)))
                    .await;
            assert_eq!(answers, (0..20).map(|i| Some(i * 2)).collect::<Vec<_>>());
        }
    }

    #[tokio::test]
    async fn solves_run_one_at_a_time_and_never_hold_up_a_search() {
        let (release, held) = mpsc::channel::<()>();
        let first = tokio::spawn(run(Lane::Solve, NOBODY, move || held.recv().is_ok()));
        let search = tokio::time::timeout(Duration::from_secs(10), run(Lane::Search, NOBODY, || 7));
        assert_eq!(
            search.await,
            Ok(Some(7)),
            "a held solve must not delay searches"
        );
        let second = tokio::spawn(run(Lane::Solve, NOBODY, || true));
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(!second.is_finished(), "a second solve ran beside the first");
        release.send(()).unwrap();
        assert_eq!(first.await.unwrap(), Some(true));
        assert_eq!(second.await.unwrap(), Some(true));
    }

    #[tokio::test]
    async fn a_players_solve_waits_behind_one_of_a_busy_players_solves_not_all() {
        let owner = |id: u64, at: u8| Owner {
            address: Some(IpAddr::from([10, 255, 0, at])),
            player: Some(PlayerId(id)),
        };
        let (busy, other) = (owner(u64::MAX - 1, 1), owner(u64::MAX - 2, 2));
        let ran = Arc::new(Mutex::new(Vec::new()));
        let logs = |name: String| {
            let ran = Arc::clone(&ran);
            move || crate::lock(&ran).push(name)
        };
        // The busy player's first solve holds the lane's thread while the rest queue behind it.
        let (release, held) = mpsc::channel::<()>();
        let holding = run(Lane::Solve, busy, move || held.recv().is_ok());
        let queued: Vec<_> = (1..=5)
            .map(|job| run(Lane::Solve, busy, logs(format!("busy {job}"))))
            .collect();
        let single = run(Lane::Solve, other, logs("other".into()));
        release.send(()).unwrap();
        assert_eq!(holding.await, Some(true));
        let answers = futures_util::future::join_all(queued).await;
        assert_eq!(answers, [Some(()); 5]);
        assert_eq!(single.await, Some(()));
        let ran = crate::lock(&ran).clone();
        let at = |name: &str| ran.iter().position(|done| done == name).unwrap();
        assert!(at("other") < at("busy 2"), "{ran:?}");
        let busy_order: Vec<usize> = (1..=5).map(|job| at(&format!("busy {job}"))).collect();
        assert!(busy_order.is_sorted(), "{ran:?}");
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn the_pool_runs_at_a_lower_priority() {
        // SAFETY: getpriority only reads the calling thread's niceness.
        let niceness = || unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        let ours = niceness();
        let pool = run(Lane::Search, NOBODY, niceness).await.unwrap();
        assert_eq!(run(Lane::Solve, NOBODY, niceness).await, Some(pool));
        assert_eq!(pool, (ours + NICENESS).min(19));
    }
}
