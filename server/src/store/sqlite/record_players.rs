//! Who played each finished game (`game_players`, from layout 7 on), so that the list a player
//! asks for holds their own newest games beside the hall's newest: one address storing
//! hundreds of quick games would otherwise push everybody's out of the list.

use parlor_shared::protocol::RecordId;
use rusqlite::{Connection, params};

use crate::store::NewRecord;
use crate::store::record_columns::{player_keys, stored_player_keys};

pub(super) const SCHEMA: &str = "
    CREATE TABLE IF NOT EXISTS game_players (
        player      TEXT    NOT NULL,
        game        INTEGER NOT NULL,
        PRIMARY KEY (player, game)
    ) WITHOUT ROWID;";

/// Lists game `id` for each player of `record`.
pub(super) fn index(
    connection: &Connection,
    id: RecordId,
    record: &NewRecord,
) -> rusqlite::Result<()> {
    list_for(connection, id as i64, &player_keys(&record.players)).map(drop)
}

/// Lists every game stored before layout 7 for its players, as their `players` column says.
pub(super) fn index_stored_games(connection: &Connection) -> rusqlite::Result<usize> {
    let mut games =
        connection.prepare("SELECT id, players FROM games WHERE players IS NOT NULL")?;
    let rows = games.query_map([], |row| {
        Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?))
    })?;
    let mut indexed = 0;
    for row in rows {
        let (id, players) = row?;
        indexed += list_for(connection, id, &stored_player_keys(&players))?;
    }
    Ok(indexed)
}

/// Lists game `id` for `players` (their [`player_keys`]): how many rows it added.
fn list_for(connection: &Connection, id: i64, players: &[String]) -> rusqlite::Result<usize> {
    let mut insert = connection
        .prepare_cached("INSERT OR IGNORE INTO game_players (player, game) VALUES (?1, ?2)")?;
    let mut added = 0;
    for player in players {
        added += insert.execute(params![player, id])?;
    }
    Ok(added)
}

/// The rows [`super::summary_columns`] reads, newest first: the hall's newest ?1
/// (`RECORD_LIST_LIMIT`), and player ?2's own newest ?3 (`OWN_RECORDS_LISTED`, the player as
/// `record_columns::viewer_key` names them) among or after them.
pub(super) const LISTED: &str =
    "SELECT id, game, seats, outcome, move_count, finished_at, players FROM games
     WHERE id IN (SELECT id FROM games ORDER BY id DESC LIMIT ?1)
        OR id IN (SELECT game FROM game_players WHERE player = ?2 ORDER BY game DESC LIMIT ?3)
     ORDER BY id DESC";
