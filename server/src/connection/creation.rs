//! A client's `CreateRoom` and `PlayAgain`: under the server's caps and the creator's quotas,
//! held by a reservation until the room is registered; in a cluster, a room this node's caps
//! have no place for opens on another node (`cluster/placement.rs`). A `PlayAgain`'s room is
//! then named to the finished room it plays again (`room/play_again.rs`), in place of the
//! rematch named there before if this connection finds that one closed, and the finished room
//! is told when it closes.

use parlor_shared::game::GameSetup;
use parlor_shared::identity::Player;
use parlor_shared::protocol::{ErrorCode, RoomId, SeatSpec, ServerMsg};

use std::sync::Arc;
use std::time::Duration;

use super::Connection;
use crate::cluster::Creation;
use crate::hall::Hall;
use crate::room::{PlayedAgain, RoomCommand, RoomHandle, Subscriber, seats_kept};
use crate::room_caps::{RoomKind, RoomOwner};

/// How often a rematch on another node is looked at, until it has closed or its game is over.
const LOOK_AGAIN_EVERY: Duration = Duration::from_secs(2);

/// How long a `PlayAgain` waits for the word that a finished room on another node is over (its
/// owner says so within `cluster::lobby::ANNOUNCE_EVERY`), and how often it looks.
const END_HEARD_WITHIN: Duration = Duration::from_millis(1500);
const LOOK_AGAIN_AT_THE_END_EVERY: Duration = Duration::from_millis(100);

impl Connection {
    /// Makes the room and answers `RoomCreated` or `RoomRefused`. For a `PlayAgain`, the new
    /// room keeps its seats for the finished game's players (`seats_kept`), and the finished
    /// room is told `played_again` first, so that its followers hear of the new room no later
    /// than this client could leave it.
    pub(super) async fn create_room(
        &mut self,
        setup: GameSetup,
        seats: Vec<SeatSpec>,
        played_again: Option<RoomId>,
    ) -> anyhow::Result<()> {
        let finished = match played_again {
            Some(old) => self.finished_room(old).await.map(|handle| (old, handle)),
            None => None,
        };
        let kept = (finished.as_ref())
            .map(|(_, handle)| {
                let finished = handle.summary.borrow();
                seats_kept(&finished, &setup, &seats, &self.me.player)
            })
            .unwrap_or_default();
        let creation = Creation {
            setup,
            seats,
            creator: self.me.player.clone(),
            address: Some(self.source),
            kept,
        };
        let offered = (creation.setup.clone(), creation.seats.clone());
        let made = self.make_room(creation).await;
        // A room gone meanwhile has nobody to tell; the new room stands either way.
        if let (Ok(rematch), Some((old, handle))) = (&made, finished) {
            let named = (handle.summary.borrow().rematch.as_ref()).map(|made| made.room);
            let replacing = match named {
                Some(named) if self.hall.find_room(named).await.is_none() => Some(named),
                _ => None,
            };
            let (setup, seats) = offered;
            let made = PlayedAgain {
                rematch: *rematch,
                setup,
                seats,
                replacing,
            };
            let who = self.me.clone();
            let _ = handle
                .inbox
                .send(RoomCommand::PlayedAgain { made, who })
                .await;
            let (hall, maker) = (Arc::clone(&self.hall), self.me.player.clone());
            tokio::spawn(tell_when_closed(hall, *rematch, old, maker));
        }
        let answer = match made {
            Ok(room) => ServerMsg::RoomCreated { room },
            Err((code, message)) => ServerMsg::RoomRefused { code, message },
        };
        self.send(&answer).await
    }

    /// Room `room`, which a `PlayAgain` plays again. The client asks once it has seen the game
    /// end, but the summary of a room on another node is its owner's last word, which may be
    /// that moment late: it is looked at again until it shows the end, for a while.
    async fn finished_room(&self, room: RoomId) -> Option<RoomHandle> {
        let given_up_at = tokio::time::Instant::now() + END_HEARD_WITHIN;
        loop {
            let handle = self.hall.find_room(room).await?;
            let over = handle.summary.borrow().outcome.is_some();
            let here = self.hall.local_room(room).is_some();
            if over || here || tokio::time::Instant::now() >= given_up_at {
                return Some(handle);
            }
            tokio::time::sleep(LOOK_AGAIN_AT_THE_END_EVERY).await;
        }
    }

    async fn make_room(&mut self, creation: Creation) -> Result<RoomId, (ErrorCode, String)> {
        let kind = RoomKind::asked(&creation.setup, &creation.seats);
        let owner = RoomOwner {
            player: creation.creator.id,
            address: creation.address,
        };
        // In a cluster, a room this node's caps have no place for may open on another node.
        let elsewhere =
            (self.hall.cluster()).map(|cluster| (Arc::clone(cluster), creation.clone()));
        // Held until the room is registered, so rooms made at the same moment on other
        // connections count against the caps too.
        let created = match self.hall.reserve_room(kind, owner, &self.limits) {
            Ok(_reservation) => self.hall.create_room_from(creation).await,
            Err(refusal) => Err(refusal),
        };
        match (created, elsewhere) {
            (Err((ErrorCode::ServerBusy, message)), Some((cluster, creation))) => {
                let placed = cluster.create_elsewhere(kind, &creation).await;
                placed.unwrap_or(Err((ErrorCode::ServerBusy, message)))
            }
            (created, _) => created,
        }
    }
}

/// Waits until room `rematch`, which `maker` made to play room `finished` again, waits for
/// nobody any more (it has closed, or its game is over) wherever it runs (here, or on another
/// node of a cluster, where it may also move), then tells the finished room, if that one is
/// still open, here or on another node: it names the rematch no more, and may close (it
/// stays open while it names one). Only the rematch's summary receiver is held, so that
/// neither room is kept open by the wait, nor anything of the maker's connection, which
/// other nodes would take for still there.
async fn tell_when_closed(hall: Arc<Hall>, rematch: RoomId, finished: RoomId, maker: Player) {
    loop {
        match hall.local_room(rematch) {
            Some(handle) => {
                let mut summary = handle.summary.clone();
                drop(handle);
                let _ = summary.wait_for(|room| room.outcome.is_some()).await;
            }
            None => tokio::time::sleep(LOOK_AGAIN_EVERY).await,
        }
        if hall.room(finished).is_none() {
            return; // nobody left to tell
        }
        match hall.find_room(rematch).await {
            Some(handle) if handle.summary.borrow().outcome.is_none() => {}
            _ => break,
        }
    }
    if let Some(handle) = hall.find_room(finished).await {
        // The bus carries every command with a connection: one of its own, answered nowhere.
        let who = Subscriber {
            id: hall.new_conn_id(),
            outbox: Arc::default(),
            player: maker,
            operator: false,
        };
        let closed = RoomCommand::RematchClosed { rematch, who };
        let _ = handle.inbox.send(closed).await;
    }
}
