//! The lobby: the registry of rooms and the entry points that are not about one room.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use parlor_shared::game::GameKind;
use parlor_shared::protocol::{ErrorCode, GameInfo, MAX_AI_MOVE_MS, RoomId, RoomSummary, SeatSpec};

use crate::room::{ConnId, RoomHandle, spawn_room};
use crate::store::Store;

/// Shared by every connection task.
pub struct Hall {
    rooms: Mutex<BTreeMap<RoomId, RoomHandle>>,
    next_room: AtomicU64,
    next_conn: AtomicU64,
    pub store: Store,
}

impl Hall {
    pub fn new(store: Store) -> Hall {
        Hall {
            rooms: Mutex::new(BTreeMap::new()),
            next_room: AtomicU64::new(1),
            next_conn: AtomicU64::new(1),
            store,
        }
    }

    pub fn new_conn_id(&self) -> ConnId {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    pub fn games() -> Vec<GameInfo> {
        GameKind::ALL
            .iter()
            .map(|&kind| GameInfo {
                kind,
                name: kind.name().into(),
                description: kind.describe().into(),
                seat_names: kind.seat_names(),
            })
            .collect()
    }

    /// Opens a room after checking the seat list fits the game. AI budgets are clamped to the
    /// course's 3 s rule, so the seat shows what the AI will really use.
    pub fn create_room(
        &self,
        game: GameKind,
        seats: Vec<SeatSpec>,
    ) -> Result<RoomId, (ErrorCode, String)> {
        if seats.len() != game.seats() as usize {
            return Err((
                ErrorCode::BadRequest,
                format!(
                    "{} has {} seats, the request names {}",
                    game.name(),
                    game.seats(),
                    seats.len()
                ),
            ));
        }
        let seats = seats
            .into_iter()
            .map(|spec| match spec {
                SeatSpec::Ai { move_ms } => SeatSpec::Ai {
                    move_ms: move_ms.clamp(1, MAX_AI_MOVE_MS),
                },
                SeatSpec::Human => SeatSpec::Human,
            })
            .collect();
        let id = self.next_room.fetch_add(1, Ordering::Relaxed);
        let handle = spawn_room(id, game, seats, self.store.clone());
        self.lock().insert(id, handle);
        Ok(id)
    }

    pub fn room(&self, id: RoomId) -> Option<RoomHandle> {
        self.lock().get(&id).cloned()
    }

    pub fn list_rooms(&self) -> Vec<RoomSummary> {
        self.lock()
            .values()
            .map(|handle| handle.summary.borrow().clone())
            .collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<RoomId, RoomHandle>> {
        // The map is only inserted into and read, so a poisoned lock still holds a valid map.
        self.rooms
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
