//! The lobby's form for a Magnetic Cave room: who sits in each seat, and for each AI seat how it
//! plays (the course's classic minimax, or the easy, normal or strong engine), and how long the
//! AIs think. The strong engine beats nearly everyone, so a person picks the AI they meet.

use macroquad::math::Rect;
use parlor_shared::game::GameSetup;
use parlor_shared::protocol::{AiKind, DEFAULT_AI_MOVE_MS, MAX_AI_MOVE_MS, SeatSpec};
use serde::{Deserialize, Serialize};

use crate::gui::cave::board::draw_swatch;
use crate::gui::describe;
use crate::gui::seats::seat_player;
use crate::gui::widgets::{
    BUTTON_HEIGHT, DIM_TEXT, FormArea, Input, TEXT, create_room_button, label, toggle,
};

/// The per-move budgets offered for AI seats.
const AI_BUDGETS: [u32; 3] = [100, DEFAULT_AI_MOVE_MS, MAX_AI_MOVE_MS];
/// The AIs offered, with their names on the buttons: the course's own, then weakest first.
const AI_LEVELS: [(AiKind, &str); 4] = [
    (AiKind::Classic, "Classic"),
    (AiKind::Easy, "Easy"),
    (AiKind::Normal, "Normal"),
    (AiKind::Strong, "Strong"),
];
/// Where the choices start, right of their row's name.
const CHOICES_X: f32 = 100.0;
const ROW: f32 = BUTTON_HEIGHT + 6.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeatChoice {
    Human,
    Ai,
}

#[derive(Debug)]
pub struct CaveLobbyForm {
    seats: [SeatChoice; 2],
    /// How each seat's AI plays, when the seat is an AI's.
    levels: [AiKind; 2],
    move_ms: u32,
}

impl Default for CaveLobbyForm {
    fn default() -> CaveLobbyForm {
        CaveLobbyForm {
            seats: [SeatChoice::Human, SeatChoice::Ai],
            levels: [AiKind::Normal; 2],
            move_ms: DEFAULT_AI_MOVE_MS,
        }
    }
}

/// What the window keeps of the form for its next run (`lobby_choices.rs`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaveChoices {
    seats: [SeatChoice; 2],
    levels: [AiKind; 2],
    move_ms: u32,
}

impl CaveLobbyForm {
    pub fn choices(&self) -> CaveChoices {
        CaveChoices {
            seats: self.seats,
            levels: self.levels,
            move_ms: self.move_ms,
        }
    }

    /// Takes the kept `choices` that the form offers; the rest stays as it is.
    pub fn recall(&mut self, choices: &CaveChoices) {
        self.seats = choices.seats;
        for (level, kept) in self.levels.iter_mut().zip(choices.levels) {
            if AI_LEVELS.iter().any(|&(offered, _)| offered == kept) {
                *level = kept;
            }
        }
        if AI_BUDGETS.contains(&choices.move_ms) {
            self.move_ms = choices.move_ms;
        }
    }

    /// The seats of the room the form describes.
    fn seat_specs(&self) -> Vec<SeatSpec> {
        (self.seats.iter().zip(self.levels))
            .map(|(choice, kind)| match choice {
                SeatChoice::Human => SeatSpec::Human,
                SeatChoice::Ai => SeatSpec::Ai {
                    move_ms: self.move_ms,
                    kind,
                },
            })
            .collect()
    }

    /// Draws the form in `area`; returns the room to create when Create is clicked.
    pub fn update(
        &mut self,
        input: &Input,
        area: &FormArea,
        connected: bool,
    ) -> Option<(GameSetup, Vec<SeatSpec>)> {
        let mut y = area.top;
        for seat in 0..2u8 {
            let swatch =
                seat_player(seat).map_or(0.0, |player| draw_swatch(area.x, y + 20.0, player));
            label(&describe::seat_name(seat), area.x + swatch, y + 19.0, TEXT);
            let choice = &mut self.seats[usize::from(seat)];
            let options = [(SeatChoice::Human, "Human"), (SeatChoice::Ai, "AI")];
            for (index, (option, text)) in options.into_iter().enumerate() {
                if toggle(
                    input,
                    choice_rect(area, index, 3, y),
                    text,
                    *choice == option,
                ) {
                    *choice = option;
                }
            }
            y += ROW;
        }
        // Every row is drawn whoever sits where, so that nothing below moves on a click; a
        // person's seat has no AI to choose.
        for seat in 0..2u8 {
            let name = format!("{} AI", describe::seat_name(seat));
            label(&name, area.x, y + 19.0, TEXT);
            let is_ai = self.seats[usize::from(seat)] == SeatChoice::Ai;
            if !is_ai {
                label("(a person plays)", area.x + CHOICES_X, y + 19.0, DIM_TEXT);
            }
            let level = &mut self.levels[usize::from(seat)];
            for (index, (kind, text)) in AI_LEVELS.into_iter().enumerate() {
                let rect = choice_rect(area, index, AI_LEVELS.len(), y);
                if is_ai && toggle(input, rect, text, *level == kind) {
                    *level = kind;
                }
            }
            y += ROW;
        }
        let with_ai = self.seats.contains(&SeatChoice::Ai);
        label("AI time", area.x, y + 19.0, TEXT);
        if !with_ai {
            label("(no AI seat)", area.x + CHOICES_X, y + 19.0, DIM_TEXT);
        }
        for (index, budget) in AI_BUDGETS.into_iter().enumerate() {
            let rect = choice_rect(area, index, AI_BUDGETS.len(), y);
            let text = describe::seconds(budget);
            if with_ai && toggle(input, rect, &text, self.move_ms == budget) {
                self.move_ms = budget;
            }
        }
        let hints: &[&str] = match with_ai {
            true => &["Black moves first."],
            // The creator takes the first open seat, Black.
            false => &[
                "White joins from another window.",
                "Another person plays White.",
                "White: another person.",
            ],
        };
        create_room_button(input, area, connected, hints)
            .then(|| (GameSetup::Cave, self.seat_specs()))
    }
}

/// Where choice `index` of a row of `count` goes: the rows share the column right of their
/// names, each row's choices splitting it evenly.
fn choice_rect(area: &FormArea, index: usize, count: usize, y: f32) -> Rect {
    let x = area.x + CHOICES_X;
    let gap = 6.0;
    let step = ((area.width - CHOICES_X + gap) / count as f32).min(90.0);
    Rect::new(x + index as f32 * step, y, step - gap, BUTTON_HEIGHT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_stay_inside_the_column_and_ai_seats_play_the_level_and_time_chosen() {
        let area = FormArea {
            x: 20.0,
            top: 0.0,
            width: 390.0,
            create_y: 500.0,
        };
        for count in [2, 3, AI_LEVELS.len()] {
            let last = choice_rect(&area, count - 1, count, 0.0);
            assert!(last.right() <= area.x + area.width + 0.01, "{last:?}");
            assert!(last.w >= 60.0, "{last:?}");
        }
        let mut form = CaveLobbyForm::default();
        assert_eq!(form.seat_specs()[0], SeatSpec::Human);
        assert_eq!(
            form.seat_specs()[1],
            SeatSpec::Ai {
                move_ms: DEFAULT_AI_MOVE_MS,
                kind: AiKind::Normal
            },
            "a casual player meets a beatable AI first"
        );
        form.levels = [AiKind::Classic, AiKind::Strong];
        form.move_ms = 100;
        form.seats = [SeatChoice::Ai; 2];
        let ai = |kind| SeatSpec::Ai { move_ms: 100, kind };
        assert_eq!(
            form.seat_specs(),
            [ai(AiKind::Classic), ai(AiKind::Strong)],
            "each AI seat plays the level chosen for it"
        );
    }

    #[test]
    fn kept_choices_make_the_same_room_and_only_offered_values_are_taken() {
        let used = CaveLobbyForm {
            seats: [SeatChoice::Ai, SeatChoice::Human],
            levels: [AiKind::Strong, AiKind::Classic],
            move_ms: MAX_AI_MOVE_MS,
        };
        let mut next_run = CaveLobbyForm::default();
        next_run.recall(&used.choices());
        assert_eq!(next_run.seat_specs(), used.seat_specs());

        let edited = CaveChoices {
            levels: [AiKind::Standard, AiKind::Easy],
            move_ms: 7,
            ..used.choices()
        };
        let mut form = CaveLobbyForm::default();
        form.recall(&edited);
        assert_eq!(
            form.levels,
            [AiKind::Normal, AiKind::Easy],
            "not offered here"
        );
        assert_eq!(form.move_ms, DEFAULT_AI_MOVE_MS, "not offered here");
    }
}
