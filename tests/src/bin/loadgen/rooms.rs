//! `rooms`: played rooms with spectators (and optionally AI rooms searching beside them), set up
//! in batches, then moved on a common schedule; reports rates and move-to-spectator latency.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{Semaphore, watch};
use tokio::task::JoinHandle;

use crate::cli::RoomsArgs;
use crate::driver::{RoomDriver, Schedule};
use crate::report::{Health, RoomsReport};
use crate::server::Target;
use crate::stats::{Counter, Stats};
use crate::watchers::{AiRoom, open_spectator, spawn_spectators};

const PROGRESS_EVERY: Duration = Duration::from_secs(5);
/// Between the end of set-up and the first move.
const LEAD_IN: Duration = Duration::from_millis(500);
/// Send times kept for spectators' states that are late.
const SENT_KEPT: Duration = Duration::from_secs(60);
/// How long the rooms' tasks may take to close their rooms once the run is over.
const CLOSING: Duration = Duration::from_secs(5);

/// A room set up: its spectators' count and the task that plays it.
type ReadyRoom = (usize, JoinHandle<()>);

pub async fn run(
    target: &mut Target,
    args: &RoomsArgs,
    connect_batch: usize,
) -> anyhow::Result<RoomsReport> {
    args.check()?;
    let stats = Arc::new(Stats::new());
    let before = target.memory();
    let (stop_tx, stop_rx) = watch::channel(false);
    let (start_tx, start_rx) = watch::channel(None::<Schedule>);
    let setup_started = Instant::now();

    // The tasks that play or watch a room of ours, each closing it when the run stops.
    let mut room_tasks: Vec<JoinHandle<()>> = Vec::new();
    let mut ai_ready = 0;
    for ai_room in 0..args.ai_rooms {
        match AiRoom::open(&target.node_url(ai_room), &stats, args.ai_move_ms).await {
            Ok(room) => {
                room_tasks.push(tokio::spawn(room.run(stats.clone(), stop_rx.clone())));
                ai_ready += 1;
            }
            Err(error) => {
                stats.setup_failures.inc();
                stats.note_failure(format!("AI room: {error:#}"));
            }
        }
    }

    let per_room = 2 + args.spectators;
    let gate = Arc::new(Semaphore::new((connect_batch / per_room).max(1)));
    let ready = Arc::new(Counter::default());
    let setups: Vec<JoinHandle<Option<ReadyRoom>>> = (0..args.rooms)
        .map(|index| {
            // Across several nodes, each room's players and spectators are each on the next
            // node: most of what a room says crosses the bus.
            let urls: Vec<String> = (0..per_room).map(|k| target.node_url(index + k)).collect();
            let (stats, gate, ready, args) =
                (stats.clone(), gate.clone(), ready.clone(), args.clone());
            let (start, stop) = (start_rx.clone(), stop_rx.clone());
            tokio::spawn(async move {
                let _permit = gate.acquire_owned().await.ok()?;
                let setup = async {
                    let driver = RoomDriver::open(
                        [&urls[0], &urls[1]],
                        stats.clone(),
                        index,
                        args.rooms,
                        args.seed,
                    )
                    .await?;
                    let mut spectators = Vec::with_capacity(args.spectators);
                    for url in &urls[2..] {
                        spectators.push(open_spectator(url, &stats, driver.room()).await?);
                    }
                    anyhow::Ok((driver, spectators))
                };
                match setup.await {
                    Ok((driver, spectators)) => {
                        let count = spectators.len();
                        spawn_spectators(spectators, driver.rooms(), &stats, &stop);
                        let playing = tokio::spawn(driver.run(start, stop));
                        ready.inc();
                        Some((count, playing))
                    }
                    Err(error) => {
                        stats.setup_failures.inc();
                        stats.note_failure(format!("set-up of room #{index}: {error:#}"));
                        None
                    }
                }
            })
        })
        .collect();
    let mut progress = tokio::time::interval(PROGRESS_EVERY);
    progress.tick().await;
    let mut rooms_ready = 0;
    let mut spectators_ready = 0;
    for setup in setups {
        let mut setup = setup;
        loop {
            tokio::select! {
                done = &mut setup => {
                    if let Ok(Some((spectators, playing))) = done {
                        rooms_ready += 1;
                        spectators_ready += spectators;
                        room_tasks.push(playing);
                    }
                    break;
                }
                _ = progress.tick() => {
                    eprintln!(
                        "loadgen: set-up {} / {} rooms ready, {} connections open, {:.1} s",
                        ready.get(),
                        args.rooms,
                        stats.open_now(),
                        setup_started.elapsed().as_secs_f64()
                    );
                    target.check_alive()?;
                }
            }
        }
    }
    let setup_seconds = setup_started.elapsed().as_secs_f64();
    if rooms_ready == 0 {
        close_rooms(&stop_tx, room_tasks).await;
        anyhow::bail!(
            "no room could be set up ({})",
            stats.first_failure().unwrap_or_default()
        );
    }
    eprintln!(
        "loadgen: {rooms_ready} rooms ({spectators_ready} spectators) and {ai_ready} AI rooms \
         ready in {setup_seconds:.1} s, {} connections open; playing {} s",
        stats.open_now(),
        args.duration
    );

    let period = Duration::from_secs_f64(1.0 / args.move_rate);
    let first = tokio::time::Instant::now() + LEAD_IN;
    let _ = start_tx.send(Some(Schedule { first, period }));
    let warmup_end = first + Duration::from_secs(args.warmup);
    let end = first + Duration::from_secs(args.duration);
    let mut last = stats.snapshot();
    let mut last_cpu = target.cpu_seconds();
    let mut window_start = None;
    let mut cpu_start = None;
    let mut progress = tokio::time::interval_at(first + PROGRESS_EVERY, PROGRESS_EVERY);
    loop {
        let measuring = window_start.is_some();
        tokio::select! {
            _ = tokio::time::sleep_until(warmup_end), if !measuring => {
                stats.set_measuring(true);
                stats.latency_interval();
                window_start = Some(stats.snapshot());
                cpu_start = target.cpu_seconds();
            }
            _ = tokio::time::sleep_until(end), if measuring => break,
            _ = progress.tick() => {
                let now = stats.snapshot();
                let (moves, updates) = now.rates_since(&last);
                let latency = stats.latency_interval();
                let cpu = target.cpu_seconds();
                let cpu_percent = cpu.zip(last_cpu).map_or(String::new(), |(cpu, last_cpu)| {
                    format!("  server CPU {:.0} %", (cpu - last_cpu) / now.seconds_since(&last) * 100.0)
                });
                eprintln!(
                    "loadgen: {:>4.0} s  {} open  {moves:.0} moves/s  {updates:.0} updates/s  \
                     latency p50 {:.1} p99 {:.1} max {:.1} ms ({} samples)  {} errors{cpu_percent}",
                    now.at.saturating_duration_since(first.into_std()).as_secs_f64(),
                    stats.open_now(),
                    latency.p50_ms,
                    latency.p99_ms,
                    latency.max_ms,
                    latency.samples,
                    stats.errors().values().sum::<u64>()
                );
                last = now;
                last_cpu = cpu;
                stats.prune_sent(SENT_KEPT);
                target.check_alive()?;
            }
        }
    }
    stats.stop();
    let window_end = stats.snapshot();
    let cpu_end = target.cpu_seconds();
    let window_start = window_start.unwrap_or(window_end);
    let after = target.memory();
    let (moves_per_s, updates_per_s) = window_end.rates_since(&window_start);
    let window_seconds = window_end.seconds_since(&window_start);
    let report = RoomsReport {
        rooms: args.rooms as u64,
        rooms_ready,
        spectators: args.spectators as u64,
        ai_rooms: args.ai_rooms as u64,
        ai_rooms_ready: ai_ready,
        move_rate: args.move_rate,
        duration: args.duration,
        warmup: args.warmup,
        setup_seconds,
        window_seconds,
        connections_wanted: (args.rooms * per_room + args.ai_rooms) as u64,
        connections_held: stats.open_now(),
        connect_failures: stats.connect_failures.get(),
        setup_failures: stats.setup_failures.get(),
        moves_sent: window_end.moves_sent - window_start.moves_sent,
        moves_accepted: window_end.moves_accepted - window_start.moves_accepted,
        moves_per_s,
        updates: window_end.states - window_start.states,
        updates_per_s,
        skipped_ticks: stats.skipped_ticks.get(),
        rooms_recreated: stats.rooms_recreated.get(),
        rooms_closed: stats.rooms_closed.get(),
        ai_games: stats.ai_games.get(),
        latency: stats.latency(),
        server_cpu_percent: cpu_start
            .zip(cpu_end)
            .map(|(start, end)| (end - start) / window_seconds.max(1e-9) * 100.0),
        health: Health::gather(&stats, before, after),
    };
    close_rooms(&stop_tx, room_tasks).await;
    Ok(report)
}

/// Stops the rooms' tasks and waits (a while) for each to close its room.
async fn close_rooms(stop: &watch::Sender<bool>, room_tasks: Vec<JoinHandle<()>>) {
    let _ = stop.send(true);
    let closing = futures_util::future::join_all(room_tasks);
    if tokio::time::timeout(CLOSING, closing).await.is_err() {
        eprintln!("loadgen: some rooms were not closed within {CLOSING:?}: the hall ends them");
    }
}
