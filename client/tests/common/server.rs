//! The real `server` binary as a process of a test: started on a free port with its own data
//! directory, and killed without warning.
//!
//! The `server` binary is not among the client package's `CARGO_BIN_EXE_*`: it is the one in the
//! target directory of the test, brought up to date first by building the server's own test of
//! its binary as `cargo test --workspace` does (a no-op there, which has built it before any test
//! runs). `PARLOR_SERVER_BIN` names another binary.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;

/// The `server` binary of this build. Cargo is asked once to bring it up to date (a no-op
/// taking half a second when `cargo test --workspace` has just built it), so a stale
/// binary from an older build never answers; if that build fails, an existing binary is used.
pub fn server_binary() -> PathBuf {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY
        .get_or_init(|| {
            if let Some(path) = std::env::var_os("PARLOR_SERVER_BIN") {
                return path.into();
            }
            let exe = std::env::current_exe().unwrap();
            // target/<profile>/deps/reconnect-<hash>
            let profile_dir = exe.parent().unwrap().parent().unwrap();
            let binary = profile_dir.join(format!("server{}", std::env::consts::EXE_SUFFIX));
            let built = build_server(profile_dir);
            assert!(
                binary.exists(),
                "no server binary at {} ({built})",
                binary.display()
            );
            binary
        })
        .clone()
}

/// The server's binary test (`server/tests/binary.rs`) built with the package selection of
/// `cargo test --workspace`, into the target directory of this test; returns what happened, for
/// the message of a failure.
///
/// Two ways this used to compile half the workspace again in the middle of the test run (a
/// minute or more), which the next `cargo test --workspace` then compiled back:
/// - `cargo build -p parlor-server --bin server` picks the features of shared dependencies for
///   the server alone, and the workspace's tests turn on more (`bitflags/std`, via `tempfile`);
/// - the variables cargo sets for a test (`CARGO_MANIFEST_DIR`, `CARGO_PKG_NAME`, `OUT_DIR`…)
///   reached this cargo, and build scripts that watch them (`ring`'s) ran again.
fn build_server(profile_dir: &Path) -> String {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command.args(["test", "--workspace", "--no-run", "--quiet"]);
    command.args(["--test", "binary"]);
    for (name, _) in std::env::vars_os() {
        if name.to_str().is_some_and(set_by_cargo_for_a_test) {
            command.env_remove(name);
        }
    }
    match profile_dir.file_name().and_then(|name| name.to_str()) {
        Some("debug") | None => {}
        Some("release") => drop(command.arg("--release")),
        Some(profile) => drop(command.args(["--profile", profile])),
    }
    if let Some(target_dir) = profile_dir.parent() {
        command.arg("--target-dir").arg(target_dir);
    }
    match command.current_dir(env!("CARGO_MANIFEST_DIR")).status() {
        Ok(status) if status.success() => "built".into(),
        Ok(status) => format!("building the server's tests failed: {status}"),
        Err(error) => format!("cannot run cargo: {error}"),
    }
}

/// Whether cargo sets `name` for the test it runs (not for itself): the package's manifest and
/// metadata, the crate's name, its binaries and scratch and build-script output directories.
fn set_by_cargo_for_a_test(name: &str) -> bool {
    const PREFIXES: [&str; 4] = [
        "CARGO_MANIFEST_",
        "CARGO_PKG_",
        "CARGO_BIN_",
        "CARGO_TARGET_TMP",
    ];
    const NAMES: [&str; 3] = ["CARGO_CRATE_NAME", "CARGO_PRIMARY_PACKAGE", "OUT_DIR"];
    PREFIXES.iter().any(|prefix| name.starts_with(prefix)) || NAMES.contains(&name)
}

/// A running `server` process, killed when dropped.
pub struct Running(Child);

impl Running {
    /// SIGKILL: no chance to finish a write or say goodbye to its clients.
    pub fn kill_9(mut self) {
        self.0.kill().unwrap();
        self.0.wait().unwrap();
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the binary on `addr` with its data in `data` and waits until it listens.
pub fn start_server(addr: SocketAddr, data: &Path) -> Running {
    let mut child = Command::new(server_binary())
        .arg("--addr")
        .arg(addr.to_string())
        .arg("--data")
        .arg(data)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("server starts");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    loop {
        let line = lines
            .next()
            .expect("the server logs before exiting")
            .unwrap();
        if line.contains("addr=") {
            break;
        }
    }
    // Keep draining the log so the server never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    Running(child)
}

pub fn free_addr() -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap()
}
