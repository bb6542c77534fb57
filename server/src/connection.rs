//! One task per client connection: the handshake, then one loop that reads requests, writes
//! what the rooms left in the connection's outbox, pings, and enforces the client's limits.
//!
//! The client is trusted with nothing: every request is charged to its budgets, every room it
//! creates to its caps, and a client that stops reading or talking is closed by a timeout.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use anyhow::Context;
use futures_util::{SinkExt, StreamExt};
use parlor_shared::brain_parts::Part;
use parlor_shared::codec::Format;
use parlor_shared::identity::{Player, PlayerId};
use parlor_shared::protocol::{ClientMsg, ErrorCode, PROTOCOL_VERSION, RoomId, ServerMsg};
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tracing::{debug, info, warn};

use crate::brain_transfer::{self, PendingImport};
use crate::follows::FollowTicket;
use crate::hall::Hall;
use crate::limits::{Bucket, Limits};
use crate::logging::{garbled_frame, loggable};
use crate::outbox::{Outbox, Outgoing};
use crate::players;
use crate::room::{RoomCommand, Subscriber};
use crate::source::source_of;
use crate::store_requests;
use parlor_wire::{self as wire, Incoming};

mod brain_files;
mod closing;
mod creation;

pub use closing::refuse_full;

type Socket = tokio_tungstenite::WebSocketStream<TcpStream>;

/// Upgrades a TCP stream to a WebSocket within the handshake timeout.
pub async fn accept(stream: TcpStream, limits: &Limits) -> anyhow::Result<Socket> {
    let upgrade =
        tokio_tungstenite::accept_async_with_config(stream, Some(wire::websocket_config()));
    Ok(tokio::time::timeout(limits.handshake_timeout, upgrade)
        .await
        .context("no WebSocket handshake in time")??)
}

/// Serves one client until it leaves, breaks a rule, or goes silent.
pub async fn serve_connection(
    stream: TcpStream,
    peer: SocketAddr,
    hall: Arc<Hall>,
    limits: Arc<Limits>,
) {
    let socket = match accept(stream, &limits).await {
        Ok(socket) => socket,
        Err(error) => return debug!(%peer, %error, "not a WebSocket handshake"),
    };
    let mut connection = Connection::new(socket, peer, hall, limits);
    match connection.handshake().await {
        Ok(client) => {
            info!(%peer, conn = connection.me.id, client = %loggable(&client), "connected")
        }
        Err(reason) => return debug!(%peer, reason, "handshake failed"),
    }
    Hall::show_new_name_everywhere(&connection.hall, &connection.me).await;
    match connection.run().await {
        Ok(Some(abuse)) => {
            warn!(%peer, conn = connection.me.id, abuse, "closing an abusive connection");
            connection.close(CloseCode::Policy, &abuse).await;
        }
        Ok(None) => {}
        Err(error) => debug!(%peer, %error, "connection error"),
    }
    connection.leave_all().await;
    info!(%peer, conn = connection.me.id, "disconnected");
}

/// What the loop does after a request: go on, or close the connection as abusive.
type Verdict = anyhow::Result<Option<String>>;

struct Connection {
    socket: Socket,
    hall: Arc<Hall>,
    limits: Arc<Limits>,
    me: Subscriber,
    /// The format of the client's last frame; answers use it.
    format: Format,
    /// Rooms this connection follows (to leave them when it goes), each counted against its
    /// player's and address's quota while followed.
    rooms: HashMap<RoomId, FollowTicket>,
    /// The source it counts as for the per-address quotas and the AI pool's turns.
    source: IpAddr,
    requests: Bucket,
    creations: Bucket,
    last_heard: Instant,
    /// A brain file this client is sending in parts.
    import: Option<PendingImport>,
}

impl Connection {
    fn new(socket: Socket, peer: SocketAddr, hall: Arc<Hall>, limits: Arc<Limits>) -> Connection {
        let me = Subscriber {
            id: hall.new_conn_id(),
            outbox: Arc::new(Outbox::default()),
            // Until the handshake says who it is.
            player: Player {
                id: PlayerId(0),
                name: String::new(),
            },
            operator: false,
        };
        Connection {
            socket,
            hall,
            me,
            format: Format::Binary,
            rooms: HashMap::new(),
            source: source_of(peer.ip(), limits.ipv6_prefix),
            requests: Bucket::full(limits.requests),
            creations: Bucket::full(limits.room_creations),
            limits,
            last_heard: Instant::now(),
            import: None,
        }
    }

    /// Waits for `Hello` with our protocol version; answers `Welcome` or an error. The error
    /// is why, for the log: it holds nothing of what the client sent.
    async fn handshake(&mut self) -> Result<String, String> {
        let timeout = self.limits.handshake_timeout;
        // A garbled frame's error quotes it; the client is told that, the log only its kind.
        let mut garbled = None;
        // One deadline for the whole wait: pings and pongs before Hello do not extend it.
        let deadline = Instant::now() + timeout;
        let first = loop {
            match tokio::time::timeout_at(deadline, self.socket.next()).await {
                Err(_) => break Err(format!("no Hello within {} s", timeout.as_secs())),
                Ok(Some(Err(WsError::Utf8(_)))) => {
                    self.close(CloseCode::Invalid, "a text frame that is not UTF-8")
                        .await;
                    return Err("a text frame that is not UTF-8 before Hello".into());
                }
                Ok(None | Some(Err(_))) => return Err("closed before Hello".into()),
                Ok(Some(Ok(frame))) => match wire::decode::<ClientMsg>(frame) {
                    Incoming::Control => continue,
                    Incoming::Close => return Err("closed before Hello".into()),
                    Incoming::Garbled(error, format) => {
                        self.format = format;
                        garbled = Some(garbled_frame(&error));
                        break Err(error.to_string());
                    }
                    Incoming::Message(message, format) => {
                        self.format = format;
                        break Ok(message);
                    }
                },
            }
        };
        let (code, message) = match first {
            Ok(ClientMsg::Hello {
                protocol,
                client,
                player,
                name,
            }) if protocol == PROTOCOL_VERSION => match players::greeted(&player, &name) {
                Ok(player) => {
                    self.me.operator = self.hall.is_operator(player.id);
                    self.me.player = player.clone();
                    let welcome = ServerMsg::Welcome {
                        protocol: PROTOCOL_VERSION,
                        server: format!("parlor-server {}", env!("CARGO_PKG_VERSION")),
                        player,
                    };
                    self.send(&welcome).await.map_err(|e| e.to_string())?;
                    return Ok(client);
                }
                Err(refusal) => (ErrorCode::Handshake, refusal),
            },
            Ok(ClientMsg::Hello { protocol, .. }) => (
                ErrorCode::Handshake,
                format!("this server speaks protocol {PROTOCOL_VERSION}, the client {protocol}"),
            ),
            Ok(_) => (
                ErrorCode::Handshake,
                "the first message must be Hello".into(),
            ),
            Err(reason) => (ErrorCode::Handshake, reason),
        };
        let _ = self.error(code, message.clone()).await;
        self.close(CloseCode::Policy, &message).await;
        Err(garbled.unwrap_or(message))
    }

    /// Serves requests until the client leaves (`None`) or abuses the server (`Some(why)`).
    async fn run(&mut self) -> Verdict {
        let outbox = Arc::clone(&self.me.outbox);
        let mut ping = tokio::time::interval(self.limits.ping_every);
        // After a long blocked write, one ping is enough, not a burst of the missed ones.
        ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        ping.tick().await;
        loop {
            let idle_deadline = self.last_heard + self.limits.idle_timeout;
            let verdict = tokio::select! {
                frame = self.socket.next() => match frame {
                    // A text frame that is not UTF-8 the WebSocket layer refuses before any
                    // decoding: said with its close code (1007), as a bad frame is with an Error.
                    Some(Err(WsError::Utf8(_))) => {
                        self.close(CloseCode::Invalid, "a text frame that is not UTF-8").await;
                        return Ok(None);
                    }
                    None | Some(Err(_)) => return Ok(None),
                    Some(Ok(frame)) => {
                        self.last_heard = Instant::now();
                        match wire::decode::<ClientMsg>(frame) {
                            Incoming::Message(request, format) => {
                                self.format = format;
                                self.request(request).await?
                            }
                            Incoming::Garbled(error, format) => {
                                self.format = format;
                                match self.charge_request(1.0) {
                                    Some(abuse) => Some(abuse),
                                    None => self.error(ErrorCode::BadFrame, error.to_string()).await?,
                                }
                            }
                            // A ping costs a reply: a flood of them is a flood of requests.
                            Incoming::Control => self.charge_request(1.0),
                            Incoming::Close => return Ok(None),
                        }
                    }
                },
                outgoing = outbox.next() => {
                    if let Outgoing::Reconnect = outgoing {
                        // Taken by another node, or this one lost the hall's database:
                        // either way another node, or this one later, serves it.
                        let why = "a room you follow is not served by this node now; \
                                   reconnect to resume";
                        self.close(CloseCode::Restart, why).await;
                        return Ok(None);
                    }
                    self.deliver(outgoing).await?;
                    None
                }
                _ = ping.tick() => {
                    if brain_transfer::drop_if_stalled(&mut self.import, Instant::now()) {
                        let late = format!(
                            "the brain file stalled (no part for {} s, slower than {} KiB/s, \
                             or not all sent within {} s); it was dropped",
                            brain_transfer::PART_GAP.as_secs(),
                            brain_transfer::MIN_RATE / 1024,
                            brain_transfer::FILE_TIME.as_secs()
                        );
                        self.error(ErrorCode::BadRequest, late).await?;
                    }
                    self.write(Message::Ping(Vec::new().into())).await?;
                    None
                }
                () = tokio::time::sleep_until(idle_deadline) => {
                    self.close(CloseCode::Away, "idle for too long").await;
                    return Ok(None);
                }
            };
            if verdict.is_some() {
                return Ok(verdict);
            }
            if outbox.overflowed() {
                return Ok(Some(format!(
                    "more than {} answers left unread",
                    crate::outbox::MAX_WAITING_REPLIES
                )));
            }
        }
    }

    /// Who this connection's store requests are for.
    fn asker(&self) -> crate::hall::Asker {
        crate::hall::Asker {
            player: self.me.player.id,
            operator: self.me.operator,
            source: Some(self.source),
        }
    }

    /// Spends `cost` requests from the budget; `Some(why)` when it is overdrawn.
    fn charge_request(&mut self, cost: f64) -> Option<String> {
        (!self.requests.spend_some(cost)).then(|| {
            format!(
                "more than {} requests a second",
                self.limits.requests.per_second
            )
        })
    }

    async fn request(&mut self, request: ClientMsg) -> Verdict {
        let cost = if brain_transfer::continues(&self.import, Part::of_import(&request)) {
            brain_transfer::PART_COST
        } else {
            1.0
        };
        if let Some(abuse) = self.charge_request(cost) {
            return Ok(Some(abuse));
        }
        if let ClientMsg::CreateRoom { .. } | ClientMsg::PlayAgain { .. } = request
            && !self.creations.spend()
        {
            return Ok(Some(format!(
                "rooms created faster than {} a second",
                self.limits.room_creations.per_second
            )));
        }
        self.handle(request).await?;
        Ok(None)
    }

    async fn deliver(&mut self, outgoing: Outgoing) -> anyhow::Result<()> {
        match outgoing {
            Outgoing::Reply(message) => self.send(&message).await,
            // Handled by `run`, which closes the connection.
            Outgoing::Reconnect => Ok(()),
            Outgoing::State(state) => match state.frame(self.format) {
                Ok(frame) => self.write(frame).await,
                Err(error) => {
                    warn!(conn = self.me.id, %error, "a room state could not be encoded");
                    self.error(ErrorCode::Internal, "a room state was too large to send")
                        .await
                        .map(drop)
                }
            },
        }
    }

    /// Writes one frame; a client that takes nothing for the write timeout is dropped.
    async fn write(&mut self, frame: Message) -> anyhow::Result<()> {
        tokio::time::timeout(self.limits.write_timeout, self.socket.send(frame))
            .await
            .context("the client stopped reading")??;
        Ok(())
    }

    async fn send(&mut self, message: &ServerMsg) -> anyhow::Result<()> {
        let frame = wire::encode_answer(message, self.format)?;
        self.write(frame).await
    }

    /// Sends an error; returns `None` so a refusal reads as "go on" where a verdict is due.
    async fn error(
        &mut self,
        code: ErrorCode,
        message: impl Into<String>,
    ) -> anyhow::Result<Option<String>> {
        self.send(&ServerMsg::Error {
            code,
            message: message.into(),
        })
        .await?;
        Ok(None)
    }

    async fn handle(&mut self, request: ClientMsg) -> anyhow::Result<()> {
        if let Some(part) = Part::of_import(&request) {
            return self.import_part(part).await;
        }
        let who = self.me.clone();
        let command = match request {
            ClientMsg::Hello { .. } => {
                self.error(ErrorCode::BadRequest, "already greeted").await?;
                return Ok(());
            }
            ClientMsg::ListGames => return self.send(&ServerMsg::Games(Hall::games())).await,
            ClientMsg::ListRooms => return self.send(&self.hall.list_rooms()).await,
            ClientMsg::CreateRoom { setup, seats } => {
                return self.create_room(setup, seats, None).await;
            }
            ClientMsg::PlayAgain { room, setup, seats } => {
                return self.create_room(setup, seats, Some(room)).await;
            }
            ClientMsg::ListMySeats => {
                let held = self.hall.seats_of(self.me.player.id);
                return self.send(&ServerMsg::MySeats(held)).await;
            }
            ClientMsg::CloseRoom { room } => (room, RoomCommand::Close { who }),
            ClientMsg::ExportBrain { name } => return self.export(name).await,
            request if store_requests::is_store_request(&request) => {
                let answer = store_requests::answer(&self.hall, request, self.asker()).await;
                return self.send(&answer).await;
            }
            ClientMsg::JoinSeat { room, seat, token } => (
                room,
                RoomCommand::Join {
                    seat,
                    token,
                    who,
                    spectator_cap: self.limits.spectators_per_room,
                },
            ),
            ClientMsg::Reclaim { room, token } => (
                room,
                RoomCommand::Reclaim {
                    token,
                    who,
                    spectator_cap: self.limits.spectators_per_room,
                },
            ),
            ClientMsg::Watch { room } => (
                room,
                RoomCommand::Watch {
                    who,
                    spectator_cap: self.limits.spectators_per_room,
                },
            ),
            ClientMsg::Leave { room } => {
                self.rooms.remove(&room);
                (room, RoomCommand::Leave { who })
            }
            ClientMsg::Move {
                room,
                token,
                version,
                mv,
            } => (
                room,
                RoomCommand::Move {
                    token,
                    version,
                    mv,
                    who,
                },
            ),
            other => anyhow::bail!("request not routed: {other:?}"),
        };
        let (room, command) = command;
        self.forward_to_room(room, command).await
    }

    /// Forwards a command to a room; the room answers through this connection's outbox.
    async fn forward_to_room(&mut self, room: RoomId, command: RoomCommand) -> anyhow::Result<()> {
        let leaving = matches!(command, RoomCommand::Leave { .. });
        let handle = self.hall.find_room(room).await;
        let follows = matches!(
            command,
            RoomCommand::Join { .. } | RoomCommand::Reclaim { .. } | RoomCommand::Watch { .. }
        );
        if follows && handle.is_some() && !self.rooms.contains_key(&room) {
            // Rooms that closed since (over, abandoned, ended) are followed no more.
            let hall = &self.hall;
            self.rooms.retain(|id, _| hall.room(*id).is_some());
            let (player, address) = (self.me.player.id, self.source);
            let elsewhere = self.hall.follows_elsewhere(player, address);
            match (self.hall.follows).take(player, address, &self.limits, elsewhere) {
                Ok(ticket) => drop(self.rooms.insert(room, ticket)),
                Err((code, message)) => return self.error(code, message).await.map(drop),
            }
        }
        let sent = match handle {
            Some(handle) => handle.inbox.send(command).await.is_ok(),
            None => false,
        };
        match (sent, leaving) {
            (true, _) => Ok(()),
            // A room gone is left already: what was asked holds (after a restart, say).
            (false, true) => self.send(&ServerMsg::Left { room }).await,
            (false, false) => (self.error(ErrorCode::NoSuchRoom, format!("no room {room}")))
                .await
                .map(drop),
        }
    }

    /// Leaves every room the connection followed and frees its outbox.
    async fn leave_all(&mut self) {
        self.me.outbox.close();
        for (room, _ticket) in self.rooms.drain() {
            if let Some(handle) = self.hall.room(room) {
                let _ = handle
                    .inbox
                    .send(RoomCommand::Leave {
                        who: self.me.clone(),
                    })
                    .await;
            }
        }
    }
}
