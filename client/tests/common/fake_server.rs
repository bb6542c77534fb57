//! A scripted fake server for the client's reconnect tests: each connection it takes plays one
//! [`Script`] (welcome or refuse, read so many requests, answer, close with a code), and what
//! each connection asked after its `Hello` comes back to the test.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use parlor_shared::codec::Format;
use parlor_shared::protocol::{ClientMsg, ErrorCode, PROTOCOL_VERSION, SeatToken, ServerMsg};
use parlor_wire::{self as wire, Incoming};
use tokio::net::TcpStream;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// What a scripted fake server does with one connection, after reading its `Hello`.
pub enum Script {
    /// `Welcome`, then `Seated` for room 3 (seat 1), then closes after reading `reads` requests.
    WelcomeSeatThenDrop { reads: usize },
    /// `Welcome`, then records `reads` requests and closes.
    WelcomeThenRead { reads: usize },
    /// `Welcome`, then records `reads` requests, answers with `then` and closes.
    WelcomeReadThen { reads: usize, then: Vec<ServerMsg> },
    /// `Welcome`, then records `reads` requests, and says `then` one message every `pace`.
    WelcomeReadThenSlowly {
        reads: usize,
        then: Vec<ServerMsg>,
        pace: Duration,
    },
    /// `Error{ServerBusy}` and close code 1013.
    Full,
    /// `Error{Handshake}` and close code 1008, as for a protocol mismatch.
    Refuse,
    /// A `Welcome` that names another protocol version, then closes.
    Stranger,
    /// `Error{Internal}` instead of `Welcome`, and the connection left open a while.
    Oops,
}

/// The seat token `Script::WelcomeSeatThenDrop` hands out.
pub const TOKEN: &str = "00112233445566778899aabbccddeeff";

/// A fake server that plays `scripts` to its successive connections and then stops listening;
/// returns its address and a receiver of the requests each connection sent after `Hello`.
pub fn fake_server(scripts: Vec<Script>) -> (String, std::sync::mpsc::Receiver<Vec<ClientMsg>>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    listener.set_nonblocking(true).unwrap();
    let (heard_tx, heard) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            for script in scripts {
                let (stream, _) = listener.accept().await.unwrap();
                let mut socket = tokio_tungstenite::accept_async(stream).await.unwrap();
                let hello = read_request(&mut socket).await;
                assert!(matches!(hello, ClientMsg::Hello { .. }));
                // What it says before reading, how many requests it reads, what it says
                // after, and how it closes.
                let mut pace = Duration::ZERO;
                let (before, reads, after, close) = match script {
                    Script::WelcomeSeatThenDrop { reads } => {
                        let seated = ServerMsg::Seated {
                            room: 3,
                            seat: 1,
                            token: SeatToken(TOKEN.into()),
                        };
                        (vec![welcome(), seated], reads, Vec::new(), None)
                    }
                    Script::WelcomeThenRead { reads } => (vec![welcome()], reads, Vec::new(), None),
                    Script::WelcomeReadThen { reads, then } => (vec![welcome()], reads, then, None),
                    Script::WelcomeReadThenSlowly {
                        reads,
                        then,
                        pace: every,
                    } => {
                        pace = every;
                        (vec![welcome()], reads, then, None)
                    }
                    Script::Full => {
                        let busy = error(ErrorCode::ServerBusy, "the server is full");
                        let close = Some((CloseCode::Again, "server full"));
                        (vec![busy], 0, Vec::new(), close)
                    }
                    Script::Oops => {
                        let oops = error(ErrorCode::Internal, "oops");
                        (vec![oops], 0, Vec::new(), None)
                    }
                    Script::Stranger => {
                        let other = ServerMsg::Welcome {
                            protocol: PROTOCOL_VERSION + 1,
                            server: "from the future".into(),
                            player: fake_player(),
                        };
                        (vec![other], 0, Vec::new(), None)
                    }
                    Script::Refuse => {
                        let message = "this server speaks protocol 99";
                        let refusal = error(ErrorCode::Handshake, message);
                        let close = Some((CloseCode::Policy, message));
                        (vec![refusal], 0, Vec::new(), close)
                    }
                };
                send_all(&mut socket, before).await;
                let mut heard = Vec::new();
                for _ in 0..reads {
                    heard.push(read_request(&mut socket).await);
                }
                let _ = heard_tx.send(heard);
                for message in after {
                    tokio::time::sleep(pace).await;
                    send_all(&mut socket, vec![message]).await;
                }
                let frame = close.map(|(code, reason)| CloseFrame {
                    code,
                    reason: reason.into(),
                });
                let _ = socket.close(frame).await;
                // Let the client read the close before the socket goes.
                let _ = tokio::time::timeout(Duration::from_millis(200), socket.next()).await;
            }
            // Stop listening: further attempts are refused.
        });
    });
    (format!("ws://{addr}"), heard)
}

async fn send_all(socket: &mut WebSocketStream<TcpStream>, messages: Vec<ServerMsg>) {
    for message in messages {
        let frame = wire::encode(&message, Format::Binary).unwrap();
        socket.send(frame).await.unwrap();
    }
}

async fn read_request(socket: &mut WebSocketStream<TcpStream>) -> ClientMsg {
    loop {
        let frame = socket.next().await.unwrap().unwrap();
        if let Incoming::Message(message, _) = wire::decode::<ClientMsg>(frame) {
            return message;
        }
    }
}

fn welcome() -> ServerMsg {
    ServerMsg::Welcome {
        protocol: PROTOCOL_VERSION,
        server: "fake".into(),
        player: fake_player(),
    }
}

fn fake_player() -> parlor_shared::identity::Player {
    parlor_shared::identity::Player {
        id: parlor_shared::identity::PlayerId(1),
        name: "tester".into(),
    }
}

pub fn error(code: ErrorCode, message: &str) -> ServerMsg {
    ServerMsg::Error {
        code,
        message: message.into(),
    }
}
