//! A hall served by several nodes: `server --store postgres://… --bus nats://…`.
//!
//! - PostgreSQL is the truth (`store::postgres`): every room in progress with every move, and
//!   one owner per room, fenced by an epoch (`store/postgres/ownership.rs`).
//! - A room lives in one node, its owner, as on a lone server. Clients may connect to any
//!   node: a command for a room owned elsewhere travels on the bus to its owner
//!   (`remote.rs`, `served.rs`), and the room's answers and states travel back.
//! - Every node says which rooms it holds every half second, so every lobby lists every room
//!   (`lobby.rs`).
//! - Each node renews its leases, and claims the rooms nobody holds: those of a node that died
//!   (their leases ran out) or stopped (it let them go), replayed from the store as a restart
//!   does (`claims.rs`). A node that finds a room taken from it ends it at once; the room's
//!   followers reconnect and find it at its new owner.
//!
//! The bus is core NATS (`bus.rs`), nothing of JetStream.

mod bus;
mod bus_address;

pub use bus_address::BusAddress;
mod claims;
mod lobby;
mod lookups;
mod members;
mod messages;
mod placement;
mod remote;
mod served;

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures_util::StreamExt;
use parlor_shared::codec;
use parlor_shared::identity::PlayerId;
use parlor_shared::protocol::RoomId;
use tokio::sync::Notify;
use tokio::time::Instant;
use tracing::warn;

use self::bus::{Asked, Bus};
pub use self::claims::hand_over;
pub use self::lobby::HEARD_FOR;
use self::lobby::Lobby;
pub use self::messages::Creation;
use self::messages::{AnnouncedRoom, Announcement, Delivery};
use self::remote::RemoteRooms;
use crate::follows::Elsewhere;
use crate::hall::Hall;
use crate::hall::Refusal;
use crate::limits::{Limits, RoomQuota};
use crate::room::{ConnId, RoomHandle};
use crate::room_caps::{Registered, RoomKind};
use crate::store::postgres::PgStore;

/// How a node joins its hall.
#[derive(Clone, Debug)]
pub struct NodeConfig {
    /// The NATS server, `nats://host:4222`, and what it asks of its clients.
    pub bus: BusAddress,
    /// The node's name, unique in the hall (letters, digits, `-` and `_`).
    pub id: String,
    /// How long a node's claim on a room holds without a renewal: a dead node's rooms move
    /// to others after about this long.
    pub lease: Duration,
}

impl NodeConfig {
    /// Checks the node's name: it names a subject on the bus.
    pub fn check(&self) -> anyhow::Result<()> {
        let fits = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        if self.id.is_empty() || self.id.len() > 64 || !self.id.chars().all(fits) {
            anyhow::bail!(
                "the node id {:?} must be 1 to 64 letters, digits, '-' or '_'",
                self.id
            );
        }
        if self.lease < Duration::from_millis(300) {
            anyhow::bail!("a lease under 0.3 s would run out between two renewals");
        }
        Ok(())
    }
}

/// Stand-ins for other nodes' connections take ids from here, far above this node's own.
const STAND_IN_IDS: ConnId = 1 << 62;

/// What a node shares with its hall's other nodes.
pub struct Cluster {
    node: String,
    /// This process, drawn at random as it joins: other nodes tell its connections from
    /// those of an earlier process of the same name (see `messages::Forwarded`).
    incarnation: u64,
    store: Arc<PgStore>,
    bus: Bus,
    lobby: Lobby,
    remote: RemoteRooms,
    /// Rooms looked for in the store for clients (`lookups.rs`).
    lookups: lookups::Lookups,
    lease: Duration,
    /// This node's caps and quotas, for rooms other nodes ask it to open.
    limits: Limits,
    next_stand_in: AtomicU64,
    /// When this node's claims were last renewed (`claims::keep`).
    renewed_at: std::sync::Mutex<Instant>,
    /// Rung when this node opens or takes a room: the lobby hears of it at once.
    announce_now: Notify,
}

impl Cluster {
    /// Joins the hall whose store is `store` (a node's: `PgStore::connect_node`).
    pub async fn join(
        store: Arc<PgStore>,
        config: &NodeConfig,
        limits: Limits,
    ) -> anyhow::Result<Arc<Cluster>> {
        config.check()?;
        let bus = Bus::connect(&config.bus, store.hall_id(), &config.id).await?;
        refuse_a_name_in_use(&bus, &config.id).await?;
        Ok(Arc::new(Cluster {
            node: config.id.clone(),
            incarnation: getrandom::u64()?,
            store,
            bus,
            lobby: Lobby::default(),
            remote: RemoteRooms::default(),
            lookups: lookups::Lookups::default(),
            lease: config.lease,
            limits,
            next_stand_in: AtomicU64::new(STAND_IN_IDS),
            renewed_at: std::sync::Mutex::new(Instant::now()),
            announce_now: Notify::new(),
        }))
    }

    /// This node's name.
    pub fn node(&self) -> &str {
        &self.node
    }

    fn renewed(&self, at: Instant) {
        *crate::lock(&self.renewed_at) = at;
    }

    /// Whether this node's last renewal is younger than a lease, by its own clock. A node
    /// paused or cut off for longer (its rooms may be another's now) serves no command from
    /// other nodes until it has renewed, and learnt which rooms it lost: commands sent while
    /// it was away were answered by the new owner already.
    fn lease_holds(&self) -> bool {
        crate::lock(&self.renewed_at).elapsed() < self.lease
    }

    fn new_stand_in_id(&self) -> ConnId {
        self.next_stand_in.fetch_add(1, Ordering::Relaxed)
    }

    /// Runs `work` on the store on a blocking thread (its calls wait on the database), a
    /// panic as an error.
    async fn on_store<T: Send + 'static>(
        &self,
        work: impl FnOnce(&PgStore) -> anyhow::Result<T> + Send + 'static,
    ) -> anyhow::Result<T> {
        let store = Arc::clone(&self.store);
        match tokio::task::spawn_blocking(move || work(&store)).await {
            Ok(done) => done,
            Err(panicked) => Err(anyhow::anyhow!("{panicked}")),
        }
    }

    /// A room id no node has given out.
    pub async fn allocate_room_id(&self) -> anyhow::Result<RoomId> {
        self.on_store(PgStore::allocate_room_id).await
    }

    /// Whether `room` is still in progress in the store (taken for yes when the store cannot
    /// tell: a command is then sent again rather than refused).
    async fn in_progress(&self, room: RoomId) -> bool {
        let asked = self.on_store(move |store| store.in_progress(room)).await;
        asked.unwrap_or(true)
    }

    /// Room `room` of another node, as a local handle, while the lobby lists it.
    pub fn remote_room(self: &Arc<Self>, room: RoomId) -> Option<RoomHandle> {
        self.remote.handle(self, room, None)
    }

    /// Room `room` as a local handle if the store has it in progress, listed or not (its
    /// owner's word may be late, or it may be between owners).
    pub async fn stored_room(self: &Arc<Self>, room: RoomId) -> Option<RoomHandle> {
        let asked = self.in_progress(room);
        if !self.lookups.in_progress(room, Instant::now(), asked).await {
            return None;
        }
        // Its game is not known here; the summary is only the handle's, never listed.
        let summary = crate::room::placeholder_summary(room, parlor_shared::game::GameKind::Cave);
        self.remote.handle(self, room, Some(summary))
    }

    /// Whether this node has lost touch with the others (its bus is down): their rooms are
    /// not listed here meanwhile.
    pub fn cut_off(&self) -> bool {
        !self.bus.connected()
    }

    /// The rooms the other nodes hold, as the caps see them.
    pub fn remote_rooms(&self) -> Vec<Registered> {
        (self.lobby.rooms(Instant::now()).into_iter())
            .map(|announced| Registered {
                room: announced.summary,
                address: announced.address,
                here: false,
            })
            .collect()
    }

    /// Asks the node with the most free places for a room of `kind` to open it (see
    /// `placement.rs`).
    pub async fn create_elsewhere(
        &self,
        kind: RoomKind,
        creation: &Creation,
    ) -> Option<Result<RoomId, Refusal>> {
        placement::create_elsewhere(self, kind, creation).await
    }

    /// What `player` and `address` follow through the other nodes.
    pub fn follows_elsewhere(&self, player: PlayerId, address: IpAddr) -> Elsewhere {
        self.lobby.follows(player, address, Instant::now())
    }

    /// A room this node opened or took: other nodes may reach it from now on.
    pub async fn opened(self: &Arc<Self>, room: RoomId, handle: RoomHandle) {
        self.remote.taken_here(room);
        served::serve_room(self, room, handle).await;
        self.announce_now.notify_one();
    }
}

/// Refuses to join under the name of a node that runs: two nodes of one name would take each
/// other's rooms without end. A node killed a moment ago has no listener left on the bus. One
/// whose machine died may leave a listener behind for a while; it answers nothing, and its
/// name is taken over once the request times out.
async fn refuse_a_name_in_use(bus: &Bus, node: &str) -> anyhow::Result<()> {
    match bus.request(bus.alive_subject(node), Vec::new()).await {
        Asked::Answered(_) => anyhow::bail!(
            "another node of this hall runs as {node:?} now: give each node its own --node-id"
        ),
        Asked::Unheard | Asked::Failed(_) => Ok(()),
    }
}

/// Answers that this node runs, to whoever would join the hall under its name.
async fn answer_alive(cluster: Arc<Cluster>, mut asked: async_nats::Subscriber) {
    while let Some(message) = asked.next().await {
        if let Some(reply) = message.reply {
            cluster.bus.publish(reply.to_string(), Vec::new()).await;
        }
    }
}

/// Starts the node's work beside its connections: what owners send for its connections, the
/// lobby (heard and said), rooms to open for other nodes, and its claims. Returns once it listens on the bus.
pub async fn start(hall: &Arc<Hall>, cluster: &Arc<Cluster>) -> anyhow::Result<()> {
    let deliveries = cluster
        .bus
        .subscribe(cluster.bus.node_subject(&cluster.node))
        .await?;
    let lobby = cluster.bus.subscribe(cluster.bus.lobby_subject()).await?;
    let creations = (cluster.bus)
        .subscribe(cluster.bus.creation_subject(&cluster.node))
        .await?;
    tokio::spawn(placement::serve_creations(
        Arc::clone(hall),
        Arc::clone(cluster),
        creations,
    ));
    let alive = (cluster.bus)
        .subscribe(cluster.bus.alive_subject(&cluster.node))
        .await?;
    tokio::spawn(answer_alive(Arc::clone(cluster), alive));
    tokio::spawn(receive_deliveries(Arc::clone(cluster), deliveries));
    tokio::spawn(hear_lobby(Arc::clone(cluster), lobby));
    tokio::spawn(announce(Arc::clone(hall), Arc::clone(cluster)));
    tokio::spawn(claims::keep(Arc::clone(hall), Arc::clone(cluster)));
    Ok(())
}

async fn receive_deliveries(cluster: Arc<Cluster>, mut deliveries: async_nats::Subscriber) {
    while let Some(message) = deliveries.next().await {
        match codec::decode_from_node::<Delivery>(&message.payload) {
            // For a connection this node had before it was started again.
            Ok(delivery) if delivery.incarnation != cluster.incarnation => {}
            Ok(delivery) => cluster.remote.deliver(delivery),
            Err(error) => warn!(%error, "a delivery from another node did not decode"),
        }
    }
}

async fn hear_lobby(cluster: Arc<Cluster>, mut announcements: async_nats::Subscriber) {
    while let Some(message) = announcements.next().await {
        match codec::decode_from_node::<Announcement>(&message.payload) {
            Ok(heard) if heard.node == cluster.node => {}
            Ok(heard) => cluster.lobby.heard(heard, Instant::now()),
            Err(error) => warn!(%error, "a node's announcement did not decode"),
        }
    }
}

/// Says which rooms this node holds, every `ANNOUNCE_EVERY` and whenever it opens or takes
/// one.
async fn announce(hall: Arc<Hall>, cluster: Arc<Cluster>) {
    let subject = cluster.bus.lobby_subject();
    loop {
        // A finished room lingering for its followers holds no claim (its row is gone): it is
        // said at epoch 0, below any owner's.
        let registered = hall.registered_here();
        // Without the store past its lease a node can neither open a room nor take one: it
        // has no places to offer, however empty it stands (it let its rooms go).
        let free = match cluster.lease_holds() {
            true => crate::room_caps::free_places(&registered, &cluster.limits),
            false => RoomQuota {
                rooms: 0,
                ai_rooms: 0,
                matches: 0,
            },
        };
        let rooms = (registered.into_iter())
            .map(|registered| AnnouncedRoom {
                epoch: cluster.store.epoch_of(registered.room.room).unwrap_or(0),
                summary: registered.room,
                address: registered.address,
            })
            .collect();
        let announcement = Announcement {
            node: cluster.node.clone(),
            incarnation: cluster.incarnation,
            rooms,
            free,
            follows: hall.follows.tally(),
            brains: hall.brain_uses().tally(),
        };
        hall.brain_uses().heed(cluster.lobby.brains(Instant::now()));
        match codec::encode_for_node(&announcement) {
            Ok(payload) => cluster.bus.publish(subject.clone(), payload).await,
            Err(error) => warn!(%error, "this node's rooms could not be announced"),
        }
        let _ = tokio::time::timeout(lobby::ANNOUNCE_EVERY, cluster.announce_now.notified()).await;
    }
}
