//! Rooms opened where there is room: a node whose caps are full for a new room (its rooms, AI
//! rooms or auto matches) asks the node with the most free places, by the lobby's word, to
//! open it instead. The room then lives there, its AI searching on that node's pool, and its
//! creator reaches it through the bus like any other node's room. So the hall's caps grow with
//! its nodes, and work goes to the nodes with room for it.

use std::sync::Arc;

use futures_util::StreamExt;
use parlor_shared::codec;
use parlor_shared::protocol::RoomId;
use tokio::time::Instant;
use tracing::{info, warn};

use super::Cluster;
use super::bus::Asked;
use super::messages::{Created, Creation};
use crate::hall::{Hall, Refusal};
use crate::room_caps::{RoomKind, RoomOwner};

/// Opens the rooms other nodes ask this one to open, for as long as the node runs.
pub async fn serve_creations(
    hall: Arc<Hall>,
    cluster: Arc<Cluster>,
    mut requests: async_nats::Subscriber,
) {
    while let Some(message) = requests.next().await {
        let Some(reply) = message.reply else { continue };
        let creation: Creation = match codec::decode_from_node(&message.payload) {
            Ok(creation) => creation,
            Err(error) => {
                warn!(%error, "a room to open for another node did not decode");
                continue;
            }
        };
        let (hall, cluster) = (Arc::clone(&hall), Arc::clone(&cluster));
        tokio::spawn(async move {
            let answer = match create_here(&hall, &cluster, creation).await {
                Ok(room) => {
                    info!(room, "room opened for another node");
                    Created::Room(room)
                }
                Err((code, message)) => Created::Refused(code, message),
            };
            if let Ok(payload) = codec::encode_for_node(&answer) {
                cluster.bus.publish(reply.to_string(), payload).await;
            }
        });
    }
}

/// Opens `creation` here under this node's caps and the creator's quotas, as a client's
/// request would.
async fn create_here(
    hall: &Hall,
    cluster: &Cluster,
    creation: Creation,
) -> Result<RoomId, Refusal> {
    let kind = RoomKind::asked(&creation.setup, &creation.seats);
    let owner = RoomOwner {
        player: creation.creator.id,
        address: creation.address,
    };
    let _reservation = hall.reserve_room(kind, owner, &cluster.limits)?;
    hall.create_room_from(creation).await
}

/// Asks the node with the most free places for a room of `kind` to open `creation`; `None`
/// when no node has one, or none answered.
pub async fn create_elsewhere(
    cluster: &Cluster,
    kind: RoomKind,
    creation: &Creation,
) -> Option<Result<RoomId, Refusal>> {
    let node = cluster.lobby.roomiest(kind, Instant::now())?;
    let payload = codec::encode_for_node(creation).ok()?;
    let asked = cluster
        .bus
        .request(cluster.bus.creation_subject(&node), payload);
    let Asked::Answered(answer) = asked.await else {
        return None;
    };
    match codec::decode_from_node(&answer) {
        Ok(Created::Room(room)) => Some(Ok(room)),
        Ok(Created::Refused(code, message)) => Some(Err((code, message))),
        Err(error) => {
            warn!(%error, node, "another node's answer did not decode");
            None
        }
    }
}
