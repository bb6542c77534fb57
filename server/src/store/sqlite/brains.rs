//! HER's brains: one row per named brain holding its brain file (the documented JSON export
//! format, packed: `packed.rs`). Every write is one transaction after a finished game, so a
//! server killed in the middle of training loses at most the game in progress and never leaves
//! half a brain.
//!
//! Every function takes a brain's canonical name (`BrainRef::text`: `<owner id>/<name>` or
//! `hall/<name>`). A player's brain is stored under that name; the hall's under its plain
//! name, as every brain was stored before brains had owners, so older stores need no change.

use std::net::IpAddr;

use parlor_shared::hexapawn::Brain;
use parlor_shared::identity::PlayerId;
use parlor_shared::protocol::BrainSummary;
use rusqlite::{Connection, OptionalExtension, params};

use super::super::packed::unpack_column;
use super::SqliteStore;
use crate::her_seat::HerGameRecord;
use crate::store::lessons::{Games, ListedColumns, decode_brain, row_name, taught_brain};
use crate::store::{BrainRow, BrainUse, MAX_LISTED_BRAINS, PreparedLesson, unix_now};

impl SqliteStore {
    /// The stored brain `name` and the games it has finished, if there is one.
    pub fn load_brain(&self, name: &str) -> anyhow::Result<Option<(Brain, u64)>> {
        read_brain(&self.lock(), name)
    }

    /// Saves brains that have each finished one more game, all in one transaction.
    pub fn save_brains(&self, brains: &[BrainUse<'_>]) -> anyhow::Result<()> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        for used in brains {
            write_brain(&transaction, used.name, used.brain, Games::OneMore)?;
        }
        transaction.commit()?;
        Ok(())
    }

    /// Adds a finished game of HER against a person to its stored brain (made empty when
    /// new): HER's draws, in order, are replayed into the brain as it is stored now and the
    /// result is applied. Other games may have changed the brain since this one began; a draw
    /// whose bead they confiscated in the meantime is skipped.
    pub fn record_her_game(&self, game: &HerGameRecord) -> anyhow::Result<()> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        teach_her_game(&transaction, game, None)?;
        transaction.commit()?;
        Ok(())
    }

    /// [`Store::put_brain`] of a brain already packed.
    pub fn put_brain_row(&self, name: &str, row: &BrainRow) -> anyhow::Result<()> {
        write_brain_row(&self.lock(), name, row, Games::Zero)
    }

    pub fn create_brain(&self, name: &str, row: &BrainRow) -> anyhow::Result<bool> {
        insert_brain_row(&self.lock(), name, row, Games::Zero, "DO NOTHING")
    }

    /// Empties the brain `name` (same size and mirror setting); false when there is none.
    pub fn reset_brain(&self, name: &str) -> anyhow::Result<bool> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let Some((brain, _)) = read_brain(&transaction, name)? else {
            return Ok(false);
        };
        let empty = Brain::new(brain.dims(), brain.mirrors());
        write_brain(&transaction, name, &empty, Games::Zero)?;
        transaction.commit()?;
        Ok(true)
    }

    /// How many brains `owner` keeps and their stored bytes, leaving out the brain `except`
    /// (canonical; one about to be replaced).
    pub fn brain_usage(&self, owner: PlayerId, except: &str) -> anyhow::Result<(usize, u64)> {
        let (count, bytes): (i64, i64) = self.lock().query_row(
            "SELECT count(*), coalesce(sum(length(brain)), 0) FROM brains
             WHERE substr(name, 1, 17) = ?1 AND name != ?2",
            params![format!("{owner}/"), row_name(except)],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )?;
        Ok((count as usize, bytes as u64))
    }

    /// How many brains made (or last imported) from the source `address` are kept, and their
    /// stored bytes, leaving out the brain `except` (canonical).
    pub fn brain_usage_from(&self, address: IpAddr, except: &str) -> anyhow::Result<(usize, u64)> {
        let (count, bytes): (i64, i64) = self.lock().query_row(
            "SELECT count(*), coalesce(sum(length(brains.brain)), 0)
                 FROM brain_sources JOIN brains USING (name)
                 WHERE brain_sources.address = ?1 AND name != ?2",
            params![address.to_string(), row_name(except)],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )?;
        Ok((count as usize, bytes as u64))
    }

    /// Notes that the brain `name` (canonical) is made, or imported over, from the source
    /// `address`: it counts against that address from now on.
    pub fn note_brain_source(&self, name: &str, address: IpAddr) -> anyhow::Result<()> {
        self.lock().execute(
            "INSERT INTO brain_sources (name, address) VALUES (?1, ?2)
             ON CONFLICT (name) DO UPDATE SET address = excluded.address",
            params![row_name(name), address.to_string()],
        )?;
        Ok(())
    }

    /// Deletes the brain `name`; false when there is none.
    pub fn delete_brain(&self, name: &str) -> anyhow::Result<bool> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let deleted =
            transaction.execute("DELETE FROM brains WHERE name = ?1", [row_name(name)])?;
        transaction.execute(
            "DELETE FROM brain_sources WHERE name = ?1",
            [row_name(name)],
        )?;
        transaction.commit()?;
        Ok(deleted > 0)
    }

    /// The brain `name` as its JSON file, if stored.
    pub fn brain_json(&self, name: &str) -> anyhow::Result<Option<String>> {
        Ok(self.load_brain(name)?.map(|(brain, _)| brain.to_json()))
    }

    /// `viewer`'s brains and the hall's, the [`MAX_LISTED_BRAINS`] changed last, by name, each
    /// named as `viewer` names it (`BrainRef::shown_to`); for an operator (`every`), every
    /// player's too. Every stored brain can be played and exported by its name, listed or not.
    pub fn list_brains(&self, viewer: PlayerId, every: bool) -> anyhow::Result<Vec<BrainSummary>> {
        let connection = self.lock();
        let mut statement = connection.prepare(
            // Not `SELECT *` inside: SQLite would copy every listed brain whole (29 MB each
            // on 8x8) into the subquery, with the store locked: 0.6 s for six such brains.
            "SELECT name, size, mirrors, boxes, beads, games, updated_at FROM
                 (SELECT name, size, mirrors, boxes, beads, games, updated_at FROM brains
                  WHERE ?4 OR substr(name, 1, 17) = ?2 OR NOT name GLOB ?3
                  ORDER BY updated_at DESC, name LIMIT ?1)
             ORDER BY name",
        )?;
        let mine = format!("{viewer}/");
        let args = params![MAX_LISTED_BRAINS, mine, OWNED_NAME_GLOB, every];
        let rows = statement.query_map(args, |row| {
            Ok(ListedColumns {
                name: row.get(0)?,
                size: row.get(1)?,
                mirrors: row.get(2)?,
                boxes: row.get(3)?,
                beads: row.get(4)?,
                games: row.get(5)?,
                updated_at: row.get(6)?,
            })
        })?;
        rows.map(|row| row?.summary(viewer)).collect()
    }
}

/// The stored names of players' brains: 16 hex digits, a slash, a name.
const OWNED_NAME_GLOB: &str = "[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]/*";

impl SqliteStore {
    /// Works out `game`'s lesson from its brain as stored now. Blocking, but the store is
    /// locked only while the brain's row is read.
    pub fn prepare_lesson(&self, game: &HerGameRecord) -> anyhow::Result<PreparedLesson> {
        let stored = (self.lock())
            .query_row(
                "SELECT brain, revision FROM brains WHERE name = ?1",
                [row_name(&game.brain)],
                |row| Ok((unpack_column(row.get_ref(0)?), row.get::<_, i64>(1)?)),
            )
            .optional()?;
        let (brain, revision) = match stored {
            Some((json, revision)) => (Some(decode_brain(&game.brain, &json?)?), Some(revision)),
            None => (None, None),
        };
        let taught = taught_brain(brain, game).map(|brain| BrainRow::of(&brain));
        Ok(PreparedLesson { revision, taught })
    }
}

/// Replays a finished game's draws into the stored brain `game.brain` (see
/// [`Store::record_her_game`]), inside the caller's transaction: the `prepared` lesson when
/// the brain is still as it was read for it, else worked out here from the brain as stored now.
pub(super) fn teach_her_game(
    connection: &Connection,
    game: &HerGameRecord,
    prepared: Option<&PreparedLesson>,
) -> anyhow::Result<()> {
    let taught = match prepared {
        Some(prepared) if stored_revision(connection, &game.brain)? == prepared.revision => {
            prepared.taught.clone()
        }
        _ => {
            let brain = read_brain(connection, &game.brain)?.map(|(brain, _)| brain);
            taught_brain(brain, game).map(|brain| BrainRow::of(&brain))
        }
    };
    match taught {
        Some(row) => write_brain_row(connection, &game.brain, &row, Games::OneMore),
        None => Ok(()),
    }
}

fn stored_revision(connection: &Connection, name: &str) -> anyhow::Result<Option<i64>> {
    Ok(connection
        .query_row(
            "SELECT revision FROM brains WHERE name = ?1",
            [row_name(name)],
            |row| row.get(0),
        )
        .optional()?)
}

fn read_brain(connection: &Connection, name: &str) -> anyhow::Result<Option<(Brain, u64)>> {
    let row = connection
        .query_row(
            "SELECT brain, games FROM brains WHERE name = ?1",
            [row_name(name)],
            |row| Ok((unpack_column(row.get_ref(0)?), row.get::<_, i64>(1)?)),
        )
        .optional()?;
    row.map(|(json, games)| Ok((decode_brain(name, &json?)?, games as u64)))
        .transpose()
}

pub(super) fn write_brain(
    connection: &Connection,
    name: &str,
    brain: &Brain,
    games: Games,
) -> anyhow::Result<()> {
    write_brain_row(connection, name, &BrainRow::of(brain), games)
}

pub(super) fn write_brain_row(
    connection: &Connection,
    name: &str,
    row: &BrainRow,
    games: Games,
) -> anyhow::Result<()> {
    insert_brain_row(connection, name, row, games, ON_CONFLICT_REPLACE).map(drop)
}

/// A stored brain of the name is replaced, its games counted on by the new row's.
const ON_CONFLICT_REPLACE: &str = "DO UPDATE SET
    size = excluded.size, mirrors = excluded.mirrors, brain = excluded.brain,
    boxes = excluded.boxes, beads = excluded.beads, updated_at = excluded.updated_at,
    games = CASE WHEN ?7 = 0 THEN 0 ELSE brains.games + ?7 END,
    revision = brains.revision + 1";

/// Writes `row` as brain `name`, doing `on_conflict` when one is stored (its games counted on
/// by `games` when it is replaced): whether it wrote.
fn insert_brain_row(
    connection: &Connection,
    name: &str,
    row: &BrainRow,
    games: Games,
    on_conflict: &str,
) -> anyhow::Result<bool> {
    let mut statement = connection.prepare_cached(&format!(
        "INSERT INTO brains (name, size, mirrors, brain, boxes, beads, games, updated_at, revision)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 1)
         ON CONFLICT (name) {on_conflict}"
    ))?;
    let rows = statement.execute(params![
        row_name(name),
        row.size,
        row.mirrors,
        row.packed,
        row.boxes,
        row.beads,
        games.added(),
        unix_now() as i64,
    ])?;
    Ok(rows == 1)
}

#[cfg(test)]
#[path = "brains_tests.rs"]
mod tests;
