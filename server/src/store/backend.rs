//! What a database must do to be Parlor's store. Every brain name is canonical
//! (`BrainRef::text`: `<owner id>/<name>` or `hall/<name>`).
//!
//! Reads and brain writes block: async code calls them on a blocking thread. The writes of
//! rooms return at once with a [`Pending`] answered once the write is durable; the writes of
//! one room are applied in the order they were asked for.

use std::net::IpAddr;

use parlor_shared::game::GameMove;
use parlor_shared::hexapawn::{Brain, MatchSetup};
use parlor_shared::identity::{Player, PlayerId};
use parlor_shared::protocol::{BrainSummary, GameRecord, RecordId, RecordSummary, RoomId};

use super::{
    BrainRow, BrainUse, MatchRound, NewRecord, Pending, PreparedLesson, RoomRow, StoreFull,
    Unfinished,
};
use crate::her_seat::HerGameRecord;
use crate::seat_key::SeatKey;

pub trait Backend: Send + Sync + 'static {
    // Its size.

    /// Caps the store's size, for every handle (`Limits::max_store_bytes`; none by default):
    /// once it holds that much, [`Backend::check_not_full`] refuses.
    fn cap_size(&self, max_bytes: u64);

    /// The bytes the store holds, as last measured.
    fn size_bytes(&self) -> u64;

    /// Refuses once the store is at or over its cap: asked before what would only grow it (a
    /// new room, a brain import, an auto match's next rounds), never before a game's moves and
    /// end. Never waits.
    fn check_not_full(&self) -> Result<(), StoreFull>;

    /// For a process about to end: copies what the store keeps beside its database file back
    /// into it (SQLite's write-ahead log), so that the file alone holds every write
    /// acknowledged, and takes no write after it (they wait for ever). A server embedded in a
    /// window or a command asks for it as that ends. Nothing to do for a database server.
    fn seal_for_exit(&self) -> anyhow::Result<()> {
        Ok(())
    }

    // Finished games.

    /// Stores a finished game; answers its id.
    fn save(&self, record: &NewRecord) -> anyhow::Result<RecordId>;

    /// The newest records first: at most `RECORD_LIST_LIMIT`, and `viewer`'s own newest
    /// (`OWN_RECORDS_LISTED`) among or after them. A row that does not read back is logged
    /// and left out, so that it does not hide the others.
    fn list(&self, viewer: Option<PlayerId>) -> anyhow::Result<Vec<RecordSummary>>;

    fn get(&self, id: RecordId) -> anyhow::Result<Option<GameRecord>>;

    // Rooms in progress.

    /// Stores a new room (its moves, if any, too).
    fn insert_room(&self, room: &RoomRow) -> Pending<()>;

    /// Stores a new auto match `creator` made from `address`, watched by nobody yet.
    fn insert_match(
        &self,
        id: RoomId,
        setup: &MatchSetup,
        seed: u64,
        creator: &Player,
        address: Option<IpAddr>,
    ) -> Pending<()>;

    /// Appends the move of ply `ply` (0 for the first move).
    fn append_move(&self, room: RoomId, ply: u64, mv: GameMove) -> Pending<()>;

    /// Replaces the keys of the room's seat tokens and the seats' players (after a seat is
    /// joined or taken back).
    fn set_seats(
        &self,
        room: RoomId,
        keys: &[Option<SeatKey>],
        players: &[Option<Player>],
    ) -> Pending<()>;

    /// Replaces the player stored as the room's creator: the same player, under the new name
    /// it took. A room already forgotten is left so.
    fn set_creator(&self, room: RoomId, creator: &Player) -> Pending<()>;

    /// Stores since when nobody follows the room (unix seconds), or that somebody does
    /// (`None`). A room already forgotten is left so.
    fn set_unfollowed_since(&self, room: RoomId, since: Option<u64>) -> Pending<()>;

    /// Stores a finished game as a record, teaches HER's stored brain (a game against HER,
    /// with its lesson prepared by [`Backend::prepare_lesson`] if it could be), and forgets
    /// the room in progress, all at once; answers the record's id.
    fn finish_room(
        &self,
        room: RoomId,
        record: NewRecord,
        her_game: Option<(HerGameRecord, Option<PreparedLesson>)>,
    ) -> Pending<RecordId>;

    /// Stores the latest rounds of an auto match: both brains (each `rounds` games more), its
    /// progress and the new points of its curve, all at once.
    fn save_match_round(&self, round: MatchRound) -> Pending<()>;

    /// Forgets a room in progress (an auto match that has played all its rounds).
    fn forget_room(&self, room: RoomId) -> Pending<()>;

    /// The rooms in progress, oldest first, and the next room id. A row that does not read
    /// back is logged and skipped (its id still counts).
    fn load_rooms(&self) -> anyhow::Result<Unfinished>;

    // HER's brains.

    /// The stored brain `name` and the games it has finished, if there is one.
    fn load_brain(&self, name: &str) -> anyhow::Result<Option<(Brain, u64)>>;

    /// Saves brains that have each finished one more game, all at once.
    fn save_brains(&self, brains: &[BrainUse<'_>]) -> anyhow::Result<()>;

    /// Adds a finished game of HER against a person to its stored brain (made empty when
    /// new): HER's draws, in order, are replayed into the brain as it is stored now and the
    /// result is applied. Other games may have changed the brain since this one began; a draw
    /// whose bead they confiscated in the meantime is skipped.
    fn record_her_game(&self, game: &HerGameRecord) -> anyhow::Result<()>;

    /// Stores `brain` as `name`, replacing any brain of that name; its game count starts over.
    fn put_brain(&self, name: &str, brain: &Brain) -> anyhow::Result<()> {
        self.put_brain_row(name, &BrainRow::of(brain))
    }

    /// [`Backend::put_brain`] of a brain already packed.
    fn put_brain_row(&self, name: &str, row: &BrainRow) -> anyhow::Result<()>;

    /// Stores the empty `brain` as `name` unless a brain of that name is stored already
    /// (whatever its size): whether it did.
    fn create_brain(&self, name: &str, brain: &BrainRow) -> anyhow::Result<bool>;

    /// Empties the brain `name` (same size and mirror setting); false when there is none.
    fn reset_brain(&self, name: &str) -> anyhow::Result<bool>;

    /// How many brains `owner` keeps and their stored bytes, leaving out the brain `except`
    /// (one about to be replaced).
    fn brain_usage(&self, owner: PlayerId, except: &str) -> anyhow::Result<(usize, u64)>;

    /// How many brains made (or last imported) from the source `address` are kept, and their
    /// stored bytes, leaving out the brain `except`.
    fn brain_usage_from(&self, address: IpAddr, except: &str) -> anyhow::Result<(usize, u64)>;

    /// Notes that the brain `name` is made, or imported over, from the source `address`: it
    /// counts against that address from now on.
    fn note_brain_source(&self, name: &str, address: IpAddr) -> anyhow::Result<()>;

    /// Deletes the brain `name`; false when there is none.
    fn delete_brain(&self, name: &str) -> anyhow::Result<bool>;

    /// The brain `name` as its JSON file, if stored.
    fn brain_json(&self, name: &str) -> anyhow::Result<Option<String>>;

    /// `viewer`'s brains and the hall's, the `MAX_LISTED_BRAINS` changed last, by name, each
    /// named as `viewer` names it (`BrainRef::shown_to`); for an operator (`every`), every
    /// player's too. Every stored brain can be played and exported by its name, listed or not.
    fn list_brains(&self, viewer: PlayerId, every: bool) -> anyhow::Result<Vec<BrainSummary>>;

    /// Works out `game`'s lesson from its brain as stored now, without holding up the room
    /// writes (teaching a large brain takes seconds).
    fn prepare_lesson(&self, game: &HerGameRecord) -> anyhow::Result<PreparedLesson>;

    // For tests of what a failed write does.

    /// Drops `table`, so that the writes needing it fail.
    #[cfg(test)]
    fn drop_table(&self, table: &str);

    /// Renames `table`: away, the writes needing it fail; back, they work again.
    #[cfg(test)]
    fn rename_table(&self, table: &str, to: &str);
}
