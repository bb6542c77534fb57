//! Counters shared by every connection task, and the latency histogram.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use parlor_shared::protocol::RoomId;

/// Latency samples above this (in microseconds) are clamped into the top bucket.
const LATENCY_CEILING_US: u64 = 60_000_000;

#[derive(Default)]
pub struct Counter(AtomicU64);

impl Counter {
    pub fn add(&self, n: u64) {
        self.0.fetch_add(n, Ordering::Relaxed);
    }

    pub fn inc(&self) {
        self.add(1);
    }

    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

pub struct Stats {
    /// Connections open right now (a gauge).
    open: AtomicI64,
    pub connected: Counter,
    pub connect_failures: Counter,
    /// `State` messages received by all connections.
    pub states: Counter,
    pub moves_sent: Counter,
    /// Moves the server accepted: room versions seen advancing.
    pub moves_accepted: Counter,
    /// Move times that came while the previous move was still unanswered, so no move was sent.
    pub skipped_ticks: Counter,
    pub rooms_recreated: Counter,
    /// Rooms the server closed under their players or watchers (an operator's `CloseRoom`),
    /// each replaced by a new room.
    pub rooms_closed: Counter,
    pub ai_games: Counter,
    pub setup_failures: Counter,
    errors: Mutex<BTreeMap<String, u64>>,
    closes: Mutex<BTreeMap<String, u64>>,
    /// When each move was sent, by room and the version it makes.
    sent: Mutex<HashMap<(RoomId, u64), Instant>>,
    measuring: AtomicBool,
    /// Two histograms: the whole measured window, and since the last progress line.
    latency: Mutex<[Histogram<u64>; 2]>,
    /// Set once the scenario is over: connections closing now are not failures.
    stopping: AtomicBool,
    first_error: Mutex<Option<String>>,
}

impl Stats {
    pub fn new() -> Stats {
        Stats {
            open: AtomicI64::new(0),
            connected: Counter::default(),
            connect_failures: Counter::default(),
            states: Counter::default(),
            moves_sent: Counter::default(),
            moves_accepted: Counter::default(),
            skipped_ticks: Counter::default(),
            rooms_recreated: Counter::default(),
            rooms_closed: Counter::default(),
            ai_games: Counter::default(),
            setup_failures: Counter::default(),
            errors: Mutex::default(),
            closes: Mutex::default(),
            sent: Mutex::default(),
            measuring: AtomicBool::new(false),
            latency: Mutex::new([histogram(), histogram()]),
            stopping: AtomicBool::new(false),
            first_error: Mutex::default(),
        }
    }

    pub fn opened(&self) {
        self.open.fetch_add(1, Ordering::Relaxed);
        self.connected.inc();
    }

    pub fn closed(&self) {
        self.open.fetch_sub(1, Ordering::Relaxed);
    }

    pub fn open_now(&self) -> u64 {
        self.open.load(Ordering::Relaxed).max(0) as u64
    }

    /// An `Error` the server sent, counted by its code whatever the code is.
    pub fn error(&self, code: impl Debug) {
        *lock(&self.errors).entry(format!("{code:?}")).or_default() += 1;
    }

    pub fn errors(&self) -> BTreeMap<String, u64> {
        lock(&self.errors).clone()
    }

    /// A connection the server ended, by WebSocket close code ("no close frame" when the
    /// connection just ended).
    pub fn server_closed(&self, code: Option<u16>) {
        let key = code.map_or_else(|| "no close frame".to_string(), |code| code.to_string());
        *lock(&self.closes).entry(key).or_default() += 1;
    }

    pub fn closes(&self) -> BTreeMap<String, u64> {
        lock(&self.closes).clone()
    }

    /// Keeps the first failure's reason, for the report.
    pub fn note_failure(&self, reason: String) {
        if self.stopping.load(Ordering::Relaxed) {
            return;
        }
        let mut first = lock(&self.first_error);
        if first.is_none() {
            eprintln!("loadgen: {reason}");
            *first = Some(reason);
        }
    }

    pub fn first_failure(&self) -> Option<String> {
        lock(&self.first_error).clone()
    }

    pub fn move_sent(&self, room: RoomId, version: u64, at: Instant) {
        lock(&self.sent).insert((room, version), at);
        self.moves_sent.inc();
    }

    /// A spectator received `version` of `room`: one latency sample if its move was timed.
    pub fn spectator_saw(&self, room: RoomId, version: u64, now: Instant) {
        if !self.measuring.load(Ordering::Relaxed) {
            return;
        }
        let Some(sent) = lock(&self.sent).get(&(room, version)).copied() else {
            return;
        };
        let micros = now.saturating_duration_since(sent).as_micros() as u64;
        for histogram in lock(&self.latency).iter_mut() {
            histogram.saturating_record(micros.clamp(1, LATENCY_CEILING_US));
        }
    }

    pub fn set_measuring(&self, on: bool) {
        self.measuring.store(on, Ordering::Relaxed);
    }

    /// Forgets send times older than `age`, whose spectators have long had their states.
    pub fn prune_sent(&self, age: Duration) {
        let now = Instant::now();
        lock(&self.sent).retain(|_, at| now.saturating_duration_since(*at) < age);
    }

    /// Ends the scenario: from now on closed connections are expected.
    pub fn stop(&self) {
        self.stopping.store(true, Ordering::Relaxed);
        self.set_measuring(false);
    }

    /// Latency over the whole measured window.
    pub fn latency(&self) -> Latency {
        Latency::of(&lock(&self.latency)[0])
    }

    /// Latency since the last call (for progress lines), starting a new interval.
    pub fn latency_interval(&self) -> Latency {
        let mut histograms = lock(&self.latency);
        let latency = Latency::of(&histograms[1]);
        histograms[1].reset();
        latency
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            at: Instant::now(),
            states: self.states.get(),
            moves_sent: self.moves_sent.get(),
            moves_accepted: self.moves_accepted.get(),
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Move-to-spectator latency over the measured window.
#[derive(Clone, Copy, Debug)]
pub struct Latency {
    pub samples: u64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    pub mean_ms: f64,
}

impl Latency {
    /// "p50 0.41 ms, p99 1.20 ms, max 3.00 ms, mean 0.50 ms (812 samples)", or that none
    /// was measured (no spectator saw a move: `--spectators 0`, say), rather than zeros.
    pub fn summary(&self) -> String {
        if self.samples == 0 {
            return "none measured (no spectator saw a move)".into();
        }
        format!(
            "p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms, mean {:.2} ms ({} samples)",
            self.p50_ms, self.p99_ms, self.max_ms, self.mean_ms, self.samples
        )
    }

    fn of(histogram: &Histogram<u64>) -> Latency {
        let ms = |micros: u64| micros as f64 / 1000.0;
        Latency {
            samples: histogram.len(),
            p50_ms: ms(histogram.value_at_quantile(0.5)),
            p99_ms: ms(histogram.value_at_quantile(0.99)),
            max_ms: ms(histogram.max()),
            mean_ms: histogram.mean() / 1000.0,
        }
    }
}

fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, LATENCY_CEILING_US, 3).expect("valid bounds")
}

/// The counters at one instant, to turn into rates over a window.
#[derive(Clone, Copy, Debug)]
pub struct Snapshot {
    pub at: Instant,
    pub states: u64,
    pub moves_sent: u64,
    pub moves_accepted: u64,
}

impl Snapshot {
    pub fn seconds_since(&self, earlier: &Snapshot) -> f64 {
        self.at.saturating_duration_since(earlier.at).as_secs_f64()
    }

    /// Per-second rates since `earlier`: (moves accepted, states delivered).
    pub fn rates_since(&self, earlier: &Snapshot) -> (f64, f64) {
        let seconds = self.seconds_since(earlier).max(1e-9);
        (
            (self.moves_accepted - earlier.moves_accepted) as f64 / seconds,
            (self.states - earlier.states) as f64 / seconds,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_latency_with_no_sample_says_none_was_measured_not_zeros() {
        let none = Latency::of(&Histogram::new(3).unwrap());
        assert_eq!(none.summary(), "none measured (no spectator saw a move)");
        let mut histogram = Histogram::new(3).unwrap();
        histogram.record(1_500).unwrap();
        let one = Latency::of(&histogram).summary();
        assert!(
            one.starts_with("p50 1.50 ms") && one.ends_with("(1 samples)"),
            "{one}"
        );
    }
}
