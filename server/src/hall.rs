//! The lobby: the registry of rooms and the entry points that are not about one room.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use parlor_shared::game::{GameKind, GameSetup, GameState};
use parlor_shared::hexapawn::{Brain, HexGame};
use parlor_shared::identity::{Player, PlayerId};
use parlor_shared::protocol::{
    ErrorCode, GameInfo, HeldSeat, MAX_AI_MOVE_MS, RoomId, RoomSummary, SeatSpec, SeatState,
    ServerMsg,
};

use crate::ai;
use crate::brain_quota::BrainQuotas;
use crate::brain_uses::BrainUses;
use crate::cluster::Creation;
use crate::her_match::{MatchInit, spawn_match};
use crate::limits::{Limits, RoomLifetimes};
use crate::room::{ConnId, RoomCommand, RoomHandle, RoomInit, Subscriber, spawn_room};
use crate::room_caps::{Registered, Reservation, RoomCaps, RoomKind, RoomOwner};
use crate::store::{MatchRow, Store, StoredRoom};

/// The most rooms `ListRooms` answers with (about 150 bytes each in JSON: 200 fit one frame).
pub const MAX_LISTED_ROOMS: usize = 200;

/// Who asks: a player, and whether they run the hall (operators list and delete every brain,
/// and change the hall's shared ones).
#[derive(Clone, Copy, Debug)]
pub struct Asker {
    pub player: PlayerId,
    pub operator: bool,
    /// The source address they ask from (`crate::source`).
    pub source: Option<IpAddr>,
}

/// A refusal: the error code and the reason.
pub type Refusal = (ErrorCode, String);

/// Shared by every connection task.
pub struct Hall {
    rooms: Mutex<BTreeMap<RoomId, RoomHandle>>,
    /// The source address each room was asked for from, for the per-address quotas (rooms
    /// stored before addresses were kept count for their creator only).
    room_addresses: Mutex<HashMap<RoomId, IpAddr>>,
    /// The brains one player, and one address, may keep (`Limits::brains`).
    brain_quotas: BrainQuotas,
    /// The players who run the hall: they may end any room or match and delete any brain.
    operators: std::collections::HashSet<PlayerId>,
    /// The rooms followed by each player and each address (`crate::follows`).
    pub(crate) follows: crate::follows::FollowCounts,
    next_room: AtomicU64,
    next_conn: AtomicU64,
    /// Creations under way, for the server-wide caps (see `crate::room_caps`).
    caps: RoomCaps,
    /// Brains in auto matches and in games against HER (see `crate::brain_uses`).
    brain_uses: BrainUses,
    /// How long rooms nobody needs stay open.
    lifetimes: RoomLifetimes,
    pub store: Store,
    /// Places for brain files travelling in parts (`crate::brain_transfer`).
    pub file_places: Arc<crate::brain_transfer::Places>,
    /// The hall's other nodes, when this server is one of several (`crate::cluster`).
    cluster: Option<Arc<crate::cluster::Cluster>>,
    /// Each player's latest greeting here, for the second look of a new name in a cluster.
    greetings: greetings::Greetings,
}

fn bad_request(message: impl Into<String>) -> Refusal {
    (ErrorCode::BadRequest, message.into())
}

/// Why a room whose game is over before its first move is refused.
fn over_at_start(game: GameKind) -> String {
    match game {
        GameKind::Klotski => "the board is already solved: there is nothing to slide".into(),
        GameKind::Ewn => "the target already stands on square 0: there is nothing to play".into(),
        _ => format!("this {} game is over before its first move", game.name()),
    }
}

/// A store or runtime failure: logged here, and only its kind told to the client.
pub(crate) fn internal(error: impl std::fmt::Display) -> Refusal {
    tracing::warn!(%error, "request failed");
    (
        ErrorCode::Internal,
        "the server could not use its store".into(),
    )
}

mod brains;
mod greetings;
mod lobby_list;
mod nodes;

use brains::{canonical_or_as_is, fitting_brain};
use lobby_list::listed;

impl Hall {
    /// A hall whose rooms close as `lifetimes` says (see `Limits::room_lifetimes`).
    pub fn new(store: Store, lifetimes: RoomLifetimes) -> Hall {
        Hall {
            lifetimes,
            rooms: Mutex::new(BTreeMap::new()),
            room_addresses: Mutex::default(),
            operators: Default::default(),
            brain_quotas: BrainQuotas::of(&Limits::default()),
            follows: Default::default(),
            next_room: AtomicU64::new(1),
            next_conn: AtomicU64::new(1),
            brain_uses: BrainUses::default(),
            caps: RoomCaps::default(),
            store,
            file_places: Arc::default(),
            cluster: None,
            greetings: Default::default(),
        }
    }

    /// The hall as a restart finds it: every room in progress in the store back at its last
    /// move (replayed through the rules; a room that does not replay is logged and left out),
    /// its seats taken by their tokens' holders, who are all away until they reclaim them, its
    /// AI seats thinking again if it is their turn, and each auto match going on with the rounds
    /// still due. Nobody follows them yet: each one's abandoned time goes on from its stored
    /// start (`crate::abandon_clock`), so rooms left behind do not come back for a fresh one.
    /// Room ids go on after the highest ever given out. Must run inside the tokio runtime (it
    /// spawns the rooms' tasks); reads the store synchronously.
    pub fn restore(store: Store, lifetimes: RoomLifetimes) -> anyhow::Result<Hall> {
        let unfinished = store.load_rooms()?;
        let hall = Hall::new(store, lifetimes);
        hall.next_room
            .store(unfinished.next_room, Ordering::Relaxed);
        let total = unfinished.rooms.len() + unfinished.unreadable;
        // Matches first: their claims on brains would be refused beside games in progress.
        let (matches, games): (Vec<_>, Vec<_>) = (unfinished.rooms.into_iter())
            .partition(|stored| matches!(stored, StoredRoom::Match(_)));
        for stored in matches.into_iter().chain(games) {
            let id = stored.id();
            if let Err(error) = hall.adopt(stored) {
                tracing::warn!(
                    room = id,
                    error = format!("{error:#}"),
                    "stored room skipped"
                );
            }
        }
        let restored = hall.lock_rooms().len();
        tracing::info!(
            rooms = restored,
            skipped = total - restored,
            next_room = unfinished.next_room,
            "rooms restored"
        );
        Ok(hall)
    }

    /// A stored room, running again at its last move and listed (see [`Hall::restore`]): after
    /// a restart, or taken over from another node.
    pub(crate) fn adopt(&self, stored: StoredRoom) -> anyhow::Result<RoomHandle> {
        let id = stored.id();
        let (address, handle) = match stored {
            StoredRoom::Game(row) => {
                let address = row.address;
                let mut init = RoomInit::restore(*row, self.store.clone())?;
                if let (Some(her), GameState::Hexapawn(game)) = (&mut init.her, &init.start) {
                    let name = canonical_or_as_is(&game.setup.brain);
                    let teaches = her.is_teaching();
                    let mut in_game = self.brain_uses.resume_game(&name, teaches);
                    in_game.hold_boxes_resumed(her.brain().boxes());
                    her.hold_brain(in_game);
                }
                (address, spawn_room(init, self.lifetimes))
            }
            StoredRoom::Match(row) => (row.address, self.resume_match(*row)?),
        };
        if let Some(address) = address {
            crate::lock(&self.room_addresses).insert(id, address);
        }
        self.lock_rooms().insert(id, handle.clone());
        Ok(handle)
    }

    /// An auto match after a restart, from its brains as stored after its last round.
    fn resume_match(&self, row: MatchRow) -> anyhow::Result<RoomHandle> {
        let MatchRow {
            id,
            creator,
            address: _,
            mut setup,
            seed,
            progress,
            unfollowed_since,
        } = row;
        // Checked again as a new match is: the row may come from another version.
        setup.check().map_err(anyhow::Error::msg)?;
        // A match stored before brains had owners trains the hall's brains of its names.
        setup.brains = setup.brains.map(|name| canonical_or_as_is(&name));
        let claim = self
            .claim_brains(&setup.brains)
            .map_err(|(_, reason)| anyhow::anyhow!(reason))?;
        let mut brains = Vec::with_capacity(2);
        for name in &setup.brains {
            let brain = self.store.load_brain(name)?.map(|(brain, _)| brain);
            brains.push(
                fitting_brain(brain, setup.dims, setup.mirrors, name)
                    .map_err(|(_, reason)| anyhow::anyhow!(reason))?,
            );
        }
        let brains: [Brain; 2] = brains
            .try_into()
            .map_err(|_| anyhow::anyhow!("two brains"))?;
        spawn_match(MatchInit {
            id,
            creator,
            setup,
            brains,
            seed,
            store: self.store.clone(),
            claim,
            progress,
            lifetimes: self.lifetimes,
            unfollowed_since,
        })
    }

    /// The hall run by `operators`.
    pub fn with_operators(mut self, operators: &[PlayerId]) -> Hall {
        self.operators = operators.iter().copied().collect();
        self
    }

    /// The hall whose players, and addresses, may keep brains within `quotas`.
    pub fn with_brain_quotas(mut self, quotas: BrainQuotas) -> Hall {
        self.brain_quotas = quotas;
        self
    }

    /// The brains one player, and one address, may keep.
    pub fn brain_quotas(&self) -> BrainQuotas {
        self.brain_quotas
    }

    /// Whether `player` runs the hall.
    pub fn is_operator(&self, player: PlayerId) -> bool {
        self.operators.contains(&player)
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

    /// Opens a room `creator` asked for after checking the setup and that the seat list fits
    /// the game. AI budgets are clamped to the course's 3 s rule, so the seat shows what the
    /// AI will really use.
    pub async fn create_room(
        &self,
        setup: GameSetup,
        seats: Vec<SeatSpec>,
        creator: &Player,
    ) -> Result<RoomId, Refusal> {
        let creation = Creation {
            setup,
            seats,
            creator: creator.clone(),
            address: None,
            kept: Vec::new(),
        };
        self.create_room_from(creation).await
    }

    /// [`Hall::create_room`] asked for from `creation.address`, which the room counts
    /// against, its seats kept as `creation.kept` says.
    pub async fn create_room_from(&self, creation: Creation) -> Result<RoomId, Refusal> {
        let Creation {
            setup,
            seats,
            creator,
            address,
            kept,
        } = creation;
        let creator = &creator;
        let game = setup.kind();
        let start = setup
            .start()
            .map_err(|error| bad_request(error.to_string()))?;
        // A game over before its first move would be stored at once, a record and a lobby row
        // for nothing, outside every quota on unfinished rooms.
        if start.outcome().is_some() {
            return Err(bad_request(over_at_start(game)));
        }
        if seats.len() != game.seats() as usize {
            return Err(bad_request(format!(
                "{} has {} seats, the request names {}",
                game.name(),
                game.seats(),
                seats.len()
            )));
        }
        self.store_has_room()?;
        // Random AIs, HER's draws and secret oracle strengths come from this seed.
        let seed = getrandom::u64().map_err(internal)?;
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
        let handle = match setup {
            GameSetup::HerMatch(setup) => self.open_match(setup, seed, creator, address).await?,
            setup => {
                let (start, her) = match setup {
                    GameSetup::Hexapawn(mut setup) => {
                        let her =
                            (self.her_seat(&mut setup, &seats, seed, creator, address)).await?;
                        (her.start(HexGame::new(setup, her.brain())), Some(her))
                    }
                    _ => (start, None),
                };
                let id = self.new_room_id().await?;
                let store = self.store.clone();
                let mut init = RoomInit::new(id, start, seats, seed, store, her, creator.clone());
                init.creator_address = address;
                init.keep_seats(kept);
                // Stored before anyone can move in it. A game against HER copies and encodes
                // its whole brain for its row: not on a tokio worker.
                let store = self.store.clone();
                let (init, stored) = tokio::task::spawn_blocking(move || {
                    let stored = store.insert_room(&init.row());
                    (init, stored)
                })
                .await
                .map_err(internal)?;
                stored.done().await.map_err(internal)?;
                spawn_room(init, self.lifetimes)
            }
        };
        let id = handle.summary.borrow().room;
        if let Some(address) = address {
            crate::lock(&self.room_addresses).insert(id, address);
        }
        self.lock_rooms().insert(id, handle.clone());
        self.serve_to_nodes(id, &handle).await;
        Ok(id)
    }

    /// Refuses what would grow the store past its cap (new rooms, brain imports): see
    /// `Store::check_not_full`.
    pub fn store_has_room(&self) -> Result<(), Refusal> {
        self.store.check_not_full().map_err(|full| {
            let what = "no new rooms or brain imports until its operator makes room; games under \
                        way go on and are stored";
            (ErrorCode::ServerBusy, format!("{full}: {what}"))
        })
    }

    /// A place for a room of `kind` that `owner` asks for under the server's caps and the
    /// owner's quotas, held until the room is registered (or refused): see `crate::room_caps`.
    pub fn reserve_room(
        &self,
        kind: RoomKind,
        owner: RoomOwner,
        limits: &Limits,
    ) -> Result<Reservation, Refusal> {
        self.caps.reserve(kind, owner, limits, || {
            let mut registered = self.registered_here();
            registered.extend(self.registered_elsewhere());
            registered
        })
    }

    /// This server's open rooms, with the addresses they were asked for from.
    pub(crate) fn registered_here(&self) -> Vec<Registered> {
        let rooms = self.summaries();
        let addresses = crate::lock(&self.room_addresses);
        (rooms.into_iter())
            .map(|room| {
                let from = addresses.get(&room.room).copied();
                Registered::here(room, from)
            })
            .collect()
    }

    /// A room still open on this node.
    pub fn local_room(&self, id: RoomId) -> Option<RoomHandle> {
        let handle = self.lock_rooms().get(&id).cloned()?;
        (!handle.inbox.is_closed()).then_some(handle)
    }

    /// A room still open (a finished room closes once nobody follows it), here or, in a
    /// cluster, on another node.
    pub fn room(&self, id: RoomId) -> Option<RoomHandle> {
        let local = self.lock_rooms().get(&id).cloned();
        match local {
            Some(handle) => (!handle.inbox.is_closed()).then_some(handle),
            None => self.remote_room(id),
        }
    }

    /// Every open room, for the limits; forgets the rooms that have closed.
    pub fn summaries(&self) -> Vec<RoomSummary> {
        let mut rooms = self.lock_rooms();
        rooms.retain(|_, handle| !handle.inbox.is_closed());
        crate::lock(&self.room_addresses).retain(|id, _| rooms.contains_key(id));
        rooms
            .values()
            .map(|handle| handle.summary.borrow().clone())
            .collect()
    }

    /// The lobby's list: at most [`MAX_LISTED_ROOMS`] open rooms (of every node in a
    /// cluster), oldest first, shared out by source address past that, so the answer always
    /// fits one frame and no few hosts fill it (see [`listed`]); partial
    /// while this node cannot reach the others.
    pub fn list_rooms(&self) -> ServerMsg {
        ServerMsg::Rooms {
            rooms: listed(self.hall_registered()),
            partial: self.lists_part_of_the_hall(),
        }
    }

    /// The rooms, here or on other nodes, that show `who`'s player by another name (they came
    /// back renamed) show the new one: at most the rooms they made and took seats in, which
    /// their quotas bound.
    pub async fn show_new_name(&self, who: &Subscriber) {
        for room in self.rooms_naming_otherwise(&who.player) {
            if let Some(handle) = self.room(room) {
                let renamed = RoomCommand::Renamed { who: who.clone() };
                let _ = handle.inbox.send(renamed).await;
            }
        }
    }

    /// The rooms, here or on other nodes, that show `player` by another name: as their creator
    /// or in a seat they took or that is kept for them.
    fn rooms_naming_otherwise(&self, player: &Player) -> Vec<RoomId> {
        let otherwise = |shown: &Player| crate::players::shown_otherwise(shown, player);
        (self.hall_summaries().into_iter())
            .filter(|room| {
                room.creator.as_ref().is_some_and(otherwise)
                    || room
                        .seats
                        .iter()
                        .any(|seat| seat.player().is_some_and(otherwise))
            })
            .map(|room| room.room)
            .collect()
    }

    /// The seats `player` holds in unfinished rooms, and those rematches keep for them,
    /// oldest room first, at most [`MAX_LISTED_ROOMS`] of them.
    pub fn seats_of(&self, player: PlayerId) -> Vec<HeldSeat> {
        let mut held = Vec::new();
        for room in self.hall_summaries() {
            if room.outcome.is_some() {
                continue;
            }
            // A game with a seat open (or kept) waits for an opponent, not for a move.
            let full = !room.seats.iter().any(SeatState::untaken);
            for (seat, state) in (0u8..).zip(&room.seats) {
                let kept = matches!(state, SeatState::Kept { .. });
                if state.player().is_some_and(|holder| holder.id == player) {
                    held.push(HeldSeat {
                        room: room.room,
                        seat,
                        game: room.game,
                        to_move: full && room.to_move == Some(seat),
                        kept,
                    });
                }
            }
        }
        held.truncate(MAX_LISTED_ROOMS);
        held
    }

    fn lock_rooms(&self) -> MutexGuard<'_, BTreeMap<RoomId, RoomHandle>> {
        // Only a map of handles: any panic leaves it whole.
        crate::lock(&self.rooms)
    }
}
