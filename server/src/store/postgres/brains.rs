//! HER's brains in PostgreSQL: one row per brain with its file packed (`store/packed.rs`),
//! written as the SQLite store writes them (`sqlite/brains.rs`).

use std::net::IpAddr;

use parlor_shared::hexapawn::Brain;
use parlor_shared::identity::PlayerId;
use parlor_shared::protocol::BrainSummary;
use tokio_postgres::Client;

use crate::her_seat::HerGameRecord;
use crate::store::lessons::{Games, ListedColumns, decode_brain, row_name, taught_brain};
use crate::store::packed::unpack;
use crate::store::{BrainRow, MAX_LISTED_BRAINS, PreparedLesson, unix_now};

/// The stored names of players' brains: 16 hex digits, a slash, a name.
const OWNED_NAME: &str = "^[0-9a-f]{16}/";

pub async fn read(client: &Client, name: &str) -> anyhow::Result<Option<(Brain, u64)>> {
    let row = client
        .query_opt(
            "SELECT brain, games FROM brains WHERE name = $1",
            &[&row_name(name)],
        )
        .await?;
    row.map(|row| {
        let json = unpack(row.try_get(0)?)?;
        Ok((decode_brain(name, &json)?, row.try_get::<_, i64>(1)? as u64))
    })
    .transpose()
}

pub async fn write(client: &Client, name: &str, brain: &Brain, games: Games) -> anyhow::Result<()> {
    write_row(client, name, &BrainRow::of(brain), games).await
}

pub async fn write_row(
    client: &Client,
    name: &str,
    row: &BrainRow,
    games: Games,
) -> anyhow::Result<()> {
    insert_row(client, name, row, games, ON_CONFLICT_REPLACE)
        .await
        .map(drop)
}

/// Stores `row` as `name` unless a brain of that name is stored: whether it did.
pub async fn create(client: &Client, name: &str, row: &BrainRow) -> anyhow::Result<bool> {
    insert_row(client, name, row, Games::Zero, "DO NOTHING").await
}

/// A stored brain of the name is replaced, its games counted on by the new row's.
const ON_CONFLICT_REPLACE: &str = "DO UPDATE SET
    size = excluded.size, mirrors = excluded.mirrors, brain = excluded.brain,
    boxes = excluded.boxes, beads = excluded.beads, updated_at = excluded.updated_at,
    games = CASE WHEN $7 = 0 THEN 0 ELSE brains.games + $7 END,
    revision = brains.revision + 1";

/// Writes `row` as brain `name`, doing `on_conflict` when one is stored: whether it wrote.
async fn insert_row(
    client: &Client,
    name: &str,
    row: &BrainRow,
    games: Games,
    on_conflict: &str,
) -> anyhow::Result<bool> {
    let statement = format!(
        "INSERT INTO brains (name, size, mirrors, brain, boxes, beads, games, updated_at, revision)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1)
         ON CONFLICT (name) {on_conflict}"
    );
    let rows = client
        .execute(
            &statement,
            &[
                &row_name(name),
                &row.size,
                &row.mirrors,
                &row.packed,
                &row.boxes,
                &row.beads,
                &games.added(),
                &(unix_now() as i64),
            ],
        )
        .await?;
    Ok(rows == 1)
}

/// Empties the brain `name`; false when there is none. Inside the caller's transaction.
pub async fn reset(client: &Client, name: &str) -> anyhow::Result<bool> {
    let Some((brain, _)) = read(client, name).await? else {
        return Ok(false);
    };
    let empty = Brain::new(brain.dims(), brain.mirrors());
    write(client, name, &empty, Games::Zero).await?;
    Ok(true)
}

/// Deletes the brain `name` and its source; false when there was none. Inside the caller's
/// transaction.
pub async fn delete(client: &Client, name: &str) -> anyhow::Result<bool> {
    let deleted = client
        .execute("DELETE FROM brains WHERE name = $1", &[&row_name(name)])
        .await?;
    client
        .execute(
            "DELETE FROM brain_sources WHERE name = $1",
            &[&row_name(name)],
        )
        .await?;
    Ok(deleted > 0)
}

/// How many brains `owner` keeps and their bytes, leaving out `except`.
pub async fn usage(client: &Client, owner: PlayerId, except: &str) -> anyhow::Result<(usize, u64)> {
    let row = client
        .query_one(
            "SELECT count(*), coalesce(sum(octet_length(brain)), 0)::bigint FROM brains
             WHERE substr(name, 1, 17) = $1 AND name != $2",
            &[&format!("{owner}/"), &row_name(except)],
        )
        .await?;
    Ok((row.get::<_, i64>(0) as usize, row.get::<_, i64>(1) as u64))
}

/// How many brains made (or last imported) from `address` are kept and their bytes, leaving
/// out `except`.
pub async fn usage_from(
    client: &Client,
    address: IpAddr,
    except: &str,
) -> anyhow::Result<(usize, u64)> {
    let row = client
        .query_one(
            "SELECT count(*), coalesce(sum(octet_length(brains.brain)), 0)::bigint
             FROM brain_sources JOIN brains USING (name)
             WHERE brain_sources.address = $1 AND name != $2",
            &[&address.to_string(), &row_name(except)],
        )
        .await?;
    Ok((row.get::<_, i64>(0) as usize, row.get::<_, i64>(1) as u64))
}

pub async fn note_source(client: &Client, name: &str, address: IpAddr) -> anyhow::Result<()> {
    client
        .execute(
            "INSERT INTO brain_sources (name, address) VALUES ($1, $2)
             ON CONFLICT (name) DO UPDATE SET address = excluded.address",
            &[&row_name(name), &address.to_string()],
        )
        .await?;
    Ok(())
}

/// `viewer`'s brains and the hall's (every player's for an operator), as `Backend::list_brains`.
pub async fn list(
    client: &Client,
    viewer: PlayerId,
    every: bool,
) -> anyhow::Result<Vec<BrainSummary>> {
    let rows = client
        .query(
            "SELECT name, size, mirrors, boxes, beads, games, updated_at FROM
                 (SELECT name, size, mirrors, boxes, beads, games, updated_at FROM brains
                  WHERE $4 OR substr(name, 1, 17) = $2 OR name !~ $3
                  ORDER BY updated_at DESC, name LIMIT $1) AS listed
             ORDER BY name",
            &[
                &i64::from(MAX_LISTED_BRAINS),
                &format!("{viewer}/"),
                &OWNED_NAME,
                &every,
            ],
        )
        .await?;
    rows.iter()
        .map(|row| {
            let columns = ListedColumns {
                name: row.try_get(0)?,
                size: row.try_get(1)?,
                mirrors: row.try_get(2)?,
                boxes: row.try_get(3)?,
                beads: row.try_get(4)?,
                games: row.try_get(5)?,
                updated_at: row.try_get(6)?,
            };
            columns.summary(viewer)
        })
        .collect()
}

/// `game`'s lesson from its brain as stored now (see `Backend::prepare_lesson`).
pub async fn prepare_lesson(
    client: &Client,
    game: &HerGameRecord,
) -> anyhow::Result<PreparedLesson> {
    let stored = client
        .query_opt(
            "SELECT brain, revision FROM brains WHERE name = $1",
            &[&row_name(&game.brain)],
        )
        .await?;
    let (brain, revision) = match stored {
        Some(row) => {
            let json = unpack(row.try_get(0)?)?;
            (
                Some(decode_brain(&game.brain, &json)?),
                Some(row.try_get::<_, i64>(1)?),
            )
        }
        None => (None, None),
    };
    let taught = taught_brain(brain, game).map(|brain| BrainRow::of(&brain));
    Ok(PreparedLesson { revision, taught })
}

/// Replays a finished game's draws into its stored brain, inside the caller's transaction:
/// the `prepared` lesson when the brain is still as it was read for it.
pub async fn teach_her_game(
    client: &Client,
    game: &HerGameRecord,
    prepared: Option<&PreparedLesson>,
) -> anyhow::Result<()> {
    let revision: Option<i64> = client
        .query_opt(
            "SELECT revision FROM brains WHERE name = $1",
            &[&row_name(&game.brain)],
        )
        .await?
        .map(|row| row.get(0));
    let taught = match prepared {
        Some(prepared) if revision == prepared.revision => prepared.taught.clone(),
        _ => {
            let brain = read(client, &game.brain).await?.map(|(brain, _)| brain);
            taught_brain(brain, game).map(|brain| BrainRow::of(&brain))
        }
    };
    match taught {
        Some(row) => write_row(client, &game.brain, &row, Games::OneMore).await,
        None => Ok(()),
    }
}
