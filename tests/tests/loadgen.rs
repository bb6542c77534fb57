//! The `loadgen` binary against an in-process server, at toy scale: the figures it prints as
//! JSON add up, and a missing server is a plain error.

mod common;

use std::process::{Command, Output};

use serde_json::Value;

fn loadgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_loadgen"))
        .args(args)
        .output()
        .expect("loadgen runs")
}

fn figures(output: &Output) -> Value {
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "loadgen failed: {}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_str(stdout.trim()).unwrap_or_else(|error| panic!("{error}: {stdout}"))
}

#[test]
fn idle_connections_are_held_and_measured() {
    let (server, _dir) = common::start_server("loadgen-idle");
    let pid = std::process::id().to_string();
    let url = server.url();
    let args = ["--url", &url, "--server-pid", &pid];
    let idle = figures(&loadgen(
        &[
            &args[..],
            &["idle", "--connections", "20", "--hold", "1", "--json"],
        ]
        .concat(),
    ));
    assert_eq!(idle["scenario"], "idle");
    assert_eq!(idle["connections_held"], 20, "{idle}");
    assert_eq!(idle["connect_failures"], 0, "{idle}");
    assert!(idle["server_rss_after_kib"].as_u64().unwrap() > 0, "{idle}");
}

#[test]
fn rooms_make_moves_that_spectators_see() {
    let (server, _dir) = common::start_server("loadgen-rooms");
    let url = server.url();
    // Four moves a second in each room; one AI room searches beside them.
    let rooms = figures(&loadgen(&[
        "--url",
        &url,
        "rooms",
        "--rooms",
        "3",
        "--spectators",
        "2",
        "--move-rate",
        "4",
        "--duration",
        "3",
        "--warmup",
        "1",
        "--ai-rooms",
        "1",
        "--ai-move-ms",
        "200",
        "--json",
    ]));
    assert_eq!(rooms["scenario"], "rooms");
    assert_eq!(rooms["rooms_ready"], 3, "{rooms}");
    assert_eq!(rooms["connections_held"], 3 * 4 + 1, "{rooms}");
    assert!(rooms["moves_accepted"].as_u64().unwrap() > 0, "{rooms}");
    assert!(rooms["latency_samples"].as_u64().unwrap() > 0, "{rooms}");
    assert!(rooms["updates"].as_u64().unwrap() >= rooms["moves_accepted"].as_u64().unwrap());
    assert!(
        rooms["latency_ms"]["p99"].as_f64().unwrap() > 0.0,
        "{rooms}"
    );
    assert_eq!(rooms["errors"], serde_json::json!({}), "{rooms}");
    assert_eq!(rooms["closed_by_server"], serde_json::json!({}), "{rooms}");
    assert_eq!(rooms["server_rss_after_kib"], Value::Null, "no pid given");
}

#[test]
fn a_missing_server_is_a_plain_error() {
    // A port that was free a moment ago: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("ws://127.0.0.1:{port}");
    let output = loadgen(&["--url", &url, "idle", "--connections", "5"]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no server at"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
