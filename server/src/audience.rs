//! Who hears a room: every connection that plays in it or watches it, each reached through its
//! connection's [`Outbox`] without ever waiting.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use parlor_shared::identity::Player;
use parlor_shared::protocol::{ErrorCode, RoomId, RoomSnapshot, ServerMsg};

use crate::outbox::{Broadcast, Delivery, Outbox};

pub type ConnId = u64;

/// Player number `id`, for tests.
#[cfg(test)]
pub fn test_player(id: u64) -> Player {
    Player {
        id: parlor_shared::identity::PlayerId(id),
        name: format!("player {id}"),
    }
}

/// A follower for tests: a subscriber whose outbox the test reads.
#[cfg(test)]
pub struct TestFollower {
    pub who: Subscriber,
}

#[cfg(test)]
impl TestFollower {
    pub fn new(id: ConnId) -> TestFollower {
        TestFollower {
            who: Subscriber {
                id,
                outbox: Arc::default(),
                player: test_player(id),
                operator: false,
            },
        }
    }

    /// A `Watch` of whatever room it is sent to.
    pub fn watch(&self) -> crate::room::RoomCommand {
        crate::room::RoomCommand::Watch {
            who: self.who.clone(),
            spectator_cap: 10,
        }
    }

    /// The states it hears within `within` (replies are passed over).
    pub async fn states(&self, within: Duration) -> Vec<RoomSnapshot> {
        let deadline = tokio::time::Instant::now() + within;
        let mut states = Vec::new();
        while let Ok(next) = tokio::time::timeout_at(deadline, self.who.outbox.next()).await {
            if let crate::outbox::Outgoing::State(state) = next
                && let ServerMsg::State(snapshot) = state.message()
            {
                states.push(snapshot.clone());
            }
        }
        states
    }

    /// The states it hears within `within`, each as its spectator count.
    pub async fn spectator_counts(&self, within: Duration) -> Vec<u32> {
        let states = self.states(within).await;
        states.iter().map(|snapshot| snapshot.spectators).collect()
    }

    /// The next reply it hears (states are passed over), within 10 s.
    pub async fn next_reply(&self) -> ServerMsg {
        loop {
            let next = tokio::time::timeout(Duration::from_secs(10), self.who.outbox.next());
            if let crate::outbox::Outgoing::Reply(message) = next.await.expect("a reply in time") {
                return *message;
            }
        }
    }
}

/// A connection's outbox, as the rooms see it, and the player it speaks for.
#[derive(Clone)]
pub struct Subscriber {
    pub id: ConnId,
    pub outbox: Arc<Outbox>,
    pub player: Player,
    /// Whether the player runs the hall (`server --operator`): may end any room.
    pub operator: bool,
}

impl Subscriber {
    /// Whether it may end a room `creator` made: its creator may, and the hall's operators.
    pub fn may_close(&self, creator: Option<&Player>) -> bool {
        self.operator || creator.is_some_and(|creator| creator.id == self.player.id)
    }

    /// Who it is to a room it closes (see [`Subscriber::may_close`]), for the message and the
    /// log.
    pub fn closer(&self) -> &'static str {
        if self.operator {
            "the hall's operator"
        } else {
            "its creator"
        }
    }
}

impl Subscriber {
    /// Queues a reply without waiting; false once the connection is gone.
    pub fn send(&self, message: ServerMsg) -> bool {
        self.outbox.reply(message) == Delivery::Queued
    }

    /// Makes `state` the next state of `room` the connection gets (a newer one replaces an
    /// older one still waiting); false once the connection is gone.
    pub fn send_state(&self, room: RoomId, state: Arc<Broadcast>) -> bool {
        self.outbox.state(room, state) == Delivery::Queued
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
    /// Tells every member that `room` failed and is gone (`RoomClosed`). For a room whose
    /// task panicked, so nobody is left waiting on a room that is no more.
    pub fn farewell(&self, room: RoomId) {
        self.close_with(
            room,
            &format!("room {room} failed on the server and was closed"),
        );
    }

    /// Tells every member that `room` is gone, and why (`RoomClosed`).
    pub fn close_with(&self, room: RoomId, message: &str) {
        for member in self.members.values() {
            member.send(ServerMsg::RoomClosed {
                room,
                message: message.to_string(),
            });
        }
    }

    /// Tells every member, and `asker` (whose request closed `room`) should it not be one,
    /// that `room` is gone, and why.
    pub fn close_at_request(&self, room: RoomId, asker: &Subscriber, message: &str) {
        self.close_with(room, message);
        if !self.contains(asker.id) {
            asker.send(ServerMsg::RoomClosed {
                room,
                message: message.to_string(),
            });
        }
    }

    /// Asks every member's connection to close and come back (see `Outbox::reconnect`): the
    /// room moved to another node, which knows nobody as a follower yet.
    pub fn send_elsewhere(&self) {
        for member in self.members.values() {
            member.outbox.reconnect();
        }
    }

    pub fn insert(&mut self, who: Subscriber) {
        self.members.insert(who.id, who);
    }

    /// Lets `who` follow `room` unless it already has `cap` of its `spectators` (a member
    /// asking again is always let in); a refusal tells `who` why. True when admitted.
    pub fn admit(&mut self, room: RoomId, who: &Subscriber, spectators: usize, cap: usize) -> bool {
        if !self.contains(who.id) && spectators >= cap {
            who.error(
                ErrorCode::LimitReached,
                format!("room {room} already has {cap} spectators"),
            );
            return false;
        }
        self.insert(who.clone());
        true
    }

    pub fn remove(&mut self, conn: ConnId) -> Option<Subscriber> {
        self.members.remove(&conn)
    }

    /// Sends `who`, if it follows room `room`, the room's state again (`snapshot`, made only
    /// then): states sent while the hall's bus was away were lost on the way to another node.
    pub fn resend(&self, room: RoomId, who: &Subscriber, snapshot: impl FnOnce() -> RoomSnapshot) {
        if self.contains(who.id) {
            who.send_state(room, Broadcast::new(ServerMsg::State(snapshot())));
        }
    }

    pub fn get(&self, conn: ConnId) -> Option<&Subscriber> {
        self.members.get(&conn)
    }

    pub fn contains(&self, conn: ConnId) -> bool {
        self.members.contains_key(&conn)
    }

    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// The players of the members `shown` lets through, at most `limit`, by connection order
    /// (so a list does not reshuffle between states).
    pub fn players(&self, shown: impl Fn(ConnId) -> bool, limit: usize) -> Vec<Player> {
        let mut members: Vec<&Subscriber> = (self.members.values())
            .filter(|member| shown(member.id))
            .collect();
        members.sort_by_key(|member| member.id);
        (members.into_iter().take(limit))
            .map(|member| member.player.clone())
            .collect()
    }

    /// When a room whose game ended at `ended` may close: `linger` after the end, once
    /// nobody follows it (its replay stays in the store). `None` while it must stay open.
    pub fn closing_time(&self, ended: Option<Instant>, linger: Duration) -> Option<Instant> {
        ended
            .filter(|_| self.members.is_empty())
            .map(|at| at + linger)
    }

    /// Gives `room`'s state (encoded at most once per format) to every member; returns the
    /// members whose connection has closed, for the room to forget.
    pub fn send_state(&self, room: RoomId, state: &Arc<Broadcast>) -> Vec<ConnId> {
        self.members
            .values()
            .filter(|member| !member.send_state(room, state.clone()))
            .map(|member| member.id)
            .collect()
    }
}
