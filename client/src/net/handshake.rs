//! Connecting and greeting: the first connection, tried at every address in turn, and each
//! attempt after (see `Link::resume`).

use futures_util::StreamExt;
use parlor_shared::protocol::{ClientMsg, ErrorCode, PROTOCOL_VERSION, ServerMsg};
use parlor_wire as wire;

use super::plain::plain;
use super::{End, HANDSHAKE_TIMEOUT, Link, NetEvent, Socket, read, send};

impl Link {
    /// The first connection: each address once, in order, until one answers.
    pub(super) async fn first_handshake(&mut self) -> Result<Socket, End> {
        let (mut failed, mut busy) = (Vec::new(), false);
        for _ in 0..self.addresses.len() {
            match self.handshake().await {
                Err(End::Lost(reason)) => failed.push(reason),
                Err(End::Busy(reason)) => {
                    failed.push(reason);
                    busy = true;
                }
                done => return done,
            }
            self.addresses.advance();
        }
        let reasons = failed.join("; ");
        Err(if busy {
            End::Busy(reasons)
        } else {
            End::Lost(reasons)
        })
    }

    /// Connects to the current address and greets the server within [`HANDSHAKE_TIMEOUT`];
    /// on `Welcome` tells the UI `Connected`.
    pub(super) async fn handshake(&mut self) -> Result<Socket, End> {
        let seconds = HANDSHAKE_TIMEOUT.as_secs();
        match tokio::time::timeout(HANDSHAKE_TIMEOUT, self.greet()).await {
            Ok(greeted) => greeted,
            Err(_) => Err(End::Lost(format!(
                "no answer from {} within {seconds} s",
                self.addresses.current()
            ))),
        }
    }

    async fn greet(&mut self) -> Result<Socket, End> {
        let url = self.addresses.current().to_string();
        let connect = tokio_tungstenite::connect_async_with_config(
            url.as_str(),
            Some(wire::websocket_config()),
            true,
        );
        let mut socket = match self.queueing(connect).await? {
            Ok((socket, _response)) => socket,
            Err(error) => {
                return Err(End::Lost(format!(
                    "cannot connect to {url}: {}",
                    plain(&error)
                )));
            }
        };
        let hello = ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            client: format!("parlor-client {}", env!("CARGO_PKG_VERSION")),
            player: self.identity.secret.clone(),
            name: self.identity.name.clone(),
        };
        send(&mut socket, &hello).await?;
        let connected = loop {
            let incoming = self.queueing(socket.next()).await?;
            match read(incoming)? {
                Some(ServerMsg::Welcome {
                    protocol,
                    server,
                    player,
                }) if protocol == PROTOCOL_VERSION => {
                    let node = url.clone();
                    break NetEvent::Connected {
                        server,
                        player,
                        node,
                    };
                }
                Some(ServerMsg::Welcome { protocol, .. }) => {
                    return Err(End::Refused(format!(
                        "the server speaks protocol {protocol}, this client {PROTOCOL_VERSION}"
                    )));
                }
                // `ServerBusy` comes before a close with 1013, which says the rest.
                Some(ServerMsg::Error {
                    code: ErrorCode::ServerBusy,
                    ..
                }) => {}
                Some(ServerMsg::Error { message, .. }) => {
                    return Err(End::Refused(format!("the server refused us: {message}")));
                }
                Some(_) | None => {}
            }
        };
        if self.events.send(connected).is_err() {
            return Err(End::Closed);
        }
        Ok(socket)
    }
}
