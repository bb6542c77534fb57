//! `idle`: N greeted connections held open, each read by its own task so the server's pings
//! are answered; reports how many stayed open and the server's memory per connection.

use std::sync::Arc;
use std::time::{Duration, Instant};

use parlor_shared::protocol::ServerMsg;
use tokio::sync::{Semaphore, watch};

use crate::cli::IdleArgs;
use crate::peer::{self, ConnectError, Event};
use crate::report::{Health, IdleReport};
use crate::server::Target;
use crate::stats::Stats;

const PROGRESS_EVERY: Duration = Duration::from_secs(2);
const HOLD_PROGRESS_EVERY: Duration = Duration::from_secs(10);

pub async fn run(
    target: &mut Target,
    args: &IdleArgs,
    connect_batch: usize,
) -> anyhow::Result<IdleReport> {
    let stats = Arc::new(Stats::new());
    let before = target.memory();
    let (stop_tx, stop_rx) = watch::channel(false);
    let gate = Arc::new(Semaphore::new(connect_batch));
    let started = Instant::now();
    for connection in 0..args.connections {
        let (stats, gate, stop, url) = (
            stats.clone(),
            gate.clone(),
            stop_rx.clone(),
            target.node_url(connection),
        );
        tokio::spawn(async move {
            let permit = gate.acquire_owned().await;
            let socket = peer::connect(&url, "loadgen idle").await;
            drop(permit);
            match socket {
                Ok(socket) => hold(socket, &stats, stop).await,
                Err(error) => {
                    stats.connect_failures.inc();
                    stats.note_failure(error.to_string());
                }
            }
        });
    }
    let wanted = args.connections as u64;
    let mut progress = tokio::time::interval(PROGRESS_EVERY);
    progress.tick().await;
    loop {
        let done = stats.connected.get() + stats.connect_failures.get();
        if done >= wanted {
            break;
        }
        tokio::select! {
            _ = progress.tick() => {
                eprintln!(
                    "loadgen: {:>6} / {wanted} connections open, {} failed, {:.1} s",
                    stats.open_now(),
                    stats.connect_failures.get(),
                    started.elapsed().as_secs_f64()
                );
                target.check_alive()?;
            }
            _ = tokio::time::sleep(Duration::from_millis(20)) => {}
        }
    }
    let open_seconds = started.elapsed().as_secs_f64();
    if stats.connected.get() == 0 {
        anyhow::bail!(
            "no connection could be opened ({})",
            stats.first_failure().unwrap_or_default()
        );
    }
    eprintln!(
        "loadgen: {} connections open in {open_seconds:.1} s; holding {} s",
        stats.open_now(),
        args.hold
    );
    let hold_end = tokio::time::Instant::now() + Duration::from_secs(args.hold);
    let mut progress = tokio::time::interval_at(
        hold_end - Duration::from_secs(args.hold) + HOLD_PROGRESS_EVERY,
        HOLD_PROGRESS_EVERY,
    );
    loop {
        tokio::select! {
            _ = tokio::time::sleep_until(hold_end) => break,
            _ = progress.tick() => eprintln!(
                "loadgen: holding, {} connections open, {} closed by the server",
                stats.open_now(),
                stats.closes().values().sum::<u64>()
            ),
        }
    }
    target.check_alive()?;
    let after = target.memory();
    let report = IdleReport {
        requested: wanted,
        held: stats.open_now(),
        connect_failures: stats.connect_failures.get(),
        open_seconds,
        hold_seconds: args.hold,
        health: Health::gather(&stats, before, after),
    };
    stats.stop();
    let _ = stop_tx.send(true);
    Ok(report)
}

/// Keeps reading until the server closes the connection or the scenario ends.
async fn hold(mut socket: peer::Socket, stats: &Stats, mut stop: watch::Receiver<bool>) {
    stats.opened();
    loop {
        let event = tokio::select! {
            event = peer::next_event(&mut socket) => event,
            _ = stop.changed() => break,
        };
        match event {
            Event::Message(message) => {
                if let ServerMsg::Error { code, .. } = *message {
                    stats.error(code);
                }
            }
            Event::Closed(code) => {
                stats.server_closed(code);
                break;
            }
        }
    }
    stats.closed();
}

/// Connects once before a scenario, so a missing server or a refused Hello is reported
/// plainly instead of as thousands of failures.
pub async fn preflight(url: &str) -> anyhow::Result<()> {
    match peer::connect(url, "loadgen preflight").await {
        Ok(mut socket) => {
            let _ = socket.close(None).await;
            Ok(())
        }
        Err(error @ ConnectError::Unreachable(_)) => {
            anyhow::bail!("no server at {url}: {error}")
        }
        Err(error) => anyhow::bail!("{url}: {error}"),
    }
}
