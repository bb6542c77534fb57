//! What the store keeps and gives back, whichever database holds it (`Backend`): rooms in
//! progress, auto matches, brains ready to write, and the refusal of a full store.

use std::net::IpAddr;

use parlor_shared::game::{GameMove, GameState};
use parlor_shared::hexapawn::{Brain, CurvePoint, HerStats, MatchSetup, PlayMode, RoundResult};
use parlor_shared::identity::Player;
use parlor_shared::protocol::{RoomId, SeatSpec};
use serde::{Deserialize, Serialize};

use super::packed::pack;
use crate::byte_size::ByteSize;
use crate::seat_key::SeatKey;

/// HER's side of a game against a person as it began: the brain then (the person's game is
/// replayed against it on restart) and the mode.
#[derive(Clone, Debug, PartialEq)]
pub struct HerStart {
    pub mode: PlayMode,
    pub brain: Brain,
}

/// A room in progress as stored: how it began and the moves made since.
#[derive(Clone, Debug, PartialEq)]
pub struct RoomRow {
    pub id: RoomId,
    pub start: GameState,
    /// The settled seats (an oracle's secret strength included).
    pub seats: Vec<SeatSpec>,
    /// The key of each seat's token, once someone has joined it.
    pub keys: Vec<Option<SeatKey>>,
    /// The player who took each seat (empty for rooms stored before players were known).
    pub players: Vec<Option<Player>>,
    pub creator: Option<Player>,
    /// The source address it was asked for from (`crate::source`); `None` for rooms stored
    /// before addresses were kept.
    pub address: Option<IpAddr>,
    pub seed: u64,
    pub her: Option<HerStart>,
    pub moves: Vec<GameMove>,
    /// Since when nobody follows the room (unix seconds); `None` while somebody does.
    pub unfollowed_since: Option<u64>,
}

/// How far an auto match has come, in the match's own numbering of its HERs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MatchProgress {
    pub rounds_played: u64,
    pub stats: [HerStats; 2],
    /// Each HER's losses since the curve's last point.
    pub window_losses: [u32; 2],
    pub last_round: Option<RoundResult>,
    /// The learning curve (stored a row per point, not with the rest).
    #[serde(skip)]
    pub curve: Vec<CurvePoint>,
}

/// An auto match in progress as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchRow {
    pub id: RoomId,
    pub creator: Option<Player>,
    /// The source address it was asked for from, as for [`RoomRow::address`].
    pub address: Option<IpAddr>,
    pub setup: MatchSetup,
    pub seed: u64,
    pub progress: MatchProgress,
    /// Since when nobody watches the match (unix seconds); `None` while somebody does.
    pub unfollowed_since: Option<u64>,
}

/// A room in progress as stored: a game, or an auto match.
#[derive(Clone, Debug, PartialEq)]
pub enum StoredRoom {
    Game(Box<RoomRow>),
    Match(Box<MatchRow>),
}

impl StoredRoom {
    pub fn id(&self) -> RoomId {
        match self {
            StoredRoom::Game(row) => row.id,
            StoredRoom::Match(row) => row.id,
        }
    }
}

/// What a restarting server finds: the rooms in progress and the next room id to give out.
pub struct Unfinished {
    pub rooms: Vec<StoredRoom>,
    /// Rows that did not read back (each logged).
    pub unreadable: usize,
    pub next_room: RoomId,
}

/// The rounds of an auto match played since its last write: both brains after them (each
/// counting `rounds` more games), the progress after them, and the curve's new points.
pub struct MatchRound {
    pub room: RoomId,
    pub brains: [(String, BrainRow); 2],
    pub rounds: u64,
    pub progress: MatchProgress,
    pub points: Vec<CurvePoint>,
}

/// The most brains [`Store::list_brains`] gives: its answer must fit in one frame, and this
/// many summaries with the longest names and the largest counts do (see the tests).
pub const MAX_LISTED_BRAINS: u32 = 150;

/// A brain to save after a finished game.
pub struct BrainUse<'a> {
    pub name: &'a str,
    pub brain: &'a Brain,
}

/// A brain ready to be written: its file packed (see `sqlite/packed.rs`) and its counts (made by
/// whoever holds the brain, so the writer thread only runs SQL).
#[derive(Clone, Debug)]
pub struct BrainRow {
    pub(super) size: String,
    pub(super) mirrors: bool,
    pub(super) packed: Vec<u8>,
    pub(super) boxes: i64,
    pub(super) beads: i64,
}

impl BrainRow {
    /// The bytes it takes in the store.
    pub fn stored_bytes(&self) -> u64 {
        self.packed.len() as u64
    }

    pub fn of(brain: &Brain) -> BrainRow {
        BrainRow {
            packed: pack(&brain.to_compact_json()),
            size: brain.dims().to_string(),
            mirrors: brain.mirrors(),
            boxes: brain.boxes() as i64,
            beads: brain.beads() as i64,
        }
    }
}

/// A finished game's lesson, worked out beside the store's writer from the brain as stored
/// at `revision` (see [`Store::prepare_lesson`]): decoding, teaching and encoding a brain of
/// 200,000 boxes takes seconds, which on the writer would hold up every room's moves.
pub struct PreparedLesson {
    /// The stored brain's revision when it was read; `None` when there was none.
    pub(super) revision: Option<i64>,
    /// The brain taught, ready to write; `None` when there is nothing to teach.
    pub(super) taught: Option<BrainRow>,
}

/// The store is at or over its cap: the refusal of what would grow it.
#[derive(Debug)]
pub struct StoreFull {
    pub max_bytes: u64,
}

impl std::fmt::Display for StoreFull {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cap = ByteSize(self.max_bytes);
        write!(f, "the server's store is full (its cap is {cap})")
    }
}
