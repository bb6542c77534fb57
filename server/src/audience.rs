//! Who hears a room: every connection that plays in it or watches it, each reached through its
//! connection's bounded outbox without ever waiting.

use std::collections::HashMap;

use parlor_shared::protocol::{ErrorCode, ServerMsg};
use tokio::sync::mpsc;
use tracing::debug;

pub type ConnId = u64;

/// A connection's outbox, as the rooms see it.
#[derive(Clone, Debug)]
pub struct Subscriber {
    pub id: ConnId,
    pub outbox: mpsc::Sender<ServerMsg>,
}

impl Subscriber {
    /// Queues a message without waiting; false once the connection is gone. A full queue drops
    /// the message: every state message is a full snapshot, so the next one heals the gap, and
    /// a slow reader never stalls the room.
    pub fn send(&self, message: ServerMsg) -> bool {
        match self.outbox.try_send(message) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                debug!(conn = self.id, "outbox full; dropping a message");
                true
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    pub fn error(&self, code: ErrorCode, message: impl Into<String>) {
        self.send(ServerMsg::Error {
            code,
            message: message.into(),
        });
    }
}

/// The connections following one room.
#[derive(Default)]
pub struct Audience {
    members: HashMap<ConnId, Subscriber>,
}

impl Audience {
    pub fn insert(&mut self, who: Subscriber) {
        self.members.insert(who.id, who);
    }

    pub fn remove(&mut self, conn: ConnId) -> Option<Subscriber> {
        self.members.remove(&conn)
    }

    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Sends `message` (made once per member) to everyone but `skip`; returns the members
    /// whose connection has closed, for the room to forget.
    pub fn send_all(&self, skip: Option<ConnId>, message: impl Fn() -> ServerMsg) -> Vec<ConnId> {
        self.members
            .values()
            .filter(|member| Some(member.id) != skip && !member.send(message()))
            .map(|member| member.id)
            .collect()
    }
}
