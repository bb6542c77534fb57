//! A hall of several `server` nodes on loopback: one PostgreSQL database of its own (see
//! `TestDatabase`), the NATS server of `PARLOR_TEST_NATS` or one of the test's own, and the
//! real binary for each node.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use parlor_server::store::postgres::test_database::TestDatabase;
use parlor_shared::codec::Format;
use parlor_shared::identity::PlayerSecret;
use parlor_shared::protocol::{RoomId, RoomSnapshot, RoomSummary, SeatSpec, SeatToken};

use crate::common::{Log, Peer, Running, start_logged};
use crate::some_cave_move;

/// Each node's lease: short, so that takeovers come quickly; PARLOR_CLUSTER_LEASE sets
/// another (to measure the failover time at the default of 5 s).
fn lease_seconds() -> String {
    std::env::var("PARLOR_CLUSTER_LEASE").unwrap_or_else(|_| "1.5".into())
}

/// The services a hall's nodes need, or `None` (with a note) where they are not running.
pub struct Services {
    pub database: TestDatabase,
    pub nats: String,
}

impl Services {
    pub fn find() -> Option<Services> {
        let database = TestDatabase::create()?;
        let nats = std::env::var("PARLOR_TEST_NATS").expect(
            "PARLOR_TEST_POSTGRES is set but PARLOR_TEST_NATS is not: \
             eval \"$(scripts/cluster_services.sh start)\"",
        );
        Some(Services { database, nats })
    }

    /// Node `name` of the hall, on a free port, logging at info.
    pub fn node(&self, name: &str) -> Node {
        self.node_on(name, &self.nats)
    }

    /// Node `name`, on the NATS server at `nats`.
    pub fn node_on(&self, name: &str, nats: &str) -> Node {
        self.node_with(name, nats, &[])
    }

    /// Node `name`, on the NATS server at `nats`, with more flags.
    pub fn node_with(&self, name: &str, nats: &str, more: &[&str]) -> Node {
        self.node_through(&self.database.url(), name, nats, more)
    }

    /// Node `name`, reaching the database at `url` (a [`StoreRelay`]'s), on the NATS server
    /// at `nats`, with more flags.
    pub fn node_through(&self, url: &str, name: &str, nats: &str, more: &[&str]) -> Node {
        let (url, lease) = (url.to_string(), lease_seconds());
        let mut args = vec!["--store", &url, "--bus", nats, "--node-id", name];
        if !more.contains(&"--lease-seconds") {
            args.extend(["--lease-seconds", &lease]);
        }
        args.extend_from_slice(more);
        let (running, log) = start_logged(&args, "info");
        Node {
            name: name.to_string(),
            running: Some(running),
            log,
        }
    }
}

/// One node: its process and its log.
pub struct Node {
    pub name: String,
    pub running: Option<Running>,
    pub log: Log,
}

impl Node {
    pub fn url(&self) -> String {
        self.running.as_ref().expect("the node runs").url.clone()
    }

    pub fn pid(&self) -> i32 {
        self.running.as_ref().expect("the node runs").child.id() as i32
    }

    pub fn kill_9(&mut self) {
        self.running.take().expect("the node runs").kill_9();
    }

    pub fn signal(&self, signal: i32) {
        assert_eq!(unsafe { libc::kill(self.pid(), signal) }, 0, "signal sent");
    }

    pub async fn peer(&self, secret: &PlayerSecret) -> Peer {
        Peer::connect_as(&self.url(), Format::Json, secret).await
    }
}

impl Drop for Node {
    /// A failed test shows what each node logged.
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("=== node {} logged:\n{}", self.name, self.log.so_far());
        }
    }
}

/// Waits until `peer`'s lobby lists `room`; its summary.
pub async fn listed(peer: &mut Peer, room: RoomId) -> RoomSummary {
    listed_where(peer, room, |_| true).await
}

/// Waits until `peer`'s lobby lists `room` as `accept` wants it (other nodes' rooms are
/// listed as their owners last said, every half second).
pub async fn listed_where(
    peer: &mut Peer,
    room: RoomId,
    accept: impl Fn(&RoomSummary) -> bool,
) -> RoomSummary {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let rooms = peer.list_rooms().await;
        if let Some(summary) =
            (rooms.into_iter()).find(|summary| summary.room == room && accept(summary))
        {
            return summary;
        }
        assert!(Instant::now() < deadline, "room {room} never listed");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A Cave room made through `owner`, with `x` in seat 0 and `y` in seat 1 through the nodes
/// they are connected to, `moves` moves played; the room, the tokens and the last state.
pub async fn game_under_way(
    owner: &Node,
    x: &mut Peer,
    y: &mut Peer,
    moves: u64,
) -> (RoomId, [SeatToken; 2], RoomSnapshot) {
    let mut maker = owner.peer(&PlayerSecret::random()).await;
    let room = maker
        .create_room(vec![SeatSpec::Human, SeatSpec::Human])
        .await;
    listed(x, room).await;
    listed(y, room).await;
    let tokens = [x.join(room, 0).await, y.join(room, 1).await];
    let mut state = x.state_where(room, |s| s.seats.len() == 2).await;
    for ply in 0..moves {
        let mover = if ply % 2 == 0 { &mut *x } else { &mut *y };
        state = (mover.play_and_see(room, &tokens[ply as usize % 2], ply, some_cave_move(&state)))
            .await;
    }
    (room, tokens, state)
}

/// A NATS server of the test's own, which it may stop and start again on the same port.
pub struct OwnNats {
    pub port: u16,
    child: Option<Child>,
    /// Its flags besides the address (`--user`, `--pass`, ...).
    flags: Vec<String>,
}

impl OwnNats {
    pub fn start() -> OwnNats {
        OwnNats::start_with(&[])
    }

    pub fn start_with(flags: &[&str]) -> OwnNats {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let flags = flags.iter().map(|flag| flag.to_string()).collect();
        let mut nats = OwnNats {
            port,
            child: None,
            flags,
        };
        nats.restart();
        nats
    }

    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts it (again) and waits until it takes connections.
    pub fn restart(&mut self) {
        self.stop();
        let child = Command::new("nats-server")
            .args(["-a", "127.0.0.1", "-p", &self.port.to_string()])
            .args(&self.flags)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nats-server starts (apt-get install nats-server)");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(Instant::now() < deadline, "nats-server never listened");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for OwnNats {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A relay between one node and the database, which the test may cut: that node's store then
/// fails while the other nodes' works.
pub struct StoreRelay {
    /// The database address for the node that goes through the relay.
    pub url: String,
    cut: tokio::sync::watch::Sender<bool>,
}

impl StoreRelay {
    pub async fn start(database_url: &str) -> StoreRelay {
        let (head, tail) = database_url.rsplit_once('@').expect("a user in the URL");
        let (upstream, name) = tail.split_once('/').expect("a database in the URL");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("{head}@{}/{name}", listener.local_addr().unwrap());
        let (cut, cut_seen) = tokio::sync::watch::channel(false);
        let upstream = upstream.to_string();
        tokio::spawn(async move {
            let mut cut_seen = cut_seen;
            loop {
                let accepted = tokio::select! {
                    accepted = listener.accept() => accepted,
                    _ = cut_seen.wait_for(|cut| *cut) => return,
                };
                let Ok((mut near, _)) = accepted else {
                    continue;
                };
                let (upstream, mut cut_seen) = (upstream.clone(), cut_seen.clone());
                tokio::spawn(async move {
                    let Ok(mut far) = tokio::net::TcpStream::connect(&upstream).await else {
                        return;
                    };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut near, &mut far) => {}
                        _ = cut_seen.wait_for(|cut| *cut) => {}
                    }
                });
            }
        });
        StoreRelay { url, cut }
    }

    /// Closes every connection through the relay, and takes no more.
    pub fn cut(&self) {
        let _ = self.cut.send(true);
    }
}
