//! The real `server` binary on a free port, and the loopback tests' WebSocket peer.

#![allow(dead_code)] // each test binary uses its own part of this module

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use parlor_shared::codec::Format;
use parlor_shared::protocol::{ClientMsg, ServerMsg};

// The WebSocket peer the workspace's loopback tests use.
#[path = "../../../tests/tests/common.rs"]
mod peer;
pub use peer::*;

pub const SERVER: &str = env!("CARGO_BIN_EXE_server");

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
    let mut child = Command::new(SERVER)
        .args(["--addr", "127.0.0.1:0"])
        .args(args)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("server starts");
    let stderr = child.stderr.take().unwrap();
    let mut lines = BufReader::new(stderr).lines();
    let addr = loop {
        let line = lines.next().expect("server logs before exiting").unwrap();
        if let Some(rest) = line.split("addr=").nth(1) {
            break rest.split_whitespace().next().unwrap().to_string();
        }
    };
    // Keep draining the log so the server never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    Running {
        child,
        url: format!("ws://{addr}"),
    }
}

/// A fresh data directory for one test, removed when dropped: keep it until the server that
/// uses it has stopped.
pub fn data_dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

/// Connects, sends `requests` and returns the first answer `until` accepts.
pub async fn ask(
    url: &str,
    requests: Vec<ClientMsg>,
    until: impl Fn(&ServerMsg) -> bool,
) -> ServerMsg {
    let mut client = Peer::connect(url, Format::Json).await;
    for request in requests {
        client.send(request).await;
    }
    client.recv_until(|m| until(&m).then_some(m)).await
}
