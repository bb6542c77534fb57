//! Every node's lobby lists every room: each node says which rooms it holds every half second
//! (`ANNOUNCE_EVERY`, and at once when it opens or takes one), and keeps what the others said
//! until it is older than `HEARD_FOR`. Nothing here is stored: a node that starts hears the
//! whole hall within one round.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use parlor_shared::protocol::{RoomId, RoomSummary};
use tokio::time::Instant;

use super::messages::Announcement;

/// How often a node says which rooms it holds.
pub const ANNOUNCE_EVERY: Duration = Duration::from_millis(500);

/// How long a node's word holds: the rooms of a node not heard for this long are listed no
/// more (they are between owners).
pub const HEARD_FOR: Duration = Duration::from_secs(2);

/// How long a node may go unheard before it is taken for gone for good: owners let go of its
/// connections, and it asks its connections to follow their rooms again. Longer than a
/// restart of the bus, which must not cost anyone their place.
pub const FORGOTTEN_AFTER: Duration = Duration::from_secs(20);

struct Heard {
    at: Instant,
    rooms: Vec<(RoomSummary, i64)>,
}

/// What the other nodes last said.
#[derive(Default)]
pub struct Lobby {
    nodes: Mutex<HashMap<String, Heard>>,
}

impl Lobby {
    pub fn heard(&self, announcement: Announcement, at: Instant) {
        let Announcement { node, rooms } = announcement;
        crate::lock(&self.nodes).insert(node, Heard { at, rooms });
    }

    /// Whether `node` was heard within [`FORGOTTEN_AFTER`].
    pub fn remembered(&self, node: &str, now: Instant) -> bool {
        crate::lock(&self.nodes)
            .get(node)
            .is_some_and(|heard| now.duration_since(heard.at) < FORGOTTEN_AFTER)
    }

    /// The rooms the other nodes hold now, each once (at its owner's word: the highest epoch),
    /// with the node that holds it.
    pub fn rooms(&self, now: Instant) -> Vec<(RoomSummary, String)> {
        let mut nodes = crate::lock(&self.nodes);
        nodes.retain(|_, heard| now.duration_since(heard.at) < FORGOTTEN_AFTER);
        let mut rooms: HashMap<RoomId, (&RoomSummary, i64, &String)> = HashMap::new();
        let heard_lately =
            (nodes.iter()).filter(|(_, heard)| now.duration_since(heard.at) < HEARD_FOR);
        for (node, heard) in heard_lately {
            for (summary, epoch) in &heard.rooms {
                let held = rooms.entry(summary.room).or_insert((summary, *epoch, node));
                if *epoch > held.1 {
                    *held = (summary, *epoch, node);
                }
            }
        }
        let mut listed: Vec<(RoomSummary, String)> = (rooms.into_values())
            .map(|(summary, _, node)| (summary.clone(), node.clone()))
            .collect();
        listed.sort_by_key(|(summary, _)| summary.room);
        listed
    }

    /// The node that holds `room` now, by the other nodes' word, and its epoch.
    pub fn owner_of(&self, room: RoomId, now: Instant) -> Option<(String, i64)> {
        self.holder(room, now).map(|(node, epoch, _)| (node, epoch))
    }

    /// `room`'s summary, by its owner's word.
    pub fn summary_of(&self, room: RoomId, now: Instant) -> Option<RoomSummary> {
        self.holder(room, now).map(|(_, _, summary)| summary)
    }

    fn holder(&self, room: RoomId, now: Instant) -> Option<(String, i64, RoomSummary)> {
        let nodes = crate::lock(&self.nodes);
        (nodes.iter())
            .filter(|(_, heard)| now.duration_since(heard.at) < HEARD_FOR)
            .flat_map(|(node, heard)| {
                (heard.rooms.iter())
                    .filter(|(summary, _)| summary.room == room)
                    .map(move |(summary, epoch)| (*epoch, node, summary))
            })
            .max_by_key(|(epoch, _, _)| *epoch)
            .map(|(epoch, node, summary)| (node.clone(), epoch, summary.clone()))
    }
}

#[cfg(test)]
mod tests {
    use parlor_shared::game::GameKind;

    use super::*;

    fn summary(room: RoomId, version: u64) -> RoomSummary {
        RoomSummary {
            room,
            game: GameKind::Cave,
            creator: None,
            seats: Vec::new(),
            spectators: 0,
            version,
            moves: 0,
            outcome: None,
        }
    }

    fn said(node: &str, rooms: Vec<(RoomSummary, i64)>) -> Announcement {
        Announcement {
            node: node.into(),
            rooms,
        }
    }

    #[test]
    fn the_highest_epoch_owns_a_room_and_a_silent_node_is_forgotten() {
        let lobby = Lobby::default();
        let start = Instant::now();
        lobby.heard(
            said("a", vec![(summary(1, 5), 1), (summary(2, 0), 1)]),
            start,
        );
        lobby.heard(said("b", vec![(summary(1, 5), 2)]), start);
        assert_eq!(lobby.owner_of(1, start), Some(("b".into(), 2)));
        assert_eq!(lobby.owner_of(2, start), Some(("a".into(), 1)));
        assert_eq!(lobby.owner_of(3, start), None);
        let listed: Vec<(RoomId, String)> = (lobby.rooms(start).into_iter())
            .map(|(summary, node)| (summary.room, node))
            .collect();
        assert_eq!(listed, [(1, "b".to_string()), (2, "a".to_string())]);

        let later = start + HEARD_FOR;
        lobby.heard(said("b", vec![(summary(1, 6), 2)]), later);
        assert_eq!(lobby.owner_of(2, later), None, "a's word has expired");
        assert!(lobby.remembered("a", later), "but a is not forgotten yet");
        assert!(!lobby.remembered("a", start + FORGOTTEN_AFTER));
        assert_eq!(lobby.rooms(later).len(), 1);
        assert_eq!(lobby.rooms(later)[0].0.version, 6, "the newest word counts");
    }
}
