//! The server-wide caps on rooms, checked and taken in one step. A room enters the hall's
//! registry only after its row is stored (and a match's brains are read), so a check of the
//! registry alone would let every connection that asks at the same moment through: each
//! creation under way holds a [`Reservation`] that counts until the room is registered.

use std::sync::{Arc, Mutex, MutexGuard};

use parlor_shared::game::GameKind;
use parlor_shared::protocol::{ErrorCode, RoomSummary, SeatState};

use crate::hall::Refusal;
use crate::limits::Limits;

/// What a new room will count against.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoomKind {
    pub ai: bool,
    pub auto_match: bool,
}

/// Creations under way, not yet in the registry.
#[derive(Debug, Default)]
struct InFlight {
    rooms: usize,
    ai_rooms: usize,
    matches: usize,
}

/// The caps' count of creations under way, shared by the hall and its reservations.
#[derive(Clone, Default)]
pub struct RoomCaps(Arc<Mutex<InFlight>>);

/// A creation's place under the caps; dropping it (the room registered, or refused) gives
/// the place back to the registry's count.
pub struct Reservation {
    kind: RoomKind,
    caps: RoomCaps,
}

impl RoomKind {
    /// What an open room counts against.
    pub fn of(summary: &RoomSummary) -> RoomKind {
        RoomKind {
            ai: (summary.seats.iter()).any(|seat| matches!(seat, SeatState::Ai { .. })),
            auto_match: summary.game == GameKind::HerMatch,
        }
    }
}

impl RoomCaps {
    fn lock(&self) -> MutexGuard<'_, InFlight> {
        // A poisoned lock still guards valid counts.
        crate::lock(&self.0)
    }

    /// Reserves a place for a room of `kind` under `limits`, or says which cap is full.
    /// `registered` reads the open rooms' summaries; it runs under this count's lock, so no
    /// two creations are counted against the same place.
    pub fn reserve(
        &self,
        kind: RoomKind,
        limits: &Limits,
        registered: impl FnOnce() -> Vec<RoomSummary>,
    ) -> Result<Reservation, Refusal> {
        let mut counted = self.lock();
        let reservation = admit(&mut counted, &registered(), kind, limits)?;
        Ok(Reservation {
            kind: reservation,
            caps: self.clone(),
        })
    }
}

/// Counts a room of `kind` in `counted` if every cap has room for it.
fn admit(
    counted: &mut InFlight,
    registered: &[RoomSummary],
    kind: RoomKind,
    limits: &Limits,
) -> Result<RoomKind, Refusal> {
    let unfinished: Vec<RoomKind> = (registered.iter())
        .filter(|room| room.outcome.is_none())
        .map(RoomKind::of)
        .collect();
    let busy = |what: String| Err((ErrorCode::ServerBusy, what));
    if unfinished.len() + counted.rooms >= limits.max_rooms {
        return busy(format!(
            "the server holds {} unfinished rooms; try again later",
            limits.max_rooms
        ));
    }
    let ai_rooms = unfinished.iter().filter(|room| room.ai).count() + counted.ai_rooms;
    if kind.ai && ai_rooms >= limits.max_ai_rooms {
        return busy(format!(
            "the server's AI is busy with {} rooms; try again later",
            limits.max_ai_rooms
        ));
    }
    let matches = unfinished.iter().filter(|room| room.auto_match).count() + counted.matches;
    if kind.auto_match && matches >= limits.max_matches {
        return busy(format!(
            "{} auto matches are running; try again later",
            limits.max_matches
        ));
    }
    counted.rooms += 1;
    counted.ai_rooms += usize::from(kind.ai);
    counted.matches += usize::from(kind.auto_match);
    Ok(kind)
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let mut counted = self.caps.lock();
        counted.rooms -= 1;
        counted.ai_rooms -= usize::from(self.kind.ai);
        counted.matches -= usize::from(self.kind.auto_match);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn try_reserve(
        caps: &RoomCaps,
        kind: RoomKind,
        limits: &Limits,
    ) -> Result<Reservation, Refusal> {
        caps.reserve(kind, limits, Vec::new)
    }

    #[test]
    fn creations_under_way_count_against_every_cap_until_dropped() {
        let limits = Limits {
            max_rooms: 3,
            max_ai_rooms: 1,
            max_matches: 1,
            ..Limits::default()
        };
        let caps = RoomCaps::default();
        let ai = RoomKind {
            ai: true,
            auto_match: false,
        };
        let auto_match = RoomKind {
            ai: false,
            auto_match: true,
        };
        let first_ai = try_reserve(&caps, ai, &limits).unwrap();
        let refused = try_reserve(&caps, ai, &limits).err().unwrap();
        assert_eq!(refused.0, ErrorCode::ServerBusy);
        assert!(refused.1.contains("AI"), "{}", refused.1);
        let first_match = try_reserve(&caps, auto_match, &limits).unwrap();
        assert!(try_reserve(&caps, auto_match, &limits).is_err());
        let plain = try_reserve(&caps, RoomKind::default(), &limits).unwrap();
        let full = try_reserve(&caps, RoomKind::default(), &limits)
            .err()
            .unwrap();
        assert!(full.1.contains("3 unfinished rooms"), "{}", full.1);
        drop((first_ai, plain));
        // The refusals took nothing: two places are free again, one of them for AI.
        let second_ai = try_reserve(&caps, ai, &limits).unwrap();
        assert!(try_reserve(&caps, RoomKind::default(), &limits).is_ok());
        drop((second_ai, first_match));
        let counted = caps.lock();
        assert_eq!(
            (counted.rooms, counted.ai_rooms, counted.matches),
            (0, 0, 0)
        );
    }

    #[test]
    fn open_rooms_count_until_their_game_is_over() {
        let limits = Limits {
            max_rooms: 2,
            max_ai_rooms: 1,
            ..Limits::default()
        };
        let summary = |seats: Vec<SeatState>, outcome| RoomSummary {
            room: 1,
            game: GameKind::Cave,
            creator: None,
            seats,
            spectators: 0,
            version: 0,
            moves: 0,
            outcome,
        };
        let ai = SeatState::Ai {
            name: "strong".into(),
            move_ms: 100,
        };
        let caps = RoomCaps::default();
        let ai_room = RoomKind {
            ai: true,
            auto_match: false,
        };
        let open_ai = || vec![summary(vec![SeatState::Open, ai.clone()], None)];
        let refused = caps.reserve(ai_room, &limits, open_ai).err().unwrap();
        assert!(refused.1.contains("AI"), "{}", refused.1);
        let over = Some(parlor_shared::game::Outcome::Tie);
        let finished_ai = || vec![summary(vec![SeatState::Open, ai.clone()], over)];
        let reserved = caps.reserve(ai_room, &limits, finished_ai).unwrap();
        // With that creation under way, one open room fills the cap of two.
        let one_open = || vec![summary(vec![], None)];
        assert!(
            caps.reserve(RoomKind::default(), &limits, one_open)
                .is_err()
        );
        drop(reserved);
        assert!(caps.reserve(RoomKind::default(), &limits, one_open).is_ok());
    }
}
