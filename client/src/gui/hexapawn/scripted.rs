//! Hexapawn's part of the hidden `--open-room` (see `gui::scripted`): a room of HER's, whose
//! moves are played by clicking where a person would (a pawn, then its target; on HER's turn in
//! slow mode, the arrow of the move to force).
//!
//! The words after `hexapawn` or `her-match`, in any order: a board size (`4x4`), `slow` or
//! `fast`, `mirrors`, a number of rounds and a pace per ply (`300ms`; a match) and the person's
//! moves (`b1-b2`, a game against HER; `pick` lets HER pick, `again` plays again once the game
//! is over), e.g. `hexapawn slow b1-b2 pick` or `her-match 3x3 300`.

use macroquad::math::{Vec2, vec2};
use parlor_shared::game::{GameSetup, GameState};
use parlor_shared::hexapawn::{
    Dims, HER_SEAT, HexSetup, MatchSetup, Move, PERSON_SEAT, Pace, PlayMode,
};
use parlor_shared::protocol::{RoomId, RoomSnapshot, SeatSpec};

use super::room::{acting_seat, again_button_at, pick_button_at, play_layout};
use crate::gui::board_play::HeldSeat;
use crate::gui::scripted_game::ScriptedGame;

/// One step of the person's: a move (their own, or one forced on HER), or letting HER pick.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Step {
    Play(Move),
    Pick,
    /// Play again, once the game is over: a new room with the same setup.
    Again,
}

/// HER's pause in fast mode when opened this way, in milliseconds.
const PAUSE_MS: u32 = 200;

#[derive(Debug, PartialEq)]
pub struct HexScript {
    setup: GameSetup,
    seats: Vec<SeatSpec>,
    moves: Vec<Step>,
    /// How many of `moves` have been clicked.
    sent: usize,
    /// The plies the game had when the last move was clicked: the next waits for more.
    sent_at: Option<usize>,
    /// The pawn of the move being clicked is picked.
    picked: bool,
    /// The room left by Play again: what the screen shows next is a new one.
    again_from: Option<RoomId>,
}

impl HexScript {
    /// The script of `words` after `kind` (`hexapawn` or `her-match`); `replay`: the stored
    /// game is to be opened at the end, which a match (never stored) refuses.
    pub fn parse(kind: &str, words: &[&str], replay: bool) -> Result<HexScript, String> {
        let (mut dims, mut mirrors, mut mode) = (Dims::HEXAPAWN, false, PlayMode::Slow);
        let (mut rounds, mut pace, mut moves) = (100, Pace::FullSpeed, Vec::new());
        for &word in words {
            match word {
                "slow" => mode = PlayMode::Slow,
                "fast" => mode = PlayMode::Fast,
                "mirrors" => mirrors = true,
                "pick" => moves.push(Step::Pick),
                "again" => moves.push(Step::Again),
                _ if word.contains('x') && word.parse::<Dims>().is_ok() => {
                    dims = word.parse().map_err(|e| format!("{e}"))?;
                }
                _ if word.parse::<u64>().is_ok() => rounds = word.parse().unwrap_or(rounds),
                _ if word
                    .strip_suffix("ms")
                    .is_some_and(|ms| ms.parse::<u32>().is_ok()) =>
                {
                    let ms = word.trim_end_matches("ms").parse().unwrap_or_default();
                    pace = Pace::PerPly { ms };
                }
                _ => moves.push(Step::Play(word.parse().map_err(|e| format!("{e}"))?)),
            }
        }
        let (setup, seats) = match kind {
            "hexapawn" => {
                let setup = HexSetup {
                    dims,
                    mirrors,
                    mode,
                    brain: "HER".into(),
                };
                let seats = vec![SeatSpec::Human, SeatSpec::ai(PAUSE_MS)];
                (GameSetup::Hexapawn(setup), seats)
            }
            "her-match" if replay => return Err("an auto match is not stored: no replay".into()),
            "her-match" => {
                let setup = MatchSetup {
                    dims,
                    mirrors,
                    rounds,
                    pace,
                    brains: ["HER A".into(), "HER B".into()],
                };
                (GameSetup::HerMatch(setup), Vec::new())
            }
            _ => return Err(format!("{kind:?} is not hexapawn or her-match")),
        };
        Ok(HexScript {
            setup,
            seats,
            moves,
            sent: 0,
            sent_at: None,
            picked: false,
            again_from: None,
        })
    }
}

impl ScriptedGame for HexScript {
    fn room(&self) -> (GameSetup, Vec<SeatSpec>) {
        (self.setup.clone(), self.seats.clone())
    }

    /// The next move's click, once the room waits for this client's move.
    fn click(
        &mut self,
        snapshot: &RoomSnapshot,
        held: &[HeldSeat],
        screen_w: f32,
        screen_h: f32,
    ) -> Option<Vec2> {
        let GameState::Hexapawn(game) = &snapshot.state else {
            return None;
        };
        let mv = *self.moves.get(self.sent)?;
        if self.sent_at.is_some_and(|at| game.plies.len() <= at) {
            return None;
        }
        let (board, matchbox, info_y) = play_layout(screen_w, screen_h, game);
        if mv == Step::Again {
            let person = held.iter().any(|h| h.seat == PERSON_SEAT);
            if game.winner().is_none() || !person {
                return None;
            }
            self.sent += 1;
            self.sent_at = None;
            self.again_from = Some(snapshot.room);
            return Some(again_button_at(screen_w, screen_h, info_y) + vec2(10.0, 10.0));
        }
        if !held.iter().any(|h| Some(h.seat) == acting_seat(game)) {
            return None;
        }
        let point = match (mv, game.seat_to_move(), matchbox) {
            (Step::Pick, _, _) => pick_button_at(screen_w, screen_h, info_y) + vec2(10.0, 10.0),
            (Step::Play(mv), Some(HER_SEAT), Some(matchbox)) => {
                let arrow = matchbox.arrow(mv);
                arrow.tail.lerp(arrow.head, 0.4)
            }
            (Step::Play(mv), _, _) if !self.picked => {
                self.picked = true;
                return Some(board.square_center(mv.from));
            }
            (Step::Play(mv), _, _) => board.square_center(mv.to),
            (Step::Again, _, _) => return None,
        };
        self.picked = false;
        self.sent += 1;
        self.sent_at = Some(game.plies.len());
        Some(point)
    }

    /// A game after all the moves, waiting for the person (or, in slow mode, showing HER's
    /// box); a match when it is over.
    fn done(&self, snapshot: &RoomSnapshot) -> bool {
        if self.again_from == Some(snapshot.room) {
            return false;
        }
        match &snapshot.state {
            GameState::Hexapawn(game) => {
                self.sent == self.moves.len()
                    && self.sent_at.is_none_or(|at| game.plies.len() > at)
                    && (acting_seat(game) == Some(PERSON_SEAT) || game.winner().is_some())
            }
            GameState::HerMatch(view) => view.finished,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::hexapawn::{Brain, HexGame};
    use parlor_shared::protocol::{SeatState, SeatToken};

    fn parse(text: &str) -> Result<HexScript, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        HexScript::parse(words[0], &words[1..], false)
    }

    fn snapshot(script: &HexScript, plies: &str) -> RoomSnapshot {
        let GameSetup::Hexapawn(setup) = &script.setup else {
            panic!("a Hexapawn script");
        };
        let mut game = HexGame::new(setup.clone(), &Brain::new(setup.dims, false));
        for ply in plies.split_whitespace() {
            game = game.play(ply.parse().unwrap()).unwrap();
        }
        RoomSnapshot {
            creator: None,
            watchers: Vec::new(),
            room: 1,
            version: game.plies.len() as u64,
            seats: vec![
                SeatState::Taken {
                    connected: true,
                    player: None,
                },
                SeatState::Open,
            ],
            spectators: 0,
            state: GameState::Hexapawn(game),
            moves: Vec::new(),
            plan_ahead: vec![],
            outcome: None,
            record: None,
            again: None,
        }
    }

    #[test]
    fn a_move_is_a_click_on_the_pawn_then_its_target_and_hers_a_click_on_its_arrow() {
        let mut script = parse("hexapawn slow b1-b2 a3xb2").unwrap();
        let held = [HeldSeat {
            seat: PERSON_SEAT,
            token: SeatToken("t".into()),
        }];
        let start = snapshot(&script, "");
        let her_turn = snapshot(&script, "b1-b2");
        let end = snapshot(&script, "b1-b2 a3xb2");
        let GameState::Hexapawn(game) = &start.state else {
            unreachable!()
        };
        let (board, matchbox, _) = play_layout(1024.0, 768.0, game);
        let mut click = |snapshot: &RoomSnapshot| script.click(snapshot, &held, 1024.0, 768.0);
        let b1 = board.square_center("b1".parse().unwrap());
        let b2 = board.square_center("b2".parse().unwrap());
        assert_eq!(click(&start), Some(b1));
        assert_eq!(click(&start), Some(b2));
        assert_eq!(click(&start), None, "waits for the move to arrive");
        let point = click(&her_turn).expect("a click on HER's arrow");
        let moves = ["a3-a2".parse().unwrap(), "a3xb2".parse().unwrap()];
        let matchbox = matchbox.unwrap();
        assert_eq!(matchbox.arrow_at(&moves, point), Some(moves[1]));
        assert!(!script.done(&her_turn));
        assert!(script.done(&end));
    }

    #[test]
    fn words_set_the_room_and_the_moves() {
        let script = parse("hexapawn 4x4 fast b1-b2 mirrors").unwrap();
        let (GameSetup::Hexapawn(setup), seats) = script.room() else {
            panic!("a Hexapawn room");
        };
        assert_eq!(setup.dims, Dims::OCTAPAWN);
        assert_eq!((setup.mode, setup.mirrors), (PlayMode::Fast, true));
        assert_eq!(seats.len(), 2);
        assert_eq!(script.moves, vec![Step::Play("b1-b2".parse().unwrap())]);
        let script = parse("her-match 300 20ms").unwrap();
        assert!(matches!(
            script.room(),
            (GameSetup::HerMatch(MatchSetup { rounds: 300, pace: Pace::PerPly { ms: 20 }, .. }), seats)
                if seats.is_empty()
        ));
        assert!(
            HexScript::parse("her-match", &[], true).is_err(),
            "matches are not stored"
        );
        let script = parse("hexapawn b1-b2 pick again").unwrap();
        assert_eq!(script.moves[1..], [Step::Pick, Step::Again]);
        assert!(parse("chess").is_err());
        assert!(parse("hexapawn z9").is_err());
    }
}
