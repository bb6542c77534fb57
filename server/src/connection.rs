//! One task per client connection: the handshake, then decoding requests, forwarding room
//! commands, and writing everything queued for the client in the format it last spoke.

use std::collections::HashSet;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use parlor_shared::codec::Format;
use parlor_shared::hexapawn::Brain;
use parlor_shared::protocol::{ClientMsg, ErrorCode, PROTOCOL_VERSION, RoomId, ServerMsg};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tracing::{debug, info, warn};

use crate::hall::Hall;
use crate::room::{RoomCommand, Subscriber};
use crate::wire::{self, Incoming};

/// Messages queued for one client before the rooms start dropping states for it.
const OUTBOX: usize = 64;
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// tungstenite never pings on its own; without pings dead peers linger behind NATs.
const PING_EVERY: Duration = Duration::from_secs(20);

type Socket = tokio_tungstenite::WebSocketStream<TcpStream>;

pub async fn serve_connection(stream: TcpStream, peer: SocketAddr, hall: Arc<Hall>) {
    let socket =
        match tokio_tungstenite::accept_async_with_config(stream, Some(wire::websocket_config()))
            .await
        {
            Ok(socket) => socket,
            Err(error) => return debug!(%peer, %error, "not a WebSocket handshake"),
        };
    let mut connection = Connection::new(socket, hall);
    match connection.handshake().await {
        Ok(client) => info!(%peer, conn = connection.me.id, client, "connected"),
        Err(reason) => return debug!(%peer, reason, "handshake failed"),
    }
    if let Err(error) = connection.run().await {
        debug!(%peer, %error, "connection error");
    }
    connection.leave_all().await;
    info!(%peer, conn = connection.me.id, "disconnected");
}

/// The next request and the format it came in (`Err` for an undecodable frame, which leaves
/// the connection usable); `None` once the peer is gone.
async fn next_request(socket: &mut Socket) -> Option<(Result<ClientMsg, String>, Format)> {
    loop {
        match wire::decode::<ClientMsg>(socket.next().await?.ok()?) {
            Incoming::Message(message, format) => return Some((Ok(message), format)),
            Incoming::Garbled(error, format) => return Some((Err(error.to_string()), format)),
            Incoming::Control => continue,
            Incoming::Close => return None,
        }
    }
}

struct Connection {
    socket: Socket,
    hall: Arc<Hall>,
    me: Subscriber,
    outbox: mpsc::Receiver<ServerMsg>,
    /// The format of the client's last frame; answers use it.
    format: Format,
    rooms: HashSet<RoomId>,
}

impl Connection {
    fn new(socket: Socket, hall: Arc<Hall>) -> Connection {
        let (outbox_tx, outbox) = mpsc::channel(OUTBOX);
        let me = Subscriber {
            id: hall.new_conn_id(),
            outbox: outbox_tx,
        };
        Connection {
            socket,
            hall,
            me,
            outbox,
            format: Format::Binary,
            rooms: HashSet::new(),
        }
    }

    /// Waits for `Hello` with our protocol version; answers `Welcome` or an error.
    async fn handshake(&mut self) -> Result<String, String> {
        let first = tokio::time::timeout(HANDSHAKE_TIMEOUT, self.next_request()).await;
        let (code, message) = match first {
            Err(_) => (ErrorCode::Handshake, "no Hello within 10 s".to_string()),
            Ok(None) => return Err("closed before Hello".into()),
            Ok(Some(Ok(ClientMsg::Hello { protocol, client }))) if protocol == PROTOCOL_VERSION => {
                let welcome = ServerMsg::Welcome {
                    protocol: PROTOCOL_VERSION,
                    server: format!("parlor-server {}", env!("CARGO_PKG_VERSION")),
                };
                self.send(&welcome).await.map_err(|e| e.to_string())?;
                return Ok(client);
            }
            Ok(Some(Ok(ClientMsg::Hello { protocol, .. }))) => (
                ErrorCode::Handshake,
                format!("this server speaks protocol {PROTOCOL_VERSION}, the client {protocol}"),
            ),
            Ok(Some(Ok(_))) => (
                ErrorCode::Handshake,
                "the first message must be Hello".into(),
            ),
            Ok(Some(Err(message))) => (ErrorCode::BadFrame, message),
        };
        let _ = self
            .send(&ServerMsg::Error {
                code,
                message: message.clone(),
            })
            .await;
        let _ = self.socket.close(None).await;
        Err(message)
    }

    async fn next_request(&mut self) -> Option<Result<ClientMsg, String>> {
        let (request, format) = next_request(&mut self.socket).await?;
        self.format = format;
        Some(request)
    }

    async fn run(&mut self) -> anyhow::Result<()> {
        let mut ping = tokio::time::interval(PING_EVERY);
        ping.tick().await;
        loop {
            tokio::select! {
                request = next_request(&mut self.socket) => match request {
                    None => return Ok(()),
                    Some((request, format)) => {
                        self.format = format;
                        match request {
                            Ok(message) => self.handle(message).await?,
                            Err(reason) => self.error(ErrorCode::BadFrame, reason).await?,
                        }
                    }
                },
                Some(message) = self.outbox.recv() => self.send(&message).await?,
                _ = ping.tick() => self.socket.send(Message::Ping(Vec::new().into())).await?,
            }
        }
    }

    async fn send(&mut self, message: &ServerMsg) -> anyhow::Result<()> {
        let frame = wire::encode(message, self.format)?;
        self.socket.send(frame).await?;
        Ok(())
    }

    async fn error(&mut self, code: ErrorCode, message: impl Into<String>) -> anyhow::Result<()> {
        self.send(&ServerMsg::Error {
            code,
            message: message.into(),
        })
        .await
    }

    async fn handle(&mut self, request: ClientMsg) -> anyhow::Result<()> {
        let who = self.me.clone();
        match request {
            ClientMsg::Hello { .. } => self.error(ErrorCode::BadRequest, "already greeted").await,
            ClientMsg::ListGames => self.send(&ServerMsg::Games(Hall::games())).await,
            ClientMsg::ListRooms => self.send(&ServerMsg::Rooms(self.hall.list_rooms())).await,
            ClientMsg::CreateRoom { setup, seats } => {
                match self.hall.create_room(setup, seats).await {
                    Ok(room) => self.send(&ServerMsg::RoomCreated { room }).await,
                    Err((code, message)) => self.error(code, message).await,
                }
            }
            ClientMsg::JoinSeat { room, seat } => {
                self.forward_to_room(room, RoomCommand::Join { seat, who })
                    .await
            }
            ClientMsg::Reclaim { room, token } => {
                self.forward_to_room(room, RoomCommand::Reclaim { token, who })
                    .await
            }
            ClientMsg::Watch { room } => {
                self.forward_to_room(room, RoomCommand::Watch { who }).await
            }
            ClientMsg::Leave { room } => {
                let conn = self.me.id;
                self.forward_to_room(room, RoomCommand::Leave { conn })
                    .await?;
                self.rooms.remove(&room);
                Ok(())
            }
            ClientMsg::Move {
                room,
                token,
                version,
                mv,
            } => {
                self.forward_to_room(
                    room,
                    RoomCommand::Move {
                        token,
                        version,
                        mv,
                        who,
                    },
                )
                .await
            }
            ClientMsg::ListBrains
            | ClientMsg::ExportBrain { .. }
            | ClientMsg::ImportBrain { .. }
            | ClientMsg::ResetBrain { .. } => self.handle_brains(request).await,
            ClientMsg::ListRecords => {
                let store = self.hall.store.clone();
                match tokio::task::spawn_blocking(move || store.list()).await? {
                    Ok(records) => self.send(&ServerMsg::Records(records)).await,
                    Err(error) => self.internal(error).await,
                }
            }
            ClientMsg::GetRecord { id } => {
                let store = self.hall.store.clone();
                match tokio::task::spawn_blocking(move || store.get(id)).await? {
                    Ok(Some(record)) => self.send(&ServerMsg::Record(record)).await,
                    Ok(None) => {
                        self.error(ErrorCode::NoSuchRecord, format!("no stored game {id}"))
                            .await
                    }
                    Err(error) => self.internal(error).await,
                }
            }
        }
    }

    /// The brain requests: each runs its store call on a blocking thread and answers with the
    /// brain list (or the brain's JSON), or with the reason it was refused.
    async fn handle_brains(&mut self, request: ClientMsg) -> anyhow::Result<()> {
        let store = self.hall.store.clone();
        let answer = match request {
            ClientMsg::ListBrains => {
                tokio::task::spawn_blocking(move || store.list_brains().map(ServerMsg::Brains))
                    .await?
            }
            ClientMsg::ExportBrain { name } => {
                tokio::task::spawn_blocking(move || {
                    Ok(match store.brain_json(&name)? {
                        Some(json) => ServerMsg::Brain { name, json },
                        None => no_such_brain(&name),
                    })
                })
                .await?
            }
            ClientMsg::ImportBrain { name, json } => {
                if let Err((code, message)) = self.hall.check_brain_free(&name) {
                    return self.error(code, message).await;
                }
                let brain = match Brain::from_json(&json) {
                    Ok(brain) => brain,
                    Err(error) => {
                        return self.error(ErrorCode::BadRequest, error.to_string()).await;
                    }
                };
                tokio::task::spawn_blocking(move || {
                    store.put_brain(&name, &brain)?;
                    store.list_brains().map(ServerMsg::Brains)
                })
                .await?
            }
            ClientMsg::ResetBrain { name } => {
                if let Err((code, message)) = self.hall.check_brain_free(&name) {
                    return self.error(code, message).await;
                }
                tokio::task::spawn_blocking(move || {
                    if !store.reset_brain(&name)? {
                        return Ok(no_such_brain(&name));
                    }
                    store.list_brains().map(ServerMsg::Brains)
                })
                .await?
            }
            other => anyhow::bail!("not a brain request: {other:?}"),
        };
        match answer {
            Ok(message) => self.send(&message).await,
            Err(error) => self.internal(error).await,
        }
    }

    async fn internal(&mut self, error: anyhow::Error) -> anyhow::Result<()> {
        warn!(%error, "request failed");
        self.error(
            ErrorCode::Internal,
            "the server could not read its game store",
        )
        .await
    }

    /// Forwards a command to a room; the room answers through this connection's outbox.
    async fn forward_to_room(&mut self, room: RoomId, command: RoomCommand) -> anyhow::Result<()> {
        let Some(handle) = self.hall.room(room) else {
            return self
                .error(ErrorCode::NoSuchRoom, format!("no room {room}"))
                .await;
        };
        if !matches!(command, RoomCommand::Leave { .. }) {
            self.rooms.insert(room);
        }
        if handle.inbox.send(command).await.is_err() {
            return self
                .error(ErrorCode::NoSuchRoom, format!("room {room} has closed"))
                .await;
        }
        Ok(())
    }

    async fn leave_all(&mut self) {
        for room in self.rooms.drain() {
            if let Some(handle) = self.hall.room(room) {
                let _ = handle
                    .inbox
                    .send(RoomCommand::Leave { conn: self.me.id })
                    .await;
            }
        }
    }
}

fn no_such_brain(name: &str) -> ServerMsg {
    ServerMsg::Error {
        code: ErrorCode::NoSuchBrain,
        message: format!("no brain named {name:?}"),
    }
}
