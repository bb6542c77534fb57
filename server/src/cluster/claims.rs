//! A node's claims on rooms: renewed three times a lease (twice a second at least); rooms
//! taken by another node ended here at once; rooms nobody holds claimed and replayed from the
//! store, looked for as often; and, as the node stops, its rooms let go so that others take
//! them without waiting for the leases.

use std::sync::Arc;

use tokio::time::{Instant, MissedTickBehavior};
use tracing::{info, warn};

use super::Cluster;
use crate::hall::Hall;
use crate::store::postgres::PgStore;

/// Renews this node's claims and takes the rooms nobody holds, for as long as the node runs.
pub async fn keep(hall: Arc<Hall>, cluster: Arc<Cluster>) {
    // Claims are looked for this often too: a dead node's rooms move soon after its leases
    // end.
    let every = (cluster.lease / 3).min(std::time::Duration::from_millis(500));
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
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
        take_over(&hall, &cluster).await;
    }
}

/// Claims each room nobody holds and plays it on from the store.
async fn take_over(hall: &Arc<Hall>, cluster: &Arc<Cluster>) {
    let claimable = match cluster.on_store(PgStore::claimable_rooms).await {
        Ok(claimable) => claimable,
        Err(error) => return warn!(error = format!("{error:#}"), "cannot list rooms to take"),
    };
    let local = hall.local_rooms();
    for room in claimable.into_iter().filter(|room| !local.contains(room)) {
        let claimed = cluster.on_store(move |store| {
            let Some(epoch) = store.claim_room(room)? else {
                return Ok(None);
            };
            Ok(Some((epoch, store.load_claimed(&[room])?)))
        });
        let (epoch, loaded) = match claimed.await {
            Ok(Some(claimed)) => claimed,
            // Another node was first.
            Ok(None) => continue,
            Err(error) => {
                warn!(
                    room,
                    error = format!("{error:#}"),
                    "could not take the room"
                );
                continue;
            }
        };
        for stored in loaded.rooms {
            match hall.adopt(stored) {
                Ok(handle) => {
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
