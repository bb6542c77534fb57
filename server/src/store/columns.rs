//! A room's row as its columns, the same in every database: JSON text for what the games
//! define (so the rows stay readable with the database's own tools and independent of the wire
//! codec), numbers for ids, seeds and times. Written by [`RoomColumns::of`], read back by
//! [`RawRoom::decode`].

use anyhow::Context;
use parlor_shared::game::{GameKind, GameMove};
use parlor_shared::hexapawn::{Brain, CurvePoint, PlayMode};
use parlor_shared::identity::Player;
use parlor_shared::protocol::RoomId;
use serde::{Deserialize, Serialize};

use super::{HerStart, MatchProgress, MatchRow, RoomRow, StoredRoom, Unfinished};

/// HER's side of a game against a person, as its column holds it.
#[derive(Serialize, Deserialize)]
pub struct HerColumn {
    pub mode: PlayMode,
    /// The brain file (`Brain::to_json`).
    pub brain: String,
}

/// `value` as JSON, the form of every column but the ids, numbers and brains.
pub fn json<T: Serialize + ?Sized>(value: &T) -> anyhow::Result<String> {
    Ok(serde_json::to_string(value)?)
}

/// The columns of a new game's room (the id, seed, times and address are numbers or plain).
pub struct RoomColumns {
    pub game: String,
    pub start: String,
    pub seats: String,
    pub tokens: String,
    pub players: String,
    pub creator: String,
    pub her: Option<String>,
    /// Each move, by ply.
    pub moves: Vec<String>,
}

impl RoomColumns {
    pub fn of(room: &RoomRow) -> anyhow::Result<RoomColumns> {
        let her = room
            .her
            .as_ref()
            .map(|her| {
                json(&HerColumn {
                    mode: her.mode,
                    brain: her.brain.to_compact_json(),
                })
            })
            .transpose()?;
        Ok(RoomColumns {
            game: json(&room.start.kind())?,
            start: json(&room.start)?,
            seats: json(&room.seats)?,
            tokens: json(&room.keys)?,
            players: json(&room.players)?,
            creator: json(&room.creator)?,
            her,
            moves: room.moves.iter().map(json).collect::<anyhow::Result<_>>()?,
        })
    }
}

/// A `rooms` row as read, before its JSON is decoded.
pub struct RawRoom {
    pub id: i64,
    pub game: String,
    pub start: String,
    pub seats: String,
    pub tokens: String,
    pub seed: i64,
    pub her: Option<String>,
    pub players: Option<String>,
    pub creator: Option<String>,
    pub unfollowed_since: Option<i64>,
    pub address: Option<String>,
}

impl RawRoom {
    /// The room, given how to read its moves (ply and JSON, by ply) and, for an auto match,
    /// its progress (the progress JSON and the curve's points in order, if written yet).
    pub fn decode(
        self,
        moves: impl FnOnce(i64) -> anyhow::Result<Vec<(i64, String)>>,
        progress: impl FnOnce(i64) -> anyhow::Result<Option<(String, Vec<String>)>>,
    ) -> anyhow::Result<StoredRoom> {
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
                progress: decode_progress(progress(self.id)?)?,
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
        let moves = moves(self.id)?
            .into_iter()
            .enumerate()
            .map(|(expected, (ply, text))| {
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

/// An auto match's progress from its columns: none written yet is a match about to begin.
fn decode_progress(columns: Option<(String, Vec<String>)>) -> anyhow::Result<MatchProgress> {
    let Some((progress, curve)) = columns else {
        return Ok(MatchProgress::default());
    };
    let mut progress: MatchProgress = serde_json::from_str(&progress).context("match progress")?;
    progress.curve = curve
        .iter()
        .map(|text| serde_json::from_str(text).context("curve point"))
        .collect::<anyhow::Result<Vec<CurvePoint>>>()?;
    Ok(progress)
}

/// What a restart finds, from each row's id and how it decoded, and the highest id given out:
/// a row that does not read is logged and skipped (its id still counts).
pub fn unfinished(
    decoded: impl IntoIterator<Item = (i64, anyhow::Result<StoredRoom>)>,
    last: i64,
) -> Unfinished {
    let mut rooms = Vec::new();
    let mut unreadable = 0;
    for (id, room) in decoded {
        match room {
            Ok(room) => rooms.push(room),
            Err(error) => {
                unreadable += 1;
                tracing::warn!(
                    room = id,
                    error = format!("{error:#}"),
                    "stored room skipped"
                );
            }
        }
    }
    Unfinished {
        rooms,
        unreadable,
        next_room: last as RoomId + 1,
    }
}
