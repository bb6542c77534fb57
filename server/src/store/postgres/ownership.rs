//! One owner per room, fenced: the store of a cluster node (`PgStore::connect_node`) writes a
//! room only while it owns it. A room's row carries its owner node and an epoch; each node has
//! one lease, a row of `nodes`, that holds all its rooms, so renewing costs one row whatever
//! the rooms. A node claims a room by raising the epoch (when the room has no owner, is its
//! own, or its owner's lease has run out); every write of a room first locks the room's row and
//! checks that the epoch is still the one this node claimed, in the same transaction. So an
//! owner that was paused or cut off can never write again once another node has taken the
//! room: the taker's claim raised the epoch, and a claim waits for the old owner's transaction
//! in progress (the row lock) rather than slipping in under it.
//!
//! Times are the database's clock (`clock_timestamp()`), so the nodes' clocks never matter.
//!
//! The rest of the cluster (the bus, taking rooms over by replay) is `crate::cluster`.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::time::Duration;

use parlor_shared::protocol::RoomId;
use tokio_postgres::Client;

use super::PgStore;

/// The database's clock, in milliseconds since the Unix epoch.
const NOW_MS: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/// Whether the owner of the row `rooms` has lost its hold: no owner, or one whose lease ran out.
const UNHELD: &str = "(rooms.owner IS NULL OR NOT EXISTS (
    SELECT 1 FROM nodes WHERE nodes.id = rooms.owner
      AND nodes.lease_until >= (extract(epoch from clock_timestamp()) * 1000)::bigint))";

/// Who a node's store writes as.
#[derive(Clone, Debug)]
pub struct Node {
    /// Unique among the hall's nodes (e.g. its host and port).
    pub id: String,
    /// How long a claim or renewal holds a room: another node may take it once that has passed
    /// without a renewal.
    pub lease: Duration,
}

/// The room `room` belongs to another node now (or never belonged to this one): the write was
/// refused and changed nothing.
#[derive(Debug, thiserror::Error)]
#[error("room {room} is not this node's: another node has taken it")]
pub struct Fenced {
    pub room: RoomId,
}

/// What a node's store owns: the epoch it claimed each room at.
pub(super) struct Claims {
    node: Node,
    epochs: Mutex<HashMap<RoomId, i64>>,
    /// New rooms whose rows may not be written yet (their insert waits in the writer), and
    /// since when: a renewal that finds no row for them keeps them, for a while.
    unwritten: Mutex<HashMap<RoomId, std::time::Instant>>,
}

/// How long a new room's claim is kept with no row written for it (its insert failed, or the
/// room finished before its first renewal).
const UNWRITTEN_KEPT: Duration = Duration::from_secs(60);

/// What a room write must check first: nothing alone, the node and epoch in a cluster.
pub(super) type Fence = Option<(String, i64)>;

impl Claims {
    pub(super) fn new(node: Node) -> Claims {
        Claims {
            node,
            epochs: Mutex::new(HashMap::new()),
            unwritten: Mutex::new(HashMap::new()),
        }
    }

    /// The fence for a write of `room`; refused at once when this node holds no claim on it.
    pub(super) fn fence(&self, room: RoomId) -> Result<Fence, Fenced> {
        match crate::lock(&self.epochs).get(&room) {
            Some(&epoch) => Ok(Some((self.node.id.clone(), epoch))),
            None => Err(Fenced { room }),
        }
    }

    fn lease_ms(&self) -> i64 {
        i64::try_from(self.node.lease.as_millis()).unwrap_or(i64::MAX)
    }
}

/// Locks the room's row and checks that `node` still owns it at `epoch`: inside the write's
/// transaction, before the write.
pub(super) async fn check(client: &Client, room: RoomId, fence: &Fence) -> anyhow::Result<()> {
    let Some((node, epoch)) = fence else {
        return Ok(());
    };
    let owned = client
        .query_opt(
            "SELECT 1 FROM rooms WHERE id = $1 AND owner = $2 AND epoch = $3 FOR UPDATE",
            &[&(room as i64), node, epoch],
        )
        .await?
        .is_some();
    match owned {
        true => Ok(()),
        false => Err(Fenced { room }.into()),
    }
}

/// The owner columns of a new room: this node's, at epoch 1, or none alone.
pub(super) async fn own_new_room(
    client: &Client,
    room: RoomId,
    fence: &Fence,
) -> anyhow::Result<()> {
    if let Some((node, epoch)) = fence {
        client
            .execute(
                "UPDATE rooms SET owner = $2, epoch = $3 WHERE id = $1",
                &[&(room as i64), node, epoch],
            )
            .await?;
    }
    Ok(())
}

/// Renews node `node`'s lease on all its rooms for `lease_ms`.
pub(super) async fn renew_lease(client: &Client, node: &str, lease_ms: i64) -> anyhow::Result<()> {
    client
        .execute(
            &format!(
                "INSERT INTO nodes (id, lease_until) VALUES ($1, {NOW_MS} + $2)
                 ON CONFLICT (id) DO UPDATE SET lease_until = excluded.lease_until"
            ),
            &[&node, &lease_ms],
        )
        .await?;
    Ok(())
}

impl PgStore {
    /// The node this store writes as; `None` for a hall's only server.
    pub fn node(&self) -> Option<&Node> {
        self.shared.claims.as_ref().map(|claims| &claims.node)
    }

    /// The fence of a write of an existing `room` (see [`Claims::fence`]).
    pub(super) fn fence(&self, room: RoomId) -> Result<Fence, Fenced> {
        match &self.shared.claims {
            Some(claims) => claims.fence(room),
            None => Ok(None),
        }
    }

    /// The fence of a new room, which a node owns from the start at epoch 1.
    pub(super) fn fence_new(&self, room: RoomId) -> Fence {
        let claims = self.shared.claims.as_ref()?;
        crate::lock(&claims.epochs).insert(room, 1);
        crate::lock(&claims.unwritten).insert(room, std::time::Instant::now());
        Some((claims.node.id.clone(), 1))
    }

    /// The hall's id, the same for every node of one database (see `schema::create`).
    pub fn hall_id(&self) -> i64 {
        self.shared.hall_id
    }

    /// The epoch this node holds `room` at, if it holds it.
    pub fn epoch_of(&self, room: RoomId) -> Option<i64> {
        let claims = self.shared.claims.as_ref()?;
        crate::lock(&claims.epochs).get(&room).copied()
    }

    /// Stops renewing `room` without a word to the database (which this node may not reach):
    /// its lease runs out, and any node, this one too, may claim it then.
    pub fn forget_claim(&self, room: RoomId) {
        if let Some(claims) = &self.shared.claims {
            crate::lock(&claims.epochs).remove(&room);
            crate::lock(&claims.unwritten).remove(&room);
        }
    }

    /// Whether `room` is still in progress in the store (not finished, not ended).
    pub fn in_progress(&self, room: RoomId) -> anyhow::Result<bool> {
        self.blocking(false, move |client| {
            Box::pin(async move {
                let found = client
                    .query_opt("SELECT 1 FROM rooms WHERE id = $1", &[&(room as i64)])
                    .await?;
                Ok(found.is_some())
            })
        })
    }

    /// The stored rooms `rooms` as a restart would find them (a node taking them over after
    /// claiming them).
    pub fn load_claimed(&self, rooms: &[RoomId]) -> anyhow::Result<crate::store::Unfinished> {
        let only: Vec<i64> = rooms.iter().map(|&room| room as i64).collect();
        self.blocking(false, move |client| {
            Box::pin(super::rooms::load(client, Some(only)))
        })
    }

    /// A room id no node has given out, from the database (nodes share the counter).
    pub fn allocate_room_id(&self) -> anyhow::Result<RoomId> {
        self.blocking(true, |client| {
            Box::pin(async move {
                let row = client
                    .query_one(
                        "INSERT INTO counters (name, value)
                         VALUES ('last_room', coalesce((SELECT max(id) FROM rooms), 0) + 1)
                         ON CONFLICT (name) DO UPDATE SET value = counters.value + 1
                         RETURNING value",
                        &[],
                    )
                    .await?;
                Ok(row.get::<_, i64>(0) as RoomId)
            })
        })
    }

    /// Claims `room` for this node: answers the new epoch, or `None` while another node's lease
    /// on it runs (or the room is gone). Writes this node made before at an older epoch are
    /// fenced from now on, as a restarted node's must be.
    pub fn claim_room(&self, room: RoomId) -> anyhow::Result<Option<i64>> {
        let claims = self.claims()?;
        let node = claims.node.id.clone();
        let epoch = self.blocking(true, move |client| {
            Box::pin(async move {
                let row = client
                    .query_opt(
                        &format!(
                            "UPDATE rooms SET owner = $2, epoch = epoch + 1
                             WHERE id = $1 AND (owner = $2 OR {UNHELD})
                             RETURNING epoch"
                        ),
                        &[&(room as i64), &node],
                    )
                    .await?;
                Ok(row.map(|row| row.get::<_, i64>(0)))
            })
        })?;
        if let Some(epoch) = epoch {
            crate::lock(&claims.epochs).insert(room, epoch);
        }
        Ok(epoch)
    }

    /// Renews this node's lease on every room it owns (one row of `nodes`); answers the rooms
    /// another node has taken meanwhile, which this node must stop playing. Rooms that finished
    /// (their rows gone) are let go without a word.
    pub fn renew_claims(&self) -> anyhow::Result<Vec<RoomId>> {
        let claims = self.claims()?;
        let (rooms, epochs): (Vec<i64>, Vec<i64>) = crate::lock(&claims.epochs)
            .iter()
            .map(|(&room, &epoch)| (room as i64, epoch))
            .unzip();
        let (node, lease_ms) = (claims.node.id.clone(), claims.lease_ms());
        let asked: HashSet<RoomId> = rooms.iter().map(|&room| room as RoomId).collect();
        // Each claimed room whose row is there, and whether it is still this node's at the
        // claimed epoch.
        let rows: HashMap<RoomId, bool> = self.blocking(true, move |client| {
            Box::pin(async move {
                renew_lease(client, &node, lease_ms).await?;
                // Reads only: no lock that the writer's room writes could wait on.
                let rows = client
                    .query(
                        "SELECT rooms.id,
                                rooms.owner IS NOT DISTINCT FROM $1
                                AND rooms.epoch = claim.epoch
                         FROM rooms
                         JOIN unnest($2::bigint[], $3::bigint[]) AS claim(id, epoch)
                           ON rooms.id = claim.id",
                        &[&node, &rooms, &epochs],
                    )
                    .await?;
                Ok((rows.iter())
                    .map(|row| (row.get::<_, i64>(0) as RoomId, row.get(1)))
                    .collect())
            })
        })?;
        let mut epochs = crate::lock(&claims.epochs);
        let mut unwritten = crate::lock(&claims.unwritten);
        let mut taken = Vec::new();
        epochs.retain(|&room, _| {
            // Claimed while this renewal ran: kept.
            if !asked.contains(&room) {
                return true;
            }
            match rows.get(&room) {
                Some(&ours) => {
                    unwritten.remove(&room);
                    if !ours {
                        taken.push(room);
                    }
                    ours
                }
                // No row: finished, unless it is a new room whose row is still to be written.
                None => match unwritten.get(&room) {
                    Some(since) if since.elapsed() < UNWRITTEN_KEPT => true,
                    _ => {
                        unwritten.remove(&room);
                        false
                    }
                },
            }
        });
        Ok(taken)
    }

    /// Gives `room` up (a node handing its rooms over as it stops): another node may claim it
    /// at once.
    pub fn release_room(&self, room: RoomId) -> anyhow::Result<()> {
        let claims = self.claims()?;
        crate::lock(&claims.unwritten).remove(&room);
        let Some(epoch) = crate::lock(&claims.epochs).remove(&room) else {
            return Ok(());
        };
        let node = claims.node.id.clone();
        self.blocking(true, move |client| {
            Box::pin(async move {
                client
                    .execute(
                        "UPDATE rooms SET owner = NULL
                         WHERE id = $1 AND owner = $2 AND epoch = $3",
                        &[&(room as i64), &node, &epoch],
                    )
                    .await?;
                Ok(())
            })
        })
    }

    /// The rooms in progress that no node holds: never owned, released, or whose owner's lease
    /// has run out; and those a node of this one's name holds but this store does not (this
    /// node before a restart), so that a restarted node takes its rooms back at once.
    pub fn claimable_rooms(&self) -> anyhow::Result<Vec<RoomId>> {
        let me = self.node().map(|node| node.id.clone()).unwrap_or_default();
        let rows: Vec<(i64, bool)> = self.blocking(false, move |client| {
            Box::pin(async move {
                let rows = client
                    .query(
                        &format!(
                            "SELECT id, owner IS NOT DISTINCT FROM $1 FROM rooms
                             WHERE owner = $1 OR {UNHELD}
                             ORDER BY id"
                        ),
                        &[&me],
                    )
                    .await?;
                Ok(rows.iter().map(|row| (row.get(0), row.get(1))).collect())
            })
        })?;
        let held = |room: RoomId| self.epoch_of(room).is_some();
        Ok((rows.into_iter())
            .map(|(room, mine)| (room as RoomId, mine))
            .filter(|&(room, mine)| !(mine && held(room)))
            .map(|(room, _)| room)
            .collect())
    }

    fn claims(&self) -> anyhow::Result<&Claims> {
        (self.shared.claims.as_ref())
            .ok_or_else(|| anyhow::anyhow!("this store is not a cluster node's"))
    }
}
