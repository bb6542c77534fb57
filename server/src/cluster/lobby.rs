//! Every node's lobby lists every room: each node says which rooms it holds every half second
//! (`ANNOUNCE_EVERY`, and at once when it opens or takes one), and keeps what the others said
//! until it is older than `HEARD_FOR`. Nothing here is stored: a node that starts hears the
//! whole hall within one round.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Duration;

use parlor_shared::identity::PlayerId;
use parlor_shared::protocol::{RoomId, RoomSummary};
use tokio::time::Instant;

use super::messages::{AnnouncedRoom, Announcement};
use crate::brain_uses::BrainTally;
use crate::follows::Elsewhere;
use crate::room_caps::RoomKind;

/// How often a node says which rooms it holds.
pub const ANNOUNCE_EVERY: Duration = Duration::from_millis(500);

/// How long a node's word holds: the rooms of a node not heard for this long are listed no
/// more (they are between owners).
pub const HEARD_FOR: Duration = Duration::from_secs(2);

/// How long a node may go unheard before it is taken for gone for good: owners let go of its
/// connections, and it asks its connections to follow their rooms again. Longer than a
/// restart of the bus, which must not cost anyone their place.
pub const FORGOTTEN_AFTER: Duration = Duration::from_secs(20);

/// A node's last announcement, when it came, and since when its process (incarnation) is
/// heard.
struct Heard {
    at: Instant,
    said: Announcement,
    since: Instant,
}

impl Heard {
    /// Whether its word still holds at `now` (see [`HEARD_FOR`]).
    fn lately(&self, now: Instant) -> bool {
        now.duration_since(self.at) < HEARD_FOR
    }
}

/// What the other nodes last said.
#[derive(Default)]
pub struct Lobby {
    nodes: Mutex<HashMap<String, Heard>>,
}

impl Lobby {
    pub fn heard(&self, said: Announcement, at: Instant) {
        let mut nodes = crate::lock(&self.nodes);
        let since = (nodes.get(&said.node))
            .filter(|before| before.said.incarnation == said.incarnation)
            .map_or(at, |before| before.since);
        nodes.insert(said.node.clone(), Heard { at, said, since });
    }

    /// The incarnation `node` last said it runs as, and since when it is heard, if it was
    /// heard within [`FORGOTTEN_AFTER`].
    pub fn incarnation(&self, node: &str, now: Instant) -> Option<(u64, Instant)> {
        crate::lock(&self.nodes)
            .get(node)
            .filter(|heard| now.duration_since(heard.at) < FORGOTTEN_AFTER)
            .map(|heard| (heard.said.incarnation, heard.since))
    }

    /// The rooms the other nodes hold now, each once (at its owner's word: the highest
    /// epoch), by room id.
    pub fn rooms(&self, now: Instant) -> Vec<AnnouncedRoom> {
        let mut nodes = crate::lock(&self.nodes);
        nodes.retain(|_, heard| now.duration_since(heard.at) < FORGOTTEN_AFTER);
        let mut rooms: HashMap<RoomId, &AnnouncedRoom> = HashMap::new();
        let heard_lately = (nodes.values()).filter(|heard| heard.lately(now));
        for announced in heard_lately.flat_map(|heard| &heard.said.rooms) {
            let held = rooms.entry(announced.summary.room).or_insert(announced);
            if announced.epoch > held.epoch {
                *held = announced;
            }
        }
        let mut listed: Vec<AnnouncedRoom> = rooms.into_values().cloned().collect();
        listed.sort_by_key(|announced| announced.summary.room);
        listed
    }

    /// The brain uses of the nodes heard lately.
    pub fn brains(&self, now: Instant) -> Vec<BrainTally> {
        let nodes = crate::lock(&self.nodes);
        (nodes.values())
            .filter(|heard| heard.lately(now))
            .map(|heard| heard.said.brains.clone())
            .collect()
    }

    /// What `player` and `address` follow through the nodes heard lately.
    pub fn follows(&self, player: PlayerId, address: IpAddr, now: Instant) -> Elsewhere {
        let nodes = crate::lock(&self.nodes);
        let heard_lately = (nodes.values()).filter(|heard| heard.lately(now));
        heard_lately.fold(Elsewhere::default(), |sum, heard| {
            let there = heard.said.follows.of(player, address);
            Elsewhere {
                player: sum.player + there.player,
                address: sum.address + there.address,
            }
        })
    }

    /// The node heard lately with the most free places for a room of `kind`, if any has one.
    pub fn roomiest(&self, kind: RoomKind, now: Instant) -> Option<String> {
        let nodes = crate::lock(&self.nodes);
        (nodes.iter())
            .filter(|(_, heard)| heard.lately(now) && kind.fits(&heard.said.free))
            .max_by_key(|(_, heard)| match (kind.auto_match, kind.ai) {
                (true, _) => heard.said.free.matches,
                (false, true) => heard.said.free.ai_rooms,
                (false, false) => heard.said.free.rooms,
            })
            .map(|(node, _)| node.clone())
    }

    /// The node that holds `room` now, by the other nodes' word, and its epoch.
    pub fn owner_of(&self, room: RoomId, now: Instant) -> Option<(String, i64)> {
        self.holder(room, now)
            .map(|(node, announced)| (node, announced.epoch))
    }

    /// `room`'s summary, by its owner's word.
    pub fn summary_of(&self, room: RoomId, now: Instant) -> Option<RoomSummary> {
        self.holder(room, now)
            .map(|(_, announced)| announced.summary)
    }

    fn holder(&self, room: RoomId, now: Instant) -> Option<(String, AnnouncedRoom)> {
        let nodes = crate::lock(&self.nodes);
        (nodes.iter())
            .filter(|(_, heard)| heard.lately(now))
            .flat_map(|(node, heard)| {
                (heard.said.rooms.iter())
                    .filter(|announced| announced.summary.room == room)
                    .map(move |announced| (node, announced))
            })
            .max_by_key(|(_, announced)| announced.epoch)
            .map(|(node, announced)| (node.clone(), announced.clone()))
    }
}

#[cfg(test)]
mod tests {
    use parlor_shared::game::GameKind;

    use super::*;
    use crate::follows::FollowTally;
    use crate::limits::RoomQuota;

    fn summary(room: RoomId, version: u64) -> RoomSummary {
        RoomSummary {
            version,
            ..crate::room::placeholder_summary(room, GameKind::Cave)
        }
    }

    fn said(node: &str, rooms: Vec<(RoomSummary, i64)>) -> Announcement {
        let rooms = (rooms.into_iter())
            .map(|(summary, epoch)| AnnouncedRoom {
                summary,
                epoch,
                address: None,
            })
            .collect();
        Announcement {
            node: node.into(),
            incarnation: 7,
            rooms,
            free: RoomQuota {
                rooms: 10,
                ai_rooms: node.len(),
                matches: 0,
            },
            follows: FollowTally::default(),
            brains: BrainTally::default(),
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
        let listed: Vec<(RoomId, i64)> = (lobby.rooms(start).into_iter())
            .map(|announced| (announced.summary.room, announced.epoch))
            .collect();
        assert_eq!(listed, [(1, 2), (2, 1)]);

        let later = start + HEARD_FOR;
        lobby.heard(said("b", vec![(summary(1, 6), 2)]), later);
        assert_eq!(lobby.owner_of(2, later), None, "a's word has expired");
        assert_eq!(
            lobby.incarnation("a", later),
            Some((7, start)),
            "but a is not forgotten yet"
        );
        assert_eq!(lobby.incarnation("a", start + FORGOTTEN_AFTER), None);
        assert_eq!(lobby.rooms(later).len(), 1);
        assert_eq!(
            lobby.rooms(later)[0].summary.version,
            6,
            "the newest word counts"
        );
    }

    #[test]
    fn a_node_started_again_is_heard_as_a_new_incarnation_from_its_first_word() {
        let lobby = Lobby::default();
        let start = Instant::now();
        lobby.heard(said("a", Vec::new()), start);
        let later = start + ANNOUNCE_EVERY;
        lobby.heard(said("a", Vec::new()), later);
        assert_eq!(
            lobby.incarnation("a", later),
            Some((7, start)),
            "the same process"
        );
        let again = later + ANNOUNCE_EVERY;
        lobby.heard(
            Announcement {
                incarnation: 8,
                ..said("a", Vec::new())
            },
            again,
        );
        assert_eq!(lobby.incarnation("a", again), Some((8, again)));
    }
}
