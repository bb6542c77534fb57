//! A game against HER in words: HER's brain under the boards and whose turn it is, worded for
//! the person (White, who in slow mode also acts for HER) or for a spectator, who can do
//! neither. Pure functions, tested without a window.

use parlor_shared::game::GameState;
use parlor_shared::hexapawn::{
    HER_SEAT, HexGame, MatchView, Move, PERSON_SEAT, PlayMode, brain_title,
};
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
/// mode; when this game began: 2 boxes, 6 beads"), else the game's counts, said to be so far;
/// then the same counts without the board and mode, which the room shows anyway, for a narrow
/// window.
pub fn brain_line(game: &HexGame, at_start: Option<(u32, u64)>) -> [String; 2] {
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
    let brain = brain_title(&setup.brain);
    let head = format!("{brain} on {}{mirrors}, {mode} mode", setup.dims);
    let (when, short_when, counts) = match at_start {
        Some((boxes, beads)) => ("when this game began", "at the start", counts(boxes, beads)),
        None => (
            "so far in this game",
            "so far",
            counts(game.brain_boxes, game.brain_beads),
        ),
    };
    [
        format!("{head}; {when}: {counts}"),
        format!("{brain} {short_when}: {counts}"),
    ]
}

/// Whose turn it is, under the boards. `person` is whether this client is the person (White);
/// a spectator is told what the person does, not asked to do it.
pub fn turn_line(game: &HexGame, person: bool) -> String {
    let Some(matchbox) = game
        .matchbox
        .as_ref()
        .filter(|_| game.setup.mode == PlayMode::Slow)
    else {
        return match (game.seat_to_move(), person) {
            (Some(PERSON_SEAT), true) => "Your move (White): pick a pawn, then its target.".into(),
            (Some(PERSON_SEAT), false) => "White (the person) to move.".into(),
            _ => "HER (Black) is drawing a bead...".into(),
        };
    };
    her_choices(&matchbox.beads, matchbox.total, person)
}

/// HER's turn in slow mode, in words: how many moves still have a bead, and who chooses.
pub fn her_choices(beads: &[(Move, u32)], total: u32, person: bool) -> String {
    let live = beads.iter().filter(|&&(_, count)| count > 0).count();
    let arrows = match live {
        1 => "the one blue arrow".to_string(),
        _ => format!("one of {live} blue arrows"),
    };
    match (total, person) {
        (0, true) => "HER's matchbox is empty: HER resigns when it picks.".into(),
        (0, false) => "HER's matchbox is empty: HER resigns when White lets it pick.".into(),
        (_, true) if live == 1 => {
            "HER's turn: one move has a bead. Force it, or let HER pick.".into()
        }
        (_, true) => format!("HER's turn: force {arrows}, or let HER pick."),
        (_, false) => format!("HER's turn: White forces {arrows} or lets HER pick."),
    }
}

/// Whether `state` is a slow-mode game against HER on HER's turn: HER's seat is an AI, but it
/// waits for White to force a move or let it pick, so it is not "thinking".
pub fn her_waits_for_white(state: &GameState) -> bool {
    matches!(state, GameState::Hexapawn(game)
        if game.setup.mode == PlayMode::Slow && game.seat_to_move() == Some(HER_SEAT))
}

/// The turn line of an auto match still being played, where other games say whose turn it is:
/// nobody's, the two HERs play each other round after round, unless the match waits for the
/// server's store to take the rounds played.
pub fn match_turn_line(view: &MatchView) -> String {
    if view.store_waiting {
        return "Paused until the server can store the rounds".into();
    }
    let round = view.rounds_played.saturating_add(1).min(view.setup.rounds);
    format!("The HERs play round {round} of {}", view.setup.rounds)
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
    fn a_running_match_says_which_round_is_played() {
        let mut view = MatchView::new(parlor_shared::hexapawn::MatchSetup {
            dims: Dims::HEXAPAWN,
            mirrors: false,
            rounds: 1000,
            pace: parlor_shared::hexapawn::Pace::FullSpeed,
            brains: ["A".into(), "B".into()],
        });
        assert_eq!(match_turn_line(&view), "The HERs play round 1 of 1000");
        view.rounds_played = 3;
        assert_eq!(match_turn_line(&view), "The HERs play round 4 of 1000");
        view.store_waiting = true;
        assert_eq!(
            match_turn_line(&view),
            "Paused until the server can store the rounds"
        );
    }

    #[test]
    fn the_brain_is_the_one_the_game_began_with_once_seen() {
        let mut start = game(PlayMode::Slow);
        start.brain_boxes = 2;
        start.brain_beads = 6;
        assert_eq!(
            brain_line(&start, None),
            [
                "HER on 3x3, slow mode; so far in this game: 2 boxes, 6 beads",
                "HER so far: 2 boxes, 6 beads"
            ]
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
            [
                "HER on 3x3, slow mode; when this game began: 2 boxes, 6 beads",
                "HER at the start: 2 boxes, 6 beads"
            ]
        );
        // A room first seen after HER drew keeps saying "so far".
        let mut late = BrainAtStart::default();
        let mut drawn = later.play("a3xb2".parse().unwrap()).unwrap();
        drawn.brain_boxes = 1;
        drawn.brain_beads = 1;
        late.note(2, &drawn);
        assert_eq!(late.counts(2), None);
        assert_eq!(
            brain_line(&drawn, None)[0],
            "HER on 3x3, slow mode; so far in this game: 1 box, 1 bead"
        );
    }

    #[test]
    fn a_spectator_is_told_what_the_person_does_not_asked_to_do_it() {
        let b = |text: &str| text.parse::<Move>().unwrap();
        let beads = [(b("a3-a2"), 1), (b("b3-b2"), 1), (b("c3-c2"), 0)];
        assert_eq!(
            her_choices(&beads, 2, true),
            "HER's turn: force one of 2 blue arrows, or let HER pick."
        );
        assert_eq!(
            her_choices(&beads, 2, false),
            "HER's turn: White forces one of 2 blue arrows or lets HER pick."
        );
        assert_eq!(
            her_choices(&beads[..1], 1, false),
            "HER's turn: White forces the one blue arrow or lets HER pick."
        );
        assert!(!her_choices(&[], 0, false).contains("when it picks"));
        let start = game(PlayMode::Slow);
        assert!(turn_line(&start, true).starts_with("Your move"));
        assert_eq!(turn_line(&start, false), "White (the person) to move.");
        let her_turn = start.play("b1-b2".parse().unwrap()).unwrap();
        assert!(her_waits_for_white(&GameState::Hexapawn(her_turn.clone())));
        assert!(!her_waits_for_white(&GameState::Hexapawn(start)));
        let mut fast = her_turn;
        fast.setup.mode = PlayMode::Fast;
        assert!(!her_waits_for_white(&GameState::Hexapawn(fast)));
    }
}
