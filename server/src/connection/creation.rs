//! A client's `CreateRoom`: under the server's caps and the creator's quotas, held by a
//! reservation until the room is registered; in a cluster, a room this node's caps have no
//! place for opens on another node (`cluster/placement.rs`).

use parlor_shared::game::GameSetup;
use parlor_shared::protocol::{ErrorCode, SeatSpec, ServerMsg};

use std::sync::Arc;

use super::Connection;
use crate::cluster::Creation;
use crate::room_caps::{RoomKind, RoomOwner};

impl Connection {
    pub(super) async fn create_room(
        &mut self,
        setup: GameSetup,
        seats: Vec<SeatSpec>,
    ) -> anyhow::Result<()> {
        let kind = RoomKind::asked(&setup, &seats);
        let owner = RoomOwner {
            player: self.me.player.id,
            address: Some(self.source),
        };
        let creator = self.me.player.clone();
        // In a cluster, a room this node's caps have no place for may open on another node.
        let elsewhere = self.hall.cluster().map(|cluster| {
            let creation = Creation {
                setup: setup.clone(),
                seats: seats.clone(),
                creator: creator.clone(),
                address: owner.address,
            };
            (Arc::clone(cluster), creation)
        });
        // Held until the room is registered, so rooms made at the same moment on other
        // connections count against the caps too.
        let created = match self.hall.reserve_room(kind, owner, &self.limits) {
            Ok(_reservation) => {
                (self.hall)
                    .create_room_from(setup, seats, &creator, owner.address)
                    .await
            }
            Err(refusal) => Err(refusal),
        };
        let created = match (created, elsewhere) {
            (Err((ErrorCode::ServerBusy, message)), Some((cluster, creation))) => {
                let placed = cluster.create_elsewhere(kind, &creation).await;
                placed.unwrap_or(Err((ErrorCode::ServerBusy, message)))
            }
            (created, _) => created,
        };
        let answer = match created {
            Ok(room) => ServerMsg::RoomCreated { room },
            Err((code, message)) => ServerMsg::RoomRefused { code, message },
        };
        self.send(&answer).await
    }
}
