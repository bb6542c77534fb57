//! The lobby: the registry of rooms and the entry points that are not about one room.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use parlor_shared::game::{GameKind, GameSetup};
use parlor_shared::protocol::{ErrorCode, GameInfo, MAX_AI_MOVE_MS, RoomId, RoomSummary, SeatSpec};

use crate::ai;
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

    /// Opens a room after checking the setup and that the seat list fits the game. AI budgets
    /// are clamped to the course's 3 s rule, so the seat shows what the AI will really use.
    pub fn create_room(
        &self,
        setup: GameSetup,
        seats: Vec<SeatSpec>,
    ) -> Result<RoomId, (ErrorCode, String)> {
        let bad_request = |message: String| (ErrorCode::BadRequest, message);
        let game = setup.kind();
        let start = setup
            .start()
            .map_err(|error| bad_request(error.to_string()))?;
        if seats.len() != game.seats() as usize {
            return Err(bad_request(format!(
                "{} has {} seats, the request names {}",
                game.name(),
                game.seats(),
                seats.len()
            )));
        }
        // Random AIs and secret oracle strengths come from this seed, kept with the room.
        let seed = getrandom::u64().map_err(|error| (ErrorCode::Internal, error.to_string()))?;
        let seats = seats
            .into_iter()
            .zip(0u8..)
            .map(|(spec, seat)| match spec {
                SeatSpec::Ai { move_ms, kind } => Ok(SeatSpec::Ai {
                    move_ms: move_ms.clamp(1, MAX_AI_MOVE_MS),
                    kind: ai::settle_ai_seat(&setup, seat, kind, seed)?,
                }),
                SeatSpec::Human => Ok(SeatSpec::Human),
            })
            .collect::<Result<Vec<SeatSpec>, String>>()
            .map_err(bad_request)?;
        let id = self.next_room.fetch_add(1, Ordering::Relaxed);
        let handle = spawn_room(id, start, seats, seed, self.store.clone());
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
