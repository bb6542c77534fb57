//! The command line: where the server is, and which scenario to run against it.

use std::path::PathBuf;

use clap::{ArgGroup, Args, Parser, Subcommand};
use parlor_shared::protocol::{DEFAULT_AI_MOVE_MS, MAX_AI_MOVE_MS};
use parlor_wire::at_least;

/// Load generator for a Parlor server: holds many connections, plays many rooms at once and
/// measures what the server delivers (rates, move-to-spectator latency, server memory).
///
/// Either point it at a running server (`--url`, with `--server-pid` to read its memory) or let
/// it start one (`--spawn-server target/release/server`), which it kills at the end, also when
/// SIGINT or SIGTERM stops it (exit code 130 or 143); on Linux the server dies with loadgen
/// killed by SIGKILL too.
#[derive(Parser, Debug)]
#[command(name = "loadgen", version)]
pub struct Cli {
    #[command(flatten)]
    pub server: ServerArgs,
    #[command(subcommand)]
    pub scenario: Scenario,
}

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("target").required(true).args(["url", "spawn_server"])))]
pub struct ServerArgs {
    /// URL of a running server, e.g. ws://127.0.0.1:7878, or of several nodes of one hall
    /// separated by commas: connections are spread over them, each room's players and
    /// spectators each on the next node.
    #[arg(long, global = true, value_parser = node_urls)]
    pub url: Option<String>,
    /// Process id of the server at --url, to read its memory from /proc.
    #[arg(long, global = true, requires = "url", value_parser = server_pid)]
    pub server_pid: Option<u32>,
    /// Start this server binary with `--memory --addr 127.0.0.1:<free port>` (see
    /// --server-data), and kill it at the end.
    #[arg(long, global = true, value_name = "PATH", conflicts_with = "url")]
    pub spawn_server: Option<PathBuf>,
    /// Give the spawned server this data directory (`--data DIR`, games stored on disk)
    /// instead of `--memory`.
    #[arg(long, global = true, value_name = "DIR", requires = "spawn_server")]
    pub server_data: Option<PathBuf>,
    /// One more argument for the spawned server (repeat for several), e.g.
    /// --server-arg=--max-connections=20000.
    #[arg(
        long = "server-arg",
        global = true,
        value_name = "ARG",
        allow_hyphen_values = true
    )]
    pub server_args: Vec<String>,
    /// How many connections are being opened at once.
    #[arg(long, global = true, default_value_t = 200, value_parser = at_least(1u32))]
    pub connect_batch: u32,
}

#[derive(Subcommand, Debug)]
pub enum Scenario {
    /// Open N greeted connections, hold them (each keeps reading, so pings are answered) and
    /// report how many stayed open and what they cost the server.
    Idle(IdleArgs),
    /// Play Magnetic Cave rooms between two connections each, with spectators watching, and
    /// measure moves, updates and move-to-spectator latency.
    Rooms(RoomsArgs),
}

#[derive(Args, Debug, Clone)]
pub struct IdleArgs {
    /// Connections to open, at least 1.
    #[arg(long, default_value_t = 1000, value_parser = at_least(1usize))]
    pub connections: usize,
    /// Seconds to hold them once all are open, before measuring.
    #[arg(long, default_value_t = 5)]
    pub hold: u64,
    /// Print one JSON object of the figures on stdout instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug, Clone)]
pub struct RoomsArgs {
    /// Rooms of two human players each (every room is two connections).
    #[arg(long, default_value_t = 10, value_parser = at_least(1usize))]
    pub rooms: usize,
    /// Spectator connections watching each room.
    #[arg(long, default_value_t = 2)]
    pub spectators: usize,
    /// Moves per second made in each room (the two players alternate).
    #[arg(long, default_value_t = 1.0)]
    pub move_rate: f64,
    /// Seconds of play, warm-up included.
    #[arg(long, default_value_t = 30)]
    pub duration: u64,
    /// Seconds at the start of play left out of the figures.
    #[arg(long, default_value_t = 5)]
    pub warmup: u64,
    /// Extra rooms with two AI seats that search continuously, one spectator each.
    #[arg(long, default_value_t = 0)]
    pub ai_rooms: usize,
    /// The AI seats' budget per move, in milliseconds: 1 to 3000, what the server accepts for
    /// an AI seat.
    #[arg(long, default_value_t = DEFAULT_AI_MOVE_MS,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_AI_MOVE_MS)))]
    pub ai_move_ms: u32,
    /// Seed of the players' random moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print one JSON object of the figures on stdout instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// `--url` as given, once every address in it has something in it: a stray comma would
/// otherwise be a node with no address, refused only once the run is under way.
fn node_urls(text: &str) -> Result<String, String> {
    match text.split(',').any(|url| url.trim().is_empty()) {
        true => Err(
            "empty address in --url: give ws://HOST:PORT, or several nodes' \
                     separated by commas (ws://a:7878,ws://b:7878)"
                .into(),
        ),
        false => Ok(text.to_string()),
    }
}

/// `--server-pid` of a process that exists: one that does not would only show as the
/// server's memory left unknown at the end of the run.
fn server_pid(text: &str) -> Result<u32, String> {
    let pid: u32 = text
        .parse()
        .map_err(|_| "expected a process id, a whole number (`pgrep -x server`)".to_string())?;
    // Its memory is read from /proc, which only Linux has.
    if cfg!(target_os = "linux") && !std::path::Path::new(&format!("/proc/{pid}")).exists() {
        return Err(format!(
            "process {pid} does not exist: give the process id of the server at --url"
        ));
    }
    Ok(pid)
}

impl RoomsArgs {
    pub fn check(&self) -> anyhow::Result<()> {
        anyhow::ensure!(
            self.move_rate.is_finite() && self.move_rate > 0.0 && self.move_rate <= 1000.0,
            "--move-rate must be above 0 and at most 1000"
        );
        anyhow::ensure!(
            self.warmup < self.duration,
            "--warmup ({} s) must be shorter than --duration ({} s)",
            self.warmup,
            self.duration
        );
        Ok(())
    }
}
