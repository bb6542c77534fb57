//! The client against a scripted fake server (`common::fake_server`): which closes it retries
//! (a full server, also at the first connection) and which it does not (a refused handshake),
//! what it sends again on a resume (seats reclaimed, rooms watched, a join whose answer was
//! lost), and how long requests wait while it reconnects.

mod common;

use std::time::{Duration, Instant};

use parlor_client::identity::Identity;
use parlor_client::net::{Backoff, Connection, NetEvent, QUEUE_LIMIT};
use parlor_shared::protocol::{ClientMsg, ErrorCode, PROTOCOL_VERSION, SeatToken, ServerMsg};

use common::fake_server::{Script, TOKEN, error, fake_server};
use common::net::{PATIENCE, attempts_before_connected, connected, message, reconnecting, until};

fn quick() -> Backoff {
    Backoff {
        first: Duration::from_millis(50),
        max: Duration::from_millis(200),
        give_up_after: Some(Duration::from_secs(3)),
    }
}

#[test]
fn a_full_server_is_retried_and_a_refused_handshake_is_not() {
    let (url, heard) = fake_server(vec![
        Script::WelcomeSeatThenDrop { reads: 2 },
        Script::Full,
        Script::WelcomeThenRead { reads: 2 },
        Script::Refuse,
    ]);
    let connection = Connection::open_with(&url, &Identity::fresh(), Some(quick()));
    connected(&connection);
    message(&connection, |m| {
        matches!(m, ServerMsg::Seated { .. }).then_some(())
    });
    connection.send(ClientMsg::Watch { room: 7 });
    connection.send(ClientMsg::Watch { room: 8 });
    assert_eq!(heard.recv_timeout(PATIENCE).unwrap().len(), 2);
    // The fake drops the connection: attempt 1 meets a full server (1013), attempt 2 resumes.
    let attempts = attempts_before_connected(&connection);
    assert_eq!(attempts.len(), 2, "{attempts:?}");
    assert_eq!(attempts[0].0, 1);
    assert_eq!(attempts[1].0, 2);
    assert!(attempts[1].1.contains("server full"), "{attempts:?}");
    assert!(heard.recv_timeout(PATIENCE).unwrap().is_empty()); // the full server's
    // The resume reclaims the seat with its token and watches the watched rooms again (by
    // room: Reclaim 3, Watch 7, Watch 8; the fake reads the first two, then drops us).
    let resent = heard.recv_timeout(PATIENCE).unwrap();
    let reclaim = ClientMsg::Reclaim {
        room: 3,
        token: SeatToken(TOKEN.into()),
    };
    assert_eq!(resent, vec![reclaim, ClientMsg::Watch { room: 7 }]);
    // A refused handshake ends everything, with the server's reason.
    let (reason, passed) = until(&connection, |event| match event {
        NetEvent::Disconnected(reason) => Some(reason.clone()),
        _ => None,
    });
    assert!(reason.contains("protocol 99"), "{reason}");
    assert_eq!(
        passed
            .iter()
            .filter(|e| matches!(e, NetEvent::Reconnecting { .. }))
            .count(),
        1,
        "{passed:?}"
    );
    assert!(connection.recv_timeout(Duration::from_secs(1)).is_none());
}

#[test]
fn a_server_full_at_the_first_connection_is_tried_again_and_an_absent_one_is_not() {
    let (url, heard) = fake_server(vec![Script::Full, Script::WelcomeThenRead { reads: 1 }]);
    let connection = Connection::open_with(&url, &Identity::fresh(), Some(quick()));
    let attempts = attempts_before_connected(&connection);
    assert_eq!(attempts.len(), 1, "{attempts:?}");
    assert!(attempts[0].1.contains("server full"), "{attempts:?}");
    assert!(heard.recv_timeout(PATIENCE).unwrap().is_empty()); // the full server's
    connection.send(ClientMsg::ListRooms);
    assert_eq!(
        heard.recv_timeout(PATIENCE).unwrap(),
        [ClientMsg::ListRooms]
    );

    // Nobody listens: likely a wrong address, said at once rather than tried forever.
    let nobody = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("ws://{}", nobody.local_addr().unwrap());
    drop(nobody);
    let connection = Connection::open_with(&url, &Identity::fresh(), Some(quick()));
    let (reason, passed) = until(&connection, |event| match event {
        NetEvent::Disconnected(reason) => Some(reason.clone()),
        _ => None,
    });
    assert!(reason.contains("cannot connect"), "{reason}");
    assert!(passed.is_empty(), "{passed:?}");
}

#[test]
fn requests_wait_while_reconnecting_up_to_the_limit_and_the_thread_gives_up_in_time() {
    let (url, heard) = fake_server(vec![Script::WelcomeThenRead { reads: 1 }]);
    let connection = Connection::open_with(&url, &Identity::fresh(), Some(quick()));
    connected(&connection);
    connection.send(ClientMsg::Leave { room: 1 });
    assert_eq!(heard.recv_timeout(PATIENCE).unwrap().len(), 1);
    assert_eq!(reconnecting(&connection), 1);
    for _ in 0..QUEUE_LIMIT + 3 {
        connection.send(ClientMsg::ListGames);
    }
    let started = Instant::now();
    let (reason, passed) = until(&connection, |event| match event {
        NetEvent::Disconnected(reason) => Some(reason.clone()),
        _ => None,
    });
    assert!(reason.contains("gave up reconnecting"), "{reason}");
    assert!(started.elapsed() < Duration::from_secs(5));
    let not_sent = passed
        .iter()
        .filter(|e| matches!(e, NetEvent::NotSent(request) if **request == ClientMsg::ListGames))
        .count();
    assert_eq!(not_sent, 3, "{passed:?}");
    let attempts: Vec<u32> = passed
        .iter()
        .filter_map(|e| match e {
            NetEvent::Reconnecting { attempt, .. } => Some(*attempt),
            _ => None,
        })
        .collect();
    assert!(attempts.len() >= 3, "{attempts:?}");
    assert!(
        attempts.windows(2).all(|w| w[1] == w[0] + 1),
        "{attempts:?}"
    );
}

#[test]
fn a_server_that_welcomes_and_drops_us_again_and_again_is_given_up_on_in_time() {
    const DROPS: usize = 60;
    let scripts = (0..DROPS)
        .map(|_| Script::WelcomeThenRead { reads: 0 })
        .collect();
    let (url, heard) = fake_server(scripts);
    let connection = Connection::open_with(&url, &Identity::fresh(), Some(quick()));
    let started = Instant::now();
    let (reason, _) = until(&connection, |event| match event {
        NetEvent::Disconnected(reason) => Some(reason.clone()),
        _ => None,
    });
    assert!(reason.contains("gave up reconnecting"), "{reason}");
    assert!(started.elapsed() < Duration::from_secs(5));
    // Each brief connection went on with the same outage, not a fresh one.
    let served = heard.try_iter().count();
    assert!(served < DROPS / 2, "{served} connections before giving up");
}

#[test]
fn a_join_whose_answer_was_lost_is_sent_again_and_an_answered_one_is_not() {
    let token = SeatToken(TOKEN.into());
    let join = |room, token: &SeatToken| ClientMsg::JoinSeat {
        room,
        seat: 1,
        token: Some(token.clone()),
    };
    let other = SeatToken::random();
    let seated = ServerMsg::Seated {
        room: 3,
        seat: 1,
        token: token.clone(),
    };
    let (url, heard) = fake_server(vec![
        // Reads the join and drops the connection before answering it.
        Script::WelcomeThenRead { reads: 1 },
        // Hears the same join again, and seats us.
        Script::WelcomeReadThen {
            reads: 1,
            then: vec![seated],
        },
        // Hears the seat reclaimed and another join, which it refuses.
        Script::WelcomeReadThen {
            reads: 2,
            then: vec![error(ErrorCode::SeatTaken, "seat 1 is taken")],
        },
        // Hears the seat reclaimed, and nothing of the refused join.
        Script::WelcomeThenRead { reads: 2 },
    ]);
    let connection = Connection::open_with(&url, &Identity::fresh(), Some(quick()));
    connected(&connection);
    connection.send(join(3, &token));
    assert_eq!(heard.recv_timeout(PATIENCE).unwrap(), vec![join(3, &token)]);
    assert_eq!(heard.recv_timeout(PATIENCE).unwrap(), vec![join(3, &token)]);
    message(&connection, |m| {
        matches!(m, ServerMsg::Seated { room: 3, .. }).then_some(())
    });
    connection.send(join(5, &other));
    let reclaim = ClientMsg::Reclaim {
        room: 3,
        token: token.clone(),
    };
    assert_eq!(
        heard.recv_timeout(PATIENCE).unwrap(),
        vec![reclaim.clone(), join(5, &other)]
    );
    message(&connection, |m| {
        matches!(
            m,
            ServerMsg::Error {
                code: ErrorCode::SeatTaken,
                ..
            }
        )
        .then_some(())
    });
    // Sent once the fourth connection is up, after what the resume sends.
    attempts_before_connected(&connection);
    connection.send(ClientMsg::ListGames);
    assert_eq!(
        heard.recv_timeout(PATIENCE).unwrap(),
        vec![reclaim, ClientMsg::ListGames]
    );
}

/// `client hexapawn brains --server URL ARGS...`: its exit success, stdout and stderr.
fn brains_command(url: &str, args: &[&str]) -> (bool, String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_client"))
        .args(["hexapawn", "brains", "--server", url])
        .args(args)
        .output()
        .unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (
        output.status.success(),
        text(&output.stdout),
        text(&output.stderr),
    )
}

#[test]
fn a_server_of_another_protocol_version_is_refused_even_when_it_welcomes_us() {
    let (url, _heard) = fake_server(vec![Script::Stranger]);
    let (ok, _, stderr) = brains_command(&url, &["list"]);
    assert!(!ok);
    assert!(
        stderr.contains(&format!("speaks protocol {}", PROTOCOL_VERSION + 1)),
        "{stderr}"
    );
}

#[test]
fn a_handshake_answered_with_an_error_says_so_at_once() {
    let (url, _heard) = fake_server(vec![Script::Oops]);
    let started = Instant::now();
    let (ok, _, stderr) = brains_command(&url, &["list"]);
    assert!(!ok);
    assert!(stderr.contains("the server refused us: oops"), "{stderr}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "not after a timeout"
    );
}

#[test]
fn an_export_keeps_the_file_unless_the_server_sends_a_brain_file_of_that_name() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("her.json");
    std::fs::write(&out, "KNOWN CONTENT\n").unwrap();
    let part = |name: &str, json: &str| ServerMsg::Brain {
        name: name.into(),
        part: 0,
        parts: 1,
        json: json.into(),
    };
    let good = parlor_shared::hexapawn::Brain::new(parlor_shared::hexapawn::Dims::HEXAPAWN, false);
    let answers = [
        // Not a brain file: refused.
        (
            vec![part("HER", "this is not a brain file")],
            "not a brain file",
        ),
        // Another brain's file, then the list, are not the answer; the refusal that follows is.
        (
            vec![
                part("SOMEONE ELSE", &good.to_json()),
                ServerMsg::Brains(Vec::new()),
                error(ErrorCode::NoSuchBrain, "no brain named HER"),
            ],
            "no brain named HER",
        ),
    ];
    for (then, expected) in answers {
        let (url, _heard) = fake_server(vec![Script::WelcomeReadThen { reads: 1, then }]);
        let out_arg = out.to_str().unwrap();
        let (ok, stdout, stderr) = brains_command(&url, &["export", "HER", "--out", out_arg]);
        assert!(!ok, "{stdout}");
        assert!(stderr.contains(expected), "{stderr}");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "KNOWN CONTENT\n");
    }
}

#[test]
fn messages_that_are_not_the_answer_buy_no_time() {
    // Four seconds of lobby news, one message every 100 ms, and never the list asked for.
    let news = ServerMsg::Rooms {
        rooms: Vec::new(),
        partial: false,
    };
    let (url, _heard) = fake_server(vec![Script::WelcomeReadThenSlowly {
        reads: 1,
        then: vec![news; 40],
        pace: Duration::from_millis(100),
    }]);
    let started = Instant::now();
    let (ok, _, stderr) = brains_command(&url, &["--timeout", "1", "list"]);
    assert!(!ok);
    assert!(stderr.contains("no answer from"), "{stderr}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "the news kept it waiting: {:?}",
        started.elapsed()
    );
}

#[test]
fn names_from_the_server_cannot_act_on_the_terminal() {
    let summary = parlor_shared::protocol::BrainSummary {
        name: "\u{1b}]0;PWNED\u{7}\u{1b}[2J\u{202e}evil".into(),
        dims: parlor_shared::hexapawn::Dims::HEXAPAWN,
        mirrors: false,
        boxes: 1,
        beads: 1,
        games: 1,
        updated_at: 0,
    };
    let (url, _heard) = fake_server(vec![Script::WelcomeReadThen {
        reads: 1,
        then: vec![ServerMsg::Brains(vec![summary])],
    }]);
    let (ok, stdout, _) = brains_command(&url, &["list"]);
    assert!(ok);
    assert!(stdout.contains("?]0;PWNED??[2J?evil"), "{stdout}");
    assert!(!stdout.contains('\u{1b}') && !stdout.contains('\u{202e}'));
}
