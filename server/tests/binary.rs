//! The `server` binary itself: its help, its start-up errors, its stop on SIGTERM, and games
//! and HER's brains that outlive a restart.
//!
//! The client's tests build this test by its name to bring the `server` binary up to date
//! (`client/tests/common/server.rs`): a new name goes there too.

mod common;

use std::process::Command;

use common::{Peer, SERVER, ask, data_dir, start, tester};
use parlor_shared::codec::Format;
use parlor_shared::game::{GameSetup, GameState};
use parlor_shared::hexapawn::{Brain, MAX_MATCH_ROUNDS, MatchSetup, Pace};
use parlor_shared::protocol::{ClientMsg, ErrorCode, SeatSpec, ServerMsg};

#[test]
fn help_explains_the_options() {
    let output = Command::new(SERVER).arg("--help").output().unwrap();
    assert!(output.status.success());
    let help = String::from_utf8(output.stdout).unwrap();
    for option in ["--addr", "--data", "127.0.0.1:7878"] {
        assert!(help.contains(option), "{help}");
    }
}

#[test]
fn a_log_that_cannot_be_written_does_not_stop_the_server() {
    let Ok(full) = std::fs::File::options().write(true).open("/dev/full") else {
        return; // not Linux
    };
    let mut server = Command::new(SERVER)
        .env("PARLOR_HOME", common::TEST_HOME)
        .args(["--memory", "--addr", "127.0.0.1:0"])
        .stderr(full)
        .spawn()
        .unwrap();
    // It logs as it starts; a log it could not write used to panic it (exit code 101).
    std::thread::sleep(std::time::Duration::from_secs(1));
    let ended = server.try_wait().unwrap();
    let _ = server.kill();
    let _ = server.wait();
    assert_eq!(ended, None, "still serving");
}

#[test]
fn limits_out_of_range_are_refused_before_the_server_starts() {
    // The largest idle timeout used to be taken, and every connection then panicked when
    // adding it to the clock.
    for (flag, value, range) in [
        ("--idle-timeout-secs", "18446744073709551615", "21..=86400"),
        ("--idle-timeout-secs", "5", "21..=86400"),
        ("--max-connections", "0", "must be at least 1"),
        ("--connections-per-address", "0", "must be at least 1"),
        (
            "--tables",
            "/no/such/folder/tables",
            "there is no folder /no/such/folder",
        ),
        ("--tables", "/dev/null", "is not a folder"),
    ] {
        let output = Command::new(SERVER)
            .args(["--memory", "--addr", "127.0.0.1:0", flag, value])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{flag} {value}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(
            stderr.contains(flag) && stderr.contains(range),
            "{flag} {value}: {stderr}"
        );
    }
}

#[test]
fn a_bus_address_that_is_not_nats_is_refused_before_anything_starts_and_not_repeated() {
    let output = Command::new(SERVER)
        .args([
            "--addr",
            "127.0.0.1:0",
            "--store",
            "postgres://db.invalid/hall",
        ])
        .args(["--bus", "http://ada:s3cret@bus.invalid:4222"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(!output.status.success());
    assert!(
        stderr.contains("the bus address is not a NATS server's address"),
        "{stderr}"
    );
    assert!(!stderr.contains("s3cret"), "{stderr}");
}

#[test]
fn an_address_in_use_is_a_clear_error_not_a_panic() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let output = Command::new(SERVER)
        .args(["--addr", &addr, "--memory"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("cannot listen on"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[tokio::test]
async fn finished_games_survive_a_restart() {
    let dir = data_dir();
    let data = dir.path().to_str().unwrap();
    let server = start(&["--data", data]);
    let create = ClientMsg::CreateRoom {
        setup: GameSetup::Cave,
        seats: vec![SeatSpec::ai(5), SeatSpec::ai(5)],
    };
    let ServerMsg::RoomCreated { room } = ask(&server.url, vec![create], |m| {
        matches!(m, ServerMsg::RoomCreated { .. })
    })
    .await
    else {
        unreachable!()
    };
    let ServerMsg::State(end) = ask(
        &server.url,
        vec![ClientMsg::Watch { room }],
        |m| matches!(m, ServerMsg::State(s) if s.record.is_some()),
    )
    .await
    else {
        unreachable!()
    };
    drop(server);

    let again = start(&["--data", data]);
    let ServerMsg::Record(record) = ask(
        &again.url,
        vec![ClientMsg::GetRecord {
            id: end.record.unwrap(),
        }],
        |m| matches!(m, ServerMsg::Record(_)),
    )
    .await
    else {
        unreachable!()
    };
    assert_eq!(record.moves, end.moves);
    assert_eq!(Some(record.summary.outcome), end.outcome);
}

#[test]
fn sigterm_stops_a_lone_server_saying_so_and_closing_its_store() {
    let dir = data_dir();
    let data = dir.path().to_str().unwrap();
    let (mut server, log) = common::start_logged(&["--data", data], "info");
    let pid = server.child.id() as i32;
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(10),
            "still running after SIGTERM"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert!(status.success(), "{status}");
    let logged = log.whole();
    assert!(logged.contains("stopping signal=\"SIGTERM\""), "{logged}");
    // The database closed: SQLite copied its WAL back and removed it.
    assert!(!dir.path().join("games.db-wal").exists());
}

/// The brains of an auto match killed in the middle of training (SIGKILL, no shutdown) are
/// whole after a restart: each reads back as a brain, with the games of every round finished
/// before the kill, and the match, resumed, goes on training them.
#[tokio::test]
async fn her_brains_survive_a_kill_in_the_middle_of_training() {
    let dir = data_dir();
    let data = dir.path().to_str().unwrap();
    // Paced, on 4x4 so that its rounds last some plies, to be still training at the kill and
    // after the restart: at full speed a match ends within seconds.
    let setup = MatchSetup {
        dims: "4x4".parse().unwrap(),
        mirrors: false,
        rounds: MAX_MATCH_ROUNDS,
        pace: Pace::PerPly { ms: 1 },
        brains: ["left".into(), "right".into()],
    };
    let mut server = start(&["--data", data]);
    let create = ClientMsg::CreateRoom {
        setup: GameSetup::HerMatch(setup.clone()),
        seats: vec![],
    };
    let ServerMsg::RoomCreated { room } = ask(&server.url, vec![create], |m| {
        matches!(m, ServerMsg::RoomCreated { .. })
    })
    .await
    else {
        unreachable!()
    };
    let ServerMsg::State(running) = ask(&server.url, vec![ClientMsg::Watch { room }], |m| {
        matches!(m, ServerMsg::State(s) if matches!(&s.state, GameState::HerMatch(v) if v.rounds_played >= 200))
    })
    .await
    else {
        unreachable!()
    };
    server.child.kill().unwrap(); // SIGKILL: no chance to finish a write
    server.child.wait().unwrap();
    let GameState::HerMatch(seen) = running.state else {
        unreachable!()
    };

    let again = start(&["--data", data]);
    let ServerMsg::Brains(brains) = ask(&again.url, vec![ClientMsg::ListBrains], |m| {
        matches!(m, ServerMsg::Brains(_))
    })
    .await
    else {
        unreachable!()
    };
    assert_eq!(brains.len(), 2);
    for (summary, name) in brains.iter().zip(["left", "right"]) {
        assert_eq!(summary.name, name);
        assert!(summary.games >= seen.rounds_played, "{summary:?} {seen:?}");
        let json = Peer::connect_as(&again.url, Format::Json, tester())
            .await
            .export_file(name)
            .await;
        let brain = Brain::from_json(&json).expect("a whole brain");
        // Not compared bead for bead with the list: the match went on at the restart and
        // trains the brain between the two answers.
        assert!(brain.boxes() > 0 && brain.beads() > 0, "{summary:?}");
    }
    // The match itself is back and goes on training them; no other match may take them.
    let create = ClientMsg::CreateRoom {
        setup: GameSetup::HerMatch(MatchSetup {
            rounds: 10,
            ..setup
        }),
        seats: vec![],
    };
    let refused = ask(&again.url, vec![create], |m| {
        matches!(
            m,
            ServerMsg::RoomRefused { .. } | ServerMsg::RoomCreated { .. }
        )
    })
    .await;
    assert!(
        matches!(
            refused,
            ServerMsg::RoomRefused {
                code: ErrorCode::BrainBusy,
                ..
            }
        ),
        "{refused:?}"
    );
    let target = brains[0].games + 10;
    ask(
        &again.url,
        vec![ClientMsg::Watch { room }],
        |m| matches!(m, ServerMsg::State(s) if matches!(&s.state, GameState::HerMatch(v) if v.rounds_played >= target)),
    )
    .await;
    let ServerMsg::Brains(after) = ask(&again.url, vec![ClientMsg::ListBrains], |m| {
        matches!(m, ServerMsg::Brains(_))
    })
    .await
    else {
        unreachable!()
    };
    assert!(after[0].games >= target, "{after:?}");
}
