//! Rooms in progress in PostgreSQL, as in SQLite (`sqlite/rooms.rs`): a row per room, its
//! moves a row per ply, an auto match's progress and curve; a room's rows go when its game is
//! stored, in the same transaction. The writes run in the writer's transaction.

use std::net::IpAddr;

use anyhow::Context;
use parlor_shared::game::{GameKind, GameMove};
use parlor_shared::hexapawn::MatchSetup;
use parlor_shared::identity::Player;
use parlor_shared::protocol::{RecordId, RoomId};
use tokio_postgres::Client;

use super::{brains, records};
use crate::her_seat::HerGameRecord;
use crate::seat_key::SeatKey;
use crate::store::columns::{self, RawRoom, RoomColumns, json};
use crate::store::lessons::Games;
use crate::store::{MatchRound, NewRecord, PreparedLesson, RoomRow, Unfinished, unix_now};

/// Notes that room ids up to `id` have been given out: they are never given again.
async fn note_room_id(client: &Client, id: RoomId) -> anyhow::Result<()> {
    client
        .execute(
            "INSERT INTO counters (name, value) VALUES ('last_room', $1)
             ON CONFLICT (name) DO UPDATE SET value = greatest(counters.value, excluded.value)",
            &[&(id as i64)],
        )
        .await?;
    Ok(())
}

async fn delete_room(client: &Client, room: RoomId) -> anyhow::Result<()> {
    let room = room as i64;
    for statement in [
        "DELETE FROM rooms WHERE id = $1",
        "DELETE FROM room_moves WHERE room = $1",
        "DELETE FROM match_progress WHERE room = $1",
        "DELETE FROM match_curve WHERE room = $1",
    ] {
        client.execute(statement, &[&room]).await?;
    }
    Ok(())
}

pub async fn insert_room(
    client: &Client,
    room: &RoomRow,
    columns: RoomColumns,
) -> anyhow::Result<()> {
    let address = room.address.map(|address| address.to_string());
    client
        .execute(
            "INSERT INTO rooms
                 (id, game, start, seats, tokens, seed, her, created_at, players, creator,
                  unfollowed_since, address)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
            &[
                &(room.id as i64),
                &columns.game,
                &columns.start,
                &columns.seats,
                &columns.tokens,
                &(room.seed as i64),
                &columns.her,
                &(unix_now() as i64),
                &columns.players,
                &columns.creator,
                &room.unfollowed_since.map(|since| since as i64),
                &address,
            ],
        )
        .await?;
    for (ply, mv) in columns.moves.iter().enumerate() {
        client
            .execute(
                "INSERT INTO room_moves (room, ply, move) VALUES ($1, $2, $3)",
                &[&(room.id as i64), &(ply as i64), mv],
            )
            .await?;
    }
    note_room_id(client, room.id).await
}

pub async fn insert_match(
    client: &Client,
    id: RoomId,
    setup: &MatchSetup,
    seed: u64,
    creator: &Player,
    address: Option<IpAddr>,
) -> anyhow::Result<()> {
    let now = unix_now() as i64;
    client
        .execute(
            "INSERT INTO rooms
                 (id, game, start, seats, tokens, seed, her, created_at, players, creator,
                  unfollowed_since, address)
             VALUES ($1, $2, $3, '[]', '[]', $4, NULL, $5, '[]', $6, $5, $7)",
            &[
                &(id as i64),
                &json(&GameKind::HerMatch)?,
                &json(setup)?,
                &(seed as i64),
                &now,
                &json(creator)?,
                &address.map(|address| address.to_string()),
            ],
        )
        .await?;
    note_room_id(client, id).await
}

pub async fn append_move(
    client: &Client,
    room: RoomId,
    ply: u64,
    mv: &GameMove,
) -> anyhow::Result<()> {
    client
        .execute(
            "INSERT INTO room_moves (room, ply, move) VALUES ($1, $2, $3)",
            &[&(room as i64), &(ply as i64), &json(mv)?],
        )
        .await?;
    Ok(())
}

pub async fn set_seats(
    client: &Client,
    room: RoomId,
    keys: &[Option<SeatKey>],
    players: &[Option<Player>],
) -> anyhow::Result<()> {
    client
        .execute(
            "UPDATE rooms SET tokens = $2, players = $3 WHERE id = $1",
            &[&(room as i64), &json(keys)?, &json(players)?],
        )
        .await?;
    Ok(())
}

pub async fn set_creator(client: &Client, room: RoomId, creator: &Player) -> anyhow::Result<()> {
    client
        .execute(
            "UPDATE rooms SET creator = $2 WHERE id = $1",
            &[&(room as i64), &json(creator)?],
        )
        .await?;
    Ok(())
}

pub async fn set_unfollowed_since(
    client: &Client,
    room: RoomId,
    since: Option<u64>,
) -> anyhow::Result<()> {
    client
        .execute(
            "UPDATE rooms SET unfollowed_since = $2 WHERE id = $1",
            &[&(room as i64), &since.map(|since| since as i64)],
        )
        .await?;
    Ok(())
}

pub async fn finish_room(
    client: &Client,
    room: RoomId,
    record: &NewRecord,
    her_game: Option<&(HerGameRecord, Option<PreparedLesson>)>,
) -> anyhow::Result<RecordId> {
    if let Some((her_game, prepared)) = her_game {
        brains::teach_her_game(client, her_game, prepared.as_ref()).await?;
    }
    let id = records::insert(client, record).await?;
    delete_room(client, room).await?;
    Ok(id)
}

pub async fn save_match_round(client: &Client, round: &MatchRound) -> anyhow::Result<()> {
    for (name, brain) in &round.brains {
        brains::write_row(client, name, brain, Games::More(round.rounds)).await?;
    }
    client
        .execute(
            "INSERT INTO match_progress (room, progress) VALUES ($1, $2)
             ON CONFLICT (room) DO UPDATE SET progress = excluded.progress",
            &[&(round.room as i64), &json(&round.progress)?],
        )
        .await?;
    // All the curve's new points in one statement: a fast match's batch brings thousands,
    // and a round trip each held the writer's transaction, every room's moves queued behind
    // it, for seconds.
    let rounds: Vec<i64> = round
        .points
        .iter()
        .map(|point| point.round as i64)
        .collect();
    let points = (round.points.iter())
        .map(json)
        .collect::<anyhow::Result<Vec<String>>>()?;
    client
        .execute(
            "INSERT INTO match_curve (room, round, point)
             SELECT $1, round, point FROM unnest($2::bigint[], $3::text[]) AS new (round, point)
             ON CONFLICT (room, round) DO UPDATE SET point = excluded.point",
            &[&(round.room as i64), &rounds, &points],
        )
        .await?;
    Ok(())
}

pub async fn forget_room(client: &Client, room: RoomId) -> anyhow::Result<()> {
    delete_room(client, room).await
}

/// The rooms in progress, oldest first, and the next room id (see `Backend::load_rooms`); only
/// the rooms `only` names when it is given (a cluster node taking rooms over).
pub async fn load(client: &Client, only: Option<Vec<i64>>) -> anyhow::Result<Unfinished> {
    let last: i64 = client
        .query_one(
            "SELECT greatest(coalesce((SELECT value FROM counters WHERE name = 'last_room'), 0),
                             coalesce((SELECT max(id) FROM rooms), 0))",
            &[],
        )
        .await
        .context("cannot read the room counter")?
        .get(0);
    let rows = client
        .query(
            "SELECT id, game, start, seats, tokens, seed, her, players, creator,
                    unfollowed_since, address
             FROM rooms WHERE $1::bigint[] IS NULL OR id = ANY($1) ORDER BY id",
            &[&only],
        )
        .await?;
    let moves = by_room(
        client
            .query(
                "SELECT room, ply, move FROM room_moves
                 WHERE $1::bigint[] IS NULL OR room = ANY($1) ORDER BY room, ply",
                &[&only],
            )
            .await?
            .iter()
            .map(|row| (row.get(0), (row.get(1), row.get(2)))),
    );
    let progress: std::collections::HashMap<i64, String> = client
        .query(
            "SELECT room, progress FROM match_progress WHERE $1::bigint[] IS NULL OR room = ANY($1)",
            &[&only],
        )
        .await?
        .iter()
        .map(|row| (row.get(0), row.get(1)))
        .collect();
    let curves = by_room(
        client
            .query(
                "SELECT room, point FROM match_curve
                 WHERE $1::bigint[] IS NULL OR room = ANY($1) ORDER BY room, round",
                &[&only],
            )
            .await?
            .iter()
            .map(|row| (row.get(0), row.get(1))),
    );
    let decoded = rows.iter().map(|row| {
        let id: i64 = row.get(0);
        let raw = || {
            anyhow::Ok(RawRoom {
                id,
                game: row.try_get(1)?,
                start: row.try_get(2)?,
                seats: row.try_get(3)?,
                tokens: row.try_get(4)?,
                seed: row.try_get(5)?,
                her: row.try_get(6)?,
                players: row.try_get(7)?,
                creator: row.try_get(8)?,
                unfollowed_since: row.try_get(9)?,
                address: row.try_get(10)?,
            })
        };
        let decoded = raw().and_then(|raw| {
            raw.decode(
                |id| Ok(moves.get(&id).cloned().unwrap_or_default()),
                |id| {
                    let curve = curves.get(&id).cloned().unwrap_or_default();
                    Ok(progress.get(&id).map(|progress| (progress.clone(), curve)))
                },
            )
        });
        (id, decoded)
    });
    Ok(columns::unfinished(decoded, last))
}

/// Rows grouped by room, in their order.
fn by_room<T>(rows: impl Iterator<Item = (i64, T)>) -> std::collections::HashMap<i64, Vec<T>> {
    let mut grouped: std::collections::HashMap<i64, Vec<T>> = std::collections::HashMap::new();
    for (room, item) in rows {
        grouped.entry(room).or_default().push(item);
    }
    grouped
}
