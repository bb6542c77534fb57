//! Who is using which stored HER brain, so that nobody's learning is lost.
//!
//! An auto match keeps its two brains in memory and stores them whole after each round, so
//! while it runs nothing else may change them: no import, no reset, no game against a person.
//! A game against HER, by contrast, teaches the stored brain incrementally when it ends (its
//! draws replayed into the brain as stored then), so any number of games may share a brain;
//! but a match must not start on a brain a game is still going to teach, or the match's next
//! round would store its copy over that lesson. An import or a reset holds its brain while it
//! writes, so that no match starts on the copy it is replacing.
//!
//! A game against another player's brain (or the hall's) is read-only: it teaches nothing, so it
//! holds nothing off matches, but its copy counts like any other.
//!
//! Each game against HER keeps its own copy of its brain, stores it in its room's row, and
//! replays its lesson into the stored brain on the store's one writer thread: all in
//! proportion to the brain's size (a full 200,000-box brain: about 100 MB in memory and a
//! second's lesson). So the boxes that games hold together are capped at
//! [`MAX_BOXES_IN_GAMES`].
//!
//! In a cluster every node announces its uses ([`BrainUses::tally`]) and heeds the others'
//! ([`BrainUses::heed`]): by their word, so within about a second (two nodes starting a match
//! and a game on one brain in the same second may both go ahead).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};

use parlor_shared::protocol::ErrorCode;

use crate::hall::Refusal;

/// The most matchbox boxes the brains of all running games against HER may hold together:
/// two full brains (`MAX_BRAIN_BOXES`), about 200 MB and two seconds of lessons at once.
pub const MAX_BOXES_IN_GAMES: usize = 400_000;

#[derive(Default)]
struct Uses {
    /// Brains an auto match is training.
    training: HashSet<String>,
    /// Brains with games against a person still to end, and how many.
    games: HashMap<String, usize>,
    /// Brains an import or a reset is writing.
    writing: HashSet<String>,
    /// The boxes of the brains the games against HER hold, together.
    boxes_in_games: usize,
    /// What the hall's other nodes use, as they last said.
    elsewhere: Elsewhere,
}

/// A node's brain uses, as it tells the other nodes.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BrainTally {
    pub training: Vec<String>,
    /// Brains games against a person will teach.
    pub teaching: Vec<String>,
    pub writing: Vec<String>,
}

/// The other nodes' uses, together.
#[derive(Default)]
struct Elsewhere {
    training: HashSet<String>,
    teaching: HashSet<String>,
    writing: HashSet<String>,
}

impl Uses {
    fn training(&self, name: &str) -> bool {
        self.training.contains(name) || self.elsewhere.training.contains(name)
    }

    fn writing(&self, name: &str) -> bool {
        self.writing.contains(name) || self.elsewhere.writing.contains(name)
    }

    fn teaching(&self, name: &str) -> bool {
        self.games.contains_key(name) || self.elsewhere.teaching.contains(name)
    }
}

/// The registry, shared by the hall and every guard it gave out.
#[derive(Clone, Default)]
pub struct BrainUses(Arc<Mutex<Uses>>);

/// Holds brains for an auto match; dropping it lets them go.
pub struct BrainClaim {
    names: Vec<String>,
    uses: BrainUses,
}

/// Holds a brain while an import or a reset writes it; dropping it lets it go.
pub struct BrainWrite {
    name: String,
    uses: BrainUses,
}

/// A game against HER that will teach `name` when it ends (unless read-only); dropping it (once
/// the lesson is stored, or with the room) says so.
pub struct BrainInGame {
    name: String,
    /// Whether it will teach the brain, and so holds matches off it.
    teaches: bool,
    /// The boxes of its copy of the brain, counted in `Uses::boxes_in_games`.
    boxes: usize,
    uses: BrainUses,
}

impl BrainUses {
    fn lock(&self) -> MutexGuard<'_, Uses> {
        // A poisoned lock still guards valid sets and a valid map.
        crate::lock(&self.0)
    }

    /// This node's uses, for the other nodes.
    pub fn tally(&self) -> BrainTally {
        let uses = self.lock();
        BrainTally {
            training: uses.training.iter().cloned().collect(),
            teaching: uses.games.keys().cloned().collect(),
            writing: uses.writing.iter().cloned().collect(),
        }
    }

    /// Heeds what the other nodes use (their tallies, together), from now on.
    pub fn heed(&self, tallies: impl IntoIterator<Item = BrainTally>) {
        let mut elsewhere = Elsewhere::default();
        for tally in tallies {
            elsewhere.training.extend(tally.training);
            elsewhere.teaching.extend(tally.teaching);
            elsewhere.writing.extend(tally.writing);
        }
        self.lock().elsewhere = elsewhere;
    }

    /// Claims brains for an auto match, or says which is busy and why.
    pub fn claim_for_match(&self, names: &[String]) -> Result<BrainClaim, Refusal> {
        let mut uses = self.lock();
        if let Some(name) = names.iter().find(|name| uses.training(name)) {
            return Err(in_training(name));
        }
        if let Some(name) = names.iter().find(|name| uses.writing(name)) {
            return Err(being_written(name));
        }
        if let Some(name) = names.iter().find(|name| uses.teaching(name)) {
            return Err((
                ErrorCode::BrainBusy,
                format!(
                    "brain {name:?} is playing a game against a person, which teaches it when \
                     it ends; start the match after that (a game left unfinished ends when its \
                     room is closed: Close in the lobby)"
                ),
            ));
        }
        uses.training.extend(names.iter().cloned());
        Ok(BrainClaim {
            names: names.to_vec(),
            uses: self.clone(),
        })
    }

    /// Holds `name` for an import or a reset, unless a match trains it or another writes it.
    pub fn hold_for_write(&self, name: &str) -> Result<BrainWrite, Refusal> {
        let mut uses = self.lock();
        if uses.training(name) {
            return Err(in_training(name));
        }
        if uses.writing(name) {
            return Err(being_written(name));
        }
        uses.writing.insert(name.to_string());
        Ok(BrainWrite {
            name: name.to_string(),
            uses: self.clone(),
        })
    }

    /// Refuses to change a brain an auto match is training (imports, resets, new games).
    pub fn check_not_training(&self, name: &str) -> Result<(), Refusal> {
        if self.lock().training(name) {
            return Err(in_training(name));
        }
        Ok(())
    }

    /// A new game against HER with brain `name`, unless a match is training it.
    pub fn enter_game(&self, name: &str) -> Result<BrainInGame, Refusal> {
        let mut uses = self.lock();
        if uses.training(name) {
            return Err(in_training(name));
        }
        *uses.games.entry(name.to_string()).or_default() += 1;
        Ok(self.in_game(name, true))
    }

    /// A new game against HER that only reads brain `name` (another player's, or the hall's):
    /// nothing to hold it against, only its copy to count.
    pub fn enter_read_only_game(&self, name: &str) -> BrainInGame {
        self.in_game(name, false)
    }

    /// A game against HER found in progress at a restart: it was admitted before, so it is
    /// noted whatever else holds the brain.
    pub fn resume_game(&self, name: &str, teaches: bool) -> BrainInGame {
        if teaches {
            *self.lock().games.entry(name.to_string()).or_default() += 1;
        }
        self.in_game(name, teaches)
    }

    fn in_game(&self, name: &str, teaches: bool) -> BrainInGame {
        BrainInGame {
            name: name.to_string(),
            teaches,
            boxes: 0,
            uses: self.clone(),
        }
    }
}

impl BrainInGame {
    /// Counts the game's copy of its brain, `boxes` boxes, unless the games' boxes would go
    /// over [`MAX_BOXES_IN_GAMES`] (refused `ServerBusy`).
    pub fn hold_boxes(&mut self, boxes: usize) -> Result<(), Refusal> {
        let mut uses = self.uses.lock();
        let held = uses.boxes_in_games - self.boxes;
        if held + boxes > MAX_BOXES_IN_GAMES {
            return Err((
                ErrorCode::ServerBusy,
                format!(
                    "the games against HER running now hold {held} matchboxes, and brain {:?} \
                     has {boxes}: over the server's {MAX_BOXES_IN_GAMES}; try again when one \
                     ends",
                    self.name
                ),
            ));
        }
        uses.boxes_in_games = held + boxes;
        self.boxes = boxes;
        Ok(())
    }

    /// Counts the game's copy of its brain whatever the others hold: a game found in progress
    /// at a restart was admitted before.
    pub fn hold_boxes_resumed(&mut self, boxes: usize) {
        let mut uses = self.uses.lock();
        uses.boxes_in_games = uses.boxes_in_games - self.boxes + boxes;
        self.boxes = boxes;
    }
}

fn in_training(name: &str) -> Refusal {
    (
        ErrorCode::BrainBusy,
        format!("brain {name:?} is being trained by an auto match; wait for it to end"),
    )
}

fn being_written(name: &str) -> Refusal {
    (
        ErrorCode::BrainBusy,
        format!("brain {name:?} is being imported or reset; try again in a moment"),
    )
}

impl Drop for BrainWrite {
    fn drop(&mut self) {
        self.uses.lock().writing.remove(&self.name);
    }
}

impl Drop for BrainClaim {
    fn drop(&mut self) {
        let mut uses = self.uses.lock();
        for name in &self.names {
            uses.training.remove(name);
        }
    }
}

impl Drop for BrainInGame {
    fn drop(&mut self) {
        let mut uses = self.uses.lock();
        uses.boxes_in_games -= self.boxes;
        if let Some(games) = uses.games.get_mut(&self.name).filter(|_| self.teaches) {
            *games -= 1;
            if *games == 0 {
                uses.games.remove(&self.name);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_only_game_holds_no_match_off_its_brain_but_counts_its_copy() {
        let uses = BrainUses::default();
        let mut reading = uses.enter_read_only_game("A");
        reading.hold_boxes(MAX_BOXES_IN_GAMES).unwrap();
        let claim = uses.claim_for_match(&names(&["A", "B"])).unwrap();
        assert!(
            uses.enter_read_only_game("A").hold_boxes(1).is_err(),
            "memory is memory"
        );
        drop((claim, reading));
        assert!(uses.enter_game("A").unwrap().hold_boxes(1).is_ok());
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|name| name.to_string()).collect()
    }

    #[test]
    fn a_match_waits_for_every_game_on_its_brains_and_games_wait_for_the_match() {
        let uses = BrainUses::default();
        let first = uses.enter_game("A").unwrap();
        let second = uses.enter_game("A").unwrap();
        let refused = uses.claim_for_match(&names(&["B", "A"])).err().unwrap();
        assert_eq!(refused.0, ErrorCode::BrainBusy);
        assert!(refused.1.contains("\"A\""), "{}", refused.1);
        drop(first);
        assert!(
            uses.claim_for_match(&names(&["A", "B"])).is_err(),
            "one game left"
        );
        drop(second);
        let claim = uses.claim_for_match(&names(&["A", "B"])).unwrap();
        assert!(uses.enter_game("B").is_err());
        assert!(uses.check_not_training("A").is_err());
        assert!(uses.check_not_training("C").is_ok());
        // A refused claim took nothing: C is free once the match ends.
        assert!(uses.claim_for_match(&names(&["C", "A"])).is_err());
        drop(claim);
        assert!(uses.enter_game("A").is_ok());
        assert!(uses.claim_for_match(&names(&["C"])).is_ok());
    }

    #[test]
    fn an_import_or_reset_and_a_match_keep_off_each_others_brains() {
        let uses = BrainUses::default();
        let write = uses.hold_for_write("A").unwrap();
        let refused = uses.claim_for_match(&names(&["A", "B"])).err().unwrap();
        assert!(refused.1.contains("imported or reset"), "{}", refused.1);
        assert!(uses.hold_for_write("A").is_err(), "one writer at a time");
        assert!(
            uses.enter_game("A").is_ok(),
            "a game's lesson is taught as it ends"
        );
        drop(write);
        let claim = uses.claim_for_match(&names(&["A", "B"])).unwrap();
        assert!(uses.hold_for_write("B").is_err());
        drop(claim);
        assert!(uses.hold_for_write("B").is_ok());
    }

    #[test]
    fn a_game_resumed_at_a_restart_is_noted_even_beside_a_match() {
        let uses = BrainUses::default();
        let claim = uses.claim_for_match(&names(&["A", "B"])).unwrap();
        let game = uses.resume_game("A", true);
        drop(claim);
        assert!(uses.claim_for_match(&names(&["A"])).is_err());
        drop(game);
        assert!(uses.claim_for_match(&names(&["A"])).is_ok());
    }

    #[test]
    fn the_games_hold_at_most_max_boxes_together_and_give_them_back_when_they_end() {
        let uses = BrainUses::default();
        let mut first = uses.enter_game("A").unwrap();
        first.hold_boxes(MAX_BOXES_IN_GAMES - 10).unwrap();
        let mut second = uses.enter_game("B").unwrap();
        let refused = second.hold_boxes(11).unwrap_err();
        assert_eq!(refused.0, ErrorCode::ServerBusy);
        assert!(refused.1.contains("\"B\" has 11"), "{}", refused.1);
        second.hold_boxes(10).unwrap();
        // A game found at a restart was admitted before: counted, never refused.
        let mut resumed = uses.resume_game("C", true);
        resumed.hold_boxes_resumed(5);
        drop(first);
        drop(resumed);
        let mut third = uses.enter_game("A").unwrap();
        assert!(third.hold_boxes(MAX_BOXES_IN_GAMES - 10).is_ok());
        assert!(uses.enter_game("D").unwrap().hold_boxes(1).is_err());
    }

    #[test]
    fn what_other_nodes_use_holds_here_too() {
        let (here, there) = (BrainUses::default(), BrainUses::default());
        let _training = there.claim_for_match(&names(&["A", "B"])).unwrap();
        let _teaching = there.enter_game("C").unwrap();
        let _writing = there.hold_for_write("D").unwrap();
        here.heed([there.tally()]);
        assert!(here.enter_game("A").is_err(), "trained elsewhere");
        assert!(here.hold_for_write("B").is_err(), "trained elsewhere");
        assert!(
            here.claim_for_match(&names(&["C"])).is_err(),
            "taught elsewhere"
        );
        assert!(
            here.claim_for_match(&names(&["D"])).is_err(),
            "written elsewhere"
        );
        assert!(here.hold_for_write("D").is_err(), "written elsewhere");
        assert!(here.enter_game("C").is_ok(), "games may share a brain");
        // What the other node no longer says holds nothing.
        here.heed([]);
        assert!(here.hold_for_write("B").is_ok());
    }
}
