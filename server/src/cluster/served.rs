//! The owner's side: a room this node owns listens on its subject for commands forwarded by
//! other nodes. Each remote connection that follows the room gets a stand-in here, a
//! [`Subscriber`] of its own whose outbox is drained onto the bus to that connection's node:
//! the room cannot tell it from a local connection. A state the room gives all its followers
//! at once (one `Broadcast`) goes to each node once: the first of the node's stand-ins to
//! carry it publishes it for all the room's followers there, the others pass it over
//! ([`Published`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use futures_util::StreamExt;
use parlor_shared::codec;
use parlor_shared::protocol::{RoomId, ServerMsg};
use tokio::task::JoinHandle;
use tokio::time::Instant;
use tracing::{debug, warn};

use super::Cluster;
use super::messages::{Delivered, Delivery, Forwarded, Taken, attach};
use crate::outbox::{Broadcast, Outbox, Outgoing};
use crate::room::{ConnId, RoomHandle, Subscriber};

/// How often stand-ins of connections on nodes forgotten (`lobby::FORGOTTEN_AFTER`) are let
/// go.
const TIDY_EVERY: Duration = Duration::from_secs(1);

/// The room's state each node was last sent, shared by the room's carriers.
type Published = Arc<Mutex<HashMap<String, Weak<Broadcast>>>>;

/// A remote connection's stand-in, and the task that carries its outbox to its node.
struct StandIn {
    who: Subscriber,
    carrier: JoinHandle<()>,
}

impl StandIn {
    fn start(
        cluster: &Arc<Cluster>,
        room: RoomId,
        forwarded: &Forwarded,
        published: &Published,
    ) -> StandIn {
        let who = Subscriber {
            id: cluster.new_stand_in_id(),
            outbox: Arc::default(),
            player: forwarded.player.clone(),
            operator: forwarded.operator,
        };
        let carrier = tokio::spawn(carry(
            Arc::clone(cluster),
            forwarded.from.clone(),
            forwarded.conn,
            room,
            Arc::clone(&who.outbox),
            Arc::clone(published),
        ));
        StandIn { who, carrier }
    }

    /// Lets go of a connection on a node forgotten.
    fn end(self) {
        self.who.outbox.close();
        self.carrier.abort();
    }

    /// Lets go once what waits has gone out (a room that closed or moved tells its followers
    /// so last), or after a second.
    fn finish(self) {
        tokio::spawn(async move {
            let mut carrier = self.carrier;
            if tokio::time::timeout(Duration::from_secs(1), &mut carrier)
                .await
                .is_err()
            {
                carrier.abort();
            }
            self.who.outbox.close();
        });
    }
}

/// Starts listening for room `room`'s commands from other nodes, until the room closes.
pub async fn serve_room(cluster: &Arc<Cluster>, room: RoomId, handle: RoomHandle) {
    let subject = cluster.bus.room_subject(room);
    match cluster.bus.subscribe(subject).await {
        Ok(commands) => drop(tokio::spawn(serve(
            Arc::clone(cluster),
            room,
            handle,
            commands,
        ))),
        // Its followers elsewhere cannot reach it; those here still can.
        Err(error) => warn!(
            room,
            error = format!("{error:#}"),
            "room not served to other nodes"
        ),
    }
}

async fn serve(
    cluster: Arc<Cluster>,
    room: RoomId,
    handle: RoomHandle,
    mut commands: async_nats::Subscriber,
) {
    let mut stand_ins: HashMap<(String, ConnId), StandIn> = HashMap::new();
    let published = Published::default();
    let mut tidy = tokio::time::interval(TIDY_EVERY);
    loop {
        tokio::select! {
            message = commands.next() => {
                let Some(message) = message else { break };
                let Some(reply) = message.reply else { continue };
                if !cluster.lease_holds() {
                    continue;
                }
                let forwarded: Forwarded = match codec::decode_from_node(&message.payload) {
                    Ok(forwarded) => forwarded,
                    Err(error) => {
                        warn!(room, %error, "a command from another node did not decode");
                        continue;
                    }
                };
                let key = (forwarded.from.clone(), forwarded.conn);
                if stand_ins.get(&key).is_some_and(|stand_in| stand_in.carrier.is_finished()) {
                    stand_ins.remove(&key);
                }
                let who = stand_ins
                    .entry(key)
                    .or_insert_with(|| StandIn::start(&cluster, room, &forwarded, &published))
                    .who
                    .clone();
                let taken = match handle.inbox.send(attach(forwarded.command, who)).await {
                    Ok(()) => Taken::Queued {
                        epoch: cluster.store.epoch_of(room).unwrap_or(0),
                    },
                    Err(_) => Taken::Closed,
                };
                if let Ok(answer) = codec::encode_for_node(&taken) {
                    cluster.bus.publish(reply.to_string(), answer).await;
                }
            }
            () = handle.inbox.closed() => break,
            _ = tidy.tick() => {
                let now = Instant::now();
                // This node never hears its own announcements: a connection of its own that
                // followed the room through the bus to it (it took the room over while the
                // connection's command waited) is not on a node forgotten.
                let forgotten =
                    |node: &String| *node != cluster.node && !cluster.lobby.remembered(node, now);
                let gone: Vec<(String, ConnId)> = (stand_ins.iter())
                    .filter(|((node, _), stand_in)| {
                        stand_in.carrier.is_finished() || forgotten(node)
                    })
                    .map(|(key, _)| key.clone())
                    .collect();
                for key in gone {
                    if let Some(stand_in) = stand_ins.remove(&key) {
                        stand_in.end();
                    }
                }
            }
        }
    }
    debug!(room, "room no longer served to other nodes");
    for (_, stand_in) in stand_ins {
        stand_in.finish();
    }
}

/// Carries what the room has for connection `conn` on node `node` there, until the connection
/// stops following the room (it left, the room closed for it, or it is to reconnect).
async fn carry(
    cluster: Arc<Cluster>,
    node: String,
    conn: ConnId,
    room: RoomId,
    outbox: Arc<Outbox>,
    published: Published,
) {
    let subject = cluster.bus.node_subject(&node);
    loop {
        let (what, last) = match outbox.next().await {
            Outgoing::Reply(message) => {
                let last = matches!(
                    *message,
                    ServerMsg::Left { room: left } | ServerMsg::RoomClosed { room: left, .. }
                        if left == room
                );
                (Delivered::Reply(*message), last)
            }
            Outgoing::State(state) => {
                let mut published = crate::lock(&published);
                let sent = published.get(&node).and_then(Weak::upgrade);
                if sent.is_some_and(|sent| Arc::ptr_eq(&sent, &state)) {
                    continue;
                }
                published.insert(node.clone(), Arc::downgrade(&state));
                (Delivered::State(state.message().clone()), false)
            }
            Outgoing::Reconnect => (Delivered::Reconnect, true),
        };
        let delivery = Delivery { conn, room, what };
        match codec::encode_for_node(&delivery) {
            Ok(payload) => cluster.bus.publish(subject.clone(), payload).await,
            Err(error) => warn!(room, %error, "a message for another node did not encode"),
        }
        if last {
            outbox.close();
            return;
        }
    }
}
