//! The SQLite store as a [`Backend`]: each operation is the store's own, in `brains.rs`,
//! `rooms.rs`, `rooms/load.rs` and `mod.rs`.

use std::net::IpAddr;

use parlor_shared::game::GameMove;
use parlor_shared::hexapawn::{Brain, MatchSetup};
use parlor_shared::identity::{Player, PlayerId};
use parlor_shared::protocol::{BrainSummary, GameRecord, RecordId, RecordSummary, RoomId};

use super::SqliteStore;
use crate::her_seat::HerGameRecord;
use crate::seat_key::SeatKey;
use crate::store::{
    Backend, BrainRow, BrainUse, MatchRound, NewRecord, Pending, PreparedLesson, RoomRow,
    StoreFull, Unfinished,
};

impl Backend for SqliteStore {
    fn cap_size(&self, max_bytes: u64) {
        self.cap_size(max_bytes)
    }

    fn size_bytes(&self) -> u64 {
        self.size_bytes()
    }

    fn check_not_full(&self) -> Result<(), StoreFull> {
        self.check_not_full()
    }

    fn seal_for_exit(&self) -> anyhow::Result<()> {
        self.seal_for_exit()
    }

    fn save(&self, record: &NewRecord) -> anyhow::Result<RecordId> {
        self.save(record)
    }

    fn list(&self, viewer: Option<PlayerId>) -> anyhow::Result<Vec<RecordSummary>> {
        self.list(viewer)
    }

    fn get(&self, id: RecordId) -> anyhow::Result<Option<GameRecord>> {
        self.get(id)
    }

    fn insert_room(&self, room: &RoomRow) -> Pending<()> {
        self.insert_room(room)
    }

    fn insert_match(
        &self,
        id: RoomId,
        setup: &MatchSetup,
        seed: u64,
        creator: &Player,
        address: Option<IpAddr>,
    ) -> Pending<()> {
        self.insert_match(id, setup, seed, creator, address)
    }

    fn append_move(&self, room: RoomId, ply: u64, mv: GameMove) -> Pending<()> {
        self.append_move(room, ply, mv)
    }

    fn set_seats(
        &self,
        room: RoomId,
        keys: &[Option<SeatKey>],
        players: &[Option<Player>],
    ) -> Pending<()> {
        self.set_seats(room, keys, players)
    }

    fn set_creator(&self, room: RoomId, creator: &Player) -> Pending<()> {
        self.set_creator(room, creator)
    }

    fn set_unfollowed_since(&self, room: RoomId, since: Option<u64>) -> Pending<()> {
        self.set_unfollowed_since(room, since)
    }

    fn finish_room(
        &self,
        room: RoomId,
        record: NewRecord,
        her_game: Option<(HerGameRecord, Option<PreparedLesson>)>,
    ) -> Pending<RecordId> {
        self.finish_room(room, record, her_game)
    }

    fn save_match_round(&self, round: MatchRound) -> Pending<()> {
        self.save_match_round(round)
    }

    fn forget_room(&self, room: RoomId) -> Pending<()> {
        self.forget_room(room)
    }

    fn load_rooms(&self) -> anyhow::Result<Unfinished> {
        self.load_rooms()
    }

    fn load_brain(&self, name: &str) -> anyhow::Result<Option<(Brain, u64)>> {
        self.load_brain(name)
    }

    fn save_brains(&self, brains: &[BrainUse<'_>]) -> anyhow::Result<()> {
        self.save_brains(brains)
    }

    fn record_her_game(&self, game: &HerGameRecord) -> anyhow::Result<()> {
        self.record_her_game(game)
    }

    fn put_brain_row(&self, name: &str, row: &BrainRow) -> anyhow::Result<()> {
        self.put_brain_row(name, row)
    }

    fn create_brain(&self, name: &str, row: &BrainRow) -> anyhow::Result<bool> {
        self.create_brain(name, row)
    }

    fn reset_brain(&self, name: &str) -> anyhow::Result<bool> {
        self.reset_brain(name)
    }

    fn brain_usage(&self, owner: PlayerId, except: &str) -> anyhow::Result<(usize, u64)> {
        self.brain_usage(owner, except)
    }

    fn brain_usage_from(&self, address: IpAddr, except: &str) -> anyhow::Result<(usize, u64)> {
        self.brain_usage_from(address, except)
    }

    fn note_brain_source(&self, name: &str, address: IpAddr) -> anyhow::Result<()> {
        self.note_brain_source(name, address)
    }

    fn delete_brain(&self, name: &str) -> anyhow::Result<bool> {
        self.delete_brain(name)
    }

    fn brain_json(&self, name: &str) -> anyhow::Result<Option<String>> {
        self.brain_json(name)
    }

    fn list_brains(&self, viewer: PlayerId, every: bool) -> anyhow::Result<Vec<BrainSummary>> {
        self.list_brains(viewer, every)
    }

    fn prepare_lesson(&self, game: &HerGameRecord) -> anyhow::Result<PreparedLesson> {
        self.prepare_lesson(game)
    }

    #[cfg(test)]
    fn drop_table(&self, table: &str) {
        self.drop_table(table)
    }

    #[cfg(test)]
    fn rename_table(&self, table: &str, to: &str) {
        self.rename_table(table, to)
    }
}
