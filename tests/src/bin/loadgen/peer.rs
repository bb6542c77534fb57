//! One client connection: connect and greet (with retries), send a request, read the next
//! protocol message, and wait for a particular answer.

use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use futures_util::{SinkExt, StreamExt};
use parlor_shared::codec::Format;
use parlor_shared::protocol::{ClientMsg, PROTOCOL_VERSION, RoomId, ServerMsg};
use parlor_wire::{self as wire, Incoming};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::stats::Stats;

pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// How long the server may take to answer a request during set-up.
pub const PATIENCE: Duration = Duration::from_secs(15);
/// How long the server may take to close a room at the end of a run.
const CLOSE_PATIENCE: Duration = Duration::from_secs(2);
/// Attempts at a connection whose TCP or WebSocket handshake failed.
const ATTEMPTS: u32 = 3;

/// What a connection heard.
pub enum Event {
    /// Boxed: a room state is large, and events move through `select!`.
    Message(Box<ServerMsg>),
    /// The connection ended: the server's close code, if it sent a close frame.
    Closed(Option<u16>),
}

/// Why a connection could not be opened.
#[derive(Debug)]
pub enum ConnectError {
    /// TCP or WebSocket handshake failed on every attempt (server absent, backlog full…).
    Unreachable(anyhow::Error),
    /// The server answered Hello with something other than Welcome.
    Refused(String),
}

impl std::fmt::Display for ConnectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConnectError::Unreachable(error) => write!(f, "cannot connect: {error:#}"),
            ConnectError::Refused(reason) => write!(f, "the server refused Hello: {reason}"),
        }
    }
}

/// Opens a connection and completes the handshake; retries a failed TCP/WebSocket connect.
pub async fn connect(url: &str, client: &str) -> Result<Socket, ConnectError> {
    let mut last = None;
    for attempt in 0..ATTEMPTS {
        if attempt > 0 {
            tokio::time::sleep(Duration::from_millis(200 << attempt)).await;
        }
        let connecting =
            tokio_tungstenite::connect_async_with_config(url, Some(wire::websocket_config()), true);
        match tokio::time::timeout(PATIENCE, connecting).await {
            Ok(Ok((socket, _))) => return greet(socket, client).await,
            Ok(Err(error)) => last = Some(anyhow!("{url}: {error}")),
            Err(_) => last = Some(anyhow!("{url}: no WebSocket handshake within {PATIENCE:?}")),
        }
    }
    Err(ConnectError::Unreachable(
        last.unwrap_or_else(|| anyhow!("no attempt")),
    ))
}

async fn greet(mut socket: Socket, client: &str) -> Result<Socket, ConnectError> {
    let hello = ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        client: client.into(),
        // Each simulated person is a player of their own.
        player: parlor_shared::identity::PlayerSecret::random(),
        name: "loadgen".into(),
    };
    send(&mut socket, &hello)
        .await
        .map_err(|error| ConnectError::Refused(format!("{error:#}")))?;
    let answer = tokio::time::timeout(PATIENCE, next_event(&mut socket)).await;
    match answer {
        Ok(Event::Message(message)) => match *message {
            ServerMsg::Welcome { .. } => Ok(socket),
            ServerMsg::Error { code, message } => {
                Err(ConnectError::Refused(format!("{code:?}: {message}")))
            }
            other => Err(ConnectError::Refused(format!(
                "expected Welcome, got {}",
                name(&other)
            ))),
        },
        Ok(Event::Closed(code)) => Err(ConnectError::Refused(format!(
            "the server closed the connection (close code {})",
            code.map_or("none".into(), |code| code.to_string())
        ))),
        Err(_) => Err(ConnectError::Refused(format!(
            "no answer to Hello within {PATIENCE:?}"
        ))),
    }
}

pub async fn send(socket: &mut Socket, message: &ClientMsg) -> anyhow::Result<()> {
    let frame = wire::encode(message, Format::Binary)?;
    socket.send(frame).await.context("send failed")
}

/// The next protocol message; control frames are skipped (tungstenite answers pings while the
/// stream is polled) and an undecodable frame is skipped with a note. Cancel-safe.
pub async fn next_event(socket: &mut Socket) -> Event {
    loop {
        let message = match socket.next().await {
            Some(Ok(message)) => message,
            Some(Err(_)) | None => return Event::Closed(None),
        };
        if let Message::Close(frame) = &message {
            return Event::Closed(frame.as_ref().map(|frame| u16::from(frame.code)));
        }
        match wire::decode::<ServerMsg>(message) {
            Incoming::Message(message, _) => return Event::Message(Box::new(message)),
            Incoming::Garbled(error, _) => eprintln!("loadgen: undecodable frame: {error}"),
            Incoming::Control => {}
            Incoming::Close => return Event::Closed(None),
        }
    }
}

/// Reads until `pick` accepts a message; other messages are counted (states) and skipped. An
/// `Error` from the server or the end of the connection is an error naming `what`.
pub async fn expect<T>(
    socket: &mut Socket,
    stats: &Stats,
    what: &str,
    mut pick: impl FnMut(&ServerMsg) -> Option<T>,
) -> anyhow::Result<T> {
    let waiting = async {
        loop {
            match next_event(socket).await {
                Event::Message(message) => {
                    if matches!(*message, ServerMsg::State(_)) {
                        stats.states.inc();
                    }
                    if let Some(found) = pick(&message) {
                        return Ok(found);
                    }
                    if let ServerMsg::Error { code, message }
                    | ServerMsg::RoomRefused { code, message } = *message
                    {
                        stats.error(code);
                        bail!("{what} refused: {code:?}: {message}");
                    }
                }
                Event::Closed(code) => {
                    stats.server_closed(code);
                    bail!(
                        "the server closed the connection during {what} (close code {})",
                        code.map_or("none".into(), |code| code.to_string())
                    );
                }
            }
        }
    };
    tokio::time::timeout(PATIENCE, waiting)
        .await
        .map_err(|_| anyhow!("no answer to {what} within {PATIENCE:?}"))?
}

/// Reads until the server has answered every request sent on `socket` so far: it answers a
/// connection's requests in order, so whatever comes before its answer to a `ListGames` sent
/// now answers earlier ones. Their refusals are counted, not failures.
pub async fn settle(socket: &mut Socket, stats: &Stats) -> anyhow::Result<()> {
    send(socket, &ClientMsg::ListGames).await?;
    let answered = |message: &ServerMsg| match message {
        ServerMsg::Games(_) => Some(true),
        ServerMsg::Error { code, .. } => {
            stats.error(code);
            Some(false)
        }
        _ => None,
    };
    while !expect(socket, stats, "ListGames", answered).await? {}
    Ok(())
}

/// Ends `room`, made on `socket`, so that it does not stay in the hall after the run (until its
/// abandon clock, minutes later, crowding the lobby and the address's quota): `CloseRoom`,
/// answered once a request sent after it is (a finished room is refused: it is stored, not
/// open), then the connection is closed.
pub async fn close_room(socket: &mut Socket, stats: &Stats, room: RoomId) {
    if send(socket, &ClientMsg::CloseRoom { room }).await.is_ok() {
        let _ = tokio::time::timeout(CLOSE_PATIENCE, settle(socket, stats)).await;
    }
    let _ = socket.close(None).await;
}

/// A message's variant name, for messages that name what came instead.
pub fn name(message: &ServerMsg) -> String {
    let debug = format!("{message:?}");
    debug
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or("?")
        .to_string()
}

impl std::error::Error for ConnectError {}
