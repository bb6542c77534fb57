//! The `loadgen` binary against an in-process server, at toy scale: the figures it prints as
//! JSON add up, the rooms it made are closed when it ends, a load it could not set up whole is a
//! failure (after its report), a missing server is a plain error, bad counts are refused on the
//! command line, and a signal to loadgen alone, SIGKILL included, still kills the server it
//! started.

mod common;

use std::path::Path;
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
    // Its rooms went with it: none is left open to crowd the lobby and the address's quota.
    all_closed_soon(&url);
}

/// Waits until the server at `url` lists no room whose game is not over: loadgen closes its
/// rooms as it ends, and on a busy machine the hall's list may take a moment to say so. Fails
/// after 10 s, naming the rooms left open.
fn all_closed_soon(url: &str) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let open: Vec<_> = runtime.block_on(async {
            let mut peer = common::Peer::connect(url, parlor_shared::codec::Format::Binary).await;
            let rooms = peer.list_rooms().await;
            rooms.into_iter().filter(|r| r.outcome.is_none()).collect()
        });
        if open.is_empty() {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "rooms left open: {open:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

#[test]
fn rooms_it_could_not_set_up_fail_the_run_after_its_report() {
    let mut limits = parlor_server::Limits::default();
    limits.per_address.rooms = 2;
    let (server, _dir) = common::start_server_with("loadgen-short", limits);
    let url = server.url();
    let args = ["--url", &url, "rooms", "--rooms", "3", "--spectators", "0"];
    let timing = ["--duration", "2", "--warmup", "1", "--json"];
    let output = loadgen(&[&args[..], &timing[..]].concat());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success(),
        "a smaller load than asked: {stderr}"
    );
    assert!(
        stderr.contains("only 2 of 3 rooms and 0 of 0 AI rooms were set up"),
        "{stderr}"
    );
    assert!(stderr.contains("LimitReached"), "says why: {stderr}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report: Value = serde_json::from_str(stdout.trim()).expect("the report is printed");
    assert_eq!(report["rooms_ready"], 2, "{report}");
    // The two it made are closed.
    all_closed_soon(&url);
}

#[tokio::test]
async fn a_room_the_operator_closes_is_counted_and_its_players_go_on_in_a_new_one() {
    use common::Peer;
    use parlor_shared::codec::Format;
    use parlor_shared::identity::{PlayerSecret, player_id};
    use parlor_shared::protocol::ClientMsg;

    let operator = PlayerSecret::random();
    let dir = tempfile::tempdir().unwrap();
    let mut config = parlor_server::ServerConfig::new(
        "127.0.0.1:0".parse().unwrap(),
        Some(dir.path().to_path_buf()),
    );
    config.operators = vec![player_id(&operator)];
    let server = parlor_server::start_in_background(config).unwrap();
    let url = server.url();
    // A played room and an AI room, both closed by the operator once they have moves (at a
    // second a move, an AI game lasts longer than the run).
    let run = Command::new(env!("CARGO_BIN_EXE_loadgen"))
        .args(["--url", &url, "rooms", "--rooms", "1", "--spectators", "1"])
        .args([
            "--ai-rooms",
            "1",
            "--ai-move-ms",
            "1000",
            "--move-rate",
            "5",
        ])
        .args(["--duration", "6", "--warmup", "1", "--json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut op = Peer::connect_as(&url, Format::Binary, &operator).await;
    let closed = two_played(&mut op, &[]).await;
    for &room in &closed {
        op.send(ClientMsg::CloseRoom { room }).await;
    }
    two_played(&mut op, &closed).await;
    let output = tokio::task::spawn_blocking(move || run.wait_with_output())
        .await
        .unwrap()
        .unwrap();
    let rooms = figures(&output);
    assert_eq!(rooms["rooms_closed_by_server"], 2, "{rooms}");
    // At most the move sent as the room closed is refused, and that is no failure.
    let refused: u64 = (rooms["errors"].as_object().unwrap().iter())
        .map(|(code, n)| {
            assert_eq!(code, "NoSuchRoom", "{rooms}");
            n.as_u64().unwrap()
        })
        .sum();
    assert!(refused <= 1, "{rooms}");
    assert_eq!(rooms["first_failure"], Value::Null, "{rooms}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    for room in closed {
        assert!(
            stderr.contains(&format!("room {room} was closed by the hall's operator")),
            "{stderr}"
        );
    }
}

/// Waits for two unfinished rooms with moves, none of them in `not`.
async fn two_played(op: &mut common::Peer, not: &[u64]) -> Vec<u64> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let rooms = op.list_rooms().await;
        let played: Vec<u64> = (rooms.iter())
            .filter(|r| !not.contains(&r.room) && r.moves > 0 && r.outcome.is_none())
            .map(|r| r.room)
            .collect();
        if played.len() == 2 {
            return played;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "not two rooms played: {rooms:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
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

#[test]
fn counts_below_one_and_an_ai_budget_the_server_refuses_are_refused_on_the_command_line() {
    // Refused before any server is looked for: the port is one nothing listens on.
    let url = ["--url", "ws://127.0.0.1:9"];
    let refusals = [
        (&["idle", "--connections", "0"][..], "must be at least 1"),
        (&["idle", "--connect-batch", "0"][..], "must be at least 1"),
        (&["rooms", "--rooms", "0"][..], "must be at least 1"),
        (&["rooms", "--ai-move-ms", "0"][..], "0 is not in 1..=3000"),
        (
            &["rooms", "--ai-move-ms", "3001"][..],
            "3001 is not in 1..=3000",
        ),
    ];
    for (args, reason) in refusals {
        let output = loadgen(&[&url[..], args].concat());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(reason), "{args:?}: {stderr}");
    }
    // The largest budget passes, and the missing server is what stops the run.
    let output = loadgen(&[&url[..], &["rooms", "--ai-move-ms", "3000"]].concat());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no server at"), "{stderr}");
}

#[test]
fn an_empty_address_in_the_url_is_refused_on_the_command_line() {
    for url in [
        "ws://127.0.0.1:9,",
        "ws://127.0.0.1:9, ,ws://127.0.0.1:10",
        "",
    ] {
        let output = loadgen(&["--url", url, "idle", "--connections", "1"]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{url:?}: {stderr}");
        assert!(
            stderr.contains("empty address in --url"),
            "{url:?}: {stderr}"
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_server_pid_of_no_process_is_refused_on_the_command_line() {
    // Process ids stay below pid_max.
    let none = std::fs::read_to_string("/proc/sys/kernel/pid_max").unwrap();
    let output = loadgen(&[
        "--url",
        "ws://127.0.0.1:9",
        "--server-pid",
        none.trim(),
        "idle",
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("process {} does not exist", none.trim())),
        "{stderr}"
    );
}

/// loadgen started on a stand-in for the server that never listens, so that loadgen is still
/// waiting for it to, which is when a signal is likeliest to leave it behind; and the
/// stand-in's pid. `dir` holds the stand-in.
#[cfg(unix)]
fn loadgen_on_a_stand_in(dir: &Path) -> (std::process::Child, u32) {
    use std::os::unix::fs::PermissionsExt;
    use std::time::{Duration, Instant};

    let (script, pid_file) = (dir.join("server.sh"), dir.join("server.pid"));
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho $$ > '{}'\nexec sleep 60\n",
            pid_file.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_loadgen"))
        .arg("--spawn-server")
        .arg(&script)
        .args(["idle", "--connections", "3"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !pid_file.exists() || std::fs::read_to_string(&pid_file).unwrap().is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the stand-in never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let server = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    (child, server)
}

/// Whether process `pid` ends within 5 s (a zombie, which nobody may be there to reap, has
/// ended); it is killed if not.
#[cfg(unix)]
fn ends(pid: u32) -> bool {
    use std::time::{Duration, Instant};

    let running = || {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // The state follows the command's name in parentheses.
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z'))
    };
    let deadline = Instant::now() + Duration::from_secs(5);
    while running() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    if running() {
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
        return false;
    }
    true
}

#[cfg(unix)]
#[test]
fn sigterm_to_loadgen_alone_kills_the_server_it_started() {
    use std::io::Read;

    let dir = tempfile::tempdir().unwrap();
    let (mut child, server) = loadgen_on_a_stand_in(dir.path());
    let sent = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = child.wait().unwrap();
    let server_ended = ends(server);
    // The server writes to the same pipe: read the rest once it is gone.
    let mut seen = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut seen)
        .unwrap();
    assert!(
        server_ended,
        "the server (pid {server}) was left running: {seen}"
    );
    assert_eq!(status.code(), Some(143), "{status}: {seen}");
    assert!(
        seen.trim_end()
            .ends_with("loadgen: stopped by SIGTERM; the server it started was killed"),
        "{seen}"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn the_server_loadgen_started_dies_with_it_even_by_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, server) = loadgen_on_a_stand_in(dir.path());
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        ends(server),
        "the server (pid {server}) outlived loadgen killed by SIGKILL"
    );
}
