//! HER's brains: one row per named brain holding its brain file (the documented JSON export
//! format). Every write is one transaction after a finished game, so a server killed in the
//! middle of training loses at most the game in progress and never leaves half a brain.

use anyhow::Context;
use parlor_shared::hexapawn::{Brain, BrainFile, Her, Pick};
use parlor_shared::protocol::BrainSummary;
use rusqlite::{Connection, OptionalExtension, params};
use tracing::warn;

use super::{Store, unix_now};
use crate::her_seat::HerGameRecord;

/// The most brains [`Store::list_brains`] gives: its answer must fit in one frame, and this
/// many summaries with the longest names and the largest counts do (see the tests).
pub const MAX_LISTED_BRAINS: u32 = 150;

/// A brain to save after a finished game.
pub struct BrainUse<'a> {
    pub name: &'a str,
    pub brain: &'a Brain,
}

impl Store {
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
        teach_her_game(&transaction, game)?;
        transaction.commit()?;
        Ok(())
    }

    /// Stores `brain` as `name`, replacing any brain of that name; its game count starts over.
    pub fn put_brain(&self, name: &str, brain: &Brain) -> anyhow::Result<()> {
        write_brain(&self.lock(), name, brain, Games::Zero)
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

    /// The brain `name` as its JSON file, if stored.
    pub fn brain_json(&self, name: &str) -> anyhow::Result<Option<String>> {
        Ok(self.load_brain(name)?.map(|(brain, _)| brain.to_json()))
    }

    /// The [`MAX_LISTED_BRAINS`] brains changed last, by name. Every stored brain can be
    /// played, exported and reset by its name, listed or not.
    pub fn list_brains(&self) -> anyhow::Result<Vec<BrainSummary>> {
        let connection = self.lock();
        let mut statement = connection.prepare(
            "SELECT name, size, mirrors, boxes, beads, games, updated_at FROM
                 (SELECT * FROM brains ORDER BY updated_at DESC, name LIMIT ?1)
             ORDER BY name",
        )?;
        let rows = statement.query_map([MAX_LISTED_BRAINS], |row| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, bool>(2)?,
                row.get::<_, u32>(3)?,
                row.get::<_, i64>(4)?,
                row.get::<_, i64>(5)?,
                row.get::<_, i64>(6)?,
            ))
        })?;
        rows.map(|row| {
            let (name, size, mirrors, boxes, beads, games, updated_at) = row?;
            let dims = size
                .parse()
                .with_context(|| format!("brain {name:?} has a bad size"))?;
            Ok(BrainSummary {
                name,
                dims,
                mirrors,
                boxes,
                beads: beads as u64,
                games: games as u64,
                updated_at: updated_at as u64,
            })
        })
        .collect()
    }
}

/// Replays a finished game's draws into the stored brain `game.brain` (see
/// [`Store::record_her_game`]), inside the caller's transaction.
pub(super) fn teach_her_game(connection: &Connection, game: &HerGameRecord) -> anyhow::Result<()> {
    let brain = match read_brain(connection, &game.brain)? {
        Some((brain, _)) => brain,
        None => Brain::new(game.dims, game.mirrors),
    };
    if (brain.dims(), brain.mirrors()) != (game.dims, game.mirrors) {
        // Imported over during the game, as a brain of another board or mirror setting: the
        // game has nothing to teach it, and is not one of its games.
        warn!(
            brain = game.brain,
            "a finished game's brain was replaced by another kind; its lesson is dropped"
        );
        return Ok(());
    }
    let mut her = Her::new(brain, 0);
    let mut last_replayed = true;
    for (position, mv) in &game.draws {
        // Forced draws touch no random source; a refused one changes nothing.
        last_replayed = her.choose(position, Pick::Forced(*mv)).is_ok();
    }
    // A loss takes the bead of HER's last move (SPEC §5). When that draw is refused, another
    // game of this brain, played at the same time, has taken the bead already: no earlier
    // bead may go in its place.
    if last_replayed {
        her.finish(game.result);
    }
    write_brain(connection, &game.brain, her.brain(), Games::OneMore)
}

/// Whether a write adds finished games to the brain's count or starts the count over.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Games {
    OneMore,
    /// An auto match's rounds since its last write.
    More(u64),
    Zero,
}

impl Games {
    fn added(self) -> i64 {
        match self {
            Games::OneMore => 1,
            Games::More(games) => games as i64,
            Games::Zero => 0,
        }
    }
}

fn read_brain(connection: &Connection, name: &str) -> anyhow::Result<Option<(Brain, u64)>> {
    let row = connection
        .query_row(
            "SELECT brain, games FROM brains WHERE name = ?1",
            [name],
            |row| Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?)),
        )
        .optional()?;
    row.map(|(json, games)| {
        let brain = Brain::from_json(&json)
            .with_context(|| format!("the stored brain {name:?} does not read back"))?;
        Ok((brain, games as u64))
    })
    .transpose()
}

pub(super) fn write_brain(
    connection: &Connection,
    name: &str,
    brain: &Brain,
    games: Games,
) -> anyhow::Result<()> {
    write_brain_row(connection, name, &BrainRow::of(brain)?, games)
}

/// A brain ready to be written: its file as JSON and its counts (made by whoever holds the
/// brain, so the writer thread only runs SQL).
#[derive(Clone, Debug)]
pub struct BrainRow {
    size: String,
    mirrors: bool,
    json: String,
    boxes: i64,
    beads: i64,
}

impl BrainRow {
    pub fn of(brain: &Brain) -> anyhow::Result<BrainRow> {
        let file: BrainFile = brain.to_file();
        Ok(BrainRow {
            json: serde_json::to_string(&file)?,
            size: file.size,
            mirrors: file.mirrors,
            boxes: brain.boxes() as i64,
            beads: brain.beads() as i64,
        })
    }
}

pub(super) fn write_brain_row(
    connection: &Connection,
    name: &str,
    row: &BrainRow,
    games: Games,
) -> anyhow::Result<()> {
    let mut statement = connection.prepare_cached(
        "INSERT INTO brains (name, size, mirrors, brain, boxes, beads, games, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT (name) DO UPDATE SET
             size = excluded.size, mirrors = excluded.mirrors, brain = excluded.brain,
             boxes = excluded.boxes, beads = excluded.beads, updated_at = excluded.updated_at,
             games = CASE WHEN ?7 = 0 THEN 0 ELSE brains.games + ?7 END",
    )?;
    statement.execute(params![
        name,
        row.size,
        row.mirrors,
        row.json,
        row.boxes,
        row.beads,
        games.added(),
        unix_now() as i64,
    ])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::codec::{self, Format, MAX_FRAME_BYTES};
    use parlor_shared::hexapawn::{
        AutoConfig, AutoMatch, Dims, HerResult, MAX_BRAIN_NAME, Move, Position, Side,
        check_brain_name,
    };
    use parlor_shared::protocol::ServerMsg;

    fn trained_pair() -> [Brain; 2] {
        let config = AutoConfig {
            dims: Dims::HEXAPAWN,
            mirrors: true,
            rounds: 200,
            seed: 5,
        };
        AutoMatch::new(config).run().brains
    }

    #[test]
    fn brains_round_trip_count_games_and_reset_to_empty() {
        let store = Store::in_memory().unwrap();
        let [a, b] = trained_pair();
        assert!(store.load_brain("A").unwrap().is_none());
        let both = [
            BrainUse {
                name: "A",
                brain: &a,
            },
            BrainUse {
                name: "B",
                brain: &b,
            },
        ];
        store.save_brains(&both).unwrap();
        store.save_brains(&both[..1]).unwrap();
        assert_eq!(store.load_brain("A").unwrap(), Some((a.clone(), 2)));
        assert_eq!(store.load_brain("B").unwrap(), Some((b.clone(), 1)));
        let listed = store.list_brains().unwrap();
        assert_eq!(listed.len(), 2);
        assert_eq!(
            (listed[0].name.as_str(), listed[0].beads, listed[0].games),
            ("A", a.beads(), 2)
        );
        assert_eq!(
            Brain::from_json(&store.brain_json("B").unwrap().unwrap()).unwrap(),
            b
        );
        assert!(store.reset_brain("A").unwrap());
        let (empty, games) = store.load_brain("A").unwrap().unwrap();
        assert_eq!((empty.boxes(), empty.beads(), games), (0, 0, 0));
        assert!(empty.mirrors());
        assert!(!store.reset_brain("nobody").unwrap());
    }

    #[test]
    fn the_list_holds_the_brains_changed_last_by_name() {
        let store = Store::in_memory().unwrap();
        let empty = Brain::new(Dims::HEXAPAWN, false);
        let count = MAX_LISTED_BRAINS + 2;
        for i in 0..count {
            store.put_brain(&format!("brain {i:03}"), &empty).unwrap();
        }
        // Two brains left alone since long ago.
        store
            .lock()
            .execute(
                "UPDATE brains SET updated_at = 0 WHERE name IN ('brain 001', 'brain 100')",
                [],
            )
            .unwrap();
        let names: Vec<String> = store
            .list_brains()
            .unwrap()
            .into_iter()
            .map(|summary| summary.name)
            .collect();
        let expected: Vec<String> = (0..count)
            .filter(|i| ![1, 100].contains(i))
            .map(|i| format!("brain {i:03}"))
            .collect();
        assert_eq!(names, expected);
        assert!(
            store.load_brain("brain 001").unwrap().is_some(),
            "kept, not listed"
        );
    }

    #[test]
    fn a_full_list_of_the_largest_summaries_fits_in_a_frame() {
        let longest_name: String = "\u{1D11E}".repeat(MAX_BRAIN_NAME);
        assert!(check_brain_name(&longest_name).is_ok());
        let summary = BrainSummary {
            name: longest_name,
            dims: Dims::new(8, 8).unwrap(),
            mirrors: false,
            boxes: u32::MAX,
            beads: u64::MAX,
            games: u64::MAX,
            updated_at: u64::MAX,
        };
        let answer = ServerMsg::Brains(vec![summary; MAX_LISTED_BRAINS as usize]);
        for format in [Format::Json, Format::Binary] {
            let frame = codec::encode(&answer, format).unwrap();
            assert!(
                frame.len() <= MAX_FRAME_BYTES,
                "{format:?}: {}",
                frame.len()
            );
        }
    }

    #[test]
    fn a_lost_game_against_a_person_takes_the_bead_of_hers_last_draw() {
        let store = Store::in_memory().unwrap();
        let start = Position::start(Dims::HEXAPAWN);
        let after_white = start.play("b1-b2".parse().unwrap()).unwrap();
        assert_eq!(after_white.to_move(), Side::Black);
        let her_move: Move = "a3xb2".parse().unwrap();
        let lost = HerGameRecord {
            brain: "HER".into(),
            dims: Dims::HEXAPAWN,
            mirrors: false,
            draws: vec![(after_white, her_move)],
            result: HerResult::Lost,
        };
        store.record_her_game(&lost).unwrap();
        let (brain, games) = store.load_brain("HER").unwrap().unwrap();
        assert_eq!(games, 1);
        let matchbox = brain.matchbox(&after_white).unwrap();
        let bead = |mv: Move| matchbox.beads.iter().find(|b| b.mv == mv).unwrap().beads;
        assert_eq!(bead(her_move), 0);
        assert_eq!(bead("c3xb2".parse().unwrap()), 1);
        // A second loss replaying a bead that is gone changes nothing more but counts the game.
        store.record_her_game(&lost).unwrap();
        let (again, games) = store.load_brain("HER").unwrap().unwrap();
        assert_eq!((again.beads(), games), (brain.beads(), 2));
    }

    #[test]
    fn a_loss_whose_last_bead_is_gone_takes_no_earlier_bead() {
        // Two games of one brain against people at once, both lost with the same last move:
        // the first recorded takes that bead, and the second may not take its earlier one.
        let store = Store::in_memory().unwrap();
        let first = Position::start(Dims::HEXAPAWN)
            .play("b1-b2".parse().unwrap())
            .unwrap();
        let first_move: Move = "a3xb2".parse().unwrap();
        let last = first
            .play(first_move)
            .unwrap()
            .play("a1xb2".parse().unwrap())
            .unwrap();
        let last_move: Move = "c3-c2".parse().unwrap();
        let lost = |draws| HerGameRecord {
            brain: "HER".into(),
            dims: Dims::HEXAPAWN,
            mirrors: false,
            draws,
            result: HerResult::Lost,
        };
        store
            .record_her_game(&lost(vec![(last, last_move)]))
            .unwrap();
        store
            .record_her_game(&lost(vec![(first, first_move), (last, last_move)]))
            .unwrap();
        let (brain, games) = store.load_brain("HER").unwrap().unwrap();
        assert_eq!(games, 2);
        let beads = |position: &Position, mv: Move| {
            let matchbox = brain.matchbox(position).unwrap();
            matchbox.beads.iter().find(|b| b.mv == mv).unwrap().beads
        };
        assert_eq!(beads(&last, last_move), 0);
        assert_eq!(
            beads(&first, first_move),
            1,
            "the earlier move's bead stays"
        );
    }

    #[test]
    fn a_game_whose_brain_was_replaced_by_another_board_teaches_nothing_and_is_not_counted() {
        let store = Store::in_memory().unwrap();
        let after_white = Position::start(Dims::HEXAPAWN)
            .play("b1-b2".parse().unwrap())
            .unwrap();
        // Imported over during the game: a 4x4 brain under the 3x3 game's name.
        let octapawn = Brain::new("4x4".parse().unwrap(), false);
        store.put_brain("HER", &octapawn).unwrap();
        let lost = HerGameRecord {
            brain: "HER".into(),
            dims: Dims::HEXAPAWN,
            mirrors: false,
            draws: vec![(after_white, "a3xb2".parse().unwrap())],
            result: HerResult::Lost,
        };
        store.record_her_game(&lost).unwrap();
        let (brain, games) = store.load_brain("HER").unwrap().unwrap();
        assert_eq!((brain, games), (octapawn, 0));
    }
}
