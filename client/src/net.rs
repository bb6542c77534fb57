//! The client's network side. macroquad's loop is single-threaded and cannot drive tokio, so
//! the WebSocket lives on a background thread with a current-thread runtime; the UI sends
//! requests through a channel and drains events with `try_recv` once per frame.
//!
//! The thread remembers what its connection follows (`follows.rs`): the seats it holds, the
//! rooms it watches and the joins not yet answered. When an established connection drops (a
//! server restart, a network fault), it reconnects with backoff, greets the server again and
//! sends `Reclaim` for every seat, `Watch` for every watched room and every unanswered
//! `JoinSeat` again, so the UI simply receives `Seated` and fresh `State`s again. Requests the
//! UI sends meanwhile wait in a bounded queue and go out after the resume. A server that
//! closes with code 1008 (a budget overdrawn) or refuses the handshake is not retried; one
//! that is full (1013, try again later) is, even at the first connection.

use std::collections::VecDeque;
use std::future::Future;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use parlor_shared::codec::Format;
use parlor_shared::identity::Player;
use parlor_shared::protocol::{ClientMsg, ServerMsg};
use parlor_wire::{self as wire, Incoming};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use self::addresses::Addresses;
pub use self::backoff::Backoff;
use self::backoff::{Outage, STEADY};
pub use self::events::EventReceiver;
use self::events::EventSender;
use self::follows::Follows;
pub(crate) use self::follows::refuses_a_join;
use self::plain::plain;
use crate::identity::Identity;

mod addresses;
mod backoff;
pub(crate) mod events;
mod follows;
mod handshake;
mod plain;

/// Requests the UI may send while the connection is down; more are dropped with a
/// [`NetEvent::NotSent`].
pub const QUEUE_LIMIT: usize = 64;

/// What the network thread tells the UI.
#[derive(Debug, Clone)]
pub enum NetEvent {
    /// The handshake succeeded (first or again after `Reconnecting`): `server` names the
    /// server, `player` is who it knows us as, `node` the address reached (one of several
    /// nodes of a hall).
    Connected {
        server: String,
        player: Player,
        node: String,
    },
    /// Boxed: a room state is large, the other events small.
    Message(Box<ServerMsg>),
    /// The connection dropped and attempt number `attempt` (from 1) to get it back is under way;
    /// `reason` says why the connection (or the previous attempt) failed. Requests sent now
    /// are queued. `Connected` follows when it is back, `Disconnected` when the thread gives up.
    Reconnecting { attempt: u32, reason: String },
    /// A request was not sent: the connection is down and [`QUEUE_LIMIT`] requests already
    /// wait for it. [`not_sent_text`] says so for a person.
    NotSent(Box<ClientMsg>),
    /// The connection ended for good or could not be made; the string says why.
    Disconnected(String),
}

/// How long connecting and greeting the server may take.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// The UI's end of a connection. Dropping it closes the connection.
pub struct Connection {
    requests: mpsc::UnboundedSender<ClientMsg>,
    events: EventReceiver,
}

impl Connection {
    /// Starts connecting to `url` (`ws://host:port`, or several nodes of one hall separated by
    /// commas) as `identity` on a background thread; once connected, a dropped connection is
    /// resumed with the default [`Backoff`], each attempt at the next address. A first
    /// connection is tried at every address once, and not retried.
    pub fn open(url: &str, identity: &Identity) -> Connection {
        Connection::open_with(url, identity, Some(Backoff::default()))
    }

    /// A connection that is never resumed: the first drop is `Disconnected` (for command-line
    /// tools that send one request and wait for its answer).
    pub fn open_once(url: &str, identity: &Identity) -> Connection {
        Connection::open_with(url, identity, None)
    }

    /// A connection resumed with `backoff`, or never when `None`.
    pub fn open_with(url: &str, identity: &Identity, backoff: Option<Backoff>) -> Connection {
        let (requests, request_rx) = mpsc::unbounded_channel();
        let (event_tx, events) = events::channel().expect("cannot make the network's channel");
        let (addresses, identity) = (Addresses::parse(url), identity.clone());
        std::thread::Builder::new()
            .name("parlor-net".into())
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build();
                let reason = match runtime {
                    Ok(runtime) => {
                        let mut link = Link {
                            addresses,
                            identity,
                            requests: request_rx,
                            events: event_tx.clone(),
                            queue: VecDeque::new(),
                            follows: Follows::default(),
                        };
                        runtime.block_on(link.run(backoff))
                    }
                    Err(error) => Some(format!("cannot start the network runtime: {error}")),
                };
                if let Some(reason) = reason {
                    let _ = event_tx.send(NetEvent::Disconnected(reason));
                }
            })
            .expect("cannot start the network thread");
        Connection { requests, events }
    }

    /// Queues a request; silently ignored once the connection is gone (the UI learns that from
    /// a `Disconnected` event). While the connection is being resumed it waits for the resume.
    pub fn send(&self, message: ClientMsg) {
        let _ = self.requests.send(message);
    }

    /// The next event, if one has arrived.
    pub fn try_recv(&self) -> Option<NetEvent> {
        self.events.try_recv()
    }

    /// The next event, waiting at most `timeout` (for command-line tools, not the window).
    pub fn recv_timeout(&self, timeout: Duration) -> Option<NetEvent> {
        self.events.recv_timeout(timeout)
    }

    /// The channel's bell, for a window that sleeps on it and its input together.
    pub fn events(&self) -> &EventReceiver {
        &self.events
    }
}

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// How a connection (or an attempt at one) ended.
enum End {
    /// The UI dropped its end: nothing to report.
    Closed,
    /// Worth another attempt: the network or the server went away.
    Lost(String),
    /// The server was full and said to try again later (close code 1013): worth another
    /// attempt, even for a first connection.
    Busy(String),
    /// Not worth retrying: the server refused us (handshake, policy close).
    Refused(String),
}

impl End {
    /// What the UI is told when the thread ends this way: nothing once it closed its end,
    /// else the reason.
    fn into_reason(self) -> Option<String> {
        match self {
            End::Closed => None,
            End::Lost(reason) | End::Busy(reason) | End::Refused(reason) => Some(reason),
        }
    }
}

/// The network thread's state, kept across reconnects.
struct Link {
    /// Where the hall answers: one server, or several nodes of it.
    addresses: Addresses,
    /// Who we say we are in every `Hello`.
    identity: Identity,
    requests: mpsc::UnboundedReceiver<ClientMsg>,
    events: EventSender,
    /// Requests that arrived while no connection was up, oldest first.
    queue: VecDeque<ClientMsg>,
    follows: Follows,
}

impl Link {
    /// Connects, serves and resumes until the UI closes (`None`) or the connection is lost for
    /// good (`Some(reason)`).
    async fn run(&mut self, backoff: Option<Backoff>) -> Option<String> {
        let mut outage: Option<Outage> = None;
        let mut socket = match (self.first_handshake().await, backoff) {
            (Ok(socket), _) => socket,
            // A server that was never reached may be a wrong address, said at once; a full
            // one asked to be tried again, as a lost connection is.
            (Err(End::Busy(reason)), Some(backoff)) => {
                let first = outage.insert(Outage::starting_now());
                match self.resume(backoff, reason, first).await {
                    Ok(socket) => socket,
                    Err(end) => return end.into_reason(),
                }
            }
            (Err(end), _) => return end.into_reason(),
        };
        loop {
            let connected_at = Instant::now();
            let reason = match self.serve(&mut socket).await {
                End::Lost(reason) | End::Busy(reason) => reason,
                end => return end.into_reason(),
            };
            let Some(backoff) = backoff else {
                return Some(reason);
            };
            if connected_at.elapsed() >= STEADY {
                outage = None;
            }
            let outage = outage.get_or_insert_with(Outage::starting_now);
            socket = match self.resume(backoff, reason, outage).await {
                Ok(socket) => socket,
                Err(end) => return end.into_reason(),
            };
        }
    }

    /// Tries again with backoff until a handshake succeeds, the server refuses us or the
    /// outage's time is up (`Lost` with the last reason).
    async fn resume(
        &mut self,
        backoff: Backoff,
        mut reason: String,
        outage: &mut Outage,
    ) -> Result<Socket, End> {
        let deadline = backoff.give_up_after.map(|after| outage.began + after);
        loop {
            outage.attempts += 1;
            let attempt = outage.attempts;
            let delay = backoff.delay(attempt);
            if deadline.is_some_and(|deadline| Instant::now() + delay > deadline) {
                break;
            }
            let reconnecting = NetEvent::Reconnecting {
                attempt,
                reason: reason.clone(),
            };
            if self.events.send(reconnecting).is_err() {
                return Err(End::Closed);
            }
            self.queueing(tokio::time::sleep(delay)).await?;
            match self.handshake().await {
                Ok(socket) => return Ok(socket),
                Err(End::Lost(why) | End::Busy(why)) => {
                    reason = why;
                    self.addresses.advance();
                }
                Err(end) => return Err(end),
            }
        }
        let waited = backoff.give_up_after.unwrap_or_default().as_secs();
        Err(End::Lost(format!(
            "{reason} (gave up reconnecting after {waited} s)"
        )))
    }

    /// Runs `work` while keeping the UI's requests in the queue; `Closed` if the UI goes.
    async fn queueing<T>(&mut self, work: impl Future<Output = T>) -> Result<T, End> {
        tokio::pin!(work);
        loop {
            tokio::select! {
                done = &mut work => return Ok(done),
                request = self.requests.recv() => match request {
                    None => return Err(End::Closed),
                    Some(request) => self.hold(request)?,
                },
            }
        }
    }

    fn hold(&mut self, request: ClientMsg) -> Result<(), End> {
        if self.queue.len() < QUEUE_LIMIT {
            self.queue.push_back(request);
            return Ok(());
        }
        self.events
            .send(NetEvent::NotSent(Box::new(request)))
            .map_err(|_| End::Closed)
    }

    /// Takes up what the connection followed, sends the queued requests, then forwards both
    /// ways until the connection ends.
    async fn serve(&mut self, socket: &mut Socket) -> End {
        for request in self.follows.resume() {
            if let Err(end) = send(socket, &request).await {
                return self.after_send_error(socket, end).await;
            }
        }
        while let Some(request) = self.queue.pop_front() {
            if let Err(end) = self.forward(socket, request).await {
                return self.after_send_error(socket, end).await;
            }
        }
        loop {
            tokio::select! {
                request = self.requests.recv() => {
                    let Some(request) = request else {
                        let _ = socket.close(None).await;
                        return End::Closed;
                    };
                    if let Err(end) = self.forward(socket, request).await {
                        return self.after_send_error(socket, end).await;
                    }
                }
                incoming = socket.next() => {
                    let delivered = match read(incoming) {
                        Ok(Some(message)) => self.deliver(message),
                        Ok(None) => Ok(()),
                        Err(end) => Err(end),
                    };
                    if let Err(end) = delivered {
                        if let End::Closed = end {
                            let _ = socket.close(None).await;
                        }
                        return end;
                    }
                }
            }
        }
    }

    /// Passes a message on to the UI, noting what it changes in what the connection follows.
    fn deliver(&mut self, message: ServerMsg) -> Result<(), End> {
        let message = self.follows.received(message);
        self.events
            .send(NetEvent::Message(Box::new(message)))
            .map_err(|_| End::Closed)
    }

    /// A write failed: the server may have closed with a reason we have not read yet (a
    /// policy close, which must not be retried). Reads what is left, briefly, to find out.
    async fn after_send_error(&mut self, socket: &mut Socket, end: End) -> End {
        let End::Lost(reason) = end else {
            return end;
        };
        let deadline = Instant::now() + Duration::from_secs(1);
        loop {
            let Ok(incoming) = tokio::time::timeout_at(deadline, socket.next()).await else {
                return End::Lost(reason);
            };
            match read(incoming) {
                Ok(Some(message)) => {
                    if let Err(end) = self.deliver(message) {
                        return end;
                    }
                }
                Ok(None) => {}
                // The server's own close, if it sent one, says more than the failed write.
                Err(end) => return end,
            }
        }
    }

    /// Sends one of the UI's requests, noting what it changes in what the connection follows.
    async fn forward(&mut self, socket: &mut Socket, request: ClientMsg) -> Result<(), End> {
        self.follows.sent(&request);
        send(socket, &request).await
    }
}

async fn send(socket: &mut Socket, message: &ClientMsg) -> Result<(), End> {
    let frame = wire::encode(message, Format::Binary)
        .map_err(|error| End::Refused(format!("cannot encode a request: {error}")))?;
    socket
        .send(frame)
        .await
        .map_err(|error| End::Lost(format!("connection lost: {}", plain(&error))))
}

/// One frame from the server: a message, nothing of interest (`None`), or the end.
fn read(
    incoming: Option<Result<Message, tokio_tungstenite::tungstenite::Error>>,
) -> Result<Option<ServerMsg>, End> {
    let message = match incoming {
        None => return Err(End::Lost("the server closed the connection".into())),
        Some(Err(error)) => return Err(End::Lost(format!("connection lost: {}", plain(&error)))),
        Some(Ok(message)) => message,
    };
    // The server says why it closes (a limit, an idle timeout); pass that on. A policy close
    // means this client overdrew a budget: coming back would only do it again.
    if let Message::Close(Some(frame)) = &message {
        let reason = if frame.reason.is_empty() {
            format!("the server closed the connection (code {})", frame.code)
        } else {
            format!("the server closed the connection: {}", frame.reason)
        };
        return Err(match frame.code {
            CloseCode::Policy => End::Refused(reason),
            CloseCode::Again => End::Busy(reason),
            _ => End::Lost(reason),
        });
    }
    match wire::decode::<ServerMsg>(message) {
        Incoming::Message(message, _) => Ok(Some(message)),
        Incoming::Garbled(error, _) => Err(End::Refused(format!(
            "the server sent a bad frame: {error}"
        ))),
        Incoming::Control => Ok(None),
        Incoming::Close => Err(End::Lost("the server closed the connection".into())),
    }
}

/// A request as the user may see it: its kind and room, never a token.
/// What the window says of a request [`NetEvent::NotSent`] reports.
pub fn not_sent_text(request: &ClientMsg) -> String {
    format!(
        "not sent while reconnecting ({QUEUE_LIMIT} requests already wait): {}",
        describe(request)
    )
}

fn describe(request: &ClientMsg) -> String {
    let text = format!("{request:?}");
    let end = text.find([' ', '{', '(']).unwrap_or(text.len());
    text[..end].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::game::GameMove;
    use parlor_shared::protocol::SeatToken;

    #[test]
    fn a_request_not_sent_is_named_without_its_token() {
        let secret = "3f9a0c41d27be856ac10e7d94b2f6c38";
        let request = ClientMsg::Move {
            room: 4,
            token: SeatToken(secret.into()),
            version: 2,
            mv: GameMove::Cave("a1".parse().unwrap()),
        };
        assert_eq!(describe(&request), "Move");
        assert_eq!(describe(&ClientMsg::ListGames), "ListGames");
    }
}
