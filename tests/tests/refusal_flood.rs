//! A flood of connections over the server's cap: the server tells a few at a time that it is
//! busy and drops the rest, instead of holding a socket for each. Alone in its test binary,
//! because it counts the file descriptors of the whole process.

mod common;

use std::time::Duration;

use common::{Peer, start_server_with};
use parlor_server::Limits;
use parlor_shared::codec::Format;

/// The sockets this process has open (both ends of a loopback connection count). Only
/// sockets: the store opens files of its own meanwhile (its checkpoint thread's connection
/// opens the WAL a second after the start).
#[cfg(target_os = "linux")]
fn open_sockets() -> usize {
    std::fs::read_dir("/proc/self/fd")
        .unwrap()
        .filter_map(|entry| std::fs::read_link(entry.ok()?.path()).ok())
        .filter(|target| target.to_string_lossy().starts_with("socket:"))
        .count()
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_flood_over_the_connection_cap_holds_at_most_a_few_sockets_on_the_server() {
    const FLOOD: usize = 300;
    let limits = Limits {
        max_connections: 1,
        ..Limits::default()
    };
    let (server, _dir) = start_server_with("refusal-flood", limits);
    let _inside = Peer::connect(&server.url(), Format::Binary).await;
    let before = open_sockets();
    // Bare TCP connections that never upgrade: each waits for the handshake's time.
    let mut flood = Vec::new();
    for _ in 0..FLOOD {
        flood.push(tokio::net::TcpStream::connect(server.addr).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let server_side = open_sockets() - before - FLOOD;
    assert!(
        server_side <= parlor_server::MAX_BUSY_REFUSALS,
        "the server holds {server_side} sockets for {FLOOD} connections over its cap"
    );
    // Those it tells are let go within the refusal's time, not the handshake's.
    tokio::time::sleep(Duration::from_millis(3000)).await;
    assert!(
        open_sockets() - before - FLOOD <= 2,
        "refusals outlived their time"
    );
}
