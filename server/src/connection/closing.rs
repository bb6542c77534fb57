//! Ending a connection: the close frame with its code and reason, read to the client's answer,
//! and the turning away of a connection over the server's cap.

use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use parlor_shared::codec::Format;
use parlor_shared::protocol::{ErrorCode, ServerMsg};
use parlor_wire as wire;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use super::{Connection, accept};
use crate::address_slots::SlotsFull;
use crate::limits::Limits;

/// The longest a connection over the cap is kept while it is told so.
pub const BUSY_REFUSAL_TIME: Duration = Duration::from_secs(2);

/// Turns away a connection over a cap: an error it can show, then the close, all within
/// [`BUSY_REFUSAL_TIME`]. The server's cap is `ServerBusy` (close 1013, try again later), its
/// address's `LimitReached` (close 1008).
pub async fn refuse_full(stream: TcpStream, limits: Arc<Limits>, full: SlotsFull) {
    let _ = tokio::time::timeout(BUSY_REFUSAL_TIME, tell_full(stream, limits, full)).await;
}

async fn tell_full(stream: TcpStream, limits: Arc<Limits>, full: SlotsFull) {
    let Ok(mut socket) = accept(stream, &limits).await else {
        return;
    };
    let (code, message, close, reason) = match full {
        SlotsFull::All => (
            ErrorCode::ServerBusy,
            format!(
                "the server is full ({} connections); try again later",
                limits.max_connections
            ),
            CloseCode::Again,
            "server full",
        ),
        SlotsFull::Source => (
            ErrorCode::LimitReached,
            format!(
                "your address holds {} connections to this server already, the most one \
                 address may; close one first",
                limits.connections_per_address
            ),
            CloseCode::Policy,
            "too many connections from one address",
        ),
    };
    let refusal = ServerMsg::Error { code, message };
    if let Ok(frame) = wire::encode(&refusal, Format::Json) {
        let _ = socket.send(frame).await;
    }
    let _ = socket.close(Some(close_frame(close, reason))).await;
}

fn close_frame(code: CloseCode, reason: &str) -> CloseFrame {
    // A close reason must fit a control frame (123 bytes).
    let mut end = reason.len().min(123);
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    CloseFrame {
        code,
        reason: reason[..end].into(),
    }
}

/// How long a closing connection waits for the client's answering close.
const CLOSE_DRAIN: Duration = Duration::from_secs(2);

impl Connection {
    pub(super) async fn close(&mut self, code: CloseCode, reason: &str) {
        let _ = tokio::time::timeout(
            self.limits.write_timeout,
            self.socket.close(Some(close_frame(code, reason))),
        )
        .await;
        // Read on until the client answers the close (or for CLOSE_DRAIN at most): a socket
        // dropped with frames unread is reset, and the client may then lose the close frame
        // and its reason, which an abusive client's flood makes likely.
        let drain = async { while let Some(Ok(_)) = self.socket.next().await {} };
        let _ = tokio::time::timeout(CLOSE_DRAIN, drain).await;
    }
}
