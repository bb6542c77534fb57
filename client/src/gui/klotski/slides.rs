//! Which piece slides on a screen that is handed whole states (a room's snapshots, a replay's
//! steps): the number of moves shown is compared with the one shown before. One more move
//! slides that move's piece in, one fewer slides the undone move's piece back; anything else
//! (the first state seen, a jump) shows the last move's piece already in place.

use parlor_shared::game::GameMove;
use parlor_shared::klotski::{KlotskiMove, Move};

use super::board::Motion;
use super::walk::{sliding, undo};

/// The slide of the move last shown and when it started.
#[derive(Clone, Debug, Default)]
pub struct Slides {
    /// How many moves had been made in the state shown last.
    seen: Option<usize>,
    slide: Option<(Move, f64)>,
}

fn slide_of(mv: Option<&GameMove>) -> Option<Move> {
    match mv {
        Some(GameMove::Klotski(KlotskiMove::Slide(slide))) => Some(*slide),
        _ => None,
    }
}

impl Slides {
    /// The piece to draw moving at `now` in the state after the first `step` of `moves`.
    pub fn motion(&mut self, step: usize, moves: &[GameMove], now: f64) -> Option<Motion> {
        if self.seen != Some(step) {
            let before = step.checked_sub(1).and_then(|index| moves.get(index));
            self.slide = match self.seen {
                Some(seen) if seen + 1 == step => slide_of(before).map(|mv| (mv, now)),
                Some(seen) if seen == step + 1 => {
                    slide_of(moves.get(step)).map(|mv| (undo(mv), now))
                }
                _ => slide_of(before).map(|mv| (mv, f64::NEG_INFINITY)),
            };
            self.seen = Some(step);
        }
        self.slide.map(|(mv, started)| sliding(mv, started, now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::klotski::SLIDE_SECONDS;
    use parlor_shared::klotski::{Dir, GiveUpReason};

    fn moves() -> Vec<GameMove> {
        let slide = |label, dir| GameMove::Klotski(KlotskiMove::Slide(Move { label, dir }));
        vec![
            slide(9, Dir::Left),
            slide(5, Dir::Up),
            GameMove::Klotski(KlotskiMove::GiveUp(GiveUpReason::Player)),
        ]
    }

    #[test]
    fn the_first_state_seen_shows_its_last_slide_in_place() {
        let mut slides = Slides::default();
        let motion = slides.motion(2, &moves(), 5.0).unwrap();
        assert_eq!(
            (motion.label, motion.dir, motion.progress),
            (5, Dir::Up, 1.0)
        );
        assert_eq!(Slides::default().motion(0, &moves(), 5.0), None);
    }

    #[test]
    fn one_more_move_slides_in_and_one_fewer_slides_back() {
        let mut slides = Slides::default();
        assert_eq!(slides.motion(0, &moves(), 1.0), None);
        let start = slides.motion(1, &moves(), 2.0).unwrap();
        assert_eq!(
            (start.label, start.dir, start.progress),
            (9, Dir::Left, 0.0)
        );
        let later = slides
            .motion(1, &moves(), 2.0 + SLIDE_SECONDS / 2.0)
            .unwrap();
        assert!((later.progress - 0.5).abs() < 1e-4, "{later:?}");
        slides.motion(2, &moves(), 3.0);
        let back = slides.motion(1, &moves(), 4.0).unwrap();
        assert_eq!((back.label, back.dir, back.progress), (5, Dir::Down, 0.0));
    }

    #[test]
    fn giving_up_moves_nothing_and_a_jump_slides_nothing() {
        let mut slides = Slides::default();
        slides.motion(2, &moves(), 1.0);
        assert_eq!(
            slides.motion(3, &moves(), 2.0),
            None,
            "a give-up is no slide"
        );
        slides.motion(0, &moves(), 3.0);
        let jumped = slides.motion(2, &moves(), 4.0).unwrap();
        assert_eq!((jumped.label, jumped.progress), (5, 1.0));
    }
}
