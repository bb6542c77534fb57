//! The rooms in progress read back at a restart: each row decoded (a game with its moves in
//! order, or an auto match with its progress and curve), a row that does not read logged and
//! skipped, and the next room id after the highest ever given out.

use anyhow::Context;
use parlor_shared::game::{GameKind, GameMove};
use parlor_shared::hexapawn::{Brain, CurvePoint};
use parlor_shared::identity::Player;
use parlor_shared::protocol::RoomId;
use rusqlite::{Connection, OptionalExtension};
use tracing::warn;

use super::HerColumn;
use crate::store::{HerStart, MatchProgress, MatchRow, RoomRow, StoredRoom, Unfinished};
use super::super::SqliteStore;

impl SqliteStore {
    /// The rooms in progress, oldest first, and the next room id. A row that does not read
    /// back is logged and skipped (its id still counts).
    pub fn load_rooms(&self) -> anyhow::Result<Unfinished> {
        let connection = self.lock();
        let last: i64 = connection
            .query_row(
                "SELECT max(coalesce((SELECT value FROM counters WHERE name = 'last_room'), 0),
                            coalesce((SELECT max(id) FROM rooms), 0))",
                [],
                |row| row.get(0),
            )
            .context("cannot read the room counter")?;
        let mut statement = connection.prepare(
            "SELECT id, game, start, seats, tokens, seed, her, players, creator,
                    unfollowed_since, address
                 FROM rooms ORDER BY id",
        )?;
        // A column of the wrong type fails its row only (the id, the key, always reads).
        let rows = statement
            .query_map([], |row| {
                let raw = || {
                    anyhow::Ok(RawRoom {
                        id: row.get(0)?,
                        game: row.get(1)?,
                        start: row.get(2)?,
                        seats: row.get(3)?,
                        tokens: row.get(4)?,
                        seed: row.get(5)?,
                        her: row.get(6)?,
                        players: row.get(7)?,
                        creator: row.get(8)?,
                        unfollowed_since: row.get(9)?,
                        address: row.get(10)?,
                    })
                };
                Ok((row.get::<_, i64>(0)?, raw()))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let mut rooms = Vec::with_capacity(rows.len());
        let mut unreadable = 0;
        for (id, raw) in rows {
            match raw.and_then(|raw| raw.decode(&connection)) {
                Ok(room) => rooms.push(room),
                Err(error) => {
                    unreadable += 1;
                    warn!(
                        room = id,
                        error = format!("{error:#}"),
                        "stored room skipped"
                    );
                }
            }
        }
        Ok(Unfinished {
            rooms,
            unreadable,
            next_room: last as RoomId + 1,
        })
    }
}

/// A `rooms` row as read, before its JSON is decoded.
struct RawRoom {
    id: i64,
    game: String,
    start: String,
    seats: String,
    tokens: String,
    seed: i64,
    her: Option<String>,
    players: Option<String>,
    creator: Option<String>,
    unfollowed_since: Option<i64>,
    address: Option<String>,
}

impl RawRoom {
    fn decode(self, connection: &Connection) -> anyhow::Result<StoredRoom> {
        let id = self.id as RoomId;
        let seed = self.seed as u64;
        let game: GameKind = serde_json::from_str(&self.game).context("game")?;
        let creator: Option<Player> = (self.creator.as_deref())
            .map(serde_json::from_str)
            .transpose()
            .context("creator")?
            .flatten();
        // An address that does not read is no reason to lose the room: it counts for its
        // player only, as rooms stored before addresses were kept do.
        let address = self.address.and_then(|text| text.parse().ok());
        // A time before 1970 is no time: the room's clock starts at this start.
        let unfollowed_since = self
            .unfollowed_since
            .and_then(|since| u64::try_from(since).ok());
        if game == GameKind::HerMatch {
            let setup = serde_json::from_str(&self.start).context("match setup")?;
            return Ok(StoredRoom::Match(Box::new(MatchRow {
                id,
                creator,
                address,
                setup,
                seed,
                progress: read_progress(connection, self.id)?,
                unfollowed_since,
            })));
        }
        let her = self
            .her
            .map(|text| {
                let column: HerColumn = serde_json::from_str(&text).context("HER")?;
                let brain = Brain::from_json(&column.brain).context("HER's brain")?;
                anyhow::Ok(HerStart {
                    mode: column.mode,
                    brain,
                })
            })
            .transpose()?;
        let mut statement =
            connection.prepare("SELECT ply, move FROM room_moves WHERE room = ?1 ORDER BY ply")?;
        let moves = statement
            .query_map([self.id], |row| {
                Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?))
            })?
            .enumerate()
            .map(|(expected, row)| {
                let (ply, text) = row?;
                anyhow::ensure!(ply == expected as i64, "move {expected} is missing");
                serde_json::from_str(&text).with_context(|| format!("move {ply}"))
            })
            .collect::<anyhow::Result<Vec<GameMove>>>()?;
        Ok(StoredRoom::Game(Box::new(RoomRow {
            id,
            start: serde_json::from_str(&self.start).context("start")?,
            seats: serde_json::from_str(&self.seats).context("seats")?,
            keys: serde_json::from_str(&self.tokens).context("seat keys")?,
            players: (self.players.as_deref())
                .map(serde_json::from_str)
                .transpose()
                .context("seat players")?
                .unwrap_or_default(),
            creator,
            address,
            seed,
            her,
            moves,
            unfollowed_since,
        })))
    }
}

fn read_progress(connection: &Connection, room: i64) -> anyhow::Result<MatchProgress> {
    let progress: Option<String> = connection
        .query_row(
            "SELECT progress FROM match_progress WHERE room = ?1",
            [room],
            |row| row.get(0),
        )
        .optional()?;
    let Some(progress) = progress else {
        return Ok(MatchProgress::default());
    };
    let mut progress: MatchProgress = serde_json::from_str(&progress).context("match progress")?;
    let mut statement =
        connection.prepare("SELECT point FROM match_curve WHERE room = ?1 ORDER BY round")?;
    progress.curve = statement
        .query_map([room], |row| row.get::<_, String>(0))?
        .map(|text| serde_json::from_str(&text?).context("curve point"))
        .collect::<anyhow::Result<Vec<CurvePoint>>>()?;
    Ok(progress)
}
