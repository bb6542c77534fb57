//! A node's claims on rooms: renewed three times a lease (twice a second at least); rooms
//! taken by another node ended here at once; rooms nobody holds claimed and replayed from the
//! store while this node's caps have places for them, looked for as often; and, as the node
//! stops, its rooms let go so that others take them without waiting for the leases.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use parlor_shared::protocol::RoomId;
use tokio::time::{Instant, MissedTickBehavior};
use tracing::{info, warn};

use super::Cluster;
use crate::hall::Hall;
use crate::room_caps::{RoomKind, free_places};
use crate::store::StoredRoom;
use crate::store::postgres::PgStore;

/// Renews this node's claims and takes the rooms nobody holds, for as long as the node runs.
pub async fn keep(hall: Arc<Hall>, cluster: Arc<Cluster>) {
    // Claims are looked for this often too: a dead node's rooms move soon after its leases
    // end.
    let every = (cluster.lease / 3).min(std::time::Duration::from_millis(500));
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut passed = HashMap::new();
    loop {
        tick.tick().await;
        let asked_at = Instant::now();
        match cluster.on_store(PgStore::renew_claims).await {
            Ok(taken) => {
                for room in taken {
                    warn!(room, "another node has taken this room; ending it here");
                    hall.room_moved(room).await;
                }
                cluster.renewed(asked_at);
            }
            Err(error) => {
                warn!(
                    error = format!("{error:#}"),
                    "could not renew this node's claims"
                );
                // Past the lease, other nodes may have taken every room: this one must not play
                // them on. They come back to whoever claims them first, this node too.
                if !cluster.lease_holds() {
                    for room in hall.local_rooms() {
                        cluster.store.forget_claim(room);
                        hall.room_moved(room).await;
                    }
                }
                continue;
            }
        }
        take_over(&hall, &cluster, &mut passed).await;
    }
}

/// Claims each room nobody holds that this node's caps have a place for, and plays it on from
/// the store. A room without a place here is left for another node, or for later when a place
/// frees: a node that took every room of a dead one would be driven past the memory its caps
/// keep it within. `passed` remembers the rooms left and what they need, so that they are not
/// claimed and read again twice a second only to be let go.
async fn take_over(
    hall: &Arc<Hall>,
    cluster: &Arc<Cluster>,
    passed: &mut HashMap<RoomId, RoomKind>,
) {
    let claimable = match cluster.on_store(PgStore::claimable_rooms).await {
        Ok(claimable) => claimable,
        Err(error) => return warn!(error = format!("{error:#}"), "cannot list rooms to take"),
    };
    let unheld: HashSet<RoomId> = claimable.iter().copied().collect();
    passed.retain(|room, _| unheld.contains(room));
    let mut free = free_places(&hall.registered_here(), &cluster.limits);
    let local = hall.local_rooms();
    for room in claimable.into_iter().filter(|room| !local.contains(room)) {
        if free.rooms == 0 {
            break;
        }
        if passed.get(&room).is_some_and(|kind| !kind.fits(&free)) {
            continue;
        }
        let Some((epoch, stored)) = claim(cluster, room).await else {
            continue;
        };
        let kind = RoomKind::stored(&stored);
        if !kind.fits(&free) {
            passed.insert(room, kind);
            info!(
                room,
                "room left for another node: this node's caps are full"
            );
            let released = cluster
                .on_store(move |store| store.release_room(room))
                .await;
            if let Err(error) = released {
                // Its lease runs out instead.
                cluster.store.forget_claim(room);
                warn!(
                    room,
                    error = format!("{error:#}"),
                    "could not let the room go"
                );
            }
            continue;
        }
        passed.remove(&room);
        match hall.adopt(stored) {
            Ok(handle) => {
                free = kind.taken_from(free);
                info!(room, epoch, "room taken over");
                cluster.opened(room, handle).await;
            }
            // Its lease runs out and another node tries; each logs why it could not.
            Err(error) => {
                cluster.store.forget_claim(room);
                warn!(
                    room,
                    error = format!("{error:#}"),
                    "a claimed room did not replay"
                );
            }
        }
    }
}

/// Claims `room` for this node and reads it from the store: the claim's epoch and the room;
/// `None` when another node was first, or the store failed (logged).
async fn claim(cluster: &Cluster, room: RoomId) -> Option<(i64, StoredRoom)> {
    let claimed = cluster.on_store(move |store| {
        let Some(epoch) = store.claim_room(room)? else {
            return Ok(None);
        };
        Ok(Some((epoch, store.load_claimed(&[room])?)))
    });
    match claimed.await {
        Ok(Some((epoch, loaded))) => match loaded.rooms.into_iter().next() {
            Some(stored) => Some((epoch, stored)),
            // Its row did not read back (the store logged why): held no more here.
            None => {
                cluster.store.forget_claim(room);
                None
            }
        },
        Ok(None) => None,
        Err(error) => {
            warn!(
                room,
                error = format!("{error:#}"),
                "could not take the room"
            );
            None
        }
    }
}

/// Lets every room of this node go (as it stops on SIGTERM): each ends here, its followers
/// are asked to reconnect, and its claim is given up, so that another node takes it at once.
pub async fn hand_over(hall: &Hall, cluster: &Cluster) {
    let rooms = hall.local_rooms();
    for &room in &rooms {
        hall.room_moved(room).await;
    }
    let count = rooms.len();
    let released = cluster.on_store(move |store| {
        for room in rooms {
            if let Err(error) = store.release_room(room) {
                warn!(
                    room,
                    error = format!("{error:#}"),
                    "could not let the room go"
                );
            }
        }
        Ok(())
    });
    if released.await.is_ok() {
        info!(rooms = count, "rooms handed over to the other nodes");
    }
}
