//! A real server on a loopback port and a minimal WebSocket peer that speaks the protocol in
//! either format, for the integration tests.

#![allow(dead_code)] // each test binary uses its own part of this module

use std::time::Duration;

use tempfile::TempDir;

use futures_util::{SinkExt, StreamExt};
use parlor_server::{BackgroundServer, Limits, ServerConfig};
use parlor_shared::brain_parts::{Assembly, Part};
use parlor_shared::codec::Format;
use parlor_shared::game::{GameMove, GameSetup};
use parlor_shared::hexapawn::Brain;
use parlor_shared::identity::{Player, PlayerSecret};
use parlor_shared::protocol::{
    BrainSummary, ClientMsg, ErrorCode, GameRecord, HeldSeat, PROTOCOL_VERSION, RecordId,
    RecordSummary, RoomId, RoomSnapshot, RoomSummary, SeatSpec, SeatToken, ServerMsg,
};
use parlor_wire::{self as wire, Incoming};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

const PATIENCE: Duration = Duration::from_secs(10);

/// Starts a server with its database in a fresh temporary directory, named after the test and
/// removed when the returned directory is dropped at the test's end.
pub fn start_server(name: &str) -> (BackgroundServer, TempDir) {
    start_server_with(name, Limits::default())
}

/// Starts a server with the given limits.
pub fn start_server_with(name: &str, limits: Limits) -> (BackgroundServer, TempDir) {
    let dir = tempfile::Builder::new()
        .prefix(&format!("parlor-test-{name}-"))
        .tempdir()
        .expect("a temporary directory");
    let mut config = ServerConfig::new(
        "127.0.0.1:0".parse().unwrap(),
        Some(dir.path().to_path_buf()),
    );
    config.limits = limits;
    (
        parlor_server::start_in_background(config).expect("server starts"),
        dir,
    )
}

pub struct Peer {
    pub socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    pub format: Format,
    /// Who the server welcomed this peer as (once greeted).
    pub player: Option<Player>,
}

impl Peer {
    /// Connects without greeting.
    pub async fn raw(url: &str, format: Format) -> Peer {
        let (socket, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("connects");
        Peer {
            socket,
            format,
            player: None,
        }
    }

    /// Connects from the local address `from` (any of 127.0.0.0/8 reaches a server on
    /// 127.0.0.1: a second address on one machine) and completes the handshake as `secret`.
    pub async fn connect_from(
        url: &str,
        format: Format,
        from: std::net::IpAddr,
        secret: &PlayerSecret,
    ) -> Peer {
        let server: std::net::SocketAddr = url
            .trim_start_matches("ws://")
            .trim_end_matches('/')
            .parse()
            .expect("a ws://IP:PORT url");
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket
            .bind((from, 0).into())
            .expect("a local address to bind");
        let stream = socket.connect(server).await.expect("connects");
        let (socket, _) = tokio_tungstenite::client_async(url, MaybeTlsStream::Plain(stream))
            .await
            .expect("a WebSocket");
        let peer = Peer {
            socket,
            format,
            player: None,
        };
        Peer::greet_as(peer, secret, "tester").await
    }

    /// Connects and completes the handshake as a new player of its own.
    pub async fn connect(url: &str, format: Format) -> Peer {
        Peer::greet(Peer::raw(url, format).await).await
    }

    /// Connects and completes the handshake as the holder of `secret`.
    pub async fn connect_as(url: &str, format: Format, secret: &PlayerSecret) -> Peer {
        Peer::greet_as(Peer::raw(url, format).await, secret, "tester").await
    }

    /// Completes the handshake on a fresh connection, as a new player of its own.
    pub async fn greet(peer: Peer) -> Peer {
        Peer::greet_as(peer, &PlayerSecret::random(), "tester").await
    }

    /// Completes the handshake on a fresh connection as the holder of `secret`, named `name`.
    pub async fn greet_as(mut peer: Peer, secret: &PlayerSecret, name: &str) -> Peer {
        peer.send(ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            client: "test".into(),
            player: secret.clone(),
            name: name.into(),
        })
        .await;
        match peer.recv().await {
            ServerMsg::Welcome {
                protocol, player, ..
            } => {
                assert_eq!(protocol, PROTOCOL_VERSION);
                peer.player = Some(player);
            }
            other => panic!("expected Welcome, got {other:?}"),
        }
        peer
    }

    pub async fn send(&mut self, message: ClientMsg) {
        assert!(self.try_send(message).await, "send");
    }

    /// Sends unless the server has already closed the connection (a flood's later frames).
    pub async fn try_send(&mut self, message: ClientMsg) -> bool {
        let frame = wire::encode(&message, self.format).unwrap();
        self.socket.send(frame).await.is_ok()
    }

    pub async fn send_raw(&mut self, message: Message) {
        self.socket.send(message).await.expect("send");
    }

    /// Reads until the server closes the connection; the close code it gave, if any.
    pub async fn expect_close(&mut self) -> Option<CloseCode> {
        loop {
            let next = tokio::time::timeout(PATIENCE, self.socket.next())
                .await
                .expect("the server did not close the connection in time");
            match next {
                Some(Ok(Message::Close(frame))) => return frame.map(|frame| frame.code),
                Some(Ok(_)) => continue,
                None | Some(Err(_)) => return None,
            }
        }
    }

    /// The next protocol message; checks the server answered in our format.
    pub async fn recv(&mut self) -> ServerMsg {
        loop {
            let message = tokio::time::timeout(PATIENCE, self.socket.next())
                .await
                .expect("no message from the server in time")
                .expect("connection open")
                .expect("good frame");
            let is_text = message.is_text();
            match wire::decode::<ServerMsg>(message) {
                Incoming::Message(message, format) => {
                    assert_eq!(format, self.format, "the server answered in another format");
                    assert_eq!(is_text, self.format == Format::Json);
                    return message;
                }
                Incoming::Garbled(error, _) => panic!("server sent a bad frame: {error}"),
                Incoming::Control => continue,
                Incoming::Close => panic!("server closed the connection"),
            }
        }
    }

    /// Sends `request` and waits for the answer `pick` takes.
    pub async fn ask<T>(
        &mut self,
        request: ClientMsg,
        pick: impl FnMut(ServerMsg) -> Option<T>,
    ) -> T {
        self.send(request).await;
        self.recv_until(pick).await
    }

    /// Skips messages until one matches.
    pub async fn recv_until<T>(&mut self, mut pick: impl FnMut(ServerMsg) -> Option<T>) -> T {
        loop {
            if let Some(found) = pick(self.recv().await) {
                return found;
            }
        }
    }

    /// The next state of `room` that satisfies `accept`.
    /// HER's brains the server lists to this peer.
    pub async fn brains(&mut self) -> Vec<BrainSummary> {
        self.brains_after(ClientMsg::ListBrains)
            .await
            .expect("the brains listed")
    }

    /// The brain list that answers `request` (a list, a reset, a delete), or the refusal.
    pub async fn brains_after(
        &mut self,
        request: ClientMsg,
    ) -> Result<Vec<BrainSummary>, (ErrorCode, String)> {
        self.send(request).await;
        self.recv_until(|m| match m {
            ServerMsg::Brains(brains) => Some(Ok(brains)),
            ServerMsg::Error { code, message } => Some(Err((code, message))),
            _ => None,
        })
        .await
    }

    /// Sends the brain file `json` as the brain `name`, in its parts.
    pub async fn import(&mut self, name: &str, json: &str) {
        for request in parlor_shared::brain_parts::import_requests(name, json) {
            self.send(request).await;
        }
    }

    /// The brain `name`, exported.
    pub async fn export(&mut self, name: &str) -> Brain {
        Brain::from_json(&self.export_file(name).await).expect("a brain file")
    }

    /// The brain file `name`, exported and joined from its parts.
    pub async fn export_file(&mut self, name: &str) -> String {
        self.send(ClientMsg::ExportBrain { name: name.into() })
            .await;
        let mut file = None;
        loop {
            let joined = self
                .recv_until(|m| {
                    let part = Part::of_export(&m)?;
                    Some(Assembly::take(&mut file, part).expect("parts in order"))
                })
                .await;
            if let Some((_, json)) = joined {
                return json;
            }
        }
    }

    pub async fn state_where(
        &mut self,
        room: RoomId,
        accept: impl Fn(&RoomSnapshot) -> bool,
    ) -> RoomSnapshot {
        self.recv_until(|m| match m {
            ServerMsg::State(s) if s.room == room && accept(&s) => Some(s),
            _ => None,
        })
        .await
    }

    /// The state of a finished game that carries its stored record's id: `last` itself when
    /// the final move and the record reached this peer in one state (a reader that falls
    /// behind gets only the newest state), else the next state with a record.
    pub async fn recorded(&mut self, room: RoomId, last: RoomSnapshot) -> RoomSnapshot {
        if last.record.is_some() {
            return last;
        }
        self.state_where(room, |s| s.record.is_some()).await
    }

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

    /// The seats this player holds, and those rematches keep for them (`ListMySeats`).
    pub async fn my_seats(&mut self) -> Vec<HeldSeat> {
        self.ask(ClientMsg::ListMySeats, |m| match m {
            ServerMsg::MySeats(seats) => Some(seats),
            _ => None,
        })
        .await
    }

    /// The lobby's list of open rooms.
    pub async fn list_rooms(&mut self) -> Vec<RoomSummary> {
        self.lobby().await.0
    }

    /// The lobby's list, and whether the server says it is partial.
    pub async fn lobby(&mut self) -> (Vec<RoomSummary>, bool) {
        self.ask(ClientMsg::ListRooms, |m| match m {
            ServerMsg::Rooms { rooms, partial } => Some((rooms, partial)),
            _ => None,
        })
        .await
    }

    /// The stored games, newest first.
    pub async fn list_records(&mut self) -> Vec<RecordSummary> {
        self.ask(ClientMsg::ListRecords, |m| match m {
            ServerMsg::Records(records) => Some(records),
            _ => None,
        })
        .await
    }

    /// A stored game's record.
    pub async fn record(&mut self, id: RecordId) -> GameRecord {
        self.ask(ClientMsg::GetRecord { id }, |m| match m {
            ServerMsg::Record(record) => Some(record),
            _ => None,
        })
        .await
    }

    /// Asks for a room that must be refused with `code`; the refusal's message.
    pub async fn create_refused(
        &mut self,
        setup: GameSetup,
        seats: Vec<SeatSpec>,
        code: ErrorCode,
    ) -> String {
        self.ask(ClientMsg::CreateRoom { setup, seats }, |m| match m {
            ServerMsg::RoomRefused { code: got, message } => {
                assert_eq!(got, code, "{message}");
                Some(message)
            }
            ServerMsg::RoomCreated { room } => panic!("room {room} created, not refused"),
            ServerMsg::Error { code, message } => {
                panic!("an error, not a refusal: {code:?} {message}")
            }
            _ => None,
        })
        .await
    }

    /// Creates a Magnetic Cave room.
    pub async fn create_room(&mut self, seats: Vec<SeatSpec>) -> RoomId {
        self.create(GameSetup::Cave, seats).await
    }

    pub async fn create(&mut self, setup: GameSetup, seats: Vec<SeatSpec>) -> RoomId {
        self.ask(ClientMsg::CreateRoom { setup, seats }, |m| match m {
            ServerMsg::RoomCreated { room } => Some(room),
            ServerMsg::RoomRefused { message, .. } => panic!("create refused: {message}"),
            _ => None,
        })
        .await
    }

    /// Sends a `JoinSeat` with a fresh token of ours.
    pub async fn ask_to_join(&mut self, room: RoomId, seat: u8) {
        self.send(ClientMsg::join_seat(room, seat)).await;
    }

    /// Asks to join, expecting a refusal with `code`; its message.
    pub async fn join_refused(&mut self, room: RoomId, seat: u8, code: ErrorCode) -> String {
        self.ask_to_join(room, seat).await;
        self.expect_error(code).await
    }

    pub async fn join(&mut self, room: RoomId, seat: u8) -> SeatToken {
        self.ask_to_join(room, seat).await;
        self.recv_until(|m| match m {
            ServerMsg::Seated {
                room: r,
                seat: s,
                token,
            } if r == room && s == seat => Some(token),
            ServerMsg::Error { message, .. } => panic!("join refused: {message}"),
            _ => None,
        })
        .await
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

    /// Watches `room`; returns the first state.
    pub async fn watch(&mut self, room: RoomId) -> RoomSnapshot {
        self.send(ClientMsg::Watch { room }).await;
        self.state_where(room, |_| true).await
    }

    /// Plays `mv` on `version` and waits for the room to be at `version + 1` or later.
    pub async fn play_and_see(
        &mut self,
        room: RoomId,
        token: &SeatToken,
        version: u64,
        mv: GameMove,
    ) -> RoomSnapshot {
        self.send_move(room, token, version, mv).await;
        self.state_where(room, |s| s.version > version).await
    }

    /// Sends a Magnetic Cave move.
    pub async fn play(&mut self, room: RoomId, token: &SeatToken, version: u64, cell: &str) {
        self.send_move(room, token, version, cave(cell)).await;
    }

    /// Sends a move of any game.
    pub async fn send_move(&mut self, room: RoomId, token: &SeatToken, version: u64, mv: GameMove) {
        self.send(ClientMsg::Move {
            room,
            token: token.clone(),
            version,
            mv,
        })
        .await;
    }
}

/// A Magnetic Cave game Black wins: five in a row along the bottom, White's answers along the
/// right.
pub const BLACK_WINS: [&str; 9] = ["a1", "h8", "b1", "h7", "c1", "h6", "d1", "h5", "e1"];

pub fn cave(cell: &str) -> GameMove {
    GameMove::Cave(cell.parse().unwrap())
}
