//! What a hall does as one node of several (`crate::cluster`): room ids from the shared store,
//! rooms of other nodes reached through the bus and listed beside its own, rooms taken from it
//! ended here.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use std::net::IpAddr;

use parlor_shared::identity::PlayerId;
use parlor_shared::protocol::{RoomId, RoomSummary};

use super::{Hall, Refusal, internal};
use crate::cluster::{Cluster, HEARD_FOR};
use crate::follows::Elsewhere;
use crate::room::{RoomCommand, RoomHandle, Subscriber};
use crate::room_caps::Registered;

impl Hall {
    /// The hall as node `cluster.node()` of a cluster.
    pub fn with_cluster(mut self, cluster: Arc<Cluster>) -> Hall {
        self.cluster = Some(cluster);
        self
    }

    /// The node this hall is, if it is one of a cluster.
    pub fn cluster(&self) -> Option<&Arc<Cluster>> {
        self.cluster.as_ref()
    }

    /// [`Hall::show_new_name`], and in a cluster once more when every node has been heard
    /// again: a room another node opened a moment ago, or this node heard of no room yet
    /// (it just started), would show the old name until the player's next greeting. The
    /// second time stands in for a connection of its own, so that it keeps no outbox alive,
    /// and is taken only for the player's latest greeting here, so that it does not show a
    /// name they left since on this node.
    pub async fn show_new_name_everywhere(hall: &Arc<Hall>, who: &Subscriber) {
        // Numbered as the greetings come, before the first look, which may take a while.
        let greeting = (hall.cluster.is_some()).then(|| hall.greetings.greeted(who.player.id));
        hall.show_new_name(who).await;
        if let Some(greeting) = greeting {
            let hall = Arc::clone(hall);
            let stand_in = Subscriber {
                id: hall.new_conn_id(),
                outbox: Arc::default(),
                player: who.player.clone(),
                operator: false,
            };
            tokio::spawn(async move {
                tokio::time::sleep(HEARD_FOR).await;
                if hall.greetings.take_if_latest(stand_in.player.id, greeting) {
                    hall.show_new_name(&stand_in).await;
                }
            });
        }
    }

    /// An id for a new room: the next of this server's, or one no node has given out.
    pub(super) async fn new_room_id(&self) -> Result<RoomId, Refusal> {
        match &self.cluster {
            Some(cluster) => cluster.allocate_room_id().await.map_err(internal),
            None => Ok(self.next_room.fetch_add(1, Ordering::Relaxed)),
        }
    }

    /// Lets the other nodes reach a room this node just opened.
    pub(super) async fn serve_to_nodes(&self, room: RoomId, handle: &RoomHandle) {
        if let Some(cluster) = &self.cluster {
            cluster.opened(room, handle.clone()).await;
        }
    }

    /// A room another node owns, as a local handle (see `cluster::remote`).
    pub(super) fn remote_room(&self, room: RoomId) -> Option<RoomHandle> {
        self.cluster.as_ref()?.remote_room(room)
    }

    /// [`Hall::room`]; in a cluster, also a room the lobby does not list yet but the store
    /// has in progress: another node opened it a moment ago (its client may have passed its
    /// id on faster than the lobby), or it is between owners.
    pub async fn find_room(&self, room: RoomId) -> Option<RoomHandle> {
        match (self.room(room), &self.cluster) {
            (None, Some(cluster)) => cluster.stored_room(room).await,
            (found, _) => found,
        }
    }

    /// Whether the rooms listed miss some: this node is one of a hall's and has lost touch with
    /// the others.
    pub fn lists_part_of_the_hall(&self) -> bool {
        self.cluster
            .as_ref()
            .is_some_and(|cluster| cluster.cut_off())
    }

    /// This node's rooms and, in a cluster, every other node's, each once, by room id, with
    /// the addresses they were asked for from.
    pub(super) fn hall_registered(&self) -> Vec<Registered> {
        let mut rooms = self.registered_here();
        if self.cluster.is_some() {
            rooms.extend(self.registered_elsewhere());
            rooms.sort_by_key(|registered| registered.room.room);
        }
        rooms
    }

    /// This node's rooms and, in a cluster, every other node's, each once, by room id.
    pub(super) fn hall_summaries(&self) -> Vec<RoomSummary> {
        let mut rooms = self.summaries();
        if self.cluster.is_some() {
            rooms.extend(
                (self.registered_elsewhere().into_iter()).map(|registered| registered.room),
            );
            rooms.sort_by_key(|room| room.room);
        }
        rooms
    }

    /// The rooms of the hall's other nodes, for the quotas of their creators, which hold
    /// hall-wide (as of the nodes' last word: a burst of creations on several nodes within
    /// half a second may pass a quota by a little).
    pub(super) fn registered_elsewhere(&self) -> Vec<Registered> {
        let here: std::collections::HashSet<RoomId> = self.local_rooms().into_iter().collect();
        match &self.cluster {
            Some(cluster) => (cluster.remote_rooms().into_iter())
                .filter(|registered| !here.contains(&registered.room.room))
                .collect(),
            None => Vec::new(),
        }
    }

    /// What `player` and `address` follow through the hall's other nodes (as of their last
    /// word).
    pub fn follows_elsewhere(&self, player: PlayerId, address: IpAddr) -> Elsewhere {
        match &self.cluster {
            Some(cluster) => cluster.follows_elsewhere(player, address),
            None => Elsewhere::default(),
        }
    }

    /// Who uses which brain on this node.
    pub(crate) fn brain_uses(&self) -> &crate::brain_uses::BrainUses {
        &self.brain_uses
    }

    /// The ids of the rooms this node runs.
    pub fn local_rooms(&self) -> Vec<RoomId> {
        self.lock_rooms().keys().copied().collect()
    }

    /// Ends room `room` here, without a word to the store: another node owns it now. Its
    /// followers are asked to reconnect, and find it there.
    pub async fn room_moved(&self, room: RoomId) {
        let handle = self.lock_rooms().remove(&room);
        crate::lock(&self.room_addresses).remove(&room);
        if let Some(handle) = handle {
            let _ = handle.inbox.send(RoomCommand::Moved).await;
        }
    }
}
