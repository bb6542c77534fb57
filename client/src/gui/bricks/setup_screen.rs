//! The seed's init phase as a screen of its own, reached from the lobby's create form: the
//! rules, H, D and B with a reason beside each refused field, the closed form's verdict, who
//! sits in each seat (with the oracle's optional strength), then Create or Back.

use macroquad::color::Color;
use macroquad::math::Rect;
use parlor_engines::bricks::Solution;
use parlor_shared::game::GameSetup;
use parlor_shared::protocol::SeatSpec;

use super::setup_input::{
    AgentChoice, AnswererChoice, RULES, game_setup, parse_setup, parse_strength, seat_specs,
    verdict_lines,
};
use crate::gui::canvas::{canvas_height, canvas_width};
use crate::gui::lobby_choices::recall_text;
use crate::gui::text_field::{FieldEvent, TextField};
use crate::gui::widgets::TOP_BAR_HEIGHT;
use crate::gui::widgets::{
    BUTTON_HEIGHT, DIM_TEXT, ERROR_TEXT, GOOD_TEXT, Input, LINE_HEIGHT, TEXT, button_at,
    button_enabled, button_width, fit_to_width, heading, label, toggle, wrap_to_width,
};

const LEFT_X: f32 = 20.0;
/// Where fields and choices start, right of their labels.
const INPUT_X: f32 = 230.0;
const FIELD_WIDTH: f32 = 230.0;
/// Lines kept for the closed form's verdict.
const VERDICT_LINES: f32 = 4.0;
/// Space between rows of fields or choices.
const ROW_STEP: f32 = BUTTON_HEIGHT + 10.0;
/// The rows of fields (H, D, B) and of seat choices (agent, answerer); the oracle's strength
/// adds a row of its own.
const FIELD_ROWS: f32 = 3.0;
const SEAT_CHOICE_ROWS: f32 = 2.0;
/// The space under the rules, and between the form's groups (fields, verdict and choices,
/// buttons), and under the buttons at the window's foot.
const UNDER_RULES: f32 = 10.0;
const BETWEEN_GROUPS: f32 = 14.0;
const UNDER_BUTTONS: f32 = 12.0;

/// What the init screen asks of its owner.
#[derive(Debug, PartialEq, Eq)]
pub enum SetupAction {
    Create {
        setup: GameSetup,
        seats: Vec<SeatSpec>,
    },
    Back,
}

pub struct BricksSetupView {
    height: TextField,
    drops: TextField,
    bricks: TextField,
    /// The oracle's strength; empty for a secret random one.
    strength: TextField,
    agent: AgentChoice,
    answerer: AnswererChoice,
}

/// What the window keeps of the screen for its next run (`lobby_choices.rs`): its fields' text,
/// checked when the screen shows as a typed one is.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BricksChoices {
    height: String,
    drops: String,
    bricks: String,
    strength: String,
    agent: AgentChoice,
    answerer: AnswererChoice,
}

/// The seed's example: the computer drops, a person answers.
impl Default for BricksSetupView {
    fn default() -> BricksSetupView {
        BricksSetupView {
            height: TextField::new("100"),
            drops: TextField::new("14"),
            bricks: TextField::new("2"),
            strength: TextField::new(""),
            agent: AgentChoice::Winning,
            answerer: AnswererChoice::Human,
        }
    }
}

impl BricksSetupView {
    pub fn choices(&self) -> BricksChoices {
        BricksChoices {
            height: self.height.text.clone(),
            drops: self.drops.text.clone(),
            bricks: self.bricks.text.clone(),
            strength: self.strength.text.clone(),
            agent: self.agent,
            answerer: self.answerer,
        }
    }

    /// Takes the kept `choices`; a text no field could hold leaves that field as it is.
    pub fn recall(&mut self, choices: &BricksChoices) {
        let fields = [
            (&mut self.height, &choices.height),
            (&mut self.drops, &choices.drops),
            (&mut self.bricks, &choices.bricks),
            (&mut self.strength, &choices.strength),
        ];
        for (field, kept) in fields {
            recall_text(field, kept);
        }
        self.agent = choices.agent;
        self.answerer = choices.answerer;
    }

    /// Handles input and draws the screen; Create is enabled when `connected` and every field
    /// is valid.
    pub fn update(&mut self, input: &Input, connected: bool) -> Option<SetupAction> {
        let width = canvas_width() - 2.0 * LEFT_X;
        let mut y = TOP_BAR_HEIGHT + 40.0;
        heading("New Dropping Bricks room", LEFT_X, y);
        y += LINE_HEIGHT + 6.0;
        // What the form needs under the rules: its fields, the verdict's band, the seats (and
        // the oracle's strength), the buttons. On a short window the rules give way.
        let oracle_rows = f32::from(u8::from(self.answerer == AnswererChoice::Oracle));
        let below = UNDER_RULES
            + (FIELD_ROWS + SEAT_CHOICE_ROWS + oracle_rows) * ROW_STEP
            + 2.0 * BETWEEN_GROUPS
            + VERDICT_LINES * LINE_HEIGHT
            + BUTTON_HEIGHT
            + UNDER_BUTTONS;
        let rules = wrap_to_width(RULES, width);
        let room = ((canvas_height() - y - below) / LINE_HEIGHT)
            .floor()
            .max(1.0) as usize;
        for (index, line) in rules.iter().enumerate().take(room) {
            let cut = index + 1 == room && room < rules.len();
            let line = if cut {
                format!("{line} ...")
            } else {
                line.clone()
            };
            label(&line, LEFT_X, y, DIM_TEXT);
            y += LINE_HEIGHT;
        }
        y += UNDER_RULES;
        let setup = parse_setup(&self.height.text, &self.drops.text, &self.bricks.text);
        let errors = setup.clone().err().unwrap_or_default();
        let rows = [
            ("Tower height H", &mut self.height, errors.height),
            ("Drops D", &mut self.drops, errors.drops),
            ("Bricks B", &mut self.bricks, errors.bricks),
        ];
        let mut submitted = false;
        for (name, field, error) in rows {
            let note = error.as_deref().map(|error| (error, ERROR_TEXT));
            submitted |= draw_field_row(input, y, name, field, note);
            y += ROW_STEP;
        }
        y += BETWEEN_GROUPS;
        // The verdict gets a fixed band, so the choices below stay put while fields change.
        let verdict_top = y;
        match setup {
            Ok(setup) => {
                // A game the adversary wins may still be played, but is not good news.
                let color = match Solution::new(setup).winnable {
                    true => GOOD_TEXT,
                    false => TEXT,
                };
                for line in verdict_lines(setup)
                    .iter()
                    .flat_map(|l| wrap_to_width(l, width))
                {
                    label(&line, LEFT_X, y, color);
                    y += LINE_HEIGHT;
                }
            }
            Err(_) => {
                let text = "Fix the fields in red to see who can win.";
                label(text, LEFT_X, y, ERROR_TEXT);
            }
        }
        y = y.max(verdict_top + VERDICT_LINES * LINE_HEIGHT);
        y = self.draw_seat_choices(input, y);
        let height = setup.as_ref().ok().map(|setup| setup.height);
        let strength = if self.answerer == AnswererChoice::Oracle {
            let strength = parse_strength(&self.strength.text, height);
            let note = match &strength {
                Ok(None) => Some(("empty: a secret random strength", DIM_TEXT)),
                Ok(Some(_)) => Some(("told to the oracle only", DIM_TEXT)),
                Err(error) => Some((error.as_str(), ERROR_TEXT)),
            };
            submitted |= draw_field_row(input, y, "Oracle's strength S", &mut self.strength, note);
            y += ROW_STEP;
            strength.ok()
        } else {
            Some(None)
        };
        // On a short window the buttons stay at its foot, over what they would push out.
        let y = (y + BETWEEN_GROUPS).min(canvas_height() - BUTTON_HEIGHT - UNDER_BUTTONS);
        let request = setup
            .ok()
            .zip(strength)
            .map(|(setup, strength)| SetupAction::Create {
                setup: game_setup(setup),
                seats: seat_specs(self.agent, self.answerer, strength),
            });
        let text = "Create room";
        let rect = Rect::new(LEFT_X, y, button_width(text), BUTTON_HEIGHT);
        let ready = connected && request.is_some();
        // Enter in a field creates the room as the button does.
        let create = button_enabled(input, rect, text, ready) || (submitted && ready);
        let back_x = rect.x + rect.w + 10.0;
        if button_at(input, back_x, y, "Back to lobby") {
            return Some(SetupAction::Back);
        }
        if !connected {
            let note_x = back_x + button_width("Back to lobby") + 14.0;
            label("Not connected to a server", note_x, y + 20.0, ERROR_TEXT);
        }
        create.then_some(request).flatten()
    }

    /// The agent's and the answerer's choices; returns where the form continues.
    fn draw_seat_choices(&mut self, input: &Input, top: f32) -> f32 {
        let mut y = top;
        label("Agent (drops)", LEFT_X, y + 20.0, TEXT);
        let agents = [
            (AgentChoice::Human, "Human"),
            (AgentChoice::Winning, "Winning AI"),
            (AgentChoice::Random, "Random AI"),
        ];
        let mut x = INPUT_X;
        for (choice, text) in agents {
            let rect = Rect::new(x, y, button_width(text) + 10.0, BUTTON_HEIGHT);
            if toggle(input, rect, text, self.agent == choice) {
                self.agent = choice;
            }
            x += rect.w + 8.0;
        }
        y += ROW_STEP;
        label("Answerer (safe/broken)", LEFT_X, y + 20.0, TEXT);
        let answerers = [
            (AnswererChoice::Human, "Human"),
            (AnswererChoice::Adversary, "Adversary AI"),
            (AnswererChoice::Oracle, "Honest oracle AI"),
        ];
        let mut x = INPUT_X;
        for (choice, text) in answerers {
            let rect = Rect::new(x, y, button_width(text) + 10.0, BUTTON_HEIGHT);
            if toggle(input, rect, text, self.answerer == choice) {
                self.answerer = choice;
            }
            x += rect.w + 8.0;
        }
        y + ROW_STEP
    }
}

/// A labelled field with a note beside it, such as the reason it is refused; whether Enter was
/// pressed in it.
fn draw_field_row(
    input: &Input,
    y: f32,
    name: &str,
    field: &mut TextField,
    note: Option<(&str, Color)>,
) -> bool {
    label(name, LEFT_X, y + 20.0, TEXT);
    let event = field.update(input, Rect::new(INPUT_X, y, FIELD_WIDTH, BUTTON_HEIGHT));
    if let Some((text, color)) = note {
        let x = INPUT_X + FIELD_WIDTH + 14.0;
        label(
            &fit_to_width(text, canvas_width() - x - 10.0),
            x,
            y + 20.0,
            color,
        );
    }
    event == FieldEvent::Submitted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_choices_come_back_and_text_no_field_holds_is_left_out() {
        let mut used = BricksSetupView::default();
        used.height.text = "36".into();
        used.strength.text = "7".into();
        used.agent = AgentChoice::Human;
        used.answerer = AnswererChoice::Oracle;
        let mut next_run = BricksSetupView::default();
        next_run.recall(&used.choices());
        assert_eq!(next_run.choices(), used.choices());

        let mut edited = used.choices();
        edited.drops = "1\u{7}".into();
        let mut view = BricksSetupView::default();
        view.recall(&edited);
        assert_eq!(view.drops.text, BricksSetupView::default().drops.text);
        assert_eq!(view.height.text, "36");
    }
}
