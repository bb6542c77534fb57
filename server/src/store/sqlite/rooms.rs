//! Rooms in progress, so that a restart (even after `kill -9`) finds every room at its last
//! move: one row per room (its start, settled seats, seat keys, seed, and for a game against
//! HER the brain as it was when the game began), its moves appended one row per ply, and for an
//! auto match its progress (one row, rewritten each round with the brains) and learning curve
//! (a row per closed window). A room's row also says since when nobody follows it, written when
//! it loses its last follower and cleared when somebody follows it again
//! (`crate::abandon_clock`). A room's rows go when its game is stored as a finished record, in
//! the same transaction. Every write goes through the store's writer (see `writer.rs`).
//!
//! Room ids are never reused: `counters.last_room` keeps the highest id ever given out.
//! A restart reads the rooms back through `load.rs`.

use std::net::IpAddr;

use parlor_shared::game::{GameKind, GameMove};
use parlor_shared::hexapawn::MatchSetup;
use parlor_shared::identity::Player;
use parlor_shared::protocol::{RecordId, RoomId, SeatToken};
use rusqlite::{Connection, params};

use super::brains;
use super::writer::submit;
use super::{SqliteStore, insert_record};
use crate::her_seat::HerGameRecord;
use crate::seat_key::SeatKey;
use crate::store::columns::{RoomColumns, json};
use crate::store::lessons::Games;
use crate::store::{MatchRound, NewRecord, Pending, PreparedLesson, RoomRow, unix_now};

mod load;

pub(super) const SCHEMA: &str = "
    CREATE TABLE IF NOT EXISTS rooms (
        id          INTEGER PRIMARY KEY,
        game        TEXT    NOT NULL,
        start       TEXT    NOT NULL,
        seats       TEXT    NOT NULL,
        -- The keys of the seats' tokens (crate::seat_key), never the tokens.
        tokens      TEXT    NOT NULL,
        seed        INTEGER NOT NULL,
        her         TEXT,
        created_at  INTEGER NOT NULL,
        -- Who took each seat and who made the room (JSON), from layout 4 on.
        players     TEXT,
        creator     TEXT,
        -- Since when nobody follows the room (unix seconds; NULL while somebody does), so a
        -- restart does not start its abandoned time again. From layout 4 on.
        unfollowed_since INTEGER,
        -- The source address it was asked for from (crate::source), which it counts against.
        -- From layout 5 on.
        address     TEXT
    );
    CREATE TABLE IF NOT EXISTS room_moves (
        room        INTEGER NOT NULL,
        ply         INTEGER NOT NULL,
        move        TEXT    NOT NULL,
        PRIMARY KEY (room, ply)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS match_progress (
        room        INTEGER PRIMARY KEY,
        progress    TEXT    NOT NULL
    );
    CREATE TABLE IF NOT EXISTS match_curve (
        room        INTEGER NOT NULL,
        round       INTEGER NOT NULL,
        point       TEXT    NOT NULL,
        PRIMARY KEY (room, round)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS counters (
        name        TEXT    PRIMARY KEY,
        value       INTEGER NOT NULL
    );";

fn note_room_id(connection: &Connection, id: RoomId) -> anyhow::Result<()> {
    connection.execute(
        "INSERT INTO counters (name, value) VALUES ('last_room', ?1)
         ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value)",
        [id as i64],
    )?;
    Ok(())
}

fn delete_room(connection: &Connection, room: RoomId) -> anyhow::Result<()> {
    for table in ["rooms WHERE id", "room_moves WHERE room"] {
        connection.execute(&format!("DELETE FROM {table} = ?1"), [room as i64])?;
    }
    for table in ["match_progress", "match_curve"] {
        connection.execute(
            &format!("DELETE FROM {table} WHERE room = ?1"),
            [room as i64],
        )?;
    }
    Ok(())
}

impl SqliteStore {
    /// Stores a new room (its moves, if any, too).
    pub fn insert_room(&self, room: &RoomRow) -> Pending<()> {
        let columns = RoomColumns::of(room);
        let (id, seed, unfollowed_since) = (room.id, room.seed, room.unfollowed_since);
        let address = room.address.map(|address| address.to_string());
        submit(&self.writer, move |connection| {
            let RoomColumns {
                game,
                start,
                seats,
                tokens,
                players,
                creator,
                her,
                moves,
            } = columns?;
            connection.execute(
                "INSERT INTO rooms
                     (id, game, start, seats, tokens, seed, her, created_at, players, creator,
                      unfollowed_since, address)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                params![
                    id as i64,
                    game,
                    start,
                    seats,
                    tokens,
                    seed as i64,
                    her,
                    unix_now() as i64,
                    players,
                    creator,
                    unfollowed_since.map(|since| since as i64),
                    address,
                ],
            )?;
            for (ply, mv) in moves.iter().enumerate() {
                connection.execute(
                    "INSERT INTO room_moves (room, ply, move) VALUES (?1, ?2, ?3)",
                    params![id as i64, ply as i64, mv],
                )?;
            }
            note_room_id(connection, id)
        })
    }

    /// Stores a new auto match `creator` made from `address`, watched by nobody yet.
    pub fn insert_match(
        &self,
        id: RoomId,
        setup: &MatchSetup,
        seed: u64,
        creator: &Player,
        address: Option<IpAddr>,
    ) -> Pending<()> {
        let (setup, creator) = (json(setup), json(creator));
        let address = address.map(|address| address.to_string());
        submit(&self.writer, move |connection| {
            connection.execute(
                "INSERT INTO rooms
                     (id, game, start, seats, tokens, seed, her, created_at, players, creator,
                      unfollowed_since, address)
                 VALUES (?1, ?2, ?3, '[]', '[]', ?4, NULL, ?5, '[]', ?6, ?5, ?7)",
                params![
                    id as i64,
                    json(&GameKind::HerMatch)?,
                    setup?,
                    seed as i64,
                    unix_now() as i64,
                    creator?,
                    address,
                ],
            )?;
            note_room_id(connection, id)
        })
    }

    /// Appends the move of ply `ply` (0 for the first move).
    pub fn append_move(&self, room: RoomId, ply: u64, mv: GameMove) -> Pending<()> {
        submit(&self.writer, move |connection| {
            connection
                .prepare_cached("INSERT INTO room_moves (room, ply, move) VALUES (?1, ?2, ?3)")?
                .execute(params![room as i64, ply as i64, json(&mv)?])?;
            Ok(())
        })
    }

    /// Replaces the keys of the room's seat tokens and the seats' players (after a seat is
    /// joined or taken back).
    pub fn set_seats(
        &self,
        room: RoomId,
        keys: &[Option<SeatKey>],
        players: &[Option<Player>],
    ) -> Pending<()> {
        let (tokens, players) = (json(keys), json(players));
        submit(&self.writer, move |connection| {
            connection.execute(
                "UPDATE rooms SET tokens = ?2, players = ?3 WHERE id = ?1",
                params![room as i64, tokens?, players?],
            )?;
            Ok(())
        })
    }

    /// Replaces the player stored as the room's creator (renamed). A room already forgotten
    /// is left so.
    pub fn set_creator(&self, room: RoomId, creator: &Player) -> Pending<()> {
        let creator = json(creator);
        submit(&self.writer, move |connection| {
            connection.execute(
                "UPDATE rooms SET creator = ?2 WHERE id = ?1",
                params![room as i64, creator?],
            )?;
            Ok(())
        })
    }

    /// Stores since when nobody follows the room (unix seconds), or that somebody does
    /// (`None`). A room already forgotten is left so.
    pub fn set_unfollowed_since(&self, room: RoomId, since: Option<u64>) -> Pending<()> {
        submit(&self.writer, move |connection| {
            connection
                .prepare_cached("UPDATE rooms SET unfollowed_since = ?2 WHERE id = ?1")?
                .execute(params![room as i64, since.map(|since| since as i64)])?;
            Ok(())
        })
    }

    /// Stores a finished game as a record, teaches HER's stored brain (a game against HER,
    /// with its lesson prepared by [`Store::prepare_lesson`] if it could be), and forgets the
    /// room in progress, all in one transaction; answers the record's id.
    pub fn finish_room(
        &self,
        room: RoomId,
        record: NewRecord,
        her_game: Option<(HerGameRecord, Option<PreparedLesson>)>,
    ) -> Pending<RecordId> {
        submit(&self.writer, move |connection| {
            if let Some((her_game, prepared)) = &her_game {
                brains::teach_her_game(connection, her_game, prepared.as_ref())?;
            }
            let id = insert_record(connection, &record)?;
            delete_room(connection, room)?;
            Ok(id)
        })
    }

    /// Stores the latest rounds of an auto match: both brains (each `rounds` games more), its
    /// progress and the new points of its curve, in one transaction.
    pub fn save_match_round(&self, round: MatchRound) -> Pending<()> {
        submit(&self.writer, move |connection| {
            for (name, brain) in &round.brains {
                brains::write_brain_row(connection, name, brain, Games::More(round.rounds))?;
            }
            connection.execute(
                "INSERT INTO match_progress (room, progress) VALUES (?1, ?2)
                 ON CONFLICT (room) DO UPDATE SET progress = excluded.progress",
                params![round.room as i64, json(&round.progress)?],
            )?;
            for point in &round.points {
                connection.execute(
                    "INSERT OR REPLACE INTO match_curve (room, round, point) VALUES (?1, ?2, ?3)",
                    params![round.room as i64, point.round as i64, json(point)?],
                )?;
            }
            Ok(())
        })
    }

    /// Forgets a room in progress (an auto match that has played all its rounds).
    pub fn forget_room(&self, room: RoomId) -> Pending<()> {
        submit(&self.writer, move |connection| {
            delete_room(connection, room)
        })
    }
}

/// Adds the columns of layouts 4 (who took each seat, who made the room, since when nobody
/// follows it) and 5 (the address it was asked for from) to a store from before them. Its
/// rooms keep `NULL` there: made and taken before players were known, followed, as far as
/// anybody knows, when that server stopped (so the abandoned time of each starts at this
/// start), and counted for their player only.
pub(super) fn add_missing_columns(connection: &Connection) -> anyhow::Result<()> {
    for (column, kind) in [
        ("players", "TEXT"),
        ("creator", "TEXT"),
        ("unfollowed_since", "INTEGER"),
        ("address", "TEXT"),
    ] {
        super::tables::add_column(connection, "rooms", column, kind)?;
    }
    Ok(())
}

/// Replaces the tokens a store from before seat keys holds with their keys, so that nobody
/// who reads the file can take a seat; answers how many rooms it rewrote. The store runs it
/// when it opens a file older than `SEAT_KEYS_VERSION`. A column that does not read as a list
/// of strings is left for `load_rooms` to refuse.
pub(super) fn hide_stored_tokens(connection: &Connection) -> anyhow::Result<usize> {
    // A column that is not text at all is left too.
    let rows = connection
        .prepare("SELECT id, tokens FROM rooms")?
        .query_map([], |row| {
            let text = row.get_ref(1)?.as_str().ok().map(str::to_owned);
            Ok((row.get::<_, i64>(0)?, text))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let mut rewritten = 0;
    for (id, column) in rows {
        let Some(Ok(entries)) =
            column.map(|text| serde_json::from_str::<Vec<Option<String>>>(&text))
        else {
            continue;
        };
        if !entries
            .iter()
            .flatten()
            .any(|entry| entry.len() == SeatToken::LENGTH)
        {
            continue;
        }
        let keys: Vec<Option<String>> = entries
            .into_iter()
            .map(|entry| {
                entry.map(|text| match text.len() {
                    SeatToken::LENGTH => SeatKey::of(&SeatToken(text)).to_hex(),
                    _ => text,
                })
            })
            .collect();
        connection.execute(
            "UPDATE rooms SET tokens = ?2 WHERE id = ?1",
            params![id, json(&keys)?],
        )?;
        rewritten += 1;
    }
    Ok(rewritten)
}

#[cfg(test)]
#[path = "rooms_tests.rs"]
mod tests;
