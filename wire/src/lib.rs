//! WebSocket glue for the codec: socket settings and frame <-> message conversion, shared by the
//! server, the client and the tests so every peer speaks with the same limits; and the log
//! filter of both binaries (`log_filter`), which keeps the WebSocket library's frame logs off,
//! and the value parser of their counts that start at a least value (`at_least`).
//! Its own crate, beside `parlor-shared`, so that the rules and the protocol stay free of the
//! WebSocket library, and the client needs the server crate only to embed a server.

mod log_filter;
mod number_flags;

pub use log_filter::{LogWriter, log_filter};
pub use number_flags::at_least;

use parlor_shared::codec::{self, CodecError, Format, Frame, MAX_FRAME_BYTES};
use parlor_shared::protocol::{ErrorCode, ServerMsg};
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// Small buffers: the 128 KiB default read buffer alone would cost 640 MiB at 5,000 sockets.
/// Messages are small (a move is a few dozen bytes), and a larger frame is simply read in
/// several 4 KiB reads.
pub fn websocket_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_write_buffer_size(1024 * 1024)
        .max_message_size(Some(MAX_FRAME_BYTES))
        .max_frame_size(Some(MAX_FRAME_BYTES))
}

/// What one incoming WebSocket message means to the protocol.
pub enum Incoming<T> {
    Message(T, Format),
    /// A frame that could not be decoded; the connection stays usable.
    Garbled(CodecError, Format),
    /// Ping, pong and raw frames: handled by tungstenite, nothing to do.
    Control,
    Close,
}

pub fn decode<T: DeserializeOwned>(message: Message) -> Incoming<T> {
    let frame = match message {
        Message::Binary(bytes) => Frame::Binary(bytes.to_vec()),
        Message::Text(text) => Frame::Text(text.as_str().to_owned()),
        Message::Close(_) => return Incoming::Close,
        Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => return Incoming::Control,
    };
    let format = frame.format();
    match codec::decode(&frame) {
        Ok(message) => Incoming::Message(message, format),
        Err(error) => Incoming::Garbled(error, format),
    }
}

pub fn encode<T: Serialize>(message: &T, format: Format) -> Result<Message, CodecError> {
    Ok(match codec::encode(message, format)? {
        Frame::Binary(bytes) => Message::Binary(bytes.into()),
        Frame::Text(text) => Message::Text(text.into()),
    })
}

/// The server's answer as a frame; an answer that cannot become one (larger than a frame)
/// becomes an `Error` saying so (`LimitReached`), so the client learns why and the connection
/// lives on.
pub fn encode_answer(answer: &ServerMsg, format: Format) -> Result<Message, CodecError> {
    encode(answer, format).or_else(|error| {
        let refusal = ServerMsg::Error {
            code: ErrorCode::LimitReached,
            message: format!("the answer cannot be sent: {error}"),
        };
        encode(&refusal, format)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_over_the_frame_limit_becomes_a_refusal_that_says_so() {
        let huge = ServerMsg::Brain {
            name: "big".into(),
            part: 0,
            parts: 1,
            json: "x".repeat(MAX_FRAME_BYTES),
        };
        for format in [Format::Json, Format::Binary] {
            let frame = encode_answer(&huge, format).unwrap();
            let Incoming::Message(ServerMsg::Error { code, message }, _) = decode(frame) else {
                panic!("{format:?}: not an error");
            };
            assert_eq!(code, ErrorCode::LimitReached);
            assert!(message.contains("over the 65536-byte limit"), "{message}");
        }
        let small = ServerMsg::Brains(Vec::new());
        let frame = encode_answer(&small, Format::Json).unwrap();
        assert!(matches!(
            decode(frame),
            Incoming::Message(ServerMsg::Brains(_), _)
        ));
    }
}
