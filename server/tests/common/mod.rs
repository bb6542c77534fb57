//! The real `server` binary on a free port, and a minimal WebSocket client for it.

#![allow(dead_code)] // each test binary uses its own part of this module

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use parlor_server::wire::{self, Incoming};
use parlor_shared::codec::Format;
use parlor_shared::game::{GameMove, GameSetup};
use parlor_shared::protocol::{
    ClientMsg, ErrorCode, PROTOCOL_VERSION, RoomId, RoomSnapshot, SeatSpec, SeatToken, ServerMsg,
};
use tokio::net::TcpStream;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub const SERVER: &str = env!("CARGO_BIN_EXE_server");
const PATIENCE: Duration = Duration::from_secs(20);

/// A running `server` process, killed when dropped.
pub struct Running {
    pub child: Child,
    pub url: String,
}

impl Running {
    /// SIGKILL: the server gets no chance to finish a write or shut down.
    pub fn kill_9(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the binary on a free port and reads the address it logs.
pub fn start(args: &[&str]) -> Running {
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

/// A fresh data directory for one test.
pub fn data_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("parlor-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Connects, sends `requests` and returns the first answer `until` accepts.
pub async fn ask(
    url: &str,
    requests: Vec<ClientMsg>,
    until: impl Fn(&ServerMsg) -> bool,
) -> ServerMsg {
    let mut client = Client::connect(url).await;
    for request in requests {
        client.send(request).await;
    }
    client.recv_until(|m| until(&m).then_some(m)).await
}

/// A client speaking JSON.
pub struct Client {
    socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    pub async fn connect(url: &str) -> Client {
        let (socket, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("connects");
        let mut client = Client { socket };
        client
            .send(ClientMsg::Hello {
                protocol: PROTOCOL_VERSION,
                client: "server-test".into(),
            })
            .await;
        client
            .recv_until(|m| matches!(m, ServerMsg::Welcome { .. }).then_some(()))
            .await;
        client
    }

    pub async fn send(&mut self, message: ClientMsg) {
        let frame = wire::encode(&message, Format::Json).unwrap();
        self.socket.send(frame).await.expect("send");
    }

    pub async fn recv(&mut self) -> ServerMsg {
        loop {
            let frame = tokio::time::timeout(PATIENCE, self.socket.next())
                .await
                .expect("no message from the server in time")
                .expect("connection open")
                .expect("good frame");
            match wire::decode::<ServerMsg>(frame) {
                Incoming::Message(message, _) => return message,
                Incoming::Garbled(error, _) => panic!("server sent a bad frame: {error}"),
                Incoming::Control => continue,
                Incoming::Close => panic!("server closed the connection"),
            }
        }
    }

    /// Skips messages until one is picked.
    pub async fn recv_until<T>(&mut self, mut pick: impl FnMut(ServerMsg) -> Option<T>) -> T {
        loop {
            if let Some(found) = pick(self.recv().await) {
                return found;
            }
        }
    }

    /// The next state of `room` that satisfies `accept`.
    pub async fn state_where(
        &mut self,
        room: RoomId,
        accept: impl Fn(&RoomSnapshot) -> bool,
    ) -> RoomSnapshot {
        self.recv_until(|m| match m {
            ServerMsg::State(s) if s.room == room && accept(&s) => Some(s),
            ServerMsg::Error { code, message } => panic!("{code:?}: {message}"),
            _ => None,
        })
        .await
    }

    /// The next error, which must have `code`.
    pub async fn expect_error(&mut self, code: ErrorCode) -> String {
        self.recv_until(|m| match m {
            ServerMsg::Error { code: got, message } => {
                assert_eq!(got, code, "{message}");
                Some(message)
            }
            _ => None,
        })
        .await
    }

    pub async fn create(&mut self, setup: GameSetup, seats: Vec<SeatSpec>) -> RoomId {
        self.send(ClientMsg::CreateRoom { setup, seats }).await;
        self.recv_until(|m| match m {
            ServerMsg::RoomCreated { room } => Some(room),
            ServerMsg::Error { message, .. } => panic!("create refused: {message}"),
            _ => None,
        })
        .await
    }

    /// Joins a seat; returns its token.
    pub async fn join(&mut self, room: RoomId, seat: u8) -> SeatToken {
        self.send(ClientMsg::JoinSeat { room, seat }).await;
        self.seated(room, seat).await
    }

    /// Takes a seat back with its token; returns the seat.
    pub async fn reclaim(&mut self, room: RoomId, token: &SeatToken) -> u8 {
        self.send(ClientMsg::Reclaim {
            room,
            token: token.clone(),
        })
        .await;
        self.recv_until(|m| match m {
            ServerMsg::Seated { room: r, seat, .. } if r == room => Some(seat),
            ServerMsg::Error { code, message } => panic!("reclaim refused: {code:?} {message}"),
            _ => None,
        })
        .await
    }

    async fn seated(&mut self, room: RoomId, seat: u8) -> SeatToken {
        self.recv_until(|m| match m {
            ServerMsg::Seated {
                room: r,
                seat: s,
                token,
            } if r == room && s == seat => Some(token),
            ServerMsg::Error { code, message } => panic!("join refused: {code:?} {message}"),
            _ => None,
        })
        .await
    }

    /// Sends a move made on `version`.
    pub async fn play(&mut self, room: RoomId, token: &SeatToken, version: u64, mv: GameMove) {
        self.send(ClientMsg::Move {
            room,
            token: token.clone(),
            version,
            mv,
        })
        .await;
    }

    /// Plays `mv` on `version` and waits for the room to be at `version + 1` or later.
    pub async fn play_and_see(
        &mut self,
        room: RoomId,
        token: &SeatToken,
        version: u64,
        mv: GameMove,
    ) -> RoomSnapshot {
        self.play(room, token, version, mv).await;
        self.state_where(room, |s| s.version > version).await
    }

    /// Watches `room`; returns the first state.
    pub async fn watch(&mut self, room: RoomId) -> RoomSnapshot {
        self.send(ClientMsg::Watch { room }).await;
        self.state_where(room, |_| true).await
    }
}
