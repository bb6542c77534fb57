//! Finished games in PostgreSQL: one row per game with its moves as JSON, as in SQLite.

use parlor_shared::protocol::{GameRecord, RecordId, RecordSummary};
use tokio_postgres::{Client, GenericClient, Row};
use tracing::warn;

use crate::store::record_columns::{
    OWN_RECORDS_LISTED, RawSummary, RecordColumns, player_keys, stored_player_keys, viewer_key,
};
use crate::store::{NewRecord, RECORD_LIST_LIMIT};
use parlor_shared::identity::PlayerId;

pub async fn insert(client: &Client, record: &NewRecord) -> anyhow::Result<RecordId> {
    let row = RecordColumns::of(record)?;
    let row = client
        .query_one(
            "INSERT INTO games (game, seats, players, outcome, start, moves, move_count,
                                finished_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
            &[
                &row.game,
                &row.seats,
                &row.players,
                &row.outcome,
                &row.start,
                &row.moves,
                &row.move_count,
                &row.finished_at,
            ],
        )
        .await?;
    let id = row.get::<_, i64>(0);
    index(client, id, &player_keys(&record.players)).await?;
    Ok(id as RecordId)
}

/// Lists game `id` for `players` (`game_players`, as in SQLite's `record_players.rs`).
async fn index(client: &impl GenericClient, id: i64, players: &[String]) -> anyhow::Result<()> {
    client
        .execute(
            "INSERT INTO game_players (player, game) SELECT unnest($1::text[]), $2
             ON CONFLICT DO NOTHING",
            &[&players, &id],
        )
        .await?;
    Ok(())
}

/// Lists every game stored before layout 3 for its players, as their `players` column says.
pub async fn index_stored_games(client: &impl GenericClient) -> anyhow::Result<()> {
    let games = client
        .query(
            "SELECT id, players FROM games WHERE players IS NOT NULL",
            &[],
        )
        .await?;
    for game in games {
        let players = stored_player_keys(game.get::<_, &str>(1));
        index(client, game.get(0), &players).await?;
    }
    Ok(())
}

/// The newest records first, and `viewer`'s own newest among or after them; a row that does
/// not read back is logged and left out. One `IN` over both lists, not two joined by `OR`:
/// PostgreSQL cannot make a join of an `OR`, and would read every stored game.
pub async fn list(client: &Client, viewer: Option<PlayerId>) -> anyhow::Result<Vec<RecordSummary>> {
    let rows = client
        .query(
            "SELECT id, game, seats, outcome, move_count, finished_at, players FROM games
             WHERE id IN (SELECT id FROM (SELECT id FROM games ORDER BY id DESC LIMIT $1) newest
                          UNION ALL
                          SELECT game FROM (SELECT game FROM game_players WHERE player = $2
                                            ORDER BY game DESC LIMIT $3) own)
             ORDER BY id DESC",
            &[
                &i64::from(RECORD_LIST_LIMIT),
                &viewer_key(viewer),
                &i64::from(OWN_RECORDS_LISTED),
            ],
        )
        .await?;
    let mut summaries = Vec::with_capacity(rows.len());
    for row in rows {
        match summary(&row) {
            Ok(summary) => summaries.push(summary),
            Err(error) => warn!(
                record = row.get::<_, i64>(0),
                error = format!("{error:#}"),
                "stored game left out of the list"
            ),
        }
    }
    Ok(summaries)
}

pub async fn get(client: &Client, id: RecordId) -> anyhow::Result<Option<GameRecord>> {
    let row = client
        .query_opt(
            "SELECT id, game, seats, outcome, move_count, finished_at, players, start, moves
             FROM games WHERE id = $1",
            &[&(id as i64)],
        )
        .await?;
    row.map(|row| {
        Ok(GameRecord {
            summary: summary(&row)?,
            start: serde_json::from_str(row.try_get(7)?)?,
            moves: serde_json::from_str(row.try_get(8)?)?,
        })
    })
    .transpose()
}

/// The summary columns (the first seven, in `record_columns`' order) of a `games` row.
fn summary(row: &Row) -> anyhow::Result<RecordSummary> {
    RawSummary {
        id: row.try_get(0)?,
        game: row.try_get(1)?,
        seats: row.try_get(2)?,
        outcome: row.try_get(3)?,
        moves: row.try_get(4)?,
        finished_at: row.try_get(5)?,
        players: row.try_get(6)?,
    }
    .decode()
}
