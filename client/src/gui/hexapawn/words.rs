//! A game against HER in words: HER's brain under the boards. Pure functions, tested without a
//! window.

use parlor_shared::hexapawn::{HexGame, PlayMode};
use parlor_shared::protocol::RoomId;

use crate::gui::describe::{count_of, count_s};

/// HER's brain as a room's game began: its boxes and beads. The counts a room sends are HER's
/// brain in the game, with the boxes opened in it so far and before the game's lesson, which
/// the server teaches the stored brain once the game is over; a box HER has yet to open is not
/// in them, though slow mode already shows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BrainAtStart {
    seen: Option<(RoomId, u32, u64)>,
}

impl BrainAtStart {
    /// Notes the counts of `game` in `room` while HER has not drawn yet (the person, White,
    /// moves first: HER draws at the second ply), which are the brain as the game began.
    pub fn note(&mut self, room: RoomId, game: &HexGame) {
        let known = self.seen.is_some_and(|(seen, ..)| seen == room);
        if !known && game.plies.len() < 2 {
            self.seen = Some((room, game.brain_boxes, game.brain_beads));
        }
    }

    /// The counts as the game in `room` began, if this client saw them.
    pub fn counts(&self, room: RoomId) -> Option<(u32, u64)> {
        self.seen
            .filter(|(seen, ..)| *seen == room)
            .map(|(_, boxes, beads)| (boxes, beads))
    }
}

/// The line about HER's brain: the counts as the game began when known ("HER on 3x3, slow
/// mode; when this game began: 2 boxes, 6 beads"), else the game's counts, said to be so far.
pub fn brain_line(game: &HexGame, at_start: Option<(u32, u64)>) -> String {
    let setup = &game.setup;
    let mode = match setup.mode {
        PlayMode::Slow => "slow",
        PlayMode::Fast => "fast",
    };
    let mirrors = if setup.mirrors {
        ", mirrors share a box"
    } else {
        ""
    };
    let counts = |boxes: u32, beads: u64| {
        format!(
            "{}, {}",
            count_of(boxes, "box", "boxes"),
            count_s(beads, "bead")
        )
    };
    let head = format!("{} on {}{mirrors}, {mode} mode", setup.brain, setup.dims);
    match at_start {
        Some((boxes, beads)) => format!("{head}; when this game began: {}", counts(boxes, beads)),
        None => format!(
            "{head}; so far in this game: {}",
            counts(game.brain_boxes, game.brain_beads)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::hexapawn::{Brain, Dims, HexSetup};

    fn game(mode: PlayMode) -> HexGame {
        let setup = HexSetup {
            dims: Dims::HEXAPAWN,
            mirrors: false,
            mode,
            brain: "HER".into(),
        };
        HexGame::new(setup, &Brain::new(Dims::HEXAPAWN, false))
    }

    #[test]
    fn the_brain_is_the_one_the_game_began_with_once_seen() {
        let mut start = game(PlayMode::Slow);
        start.brain_boxes = 2;
        start.brain_beads = 6;
        assert_eq!(
            brain_line(&start, None),
            "HER on 3x3, slow mode; so far in this game: 2 boxes, 6 beads"
        );
        let mut seen = BrainAtStart::default();
        seen.note(1, &start);
        assert_eq!(seen.counts(1), Some((2, 6)));
        assert_eq!(seen.counts(2), None);
        // Later counts of the same room (boxes opened in the game) leave the start alone.
        let mut later = start.play("b1-b2".parse().unwrap()).unwrap();
        later.brain_boxes = 3;
        later.brain_beads = 9;
        seen.note(1, &later);
        assert_eq!(
            brain_line(&later, seen.counts(1)),
            "HER on 3x3, slow mode; when this game began: 2 boxes, 6 beads"
        );
        // A room first seen after HER drew keeps saying "so far".
        let mut late = BrainAtStart::default();
        let mut drawn = later.play("a3xb2".parse().unwrap()).unwrap();
        drawn.brain_boxes = 1;
        drawn.brain_beads = 1;
        late.note(2, &drawn);
        assert_eq!(late.counts(2), None);
        assert_eq!(
            brain_line(&drawn, None),
            "HER on 3x3, slow mode; so far in this game: 1 box, 1 bead"
        );
    }
}
