//! The owner's side: a room this node owns listens on its subject for commands forwarded by
//! other nodes. Each remote connection that follows the room gets a stand-in here, a
//! [`Subscriber`] of its own whose outbox is drained onto the bus to that connection's node:
//! the room cannot tell it from a local connection. A state the room gives all its followers
//! at once (one `Broadcast`) goes to each node once: the first of the node's stand-ins to
//! carry it publishes it for all the room's followers there, the others pass it over
//! ([`Published`]). A node is known by its name and its incarnation (its process): the
//! stand-ins of a node forgotten, or of an older process of its name (killed and started
//! again), are let go and leave the room, as a connection that closed does.

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
use crate::room::{ConnId, RoomCommand, RoomHandle, Subscriber};

/// How often stand-ins of connections on nodes forgotten (`lobby::FORGOTTEN_AFTER`) or started
/// again are let go.
const TIDY_EVERY: Duration = Duration::from_secs(1);

/// A node's process: its name and incarnation.
type NodeRun = (String, u64);

/// The room's state each node was last sent, shared by the room's carriers.
type Published = Arc<Mutex<HashMap<NodeRun, Weak<Broadcast>>>>;

/// A remote connection's stand-in, and the task that carries its outbox to its node.
struct StandIn {
    who: Subscriber,
    carrier: JoinHandle<()>,
    made: Instant,
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
            (forwarded.from.clone(), forwarded.incarnation),
            forwarded.conn,
            room,
            Arc::clone(&who.outbox),
            Arc::clone(published),
        ));
        StandIn {
            who,
            carrier,
            made: Instant::now(),
        }
    }

    /// Lets go of a connection on a node forgotten or started again: it leaves the room, as a
    /// connection that closed does (a seat it held is shown away).
    async fn end(self, room: &RoomHandle) {
        self.who.outbox.close();
        self.carrier.abort();
        let _ = room.inbox.send(RoomCommand::Leave { who: self.who }).await;
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
    let mut stand_ins: HashMap<(NodeRun, ConnId), StandIn> = HashMap::new();
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
                let key = ((forwarded.from.clone(), forwarded.incarnation), forwarded.conn);
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
                // connection's command waited) is on this process.
                // A process heard since a stand-in was made has replaced the stand-in's (one
                // not heard yet may be newer than the last heard).
                let gone_run = |(node, incarnation): &NodeRun, made: Instant| {
                    if *node == cluster.node {
                        return *incarnation != cluster.incarnation;
                    }
                    match cluster.lobby.incarnation(node, now) {
                        None => true,
                        Some((heard, since)) => heard != *incarnation && since >= made,
                    }
                };
                let gone: Vec<(NodeRun, ConnId)> = (stand_ins.iter())
                    .filter(|((run, _), stand_in)| {
                        stand_in.carrier.is_finished() || gone_run(run, stand_in.made)
                    })
                    .map(|(key, _)| key.clone())
                    .collect();
                for key in gone {
                    if let Some(stand_in) = stand_ins.remove(&key) {
                        stand_in.end(&handle).await;
                    }
                }
                let runs: std::collections::HashSet<&NodeRun> =
                    stand_ins.keys().map(|(run, _)| run).collect();
                crate::lock(&published).retain(|run, _| runs.contains(run));
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
    run: NodeRun,
    conn: ConnId,
    room: RoomId,
    outbox: Arc<Outbox>,
    published: Published,
) {
    let subject = cluster.bus.node_subject(&run.0);
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
                let sent = published.get(&run).and_then(Weak::upgrade);
                if sent.is_some_and(|sent| Arc::ptr_eq(&sent, &state)) {
                    continue;
                }
                published.insert(run.clone(), Arc::downgrade(&state));
                (Delivered::State(state.message().clone()), false)
            }
            Outgoing::Reconnect => (Delivered::Reconnect, true),
        };
        let delivery = Delivery {
            incarnation: run.1,
            conn,
            room,
            what,
        };
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
