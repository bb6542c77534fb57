//! The PostgreSQL store as a [`Backend`]: blocking calls run on the store's runtime
//! (`Shared::run`), each on a pooled connection; room writes go through the writer.

use std::net::IpAddr;
use std::sync::Arc;

use parlor_shared::game::GameMove;
use parlor_shared::hexapawn::{Brain, MatchSetup};
use parlor_shared::identity::{Player, PlayerId};
use parlor_shared::protocol::{BrainSummary, GameRecord, RecordId, RecordSummary, RoomId};
use tokio_postgres::Client;

use super::writer::submit;
use super::{PgStore, brains, ownership, records, rooms};
use crate::her_seat::HerGameRecord;
use crate::seat_key::SeatKey;
use crate::store::columns::RoomColumns;
use crate::store::lessons::Games;
use crate::store::{
    Backend, BrainRow, BrainUse, MatchRound, NewRecord, Pending, PreparedLesson, RoomRow,
    StoreFull, Unfinished,
};

impl PgStore {
    /// Runs `work` on a pooled connection, waiting for it on this thread; with `writes`, the
    /// store's size is measured after it.
    pub(super) fn blocking<T, F>(&self, writes: bool, work: F) -> anyhow::Result<T>
    where
        T: Send + 'static,
        F: for<'a> FnOnce(&'a Client) -> futures_util::future::BoxFuture<'a, anyhow::Result<T>>
            + Send
            + 'static,
    {
        let shared = Arc::clone(&self.shared);
        self.shared.run(async move {
            let client = shared.connection().await?;
            let result = work(&client).await;
            if writes {
                shared.measure_soon(&client).await;
            }
            result
        })
    }

    /// [`PgStore::blocking`] inside one transaction, committed when `work` succeeds.
    fn in_transaction<T, F>(&self, work: F) -> anyhow::Result<T>
    where
        T: Send + 'static,
        F: for<'a> FnOnce(&'a Client) -> futures_util::future::BoxFuture<'a, anyhow::Result<T>>
            + Send
            + 'static,
    {
        self.blocking(true, move |client| {
            Box::pin(async move {
                client.batch_execute("BEGIN").await?;
                let result = work(client).await;
                let end = if result.is_ok() { "COMMIT" } else { "ROLLBACK" };
                client.batch_execute(end).await?;
                result
            })
        })
    }
}

impl PgStore {
    /// Queues a write of the existing `room`: refused at once when this node holds no claim on
    /// it, and in its transaction when another node has taken it since (`ownership.rs`).
    fn room_write<T, F>(&self, room: RoomId, job: F) -> Pending<T>
    where
        T: Send + 'static,
        F: for<'a> FnOnce(&'a Client) -> futures_util::future::BoxFuture<'a, anyhow::Result<T>>
            + Send
            + 'static,
    {
        let fence = self.fence(room);
        submit(&self.writer, move |client| {
            Box::pin(async move {
                ownership::check(client, room, &fence?).await?;
                job(client).await
            })
        })
    }
}

impl Backend for PgStore {
    fn cap_size(&self, max_bytes: u64) {
        (self.shared.size.max_bytes).store(max_bytes, std::sync::atomic::Ordering::Relaxed);
    }

    fn size_bytes(&self) -> u64 {
        (self.shared.size.bytes).load(std::sync::atomic::Ordering::Relaxed)
    }

    fn check_not_full(&self) -> Result<(), StoreFull> {
        self.shared.size.check_not_full()
    }

    fn save(&self, record: &NewRecord) -> anyhow::Result<RecordId> {
        // The game and its players' index rows go in together, or a retry stores it twice.
        let record = record.clone();
        self.in_transaction(move |client| {
            Box::pin(async move { records::insert(client, &record).await })
        })
    }

    fn list(&self, viewer: Option<PlayerId>) -> anyhow::Result<Vec<RecordSummary>> {
        self.blocking(false, move |client| Box::pin(records::list(client, viewer)))
    }

    fn get(&self, id: RecordId) -> anyhow::Result<Option<GameRecord>> {
        self.blocking(false, move |client| Box::pin(records::get(client, id)))
    }

    fn insert_room(&self, room: &RoomRow) -> Pending<()> {
        let (room, columns) = (room.clone(), RoomColumns::of(room));
        let fence = self.fence_new(room.id);
        submit(&self.writer, move |client| {
            Box::pin(async move {
                rooms::insert_room(client, &room, columns?).await?;
                ownership::own_new_room(client, room.id, &fence).await
            })
        })
    }

    fn insert_match(
        &self,
        id: RoomId,
        setup: &MatchSetup,
        seed: u64,
        creator: &Player,
        address: Option<IpAddr>,
    ) -> Pending<()> {
        let (setup, creator) = (setup.clone(), creator.clone());
        let fence = self.fence_new(id);
        submit(&self.writer, move |client| {
            Box::pin(async move {
                rooms::insert_match(client, id, &setup, seed, &creator, address).await?;
                ownership::own_new_room(client, id, &fence).await
            })
        })
    }

    fn append_move(&self, room: RoomId, ply: u64, mv: GameMove) -> Pending<()> {
        self.room_write(room, move |client| {
            Box::pin(async move { rooms::append_move(client, room, ply, &mv).await })
        })
    }

    fn set_seats(
        &self,
        room: RoomId,
        keys: &[Option<SeatKey>],
        players: &[Option<Player>],
    ) -> Pending<()> {
        let (keys, players) = (keys.to_vec(), players.to_vec());
        self.room_write(room, move |client| {
            Box::pin(async move { rooms::set_seats(client, room, &keys, &players).await })
        })
    }

    fn set_creator(&self, room: RoomId, creator: &Player) -> Pending<()> {
        let creator = creator.clone();
        self.room_write(room, move |client| {
            Box::pin(async move { rooms::set_creator(client, room, &creator).await })
        })
    }

    fn set_unfollowed_since(&self, room: RoomId, since: Option<u64>) -> Pending<()> {
        self.room_write(room, move |client| {
            Box::pin(rooms::set_unfollowed_since(client, room, since))
        })
    }

    fn finish_room(
        &self,
        room: RoomId,
        record: NewRecord,
        her_game: Option<(HerGameRecord, Option<PreparedLesson>)>,
    ) -> Pending<RecordId> {
        self.room_write(room, move |client| {
            Box::pin(
                async move { rooms::finish_room(client, room, &record, her_game.as_ref()).await },
            )
        })
    }

    fn save_match_round(&self, round: MatchRound) -> Pending<()> {
        self.room_write(round.room, move |client| {
            Box::pin(async move { rooms::save_match_round(client, &round).await })
        })
    }

    fn forget_room(&self, room: RoomId) -> Pending<()> {
        self.room_write(room, move |client| {
            Box::pin(rooms::forget_room(client, room))
        })
    }

    fn load_rooms(&self) -> anyhow::Result<Unfinished> {
        self.blocking(false, |client| Box::pin(rooms::load(client, None)))
    }

    fn load_brain(&self, name: &str) -> anyhow::Result<Option<(Brain, u64)>> {
        let name = name.to_string();
        self.blocking(false, move |client| {
            Box::pin(async move { brains::read(client, &name).await })
        })
    }

    fn save_brains(&self, used: &[BrainUse<'_>]) -> anyhow::Result<()> {
        let rows: Vec<(String, BrainRow)> = used
            .iter()
            .map(|used| (used.name.to_string(), BrainRow::of(used.brain)))
            .collect();
        self.in_transaction(move |client| {
            Box::pin(async move {
                for (name, row) in &rows {
                    brains::write_row(client, name, row, Games::OneMore).await?;
                }
                Ok(())
            })
        })
    }

    fn record_her_game(&self, game: &HerGameRecord) -> anyhow::Result<()> {
        let game = game.clone();
        self.in_transaction(move |client| {
            Box::pin(async move { brains::teach_her_game(client, &game, None).await })
        })
    }

    fn put_brain_row(&self, name: &str, row: &BrainRow) -> anyhow::Result<()> {
        let (name, row) = (name.to_string(), row.clone());
        self.blocking(true, move |client| {
            Box::pin(async move { brains::write_row(client, &name, &row, Games::Zero).await })
        })
    }

    fn create_brain(&self, name: &str, row: &BrainRow) -> anyhow::Result<bool> {
        let (name, row) = (name.to_string(), row.clone());
        self.blocking(true, move |client| {
            Box::pin(async move { brains::create(client, &name, &row).await })
        })
    }

    fn reset_brain(&self, name: &str) -> anyhow::Result<bool> {
        let name = name.to_string();
        self.in_transaction(move |client| {
            Box::pin(async move { brains::reset(client, &name).await })
        })
    }

    fn brain_usage(&self, owner: PlayerId, except: &str) -> anyhow::Result<(usize, u64)> {
        let except = except.to_string();
        self.blocking(false, move |client| {
            Box::pin(async move { brains::usage(client, owner, &except).await })
        })
    }

    fn brain_usage_from(&self, address: IpAddr, except: &str) -> anyhow::Result<(usize, u64)> {
        let except = except.to_string();
        self.blocking(false, move |client| {
            Box::pin(async move { brains::usage_from(client, address, &except).await })
        })
    }

    fn note_brain_source(&self, name: &str, address: IpAddr) -> anyhow::Result<()> {
        let name = name.to_string();
        self.blocking(true, move |client| {
            Box::pin(async move { brains::note_source(client, &name, address).await })
        })
    }

    fn delete_brain(&self, name: &str) -> anyhow::Result<bool> {
        let name = name.to_string();
        self.in_transaction(move |client| {
            Box::pin(async move { brains::delete(client, &name).await })
        })
    }

    fn brain_json(&self, name: &str) -> anyhow::Result<Option<String>> {
        Ok(self.load_brain(name)?.map(|(brain, _)| brain.to_json()))
    }

    fn list_brains(&self, viewer: PlayerId, every: bool) -> anyhow::Result<Vec<BrainSummary>> {
        self.blocking(false, move |client| {
            Box::pin(brains::list(client, viewer, every))
        })
    }

    fn prepare_lesson(&self, game: &HerGameRecord) -> anyhow::Result<PreparedLesson> {
        let game = game.clone();
        self.blocking(false, move |client| {
            Box::pin(async move { brains::prepare_lesson(client, &game).await })
        })
    }

    #[cfg(test)]
    fn drop_table(&self, table: &str) {
        let statement = format!("DROP TABLE {table}");
        self.blocking(false, move |client| {
            Box::pin(async move { Ok(client.batch_execute(&statement).await?) })
        })
        .expect("a table to drop");
    }

    #[cfg(test)]
    fn rename_table(&self, table: &str, to: &str) {
        let statement = format!("ALTER TABLE {table} RENAME TO {to}");
        self.blocking(false, move |client| {
            Box::pin(async move { Ok(client.batch_execute(&statement).await?) })
        })
        .expect("a table to rename");
    }
}
