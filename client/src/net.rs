//! The client's network side. macroquad's loop is single-threaded and cannot drive tokio, so
//! the WebSocket lives on a background thread with a current-thread runtime; the UI sends
//! requests through a channel and drains events with `try_recv` once per frame.

use std::sync::mpsc as std_mpsc;

use futures_util::{SinkExt, StreamExt};
use parlor_server::wire::{self, Incoming};
use parlor_shared::codec::Format;
use parlor_shared::protocol::{ClientMsg, PROTOCOL_VERSION, ServerMsg};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

/// What the network thread tells the UI.
#[derive(Debug, Clone)]
pub enum NetEvent {
    /// The handshake succeeded; the string names the server.
    Connected(String),
    /// Boxed: a room state is large, the other events small.
    Message(Box<ServerMsg>),
    /// The connection ended or could not be made; the string says why.
    Disconnected(String),
}

/// The UI's end of a connection. Dropping it closes the connection.
pub struct Connection {
    requests: mpsc::UnboundedSender<ClientMsg>,
    events: std_mpsc::Receiver<NetEvent>,
}

impl Connection {
    /// Starts connecting to `url` (`ws://host:port`) on a background thread.
    pub fn open(url: &str) -> Connection {
        let (requests, request_rx) = mpsc::unbounded_channel();
        let (event_tx, events) = std_mpsc::channel();
        let url = url.to_string();
        std::thread::Builder::new()
            .name("parlor-net".into())
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build();
                let reason = match runtime {
                    Ok(runtime) => runtime.block_on(talk(&url, request_rx, &event_tx)),
                    Err(error) => format!("cannot start the network runtime: {error}"),
                };
                let _ = event_tx.send(NetEvent::Disconnected(reason));
            })
            .expect("cannot start the network thread");
        Connection { requests, events }
    }

    /// Queues a request; silently ignored once the connection is gone (the UI learns that from
    /// a `Disconnected` event).
    pub fn send(&self, message: ClientMsg) {
        let _ = self.requests.send(message);
    }

    /// The next event, if one has arrived.
    pub fn try_recv(&self) -> Option<NetEvent> {
        self.events.try_recv().ok()
    }

    /// The next event, waiting at most `timeout` (for command-line tools, not the window).
    pub fn recv_timeout(&self, timeout: std::time::Duration) -> Option<NetEvent> {
        self.events.recv_timeout(timeout).ok()
    }
}

/// Runs one connection until it ends; returns why it ended.
async fn talk(
    url: &str,
    mut requests: mpsc::UnboundedReceiver<ClientMsg>,
    events: &std_mpsc::Sender<NetEvent>,
) -> String {
    let connected =
        tokio_tungstenite::connect_async_with_config(url, Some(wire::websocket_config()), true)
            .await;
    let mut socket = match connected {
        Ok((socket, _response)) => socket,
        Err(error) => return format!("cannot connect to {url}: {error}"),
    };
    let hello = ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        client: format!("parlor-client {}", env!("CARGO_PKG_VERSION")),
    };
    match wire::encode(&hello, Format::Binary) {
        Ok(frame) => {
            if let Err(error) = socket.send(frame).await {
                return format!("connection lost: {error}");
            }
        }
        Err(error) => return format!("cannot encode Hello: {error}"),
    }
    loop {
        tokio::select! {
            request = requests.recv() => {
                let Some(request) = request else {
                    let _ = socket.close(None).await;
                    return "closed".into();
                };
                let frame = match wire::encode(&request, Format::Binary) {
                    Ok(frame) => frame,
                    Err(error) => return format!("cannot encode a request: {error}"),
                };
                if let Err(error) = socket.send(frame).await {
                    return format!("connection lost: {error}");
                }
            }
            incoming = socket.next() => {
                let message = match incoming {
                    None => return "the server closed the connection".into(),
                    Some(Err(error)) => return format!("connection lost: {error}"),
                    Some(Ok(message)) => message,
                };
                // The server says why it closes (a limit, an idle timeout); pass that on.
                if let Message::Close(Some(frame)) = &message && !frame.reason.is_empty() {
                    return format!("the server closed the connection: {}", frame.reason);
                }
                let event = match wire::decode::<ServerMsg>(message) {
                    Incoming::Message(ServerMsg::Welcome { server, .. }, _) => NetEvent::Connected(server),
                    Incoming::Message(message, _) => NetEvent::Message(Box::new(message)),
                    Incoming::Garbled(error, _) => return format!("the server sent a bad frame: {error}"),
                    Incoming::Control => continue,
                    Incoming::Close => return "the server closed the connection".into(),
                };
                if events.send(event).is_err() {
                    return "closed".into();
                }
            }
        }
    }
}
