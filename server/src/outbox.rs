//! A connection's outbox: what rooms have for one client, waiting for the client to take it.
//!
//! Rooms never wait on a client. Replies (seats, errors, leaving) queue in order, up to a
//! bound; room states do not queue at all: each room keeps at most one state waiting per
//! connection, and a newer state replaces it. A client that falls behind therefore receives
//! the room's latest full state instead of the updates it missed, and a final state is never
//! lost. Memory per connection is bounded by the rooms it follows.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use parlor_shared::codec::{CodecError, Format};
use parlor_shared::protocol::{RoomId, ServerMsg};
use parlor_wire as wire;
use tokio::sync::Notify;
use tokio_tungstenite::tungstenite::Message;

/// Replies a connection may have waiting; a client that lets more pile up (by sending requests
/// without reading the answers) is closed as abusive.
pub const MAX_WAITING_REPLIES: usize = 64;

/// A message for many connections, encoded at most once per format however many receive it.
#[derive(Debug)]
pub struct Broadcast {
    message: ServerMsg,
    binary: OnceLock<Message>,
    json: OnceLock<Message>,
}

impl Broadcast {
    pub fn new(message: ServerMsg) -> Arc<Broadcast> {
        Arc::new(Broadcast {
            message,
            binary: OnceLock::new(),
            json: OnceLock::new(),
        })
    }

    /// The message (for another node, and for tests that look at what a room sent).
    pub fn message(&self) -> &ServerMsg {
        &self.message
    }

    /// The frame in `format`; cloning it shares the encoded bytes.
    pub fn frame(&self, format: Format) -> Result<Message, CodecError> {
        let cell = match format {
            Format::Binary => &self.binary,
            Format::Json => &self.json,
        };
        if let Some(frame) = cell.get() {
            return Ok(frame.clone());
        }
        let frame = wire::encode(&self.message, format)?;
        Ok(cell.get_or_init(|| frame).clone())
    }
}

/// Something waiting for the client.
pub enum Outgoing {
    Reply(Box<ServerMsg>),
    State(Arc<Broadcast>),
    /// A room it follows moved to another node of the hall: the connection is to close with
    /// "try again", so that the client resumes everything it follows wherever it lands.
    Reconnect,
}

/// What happened to a message given to an outbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delivery {
    Queued,
    /// The connection is gone; forget it.
    Closed,
}

enum Slot {
    Reply(Box<ServerMsg>),
    /// The room's state waiting in `Pending::states`.
    State(RoomId),
}

#[derive(Default)]
struct Pending {
    order: VecDeque<Slot>,
    states: HashMap<RoomId, Arc<Broadcast>>,
    replies: usize,
}

#[derive(Default)]
pub struct Outbox {
    pending: Mutex<Pending>,
    wake: Notify,
    closed: AtomicBool,
    overflowed: AtomicBool,
    reconnect: AtomicBool,
}

impl Outbox {
    fn lock(&self) -> MutexGuard<'_, Pending> {
        // Only queues live behind the lock; a panic cannot leave them unusable.
        crate::lock(&self.pending)
    }

    /// Queues a reply. Past [`MAX_WAITING_REPLIES`] the reply is dropped and the outbox marked
    /// overflowed, which the connection treats as abuse.
    pub fn reply(&self, message: ServerMsg) -> Delivery {
        if self.closed.load(Ordering::Relaxed) {
            return Delivery::Closed;
        }
        {
            let mut pending = self.lock();
            if pending.replies >= MAX_WAITING_REPLIES {
                self.overflowed.store(true, Ordering::Relaxed);
            } else {
                pending.replies += 1;
                pending.order.push_back(Slot::Reply(Box::new(message)));
            }
        }
        self.wake.notify_one();
        Delivery::Queued
    }

    /// Makes `state` the next state the client gets of `room`, replacing one still waiting.
    pub fn state(&self, room: RoomId, state: Arc<Broadcast>) -> Delivery {
        if self.closed.load(Ordering::Relaxed) {
            return Delivery::Closed;
        }
        {
            let mut pending = self.lock();
            if pending.states.insert(room, state).is_none() {
                pending.order.push_back(Slot::State(room));
            }
        }
        self.wake.notify_one();
        Delivery::Queued
    }

    /// Asks the connection to close and the client to come back (see [`Outgoing::Reconnect`]);
    /// what waits for it is dropped, since the client resumes from full states.
    pub fn reconnect(&self) {
        self.reconnect.store(true, Ordering::Relaxed);
        self.wake.notify_one();
    }

    /// The next message for the client, if any is waiting.
    pub fn pop(&self) -> Option<Outgoing> {
        if self.reconnect.load(Ordering::Relaxed) {
            return Some(Outgoing::Reconnect);
        }
        let mut pending = self.lock();
        loop {
            match pending.order.pop_front()? {
                Slot::Reply(message) => {
                    pending.replies -= 1;
                    return Some(Outgoing::Reply(message));
                }
                Slot::State(room) => {
                    if let Some(state) = pending.states.remove(&room) {
                        return Some(Outgoing::State(state));
                    }
                }
            }
        }
    }

    /// Waits for the next message. Cancel-safe: nothing is taken until it returns.
    pub async fn next(&self) -> Outgoing {
        loop {
            if let Some(outgoing) = self.pop() {
                return outgoing;
            }
            // A message queued after `pop` stored a permit, so this cannot miss it.
            self.wake.notified().await;
        }
    }

    pub fn overflowed(&self) -> bool {
        self.overflowed.load(Ordering::Relaxed)
    }

    /// Marks the connection gone, so rooms stop queueing for it, and frees what waits.
    pub fn close(&self) {
        self.closed.store(true, Ordering::Relaxed);
        *self.lock() = Pending::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::protocol::ErrorCode;

    fn error(text: &str) -> ServerMsg {
        ServerMsg::Error {
            code: ErrorCode::BadRequest,
            message: text.into(),
        }
    }

    fn left(room: RoomId) -> Arc<Broadcast> {
        Broadcast::new(ServerMsg::Left { room })
    }

    fn drain(outbox: &Outbox) -> Vec<ServerMsg> {
        std::iter::from_fn(|| outbox.pop())
            .map(|outgoing| match outgoing {
                Outgoing::Reply(message) => *message,
                Outgoing::State(state) => state.message.clone(),
                Outgoing::Reconnect => panic!("no reconnect asked for"),
            })
            .collect()
    }

    #[test]
    fn a_newer_state_replaces_the_waiting_one_and_keeps_its_place() {
        let outbox = Outbox::default();
        outbox.state(1, left(1));
        outbox.reply(error("a"));
        outbox.state(2, left(2));
        // Stands in for room 1's newer state: same room key, different content.
        outbox.state(1, Broadcast::new(ServerMsg::RoomCreated { room: 1 }));
        assert_eq!(
            drain(&outbox),
            vec![
                ServerMsg::RoomCreated { room: 1 },
                error("a"),
                ServerMsg::Left { room: 2 },
            ]
        );
        // After delivery a room's next state queues afresh.
        outbox.state(1, left(1));
        assert_eq!(drain(&outbox), vec![ServerMsg::Left { room: 1 }]);
    }

    #[test]
    fn thousands_of_states_for_a_client_that_does_not_read_take_one_slot() {
        let outbox = Outbox::default();
        for version in 0..10_000 {
            outbox.state(7, Broadcast::new(ServerMsg::RoomCreated { room: version }));
        }
        assert_eq!(drain(&outbox), vec![ServerMsg::RoomCreated { room: 9_999 }]);
    }

    #[test]
    fn replies_beyond_the_bound_mark_the_outbox_overflowed() {
        let outbox = Outbox::default();
        for _ in 0..MAX_WAITING_REPLIES {
            outbox.reply(error("x"));
        }
        assert!(!outbox.overflowed());
        outbox.reply(error("one too many"));
        assert!(outbox.overflowed());
        assert_eq!(drain(&outbox).len(), MAX_WAITING_REPLIES);
    }

    #[test]
    fn a_closed_outbox_refuses_and_frees_everything() {
        let outbox = Outbox::default();
        outbox.state(1, left(1));
        outbox.close();
        assert_eq!(outbox.state(1, left(1)), Delivery::Closed);
        assert_eq!(outbox.reply(error("x")), Delivery::Closed);
        assert!(outbox.pop().is_none());
    }

    /// Where a frame's bytes are: equal for clones of one encoding, apart for two encodings.
    fn payload(frame: &Message) -> *const u8 {
        match frame {
            Message::Text(text) => text.as_str().as_ptr(),
            Message::Binary(bytes) => bytes.as_ptr(),
            other => panic!("not a data frame: {other:?}"),
        }
    }

    #[test]
    fn a_broadcast_is_encoded_once_per_format() {
        let state = left(3);
        let first = state.frame(Format::Json).unwrap();
        assert!(state.json.get().is_some(), "the first encoding is kept");
        assert!(state.binary.get().is_none(), "binary not asked for yet");
        let second = state.frame(Format::Json).unwrap();
        assert_eq!(first, second);
        assert_eq!(
            payload(&first),
            payload(&second),
            "the second frame shares the first one's bytes"
        );
        let binary = state.frame(Format::Binary).unwrap();
        assert!(matches!(binary, Message::Binary(_)));
        assert!(state.binary.get().is_some(), "the binary encoding is kept");
        assert_eq!(
            payload(&binary),
            payload(&state.frame(Format::Binary).unwrap())
        );
        assert_eq!(
            payload(&state.frame(Format::Json).unwrap()),
            payload(&first)
        );
    }
}
