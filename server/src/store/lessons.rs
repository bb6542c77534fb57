//! What every store does with brains whatever its database: the row name of a brain, the
//! lesson of a finished game, and how a write counts the brain's games.

use anyhow::Context;
use parlor_shared::hexapawn::{Brain, BrainRef, HALL, Her, Pick};
use parlor_shared::identity::PlayerId;
use parlor_shared::protocol::BrainSummary;
use tracing::warn;

use crate::her_seat::HerGameRecord;

/// The row name of the brain `canonical` names: the hall's are stored under their plain names.
pub fn row_name(canonical: &str) -> &str {
    canonical
        .strip_prefix(HALL)
        .and_then(|rest| rest.strip_prefix('/'))
        .unwrap_or(canonical)
}

/// `brain` (a new one when there is none) after `game`'s draws are replayed into it and its
/// result applied; `None` when it is not the game's kind of brain.
pub fn taught_brain(brain: Option<Brain>, game: &HerGameRecord) -> Option<Brain> {
    let brain = brain.unwrap_or_else(|| Brain::new(game.dims, game.mirrors));
    if (brain.dims(), brain.mirrors()) != (game.dims, game.mirrors) {
        // Imported over during the game, as a brain of another board or mirror setting: the
        // game has nothing to teach it, and is not one of its games.
        warn!(
            brain = game.brain,
            "a finished game's brain was replaced by another kind; its lesson is dropped"
        );
        return None;
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
    Some(her.into_brain())
}

/// Whether a write adds finished games to the brain's count or starts the count over.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Games {
    OneMore,
    /// An auto match's rounds since its last write.
    More(u64),
    Zero,
}

impl Games {
    pub fn added(self) -> i64 {
        match self {
            Games::OneMore => 1,
            Games::More(games) => games as i64,
            Games::Zero => 0,
        }
    }
}

/// The stored brain `name` from its JSON file.
pub fn decode_brain(name: &str, json: &str) -> anyhow::Result<Brain> {
    Brain::from_json(json).with_context(|| format!("the stored brain {name:?} does not read back"))
}

/// A brain's columns as listed: stored `name`, `size` ("3x3"), mirrors, boxes, beads, games
/// and last update.
pub struct ListedColumns {
    pub name: String,
    pub size: String,
    pub mirrors: bool,
    pub boxes: i64,
    pub beads: i64,
    pub games: i64,
    pub updated_at: i64,
}

impl ListedColumns {
    /// The summary `viewer` sees: the brain named as they name it (`BrainRef::shown_to`).
    pub fn summary(self, viewer: PlayerId) -> anyhow::Result<BrainSummary> {
        let name = self.name;
        let dims = (self.size)
            .parse()
            .with_context(|| format!("brain {name:?} has a bad size"))?;
        let name =
            BrainRef::canonical(&name, None).map_or(name, |brain| brain.shown_to(Some(viewer)));
        Ok(BrainSummary {
            name,
            dims,
            mirrors: self.mirrors,
            boxes: u32::try_from(self.boxes)?,
            beads: self.beads as u64,
            games: self.games as u64,
            updated_at: self.updated_at as u64,
        })
    }
}
