//! The `server` binary itself: its help, its start-up errors, and games that outlive a restart.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use parlor_server::wire::{self, Incoming};
use parlor_shared::codec::Format;
use parlor_shared::game::GameSetup;
use parlor_shared::protocol::{ClientMsg, PROTOCOL_VERSION, SeatSpec, ServerMsg};

const SERVER: &str = env!("CARGO_BIN_EXE_server");

/// A running `server` process, killed when dropped.
struct Running {
    child: Child,
    url: String,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the binary on a free port and reads the address it logs.
fn start(args: &[&str]) -> Running {
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

async fn ask(url: &str, requests: Vec<ClientMsg>, until: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let hello = ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        client: "binary-test".into(),
    };
    for request in std::iter::once(hello).chain(requests) {
        socket
            .send(wire::encode(&request, Format::Json).unwrap())
            .await
            .unwrap();
    }
    loop {
        let next = tokio::time::timeout(Duration::from_secs(20), socket.next())
            .await
            .unwrap();
        if let Incoming::Message(message, _) = wire::decode::<ServerMsg>(next.unwrap().unwrap())
            && until(&message)
        {
            return message;
        }
    }
}

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
    let dir = std::env::temp_dir().join(format!("parlor-binary-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let data = dir.to_str().unwrap();
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
    drop(again);
    std::fs::remove_dir_all(&dir).unwrap();
}
