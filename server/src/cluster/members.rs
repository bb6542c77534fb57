//! Which of this node's connections receive a remote room's states, as the deliveries tell:
//! a connection that took a seat in the room or was sent one of its states, until it leaves.
//! An owner sends each state of its room to a node once (`served.rs`), and this node gives it
//! to every member. The room's latest state is kept for a connection that becomes a member
//! after a state meant for it went by: its `Seated` and the state that followed it travel
//! through different stand-ins, and the state may come first.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use parlor_shared::protocol::{RoomId, ServerMsg};

use crate::outbox::{Broadcast, Delivery, Outbox};
use crate::room::ConnId;

#[derive(Default)]
struct Room {
    conns: HashMap<ConnId, Weak<Outbox>>,
    latest: Option<Arc<Broadcast>>,
}

/// The members of each remote room followed through this node.
#[derive(Default)]
pub struct Members {
    rooms: Mutex<HashMap<RoomId, Room>>,
}

impl Members {
    /// A state of `room` sent for `conn` (whose outbox, if it is still here, is `outbox`):
    /// for every member, `conn` one from now on.
    pub fn state(
        &self,
        room: RoomId,
        conn: ConnId,
        outbox: Option<&Arc<Outbox>>,
        message: ServerMsg,
    ) {
        let state = Broadcast::new(message);
        let mut rooms = crate::lock(&self.rooms);
        let entry = rooms.entry(room).or_default();
        if let Some(outbox) = outbox {
            entry.conns.insert(conn, Arc::downgrade(outbox));
        }
        entry.conns.retain(|_, member| {
            member
                .upgrade()
                .is_some_and(|member| member.state(room, Arc::clone(&state)) == Delivery::Queued)
        });
        entry.latest = Some(state);
        if entry.conns.is_empty() {
            rooms.remove(&room);
        }
    }

    /// `conn` took a seat in `room`: a member from now on, given the latest state at once if
    /// it was not one yet.
    pub fn seated(&self, room: RoomId, conn: ConnId, outbox: &Arc<Outbox>) {
        let mut rooms = crate::lock(&self.rooms);
        let entry = rooms.entry(room).or_default();
        if entry.conns.insert(conn, Arc::downgrade(outbox)).is_none()
            && let Some(latest) = &entry.latest
        {
            outbox.state(room, Arc::clone(latest));
        }
    }

    /// `conn` left `room`, or the room closed for it.
    pub fn left(&self, room: RoomId, conn: ConnId) {
        let mut rooms = crate::lock(&self.rooms);
        if let Some(entry) = rooms.get_mut(&room) {
            entry.conns.remove(&conn);
            if entry.conns.is_empty() {
                rooms.remove(&room);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outbox::Outgoing;

    fn state(version: u64) -> ServerMsg {
        ServerMsg::Left { room: version }
    }

    fn states(outbox: &Outbox) -> Vec<ServerMsg> {
        std::iter::from_fn(|| outbox.pop())
            .map(|outgoing| match outgoing {
                Outgoing::State(state) => state.message().clone(),
                _ => panic!("only states"),
            })
            .collect()
    }

    #[test]
    fn a_state_reaches_every_member_and_a_late_seat_gets_the_latest() {
        let members = Members::default();
        let (x, y, z) = (
            Arc::<Outbox>::default(),
            Arc::<Outbox>::default(),
            Arc::<Outbox>::default(),
        );
        members.state(7, 1, Some(&x), state(1));
        members.state(7, 2, Some(&y), state(2));
        assert_eq!(states(&x), [state(2)], "the newer replaces the one waiting");
        assert_eq!(states(&y), [state(2)]);
        // Its seat came after the state that followed it: it gets that state now.
        members.seated(7, 3, &z);
        assert_eq!(states(&z), [state(2)]);
        members.seated(7, 3, &z);
        assert!(states(&z).is_empty(), "a member already");
        // One who left hears no more; a state for a gone connection still reaches the rest.
        members.left(7, 1);
        drop(y);
        members.state(7, 2, None, state(3));
        assert!(states(&x).is_empty());
        assert_eq!(states(&z), [state(3)]);
    }
}
