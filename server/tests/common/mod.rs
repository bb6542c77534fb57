//! The real `server` binary on a free port, and the loopback tests' WebSocket peer.

#![allow(dead_code)] // each test binary uses its own part of this module

use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStderr, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use parlor_shared::codec::Format;
use parlor_shared::identity::PlayerSecret;
use parlor_shared::protocol::{ClientMsg, ServerMsg};

// The WebSocket peer the workspace's loopback tests use.
#[path = "../../../tests/tests/common.rs"]
mod peer;
pub use peer::*;

pub const SERVER: &str = env!("CARGO_BIN_EXE_server");
/// The servers' `PARLOR_HOME` (where Klotski's pattern tables are looked for): the tests' own,
/// never the cache of the person running them.
pub const TEST_HOME: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/parlor-home");

/// A running `server` process, killed when dropped.
pub struct Running {
    pub child: Child,
    pub url: String,
}

impl Running {
    /// SIGKILL: the server gets no chance to finish a write or shut down.
    pub fn kill_9(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the binary on a free port and reads the address it logs.
pub fn start(args: &[&str]) -> Running {
    let (running, mut log, _) = spawn(Command::new(SERVER), args);
    // Keep draining the log so the server never blocks on a full pipe.
    std::thread::spawn(move || std::io::copy(&mut log, &mut std::io::sink()));
    running
}

/// Starts the binary with `RUST_LOG=rust_log`, keeping everything it logs.
pub fn start_logged(args: &[&str], rust_log: &str) -> (Running, Log) {
    let mut command = Command::new(SERVER);
    command.env("RUST_LOG", rust_log);
    let (running, mut log, read) = spawn(command, args);
    let text = Arc::new(Mutex::new(read));
    let reader = std::thread::spawn({
        let text = Arc::clone(&text);
        move || {
            let mut line = Vec::new();
            while log
                .read_until(b'\n', &mut line)
                .is_ok_and(|bytes| bytes > 0)
            {
                text.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&line));
                line.clear();
            }
        }
    });
    (running, Log { text, reader })
}

/// A server's log, read as it writes it.
pub struct Log {
    text: Arc<Mutex<String>>,
    reader: JoinHandle<()>,
}

impl Log {
    /// Waits until the log holds `text`: what a server logs after answering comes a moment
    /// after the answer.
    pub fn wait_for(&self, text: &str) {
        for _ in 0..1000 {
            if self.text.lock().unwrap().contains(text) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        panic!("no {text:?} in the log:\n{}", self.text.lock().unwrap());
    }

    /// What the server has logged so far.
    pub fn so_far(&self) -> String {
        self.text.lock().unwrap().clone()
    }

    /// The whole log; call it once the server has stopped.
    pub fn whole(self) -> String {
        self.reader.join().expect("the log's reader");
        Arc::into_inner(self.text).unwrap().into_inner().unwrap()
    }
}

/// Spawns `command` on a free port; the server, its log still to read, and the log read
/// up to the line that gives its address.
fn spawn(mut command: Command, args: &[&str]) -> (Running, BufReader<ChildStderr>, String) {
    let mut child = command
        .env("PARLOR_HOME", TEST_HOME)
        .args(["--addr", "127.0.0.1:0"])
        .args(args)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("server starts");
    let mut log = BufReader::new(child.stderr.take().unwrap());
    let mut read = String::new();
    let addr = loop {
        let line_start = read.len();
        let bytes = log.read_line(&mut read).unwrap();
        assert!(bytes > 0, "server logs before exiting: {read}");
        if let Some(rest) = read[line_start..].split("addr=").nth(1) {
            break rest.split_whitespace().next().unwrap().to_string();
        }
    };
    let running = Running {
        child,
        url: format!("ws://{addr}"),
    };
    (running, log, read)
}

/// A fresh data directory for one test, removed when dropped: keep it until the server that
/// uses it has stopped.
pub fn data_dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

/// An auto match that is still going on seconds later: paced (on 4x4, so that its rounds last
/// some plies), where at full speed a match ends within seconds.
pub fn paced_auto_match() -> parlor_shared::game::GameSetup {
    use parlor_shared::hexapawn::{MAX_MATCH_ROUNDS, MatchSetup, Pace};
    parlor_shared::game::GameSetup::HerMatch(MatchSetup {
        dims: "4x4".parse().unwrap(),
        mirrors: false,
        rounds: MAX_MATCH_ROUNDS,
        pace: Pace::PerPly { ms: 1 },
        brains: ["left".into(), "right".into()],
    })
}

/// The one player every [`ask`] of a test process speaks for, so that what one ask makes (an
/// auto match's brains) the next finds as its own.
pub fn tester() -> &'static PlayerSecret {
    static TESTER: std::sync::OnceLock<PlayerSecret> = std::sync::OnceLock::new();
    TESTER.get_or_init(PlayerSecret::random)
}

/// Connects as [`tester`], sends `requests` and returns the first answer `until` accepts.
pub async fn ask(
    url: &str,
    requests: Vec<ClientMsg>,
    until: impl Fn(&ServerMsg) -> bool,
) -> ServerMsg {
    let mut client = Peer::connect_as(url, Format::Json, tester()).await;
    for request in requests {
        client.send(request).await;
    }
    client.recv_until(|m| until(&m).then_some(m)).await
}
