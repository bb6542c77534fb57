//! The rooms in progress read back at a restart: each row decoded (a game with its moves in
//! order, or an auto match with its progress and curve), a row that does not read logged and
//! skipped, and the next room id after the highest ever given out.

use anyhow::Context;
use rusqlite::{Connection, OptionalExtension};

use super::super::SqliteStore;
use crate::store::Unfinished;
use crate::store::columns::{self, RawRoom};

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
        let decoded = rows.into_iter().map(|(id, raw)| {
            let room = raw.and_then(|raw| {
                raw.decode(
                    |id| read_moves(&connection, id),
                    |id| read_progress(&connection, id),
                )
            });
            (id, room)
        });
        Ok(columns::unfinished(decoded, last))
    }
}

/// The room's moves, ply and JSON, by ply.
fn read_moves(connection: &Connection, room: i64) -> anyhow::Result<Vec<(i64, String)>> {
    let mut statement =
        connection.prepare("SELECT ply, move FROM room_moves WHERE room = ?1 ORDER BY ply")?;
    let moves = statement
        .query_map([room], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(moves)
}

/// An auto match's progress and its curve's points in order, if written yet.
fn read_progress(
    connection: &Connection,
    room: i64,
) -> anyhow::Result<Option<(String, Vec<String>)>> {
    let progress: Option<String> = connection
        .query_row(
            "SELECT progress FROM match_progress WHERE room = ?1",
            [room],
            |row| row.get(0),
        )
        .optional()?;
    let Some(progress) = progress else {
        return Ok(None);
    };
    let mut statement =
        connection.prepare("SELECT point FROM match_curve WHERE room = ?1 ORDER BY round")?;
    let curve = statement
        .query_map([room], |row| row.get::<_, String>(0))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(Some((progress, curve)))
}
