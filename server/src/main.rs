//! `server`: hosts Parlor's rooms for any number of clients.

use std::io::IsTerminal;
use std::io::Write as _;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;
use parlor_home::klotski_tables::TableCache;
use parlor_server::cluster::NodeConfig;
use parlor_server::limits::{
    BrainQuota, Budget, PING_EVERY, ROOM_CREATIONS_PER_ADDRESS, RoomQuota,
};
use parlor_server::{Limits, ServerConfig, byte_size::ByteSize};
use parlor_wire::{at_least, log_filter};

/// The shortest idle timeout: one ping interval and a second for the pong.
const MIN_IDLE_TIMEOUT_SECS: u64 = PING_EVERY.as_secs() + 1;

/// Parlor game server: a lobby of rooms for five games, AI seats, and stored games to replay.
///
/// Clients connect with `client --server ws://HOST:PORT`; anything that speaks WebSocket can
/// connect too (JSON text frames; see docs/PROTOCOL.md). Logs go to stderr; set RUST_LOG
/// (e.g. RUST_LOG=debug) for more detail. The WebSocket and NATS libraries' logs stay off, as
/// their frames carry seat tokens, unless RUST_LOG names their targets (tungstenite,
/// tokio_tungstenite, async_nats).
///
/// Several servers may serve one hall as its nodes: the same --store postgres://… and a NATS
/// server given by --bus (see the README's "One hall on several nodes").
#[derive(Parser, Debug)]
#[command(version)]
struct Args {
    /// Address to listen on: an IP address and a port, or a host name this machine resolves
    /// (localhost:7878); use 0.0.0.0:7878 to accept other machines.
    #[arg(long, default_value = "127.0.0.1:7878", value_parser = listen_address)]
    addr: SocketAddr,
    /// Directory for the game database (created if missing).
    #[arg(long, default_value = "parlor-data")]
    data: PathBuf,
    /// Keep stored games in memory only; nothing is written to disk.
    #[arg(long, conflicts_with = "data")]
    memory: bool,
    /// Keep the hall in a PostgreSQL database instead of --data, e.g.
    /// postgres://parlor:secret@db.example:5432/parlor (its tables are made when it has none).
    /// One lone server uses a database at a time; the nodes of a cluster (--bus) share one.
    #[arg(long, value_name = "URL", conflicts_with_all = ["data", "memory"])]
    store: Option<String>,
    /// Run as one node of a hall that several servers share: the NATS server they talk over,
    /// e.g. nats://127.0.0.1:4222, or nats://user:password@host:4222 (nats://token@host) for
    /// a NATS server that asks for them. Needs --store postgres://…, the same for every node.
    /// Clients may connect to any node (`client --server ws://a:7878,ws://b:7878`).
    #[arg(long, value_name = "URL", requires = "store")]
    bus: Option<String>,
    /// This node's name, unique in the hall (letters, digits, '-', '_'). Default: the host's
    /// name and the port of --addr. A node restarted under its name takes its rooms back at
    /// once.
    #[arg(long, value_name = "NAME", requires = "bus")]
    node_id: Option<String>,
    /// How long a node's hold on a room lasts without renewal: when a node dies, the others
    /// take its rooms after about this long. Renewed three times a lease, and twice a second
    /// at least.
    #[arg(long, default_value_t = 5.0, requires = "bus", value_name = "SECONDS")]
    lease_seconds: f64,
    /// Connections held at once; more are told the server is busy (close code 1013).
    #[arg(long, default_value_t = Limits::default().max_connections,
          value_parser = at_least(1usize))]
    max_connections: usize,
    /// Connections one address may hold at once (an IPv6 host counts by --ipv6-prefix); more
    /// are refused (close code 1008). Raise it for a load test from one host, or for a hall
    /// whose people share one address (behind NAT).
    #[arg(long, default_value_t = Limits::default().connections_per_address,
          value_parser = at_least(1usize))]
    connections_per_address: usize,
    /// Unfinished rooms one player may keep.
    #[arg(long, default_value_t = Limits::default().per_player.rooms,
          value_parser = at_least(1usize))]
    rooms_per_player: usize,
    /// Unfinished rooms the players of one address may keep together (identities cost
    /// nothing, so an address has a quota of its own; raise it for a load test from one host).
    #[arg(long, default_value_t = Limits::default().per_address.rooms,
          value_parser = at_least(1usize))]
    rooms_per_address: usize,
    /// Unfinished rooms with AI seats the players of one address may keep together (raise it
    /// for a load test from one host).
    #[arg(long, default_value_t = Limits::default().per_address.ai_rooms,
          value_parser = at_least(1usize))]
    ai_rooms_per_address: usize,
    /// Brains one player may keep.
    #[arg(long, default_value_t = Limits::default().brains.count,
          value_parser = at_least(1usize))]
    brains_per_player: usize,
    /// Brains the players of one address may keep together.
    #[arg(long, default_value_t = Limits::default().brains_per_address.count,
          value_parser = at_least(1usize))]
    brains_per_address: usize,
    /// A player who runs this hall (their public id, as `client identity show` prints it):
    /// they may end any room or auto match and delete any brain (`client admin`). Repeat for
    /// several.
    #[arg(long = "operator", value_name = "PLAYER_ID")]
    operators: Vec<parlor_shared::identity::PlayerId>,
    /// Rooms the players of one address may follow (hold a seat in or watch) at once.
    #[arg(long, default_value_t = Limits::default().followed_per_address,
          value_parser = at_least(1usize))]
    followed_per_address: usize,
    /// Rooms the players of one address may create a minute, over all their connections (all
    /// of them at once if need be); more are refused until the minute's share comes back.
    /// Raise it for a load test from one host.
    #[arg(long, default_value_t = ROOM_CREATIONS_PER_ADDRESS,
          value_parser = at_least(1u32))]
    room_creations_per_address: u32,
    /// How many leading bits of an IPv6 address name one source for the per-address quotas
    /// and the AI pool's turns: a host is usually given a whole /64 and may speak from any
    /// address in it. IPv4 addresses count one by one.
    #[arg(long, default_value_t = Limits::default().ipv6_prefix,
          value_parser = clap::value_parser!(u8).range(1..=128))]
    ipv6_prefix: u8,
    /// Unfinished rooms, server-wide; more are refused as "server busy".
    #[arg(long, default_value_t = Limits::default().max_rooms,
          value_parser = at_least(1usize))]
    max_rooms: usize,
    /// Unfinished rooms with AI seats, server-wide (each search waits its turn in the AI pool;
    /// 0: none, every room is played by people).
    #[arg(long, default_value_t = Limits::default().max_ai_rooms)]
    max_ai_rooms: usize,
    /// Auto matches (HER against HER) running at once, server-wide: each plays on a thread of
    /// its own (0: none).
    #[arg(long, default_value_t = Limits::default().max_matches)]
    max_matches: usize,
    /// Spectators one room may have (0: nobody may watch; players still play, and one whose
    /// seat is taken over from another connection leaves the room).
    #[arg(long, default_value_t = Limits::default().spectators_per_room)]
    spectators_per_room: usize,
    /// Seconds of silence (not even a pong) after which a connection is closed. The server
    /// pings every 20 seconds, so a shorter wait would close quiet but healthy clients; at
    /// most a day.
    #[arg(long, default_value_t = Limits::default().idle_timeout.as_secs(),
          value_parser = clap::value_parser!(u64).range(MIN_IDLE_TIMEOUT_SECS..=86_400))]
    idle_timeout_secs: u64,
    /// What the game database may hold, in bytes or with a unit (4G, 1.5G, 512MiB). Once it
    /// is full, new rooms and brain imports are refused and auto matches stop; games under way
    /// go on and are stored. Brains reset, or a bigger cap, make room again.
    #[arg(long, default_value_t = ByteSize(Limits::default().max_store_bytes))]
    max_store_bytes: ByteSize,
    /// Folder of Klotski's pattern tables, which the solver seats map (default: the cache
    /// folder the client keeps them in, PARLOR_HOME/cache or the platform's). `client klotski
    /// tables build` builds the 4x4 7-8 ones there; without them the solver builds and keeps
    /// the small ones (6-6-3) and says so in the log. The folder is made if its parent
    /// exists.
    #[arg(long, value_name = "DIR", value_parser = tables_folder)]
    tables: Option<PathBuf>,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(log_filter("info"))
        .with_writer(|| parlor_wire::LogWriter)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    let args = Args::parse();
    set_table_store(args.tables.clone());
    let limits = Limits {
        max_connections: args.max_connections,
        connections_per_address: args.connections_per_address,
        per_player: RoomQuota {
            rooms: args.rooms_per_player,
            ..Limits::default().per_player
        },
        per_address: RoomQuota {
            rooms: args.rooms_per_address,
            ai_rooms: args.ai_rooms_per_address,
            ..Limits::default().per_address
        },
        brains: BrainQuota {
            count: args.brains_per_player,
            ..Limits::default().brains
        },
        brains_per_address: BrainQuota {
            count: args.brains_per_address,
            ..Limits::default().brains_per_address
        },
        followed_per_address: args.followed_per_address,
        room_creations_per_address: Budget::per_minute(args.room_creations_per_address),
        ipv6_prefix: args.ipv6_prefix,
        max_rooms: args.max_rooms,
        max_ai_rooms: args.max_ai_rooms,
        max_matches: args.max_matches,
        spectators_per_room: args.spectators_per_room,
        idle_timeout: Duration::from_secs(args.idle_timeout_secs),
        max_store_bytes: args.max_store_bytes.0,
        ..Limits::default()
    };
    let node = match args
        .bus
        .map(|bus_url| node_config(bus_url, args.node_id, args.lease_seconds, args.addr))
    {
        Some(Err(error)) => {
            let _ = writeln!(std::io::stderr(), "server: {error:#}");
            return std::process::ExitCode::FAILURE;
        }
        Some(Ok(node)) => Some(node),
        None => None,
    };
    let config = ServerConfig {
        node,
        operators: args.operators,
        addr: args.addr,
        data_dir: (!args.memory).then_some(args.data),
        store_url: args.store,
        limits,
    };
    match parlor_server::run(config).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "server: {error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// A node's settings from its flags; its name defaults to the host's name and the port.
fn node_config(
    bus_url: String,
    id: Option<String>,
    lease_seconds: f64,
    addr: SocketAddr,
) -> anyhow::Result<NodeConfig> {
    if !(lease_seconds.is_finite() && (0.3..=3600.0).contains(&lease_seconds)) {
        anyhow::bail!("--lease-seconds must be between 0.3 and 3600");
    }
    let id = id.unwrap_or_else(|| {
        let host = std::fs::read_to_string("/etc/hostname").unwrap_or_else(|_| "node".into());
        let host: String = (host.trim().chars())
            .map(
                |c| match c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    true => c,
                    false => '-',
                },
            )
            .take(48)
            .collect();
        format!("{host}-{}", addr.port())
    });
    let node = NodeConfig {
        bus: bus_url.parse()?,
        id,
        lease: Duration::from_secs_f64(lease_seconds),
    };
    node.check()?;
    Ok(node)
}

/// `--addr` as typed: an IP address and port, else a host name and port resolved here.
fn listen_address(typed: &str) -> Result<SocketAddr, String> {
    if let Ok(address) = typed.parse() {
        return Ok(address);
    }
    let explain = "an IP address and a port, such as 127.0.0.1:7878 or 0.0.0.0:7878, or a host \
                   name and a port, such as localhost:7878";
    let mut resolved = std::net::ToSocketAddrs::to_socket_addrs(typed)
        .map_err(|error| format!("{explain} ({error})"))?;
    resolved
        .next()
        .ok_or_else(|| format!("{explain} ({typed} names no address here)"))
}

/// `--tables` as typed: a folder, or a name for one in a folder that exists (a mistyped path
/// would otherwise make a tree of folders at the first solve).
fn tables_folder(typed: &str) -> Result<PathBuf, String> {
    let folder = PathBuf::from(typed);
    if folder.is_dir() {
        return Ok(folder);
    }
    if folder.exists() {
        return Err(format!("{typed} is not a folder"));
    }
    let parent = folder
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty());
    match parent {
        Some(parent) if !parent.is_dir() => Err(format!(
            "there is no folder {} to make {typed} in",
            parent.display()
        )),
        _ => Ok(folder),
    }
}

/// Sets Klotski's table store for the solver seats: the cache in `folder`, else in the cache
/// folder the client uses; its notes go to the log.
fn set_table_store(folder: Option<PathBuf>) {
    let folder = match folder {
        Some(folder) => folder,
        None => match parlor_home::Home::locate() {
            Ok(home) => home.cache,
            Err(error) => {
                tracing::warn!(
                    "no folder for Klotski's pattern tables ({error:#}): each solve builds its own"
                );
                return;
            }
        },
    };
    tracing::info!("Klotski's pattern tables: {}", folder.display());
    // A server runs for hours: each file is read whole once before its first use, so that no
    // solver seat answers from a file damaged where its verification record cannot see.
    let notes = Box::new(|note: &str| tracing::warn!("klotski: {note}"));
    let cache = TableCache::with_notes(&folder, notes).checking_whole();
    parlor_engines::klotski::set_table_store(Box::new(cache));
}

#[cfg(test)]
mod tests {
    use super::{Args, listen_address};
    use clap::Parser;

    #[test]
    fn counts_with_only_a_least_value_say_it_in_words() {
        for flag in [
            "--max-connections",
            "--rooms-per-player",
            "--rooms-per-address",
            "--ai-rooms-per-address",
            "--brains-per-player",
            "--brains-per-address",
            "--followed-per-address",
            "--room-creations-per-address",
            "--max-rooms",
        ] {
            let error = Args::try_parse_from(["server", flag, "0"])
                .unwrap_err()
                .to_string();
            assert!(error.contains("must be at least 1"), "{flag}: {error}");
            assert!(!error.contains("18446744073709551615"), "{flag}: {error}");
            assert!(
                Args::try_parse_from(["server", flag, "1"]).is_ok(),
                "{flag}"
            );
        }
    }

    #[test]
    fn the_caps_the_readme_names_for_a_node_are_flags() {
        let args = [
            "--max-rooms",
            "9",
            "--max-ai-rooms",
            "0",
            "--max-matches",
            "3",
        ];
        let parsed = Args::try_parse_from(std::iter::once("server").chain(args)).unwrap();
        assert_eq!(
            (parsed.max_rooms, parsed.max_ai_rooms, parsed.max_matches),
            (9, 0, 3)
        );
    }

    #[test]
    fn an_address_to_listen_on_is_an_ip_and_port_or_a_name_resolved_here() {
        assert_eq!(
            listen_address("0.0.0.0:7878").unwrap().to_string(),
            "0.0.0.0:7878"
        );
        let local = listen_address("localhost:7878").unwrap();
        assert!(local.ip().is_loopback() && local.port() == 7878, "{local}");
        for bad in ["localhost", "127.0.0.1", "nowhere.invalid:7878"] {
            let refused = listen_address(bad).unwrap_err();
            assert!(
                refused.starts_with("an IP address and a port"),
                "{bad}: {refused}"
            );
        }
    }
}
