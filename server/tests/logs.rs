//! What the `server` binary logs: no seat token or player secret even at trace level, where
//! the WebSocket library would log every frame, and a client's text only cut short.

mod common;

use std::process::Command;

use common::{Peer, SERVER, cave, start_logged};
use parlor_shared::codec::{Format, MAX_FRAME_BYTES};
use parlor_shared::identity::PlayerSecret;
use parlor_shared::protocol::{
    ClientMsg, ErrorCode, PROTOCOL_VERSION, SeatSpec, SeatToken, ServerMsg,
};
use tokio_tungstenite::tungstenite::Message;

/// A secret (a seat token or a player's) as it may show in a log: itself, or the hex of its
/// bytes in a dumped frame.
fn traces_of(secret: &str) -> [String; 2] {
    let hex = secret.bytes().map(|byte| format!("{byte:02x}")).collect();
    [secret.to_string(), hex]
}

/// The secrets of a session: the seat tokens and the players' secrets.
struct Secrets {
    tokens: [SeatToken; 2],
    players: [PlayerSecret; 2],
}

impl Secrets {
    fn all(&self) -> Vec<&str> {
        let tokens = self.tokens.iter().map(|token| token.0.as_str());
        tokens
            .chain(self.players.iter().map(|p| p.0.as_str()))
            .collect()
    }
}

/// Seats two players with tokens of their own, one speaking JSON and one binary, plays a move
/// each, reclaims a seat on a new connection, and sends a garbled first frame that holds a
/// token: the server's whole log, under `rust_log`, and the secrets.
async fn play_under(rust_log: &str) -> (String, Secrets) {
    let (server, log) = start_logged(&["--memory"], rust_log);
    let tokens = [SeatToken::random(), SeatToken::random()];
    let secrets = [PlayerSecret::random(), PlayerSecret::random()];
    let mut players = [
        Peer::connect_as(&server.url, Format::Json, &secrets[0]).await,
        Peer::connect_as(&server.url, Format::Binary, &secrets[1]).await,
    ];
    let room = players[0]
        .create_room(vec![SeatSpec::Human, SeatSpec::Human])
        .await;
    for ((player, token), seat) in players.iter_mut().zip(&tokens).zip(0..) {
        player
            .send(ClientMsg::JoinSeat {
                room,
                seat,
                token: Some(token.clone()),
            })
            .await;
        player
            .recv_until(|m| matches!(m, ServerMsg::Seated { .. }).then_some(()))
            .await;
    }
    for ((player, token), (version, cell)) in
        players.iter_mut().zip(&tokens).zip([(0, "a1"), (1, "h8")])
    {
        player.play_and_see(room, token, version, cave(cell)).await;
    }
    let mut again = Peer::connect(&server.url, Format::Json).await;
    assert_eq!(again.reclaim(room, &tokens[0]).await, 0);
    let mut garbled = Peer::raw(&server.url, Format::Json).await;
    // serde's error quotes the string where it wanted a number.
    let frame = format!(r#"{{"Reclaim":{{"room":"{}","token":"x"}}}}"#, tokens[1].0);
    garbled.send_raw(Message::Text(frame.into())).await;
    let told = garbled.expect_error(ErrorCode::Handshake).await;
    assert!(
        told.contains(&tokens[1].0),
        "the client is told what it sent: {told}"
    );
    log.wait_for("handshake failed");
    server.kill_9();
    let secrets = Secrets {
        tokens,
        players: secrets,
    };
    (log.whole(), secrets)
}

#[tokio::test]
async fn seat_tokens_and_player_secrets_reach_no_log_even_at_trace_level() {
    let (log, secrets) = play_under("trace").await;
    for secret in secrets.all() {
        for trace in traces_of(secret) {
            assert!(!log.contains(&trace), "{trace} in the log:\n{log}");
        }
    }
    // Levels below info were on: the server's own debug lines are there.
    assert!(log.contains("DEBUG") && log.contains("move"), "{log}");

    // Asked for by name, the library logs its frames, tokens and all: what the filter keeps out.
    let (log, secrets) = play_under("trace,tungstenite=trace").await;
    assert!(log.contains("TRACE tungstenite"), "{log}");
    for secret in secrets.all() {
        assert!(
            traces_of(secret).iter().any(|trace| log.contains(trace)),
            "{log}"
        );
    }
}

#[tokio::test]
async fn a_huge_client_name_leaves_a_small_log() {
    let (server, log) = start_logged(&["--memory"], "trace");
    let mut peer = Peer::raw(&server.url, Format::Json).await;
    peer.send(ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        // Each newline is two bytes of JSON.
        client: "\n".repeat(100) + &"x".repeat(MAX_FRAME_BYTES - 400),
        player: PlayerSecret::random(),
        name: "Ada".into(),
    })
    .await;
    assert!(matches!(peer.recv().await, ServerMsg::Welcome { .. }));
    log.wait_for("connected");
    server.kill_9();
    let log = log.whole();
    assert!(log.len() < 20_000, "{} bytes of log", log.len());
    assert!(log.contains("bytes)"), "the name's cut is said: {log}");
    assert!(
        !log.contains("\n\n"),
        "the name's newlines reached the log: {log}"
    );
}

#[test]
fn help_says_how_to_see_the_websocket_librarys_logs() {
    let output = Command::new(SERVER).arg("--help").output().unwrap();
    let help = String::from_utf8(output.stdout).unwrap();
    assert!(help.contains("tungstenite"), "{help}");
}
