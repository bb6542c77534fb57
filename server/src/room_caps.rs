//! The caps on rooms, checked and taken in one step: server-wide, and per player and per
//! address (identities cost nothing to make, so one address's many players share a quota too).
//! A room enters the hall's registry only after its row is stored (and a match's brains are
//! read), so a check of the registry alone would let every connection that asks at the same
//! moment through: each creation under way holds a [`Reservation`] that counts until the room
//! is registered.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};

use parlor_shared::game::{GameKind, GameSetup};
use parlor_shared::identity::PlayerId;
use parlor_shared::protocol::{ErrorCode, RoomSummary, SeatSpec, SeatState};
use tokio::time::Instant;

use crate::hall::Refusal;
use crate::limits::{Limits, RoomQuota};
use crate::store::StoredRoom;
use creation_rate::CreationRate;

mod creation_rate;

/// What a new room will count against.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoomKind {
    pub ai: bool,
    pub auto_match: bool,
}

/// Who a room is charged to: the player who asked for it and the address they asked from
/// (unknown for rooms restored after a restart, which count for their player only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoomOwner {
    pub player: PlayerId,
    pub address: Option<IpAddr>,
}

/// Rooms counted: all of them, and those with AI seats and auto matches among them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tally {
    rooms: usize,
    ai_rooms: usize,
    matches: usize,
}

impl Tally {
    fn add(&mut self, kind: RoomKind) {
        self.rooms += 1;
        self.ai_rooms += usize::from(kind.ai);
        self.matches += usize::from(kind.auto_match);
    }

    fn remove(&mut self, kind: RoomKind) {
        self.rooms -= 1;
        self.ai_rooms -= usize::from(kind.ai);
        self.matches -= usize::from(kind.auto_match);
    }

    fn plus(self, other: Tally) -> Tally {
        Tally {
            rooms: self.rooms + other.rooms,
            ai_rooms: self.ai_rooms + other.ai_rooms,
            matches: self.matches + other.matches,
        }
    }

    /// Whose quota is full for one more room of `kind`, if any: `whose` names the holder
    /// ("the server", "a player", "an address").
    fn full(&self, kind: RoomKind, quota: &RoomQuota, whose: &str) -> Option<String> {
        if self.rooms >= quota.rooms {
            return Some(format!("{whose} may keep {} unfinished rooms", quota.rooms));
        }
        if kind.ai && self.ai_rooms >= quota.ai_rooms {
            return Some(format!(
                "{whose} may keep {} rooms with AI seats",
                quota.ai_rooms
            ));
        }
        if kind.auto_match && self.matches >= quota.matches {
            return Some(format!("{whose} may run {} auto matches", quota.matches));
        }
        None
    }
}

/// Creations under way, not yet in the registry: in all, by player and by address; and how
/// fast each address has created rooms lately.
#[derive(Debug, Default)]
struct InFlight {
    all: Tally,
    players: HashMap<PlayerId, Tally>,
    addresses: HashMap<IpAddr, Tally>,
    rate: CreationRate,
}

impl InFlight {
    fn add(&mut self, kind: RoomKind, owner: RoomOwner) {
        self.all.add(kind);
        self.players.entry(owner.player).or_default().add(kind);
        if let Some(address) = owner.address {
            self.addresses.entry(address).or_default().add(kind);
        }
    }

    fn remove(&mut self, kind: RoomKind, owner: RoomOwner) {
        self.all.remove(kind);
        if let Some(tally) = self.players.get_mut(&owner.player) {
            tally.remove(kind);
            if tally.rooms == 0 {
                self.players.remove(&owner.player);
            }
        }
        if let Some(address) = owner.address
            && let Some(tally) = self.addresses.get_mut(&address)
        {
            tally.remove(kind);
            if tally.rooms == 0 {
                self.addresses.remove(&address);
            }
        }
    }
}

/// The caps' count of creations under way, shared by the hall and its reservations.
#[derive(Clone, Default)]
pub struct RoomCaps(Arc<Mutex<InFlight>>);

/// A creation's place under the caps; dropping it (the room registered, or refused) gives
/// the place back to the registry's count.
pub struct Reservation {
    kind: RoomKind,
    owner: RoomOwner,
    caps: RoomCaps,
}

impl RoomKind {
    /// Whether one more room of this kind fits in `free` places.
    pub fn fits(self, free: &RoomQuota) -> bool {
        free.rooms > 0 && (!self.ai || free.ai_rooms > 0) && (!self.auto_match || free.matches > 0)
    }

    /// What a room asked for with `setup` and `seats` will count against.
    pub fn asked(setup: &GameSetup, seats: &[SeatSpec]) -> RoomKind {
        RoomKind {
            ai: seats.iter().any(|seat| matches!(seat, SeatSpec::Ai { .. })),
            auto_match: matches!(setup, GameSetup::HerMatch(_)),
        }
    }

    /// What a stored room will count against once it runs again (taken over by a node).
    pub fn stored(room: &StoredRoom) -> RoomKind {
        match room {
            StoredRoom::Game(row) => RoomKind::asked(&row.start.setup(), &row.seats),
            StoredRoom::Match(_) => RoomKind {
                ai: false,
                auto_match: true,
            },
        }
    }

    /// The places left in `free` once a room of this kind has taken one.
    pub fn taken_from(self, free: RoomQuota) -> RoomQuota {
        RoomQuota {
            rooms: free.rooms.saturating_sub(1),
            ai_rooms: free.ai_rooms.saturating_sub(usize::from(self.ai)),
            matches: free.matches.saturating_sub(usize::from(self.auto_match)),
        }
    }

    /// What an open room counts against. An auto match's summary names its brains as AI
    /// seats, but it counts as a match alone, as it was asked for (`RoomKind::asked`).
    pub fn of(summary: &RoomSummary) -> RoomKind {
        let auto_match = summary.game == GameKind::HerMatch;
        RoomKind {
            ai: !auto_match
                && (summary.seats.iter()).any(|seat| matches!(seat, SeatState::Ai { .. })),
            auto_match,
        }
    }
}

/// An open room as the caps see it: its summary, the address it was asked for from, and
/// whether it runs on this server. In a cluster the other nodes' rooms count against their
/// creators' quotas, which hold hall-wide, but not against this node's caps, so that the
/// hall's caps grow with its nodes.
pub struct Registered {
    pub room: RoomSummary,
    pub address: Option<IpAddr>,
    pub here: bool,
}

impl Registered {
    /// A room of this server.
    pub fn here(room: RoomSummary, address: Option<IpAddr>) -> Registered {
        Registered {
            room,
            address,
            here: true,
        }
    }
}

impl RoomCaps {
    fn lock(&self) -> MutexGuard<'_, InFlight> {
        // A poisoned lock still guards valid counts.
        crate::lock(&self.0)
    }

    /// Reserves a place for a room of `kind` that `owner` asks for under `limits`, or says
    /// which cap is full. `registered` reads the open rooms; it runs under this count's lock,
    /// so no two creations are counted against the same place.
    pub fn reserve(
        &self,
        kind: RoomKind,
        owner: RoomOwner,
        limits: &Limits,
        registered: impl FnOnce() -> Vec<Registered>,
    ) -> Result<Reservation, Refusal> {
        let mut counted = self.lock();
        admit(&mut counted, &registered(), kind, owner, limits)?;
        Ok(Reservation {
            kind,
            owner,
            caps: self.clone(),
        })
    }
}

/// The places this server's caps have left, by its open rooms among `registered`: what a
/// cluster node tells the others, so that a node whose caps are full may open rooms there.
pub fn free_places(registered: &[Registered], limits: &Limits) -> RoomQuota {
    let mut here = Tally::default();
    let open_here = (registered.iter()).filter(|open| open.here && open.room.outcome.is_none());
    for open in open_here {
        here.add(RoomKind::of(&open.room));
    }
    RoomQuota {
        rooms: limits.max_rooms.saturating_sub(here.rooms),
        ai_rooms: limits.max_ai_rooms.saturating_sub(here.ai_rooms),
        matches: limits.max_matches.saturating_sub(here.matches),
    }
}

/// Counts a room of `kind` for `owner` in `counted` if every cap has room for it: the server's
/// (`ServerBusy`), the player's and the address's (`LimitReached`), and the address's rate of
/// creations (spent only once every cap has room).
fn admit(
    counted: &mut InFlight,
    registered: &[Registered],
    kind: RoomKind,
    owner: RoomOwner,
    limits: &Limits,
) -> Result<(), Refusal> {
    let (mut all, mut player, mut address) = (Tally::default(), Tally::default(), Tally::default());
    for registered in registered.iter().filter(|open| open.room.outcome.is_none()) {
        let (room, from) = (&registered.room, registered.address);
        let room_kind = RoomKind::of(room);
        if registered.here {
            all.add(room_kind);
        }
        if room.creator.as_ref().is_some_and(|c| c.id == owner.player) {
            player.add(room_kind);
        }
        if from.is_some() && from == owner.address {
            address.add(room_kind);
        }
    }
    let server = RoomQuota {
        rooms: limits.max_rooms,
        ai_rooms: limits.max_ai_rooms,
        matches: limits.max_matches,
    };
    if let Some(full) = all.plus(counted.all).full(kind, &server, "the server") {
        return Err((ErrorCode::ServerBusy, format!("{full}; try again later")));
    }
    let in_flight = counted
        .players
        .get(&owner.player)
        .copied()
        .unwrap_or_default();
    if let Some(full) = player
        .plus(in_flight)
        .full(kind, &limits.per_player, "a player")
    {
        return Err((
            ErrorCode::LimitReached,
            format!("{full}; finish or close one first"),
        ));
    }
    if let Some(from) = owner.address {
        let in_flight = counted.addresses.get(&from).copied().unwrap_or_default();
        let tally = address.plus(in_flight);
        if let Some(full) = tally.full(kind, &limits.per_address, "one address") {
            return Err((
                ErrorCode::LimitReached,
                format!("{full}; finish or close one first"),
            ));
        }
        let budget = limits.room_creations_per_address;
        if !counted.rate.spend(from, budget, Instant::now()) {
            return Err((
                ErrorCode::LimitReached,
                format!(
                    "the players of one address may create {} rooms a minute; wait a little",
                    (budget.per_second * 60.0).round()
                ),
            ));
        }
    }
    counted.add(kind, owner);
    Ok(())
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.caps.lock().remove(self.kind, self.owner);
    }
}

#[cfg(test)]
mod tests;
