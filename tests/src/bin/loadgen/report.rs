//! The figures of a run: a readable table, or one JSON object for scripts.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::server::Memory;
use crate::stats::{Latency, Stats};

pub struct IdleReport {
    pub requested: u64,
    pub held: u64,
    pub connect_failures: u64,
    pub open_seconds: f64,
    pub hold_seconds: u64,
    pub health: Health,
}

pub struct RoomsReport {
    pub rooms: u64,
    pub rooms_ready: u64,
    pub spectators: u64,
    pub ai_rooms: u64,
    pub ai_rooms_ready: u64,
    pub move_rate: f64,
    pub duration: u64,
    pub warmup: u64,
    pub setup_seconds: f64,
    pub window_seconds: f64,
    pub connections_wanted: u64,
    pub connections_held: u64,
    pub connect_failures: u64,
    pub setup_failures: u64,
    pub moves_sent: u64,
    pub moves_accepted: u64,
    pub moves_per_s: f64,
    pub updates: u64,
    pub updates_per_s: f64,
    pub skipped_ticks: u64,
    pub rooms_recreated: u64,
    pub rooms_closed: u64,
    pub ai_games: u64,
    pub latency: Latency,
    pub server_cpu_percent: Option<f64>,
    pub health: Health,
}

/// What both scenarios report besides their own figures: the server's memory, the host's
/// load, and what went wrong.
pub struct Health {
    pub before: Option<Memory>,
    pub after: Option<Memory>,
    pub errors: BTreeMap<String, u64>,
    pub closes: BTreeMap<String, u64>,
    pub first_failure: Option<String>,
    pub load_average: Option<[f64; 3]>,
}

impl Health {
    /// The run's failures as `stats` counted them, the memory measured around it, and the
    /// load now.
    pub fn gather(stats: &Stats, before: Option<Memory>, after: Option<Memory>) -> Health {
        Health {
            before,
            after,
            errors: stats.errors(),
            closes: stats.closes(),
            first_failure: stats.first_failure(),
            load_average: crate::server::load_average(),
        }
    }

    /// Adds the health fields to a scenario's JSON object.
    fn extend_json(&self, value: &mut Value) {
        merge(value, memory_json(self.before, self.after));
        merge(
            value,
            json!({
                "errors": self.errors,
                "closed_by_server": self.closes,
                "first_failure": self.first_failure,
                "load_average": self.load_average,
            }),
        );
    }

    /// The rows after the memory rows and a scenario's own extra ones.
    fn closing_rows(&self) -> Vec<(String, String)> {
        let mut rows = vec![
            ("host load average".into(), load(self.load_average)),
            ("errors".into(), counts(&self.errors)),
            ("closed by the server".into(), counts(&self.closes)),
        ];
        if let Some(failure) = &self.first_failure {
            rows.push(("first failure".into(), failure.clone()));
        }
        rows
    }
}

fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

fn memory_json(before: Option<Memory>, after: Option<Memory>) -> Value {
    json!({
        "server_rss_before_kib": before.map(|m| m.rss_kib),
        "server_rss_after_kib": after.map(|m| m.rss_kib),
        "server_hwm_after_kib": after.map(|m| m.hwm_kib),
    })
}

fn memory_rows(before: Option<Memory>, after: Option<Memory>) -> Vec<(String, String)> {
    match (before, after) {
        (Some(before), Some(after)) => vec![
            ("server RSS before".into(), mib(before.rss_kib)),
            ("server RSS after".into(), mib(after.rss_kib)),
            ("server RSS peak (VmHWM)".into(), mib(after.hwm_kib)),
        ],
        _ => vec![(
            "server memory".into(),
            "unknown (give --server-pid or --spawn-server)".into(),
        )],
    }
}

fn counts(map: &BTreeMap<String, u64>) -> String {
    if map.is_empty() {
        return "none".into();
    }
    map.iter()
        .map(|(key, n)| format!("{key} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn print_rows(title: &str, rows: &[(String, String)]) {
    println!("{title}");
    let width = rows.iter().map(|(name, _)| name.len()).max().unwrap_or(0);
    for (name, value) in rows {
        println!("  {name:<width$}  {value}");
    }
}

impl IdleReport {
    fn per_connection_kib(&self) -> Option<f64> {
        let (before, after) = (self.health.before?, self.health.after?);
        (self.held > 0)
            .then(|| after.rss_kib.saturating_sub(before.rss_kib) as f64 / self.held as f64)
    }

    /// What of the load asked for was not reached: connections not held to the end.
    pub fn shortfall(&self) -> Option<String> {
        (self.held < self.requested).then(|| {
            format!(
                "only {} of the {} connections asked for were held to the end{}",
                self.held,
                self.requested,
                first_failure(&self.health)
            )
        })
    }

    pub fn print(&self, as_json: bool) {
        if as_json {
            let mut value = json!({
                "scenario": "idle",
                "connections_requested": self.requested,
                "connections_held": self.held,
                "connect_failures": self.connect_failures,
                "open_seconds": self.open_seconds,
                "hold_seconds": self.hold_seconds,
                "per_connection_kib": self.per_connection_kib(),
            });
            self.health.extend_json(&mut value);
            println!("{value}");
            return;
        }
        let mut rows = vec![
            (
                "connections held".to_string(),
                format!("{} of {}", self.held, self.requested),
            ),
            ("connect failures".into(), self.connect_failures.to_string()),
            ("time to open".into(), format!("{:.1} s", self.open_seconds)),
        ];
        rows.extend(memory_rows(self.health.before, self.health.after));
        if let Some(per) = self.per_connection_kib() {
            rows.push(("server RSS per connection".into(), format!("{per:.1} KiB")));
        }
        rows.extend(self.health.closing_rows());
        print_rows(
            &format!(
                "idle: {} connections, held {} s",
                self.requested, self.hold_seconds
            ),
            &rows,
        );
    }
}

impl RoomsReport {
    /// What of the load asked for was not reached: rooms (played or AI) not set up.
    pub fn shortfall(&self) -> Option<String> {
        if self.rooms_ready < self.rooms || self.ai_rooms_ready < self.ai_rooms {
            return Some(format!(
                "only {} of {} rooms and {} of {} AI rooms were set up{}",
                self.rooms_ready,
                self.rooms,
                self.ai_rooms_ready,
                self.ai_rooms,
                first_failure(&self.health)
            ));
        }
        // Set up, then lost (a node of the hall died, the server closed them): the load ran
        // smaller than asked for the rest of the run.
        (self.connections_held < self.connections_wanted).then(|| {
            format!(
                "only {} of the {} connections were held to the end{}",
                self.connections_held,
                self.connections_wanted,
                first_failure(&self.health)
            )
        })
    }

    pub fn print(&self, as_json: bool) {
        let latency = self.latency;
        if as_json {
            let mut value = json!({
                "scenario": "rooms",
                "rooms": self.rooms,
                "rooms_ready": self.rooms_ready,
                "spectators_per_room": self.spectators,
                "ai_rooms": self.ai_rooms,
                "ai_rooms_ready": self.ai_rooms_ready,
                "move_rate": self.move_rate,
                "duration_s": self.duration,
                "warmup_s": self.warmup,
                "setup_s": self.setup_seconds,
                "window_s": self.window_seconds,
                "connections_wanted": self.connections_wanted,
                "connections_held": self.connections_held,
                "connect_failures": self.connect_failures,
                "setup_failures": self.setup_failures,
                "moves_sent": self.moves_sent,
                "moves_accepted": self.moves_accepted,
                "moves_per_s": self.moves_per_s,
                "updates": self.updates,
                "updates_per_s": self.updates_per_s,
                "skipped_ticks": self.skipped_ticks,
                "rooms_recreated": self.rooms_recreated,
                "rooms_closed_by_server": self.rooms_closed,
                "ai_games_finished": self.ai_games,
                "latency_samples": latency.samples,
                "latency_ms": {
                    "p50": latency.p50_ms,
                    "p99": latency.p99_ms,
                    "max": latency.max_ms,
                    "mean": latency.mean_ms,
                },
                "server_cpu_percent": self.server_cpu_percent,
            });
            self.health.extend_json(&mut value);
            println!("{value}");
            return;
        }
        let mut rows = vec![
            (
                "rooms ready".to_string(),
                format!(
                    "{} of {} ({} spectators each), AI rooms {} of {}",
                    self.rooms_ready,
                    self.rooms,
                    self.spectators,
                    self.ai_rooms_ready,
                    self.ai_rooms
                ),
            ),
            (
                "connections held".into(),
                format!("{} of {}", self.connections_held, self.connections_wanted),
            ),
            (
                "connect / set-up failures".into(),
                format!("{} / {}", self.connect_failures, self.setup_failures),
            ),
            ("set-up time".into(), format!("{:.1} s", self.setup_seconds)),
            (
                "measured window".into(),
                format!(
                    "{:.1} s (after {} s warm-up)",
                    self.window_seconds, self.warmup
                ),
            ),
            (
                "moves/s (accepted)".into(),
                format!(
                    // Both counted within the window: a move in flight at its start is
                    // accepted in it but was sent before, so accepted may pass sent.
                    "{:.1}  ({} accepted, {} sent in the window; {} move times skipped)",
                    self.moves_per_s, self.moves_accepted, self.moves_sent, self.skipped_ticks
                ),
            ),
            (
                "updates delivered/s".into(),
                format!("{:.1}  ({} states)", self.updates_per_s, self.updates),
            ),
            ("move-to-spectator latency".into(), latency.summary()),
            (
                "rooms recreated / AI games".into(),
                format!("{} / {}", self.rooms_recreated, self.ai_games),
            ),
            (
                "rooms closed by the server".into(),
                format!("{} (each replaced by a new room)", self.rooms_closed),
            ),
        ];
        rows.extend(memory_rows(self.health.before, self.health.after));
        if let Some(cpu) = self.server_cpu_percent {
            rows.push((
                "server CPU (window)".into(),
                format!("{cpu:.0} % of one core"),
            ));
        }
        rows.extend(self.health.closing_rows());
        print_rows(
            &format!(
                "rooms: {} rooms x (2 players + {} spectators), {} moves/s per room, {} s",
                self.rooms, self.spectators, self.move_rate, self.duration
            ),
            &rows,
        );
    }
}

fn load(average: Option<[f64; 3]>) -> String {
    average.map_or("unknown".into(), |[one, five, fifteen]| {
        format!(
            "{one:.2} {five:.2} {fifteen:.2} (1, 5, 15 min; {} cores)",
            cores()
        )
    })
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn merge(into: &mut Value, from: Value) {
    if let (Value::Object(into), Value::Object(from)) = (into, from) {
        into.extend(from);
    }
}

/// "; the first failure: ...", when there was one.
fn first_failure(health: &Health) -> String {
    health
        .first_failure
        .as_ref()
        .map_or(String::new(), |failure| {
            format!("; the first failure: {failure}")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rooms_report(connections_held: u64) -> RoomsReport {
        RoomsReport {
            rooms: 4,
            rooms_ready: 4,
            spectators: 1,
            ai_rooms: 0,
            ai_rooms_ready: 0,
            move_rate: 1.0,
            duration: 10,
            warmup: 1,
            setup_seconds: 0.1,
            window_seconds: 10.0,
            connections_wanted: 12,
            connections_held,
            connect_failures: 0,
            setup_failures: 0,
            moves_sent: 0,
            moves_accepted: 0,
            moves_per_s: 0.0,
            updates: 0,
            updates_per_s: 0.0,
            skipped_ticks: 0,
            rooms_recreated: 0,
            rooms_closed: 0,
            ai_games: 0,
            latency: Latency {
                samples: 0,
                p50_ms: 0.0,
                p99_ms: 0.0,
                max_ms: 0.0,
                mean_ms: 0.0,
            },
            server_cpu_percent: None,
            health: Health {
                before: None,
                after: None,
                errors: BTreeMap::new(),
                closes: BTreeMap::new(),
                first_failure: Some("the server closed the connection".into()),
                load_average: None,
            },
        }
    }

    #[test]
    fn connections_set_up_then_lost_make_the_run_fall_short() {
        assert_eq!(rooms_report(12).shortfall(), None);
        let short = rooms_report(5)
            .shortfall()
            .expect("a smaller load than asked");
        assert!(
            short.contains("only 5 of the 12 connections were held to the end"),
            "{short}"
        );
        assert!(
            short.contains("the server closed the connection"),
            "{short}"
        );
    }
}
