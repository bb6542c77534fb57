//! Holds N greeted, idle WebSocket connections to a server and reports the server's resident
//! memory before and after (Linux: /proc/PID/status), to measure the per-connection cost.
//!
//! cargo run --release -p parlor-tests --example idle_connections -- \
//!     --url ws://127.0.0.1:7878 --count 1000 --server-pid $(pgrep -x server)

use std::time::Duration;

use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use parlor_server::wire;
use parlor_shared::codec::Format;
use parlor_shared::protocol::{ClientMsg, PROTOCOL_VERSION};

#[derive(Parser)]
struct Args {
    #[arg(long, default_value = "ws://127.0.0.1:7878")]
    url: String,
    #[arg(long, default_value_t = 1000)]
    count: usize,
    /// The server's process id, to read its memory.
    #[arg(long)]
    server_pid: u32,
    /// Seconds to hold the connections after the last one is open.
    #[arg(long, default_value_t = 3)]
    hold: u64,
}

fn resident_kib(pid: u32) -> anyhow::Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let line = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .ok_or_else(|| anyhow::anyhow!("no VmRSS"))?;
    Ok(line.split_whitespace().nth(1).unwrap_or("0").parse()?)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let before = resident_kib(args.server_pid)?;
    let hello = wire::encode(
        &ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            client: "idle".into(),
        },
        Format::Binary,
    )?;
    let mut sockets = Vec::with_capacity(args.count);
    for i in 0..args.count {
        let (mut socket, _) = tokio_tungstenite::connect_async(&args.url).await?;
        socket.send(hello.clone()).await?;
        socket
            .next()
            .await
            .ok_or_else(|| anyhow::anyhow!("connection {i} closed"))??;
        sockets.push(socket);
    }
    tokio::time::sleep(Duration::from_secs(args.hold)).await;
    let after = resident_kib(args.server_pid)?;
    println!("connections held      {}", sockets.len());
    println!("server RSS before     {:.1} MiB", before as f64 / 1024.0);
    println!("server RSS with them  {:.1} MiB", after as f64 / 1024.0);
    println!(
        "per connection        {:.1} KiB",
        (after.saturating_sub(before)) as f64 / args.count as f64
    );
    Ok(())
}
