//! HER's seat in a Hexapawn room against a person. The room keeps the board (the shared rules);
//! this keeps HER: the brain loaded when the game began, its random draws, and the draws made,
//! which the store replays into the stored brain when the game ends.
//!
//! In slow mode the person acts for HER too: on HER's turn they force one of the moves that
//! still has a bead, or let HER pick one. In fast mode HER's seat moves by itself.

use parlor_shared::game::GameState;

use crate::brain_uses::BrainInGame;
use parlor_shared::hexapawn::{
    BoxView, Brain, BrainRef, Dims, HER_SEAT, Her, HerChoice, HerResult, HexGame, HexMove, Move,
    PERSON_SEAT, PERSON_SIDE, Pick, PlayMode, Position,
};
use parlor_shared::identity::PlayerId;

/// Whether a game against the brain named `brain` (as a room's setup holds it) in a room
/// `creator` made teaches the stored brain: only its owner's rooms do. A plain name there is a
/// room's from before brains had owners, and means the hall's brain.
pub fn teaches(brain: &str, creator: Option<PlayerId>) -> bool {
    let brain = BrainRef::canonical(brain, None);
    creator.is_some_and(|creator| brain.is_ok_and(|brain| brain.writable_by(creator)))
}

/// A move refused: the error code's reason.
pub type Refusal = (parlor_shared::protocol::ErrorCode, String);

/// A finished game against HER, as the store teaches it to the stored brain.
#[derive(Clone)]
pub struct HerGameRecord {
    pub brain: String,
    /// The size and mirror setting of a brain made new for it.
    pub dims: Dims,
    pub mirrors: bool,
    /// HER's draws in the game, in order: position and move.
    pub draws: Vec<(Position, Move)>,
    pub result: HerResult,
}

pub struct HerSeat {
    her: Her,
    mode: PlayMode,
    /// HER's draws in this game, in order: position and move.
    draws: Vec<(Position, Move)>,
    /// Keeps auto matches off the stored brain until this game's lesson is stored.
    in_game: Option<BrainInGame>,
    /// Whether the game teaches the stored brain when it ends: only its owner's games do.
    teaches: bool,
}

impl HerSeat {
    pub fn new(brain: Brain, mode: PlayMode, seed: u64) -> HerSeat {
        HerSeat {
            her: Her::new(brain, seed),
            mode,
            draws: Vec::new(),
            in_game: None,
            teaches: true,
        }
    }

    pub fn is_teaching(&self) -> bool {
        self.teaches
    }

    /// The same seat, teaching the stored brain at the end or not (a brain of another
    /// player's, or the hall's, is only played against).
    pub fn teaching(mut self, teaches: bool) -> HerSeat {
        self.teaches = teaches;
        self
    }

    /// Holds the stored brain against auto matches until [`HerSeat::lesson_stored`].
    pub fn hold_brain(&mut self, in_game: BrainInGame) {
        self.in_game = Some(in_game);
    }

    /// The game's lesson is in the store: matches may have the brain.
    pub fn lesson_stored(&mut self) {
        self.in_game = None;
    }

    /// How many draws HER has made in this game, for [`HerSeat::forget_draws_after`].
    pub fn draw_count(&self) -> usize {
        self.draws.len()
    }

    /// Forgets the draws after the first `count`: the move that made them was not stored, so
    /// the game goes on as if it had not been made (it teaches nothing at the end).
    pub fn forget_draws_after(&mut self, count: usize) {
        self.draws.truncate(count);
    }

    pub fn brain(&self) -> &Brain {
        self.her.brain()
    }

    pub fn mode(&self) -> PlayMode {
        self.mode
    }

    /// Whether HER moves without being asked (fast mode).
    pub fn moves_by_itself(&self) -> bool {
        self.mode == PlayMode::Fast
    }

    /// The start state with HER's brain counted in.
    pub fn start(&self, game: HexGame) -> GameState {
        GameState::Hexapawn(self.show(game))
    }

    /// The state after `seat` makes `mv`, and the move as the game's record keeps it (HER's
    /// pick is recorded as the move it drew). Never changes the board on a refusal; a refused
    /// forced move draws no bead.
    pub fn apply(
        &mut self,
        state: &GameState,
        seat: u8,
        mv: HexMove,
    ) -> Result<(GameState, HexMove), Refusal> {
        use parlor_shared::protocol::ErrorCode::{IllegalMove, NotYourTurn};
        let GameState::Hexapawn(game) = state else {
            return Err((IllegalMove, "this room does not play Hexapawn".into()));
        };
        let her_turn = game.seat_to_move() == Some(HER_SEAT);
        let may_act = if her_turn {
            seat == HER_SEAT || (seat == PERSON_SEAT && self.mode == PlayMode::Slow)
        } else {
            seat == PERSON_SEAT
        };
        if !may_act {
            return Err((NotYourTurn, format!("it is not seat {seat}'s turn")));
        }
        let illegal = |error: &dyn std::fmt::Display| (IllegalMove, error.to_string());
        let (next, recorded) = match (her_turn, mv) {
            (false, HexMove::Play(ply)) => (game.play(ply).map_err(|e| illegal(&e))?, mv),
            (_, HexMove::HerResigns) => {
                return Err((IllegalMove, "HER resigns only before an empty box".into()));
            }
            (false, HexMove::HerPicks) => {
                return Err((IllegalMove, "it is your move, not HER's".into()));
            }
            (true, HexMove::Play(_) | HexMove::HerPicks) => {
                let pick = match mv {
                    HexMove::Play(ply) => Pick::Forced(ply),
                    _ => Pick::Random,
                };
                let choice = self
                    .her
                    .choose(&game.position, pick)
                    .map_err(|e| illegal(&e))?;
                match choice {
                    HerChoice::Play(ply) => {
                        self.draws.push((game.position, ply));
                        let next = game.play(ply).map_err(|e| illegal(&e))?;
                        (next, HexMove::Play(ply))
                    }
                    HerChoice::Resign => {
                        let next = game.her_resigns().map_err(|e| illegal(&e))?;
                        (next, HexMove::HerResigns)
                    }
                }
            }
        };
        Ok((GameState::Hexapawn(self.show(next)), recorded))
    }

    /// The finished game, for the store to teach HER's stored brain; `None` while it goes on,
    /// and for a game that teaches nothing.
    pub fn finished(&self, state: &GameState) -> Option<HerGameRecord> {
        let GameState::Hexapawn(game) = state else {
            return None;
        };
        if !self.teaches {
            return None;
        }
        let result = if game.winner()? == PERSON_SIDE {
            HerResult::Lost
        } else {
            HerResult::Won
        };
        Some(HerGameRecord {
            brain: game.setup.brain.clone(),
            dims: game.setup.dims,
            mirrors: game.setup.mirrors,
            draws: self.draws.clone(),
            result,
        })
    }

    /// `game` with HER's box for its turn and its brain's counts filled in.
    fn show(&self, mut game: HexGame) -> HexGame {
        let brain = self.her.brain();
        game.matchbox = match game.seat_to_move() {
            Some(HER_SEAT) => BoxView::of(brain, &game.position),
            _ => None,
        };
        game.brain_boxes = brain.boxes() as u32;
        game.brain_beads = brain.beads();
        game
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::hexapawn::HexSetup;
    use parlor_shared::protocol::ErrorCode;

    fn ply(text: &str) -> HexMove {
        HexMove::Play(text.parse().unwrap())
    }

    /// A fresh 3x3 game against an empty brain in `mode`, and its start state.
    fn game(mode: PlayMode) -> (HerSeat, GameState) {
        let setup = HexSetup {
            dims: Dims::HEXAPAWN,
            mirrors: false,
            mode,
            brain: "HER".into(),
        };
        let brain = Brain::new(setup.dims, setup.mirrors);
        let seat = HerSeat::new(brain.clone(), mode, 7);
        let start = seat.start(HexGame::new(setup, &brain));
        (seat, start)
    }

    fn refusal_code(result: Result<(GameState, HexMove), Refusal>) -> ErrorCode {
        result.expect_err("the move is refused").0
    }

    #[test]
    fn only_the_seat_whose_turn_it_is_acts_and_the_person_acts_for_her_only_in_slow_mode() {
        for mode in [PlayMode::Fast, PlayMode::Slow] {
            let (mut seat, start) = game(mode);
            // The person's turn: HER's seat may not move, whatever the mode.
            assert_eq!(
                refusal_code(seat.apply(&start, HER_SEAT, ply("b3-b2"))),
                ErrorCode::NotYourTurn,
                "{mode:?}"
            );
            let (after, _) = seat.apply(&start, PERSON_SEAT, ply("b1-b2")).unwrap();
            // HER's turn: the person's seat forcing HER's move.
            let forced = seat.apply(&after, PERSON_SEAT, ply("a3xb2"));
            match mode {
                PlayMode::Fast => assert_eq!(
                    refusal_code(forced),
                    ErrorCode::NotYourTurn,
                    "in fast mode HER's seat moves by itself"
                ),
                PlayMode::Slow => {
                    let (_, recorded) = forced.expect("in slow mode the person acts for HER");
                    assert_eq!(recorded, ply("a3xb2"));
                }
            }
            // Letting HER pick is the person acting for HER too.
            let picks = seat.apply(&after, PERSON_SEAT, HexMove::HerPicks);
            assert_eq!(picks.is_ok(), mode == PlayMode::Slow, "{mode:?}");
            if mode == PlayMode::Fast {
                assert_eq!(refusal_code(picks), ErrorCode::NotYourTurn);
            }
            // HER's own seat moves on HER's turn in either mode.
            assert!(
                seat.apply(&after, HER_SEAT, ply("a3xb2")).is_ok(),
                "{mode:?}"
            );
        }
    }

    #[test]
    fn a_move_forgotten_because_the_store_refused_it_teaches_nothing() {
        let (mut seat, start) = game(PlayMode::Slow);
        let (after, _) = seat.apply(&start, PERSON_SEAT, ply("b1-b2")).unwrap();
        let before = seat.draw_count();
        seat.apply(&after, HER_SEAT, ply("a3xb2")).unwrap();
        assert_eq!(seat.draw_count(), before + 1);
        seat.forget_draws_after(before);
        // Played again (as the room does once the store takes it): one draw, not two.
        let (end, _) = seat.apply(&after, HER_SEAT, ply("c3xb2")).unwrap();
        let (end, _) = seat.apply(&end, PERSON_SEAT, ply("a1-a2")).unwrap();
        let (end, _) = seat.apply(&end, HER_SEAT, ply("b2-b1")).unwrap();
        let lesson = seat.finished(&end).expect("HER reached the far row");
        let positions: Vec<_> = lesson.draws.iter().map(|(position, _)| position).collect();
        assert_eq!(lesson.draws.len(), 2, "{positions:?}");
        assert_eq!(lesson.draws[0].1, "c3xb2".parse().unwrap());
    }
}
