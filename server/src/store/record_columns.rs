//! A finished game as its columns, the same in every database: written from a [`NewRecord`]
//! ([`RecordColumns::of`]), and its summary read back before its JSON is decoded
//! ([`RawSummary`]: `SELECT id, game, seats, outcome, move_count, finished_at, players`).

use anyhow::Context;
use parlor_shared::identity::PlayerId;
use parlor_shared::protocol::{RecordId, RecordSummary};
use tracing::warn;

use super::columns::json;
use super::{NewRecord, unix_now};

/// The columns of a new `games` row, in the order of its `INSERT` in both databases.
pub struct RecordColumns {
    pub game: String,
    pub seats: String,
    pub players: String,
    pub outcome: String,
    pub start: String,
    pub moves: String,
    /// Turns played (`game::turns`).
    pub move_count: i64,
    /// Now, in seconds since the Unix epoch.
    pub finished_at: i64,
}

impl RecordColumns {
    pub fn of(record: &NewRecord) -> anyhow::Result<RecordColumns> {
        Ok(RecordColumns {
            game: json(&record.game)?,
            seats: json(&record.seats)?,
            players: json(&record.players)?,
            outcome: json(&record.outcome)?,
            start: json(&record.start)?,
            moves: json(&record.moves)?,
            move_count: i64::from(parlor_shared::game::turns(&record.moves)),
            finished_at: unix_now() as i64,
        })
    }
}

/// The keys under which a game is listed for its players (`game_players.player`): each
/// player's id as `PlayerId` shows it, once however many seats they held.
pub fn player_keys(players: &[Option<PlayerId>]) -> Vec<String> {
    let mut keys: Vec<String> = players.iter().flatten().map(PlayerId::to_string).collect();
    keys.sort();
    keys.dedup();
    keys
}

/// The keys of a stored `players` column, as [`player_keys`] (none for a column that does
/// not read: such a game is left out of its players' lists, not out of the store).
pub fn stored_player_keys(column: &str) -> Vec<String> {
    serde_json::from_str::<Vec<Option<PlayerId>>>(column)
        .map(|players| player_keys(&players))
        .unwrap_or_default()
}

/// The key of `viewer`'s games, as [`player_keys`] gives them; none for nobody.
pub fn viewer_key(viewer: Option<PlayerId>) -> String {
    viewer.map(|id| id.to_string()).unwrap_or_default()
}

/// How many of a player's own newest games are listed for them beside the hall's newest
/// (`RECORD_LIST_LIMIT`): others' games, however many, never hide all of theirs.
pub const OWN_RECORDS_LISTED: u32 = 50;

pub struct RawSummary {
    pub id: i64,
    pub game: String,
    pub seats: String,
    pub outcome: String,
    pub moves: i64,
    pub finished_at: i64,
    /// `NULL` in games stored before players were kept.
    pub players: Option<String>,
}

impl RawSummary {
    pub fn decode(self) -> anyhow::Result<RecordSummary> {
        let id = self.id as RecordId;
        let seats: Vec<String> = serde_json::from_str(&self.seats).context("seats")?;
        let players = seat_players(id, self.players.as_deref(), seats.len());
        Ok(RecordSummary {
            id,
            game: serde_json::from_str(&self.game).context("game")?,
            seats,
            players,
            outcome: serde_json::from_str(&self.outcome).context("outcome")?,
            moves: self.moves as u32,
            finished_at: self.finished_at as u64,
        })
    }
}

/// One player per seat. The ids only add to the labels, so a column that does not read, or
/// does not fit the seats, costs the game its ids (it is shown by its labels, as a game
/// stored before them), not its place in the list.
fn seat_players(record: RecordId, column: Option<&str>, seats: usize) -> Vec<Option<PlayerId>> {
    let unknown = || vec![None; seats];
    let Some(column) = column else {
        return unknown();
    };
    match serde_json::from_str::<Vec<Option<PlayerId>>>(column) {
        Ok(players) if players.len() == seats => players,
        read => {
            let error = read.map_or_else(
                |error| error.to_string(),
                |players| format!("{} players for {seats} seats", players.len()),
            );
            warn!(record, error, "stored game's players left out");
            unknown()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(players: Option<&str>) -> RawSummary {
        RawSummary {
            id: 7,
            game: r#""Cave""#.into(),
            seats: r#"["ada #0000","AI 1 s (strong)"]"#.into(),
            outcome: r#""Tie""#.into(),
            moves: 12,
            finished_at: 1_700_000_000,
            players: players.map(str::to_owned),
        }
    }

    #[test]
    fn players_are_read_beside_their_seats() {
        let summary = raw(Some("[42,null]")).decode().unwrap();
        assert_eq!(summary.players, vec![Some(PlayerId(42)), None]);
        assert_eq!(summary.seats.len(), 2);
    }

    #[test]
    fn a_game_without_readable_players_keeps_its_place_and_labels() {
        for column in [None, Some("not json"), Some("[42]"), Some("[1,2,3]")] {
            let summary = raw(column).decode().unwrap();
            assert_eq!(summary.players, vec![None, None], "{column:?}");
            assert_eq!(summary.seats[0], "ada #0000");
            assert_eq!(summary.moves, 12);
        }
    }
}
