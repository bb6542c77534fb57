//! The lobby's EWN room form: a level from `levels/ewn/` (read once, on first show) and who
//! plays it: you, the optimal solver (to watch the solution and replay it step by step), or the
//! random player.

use std::path::Path;

use macroquad::math::Rect;
use parlor_shared::game::GameSetup;
use parlor_shared::protocol::{AiKind, DEFAULT_AI_MOVE_MS, SeatSpec};
use serde::{Deserialize, Serialize};

use super::levels::{LEVELS_DIR, LevelChoice, load_levels};
use crate::gui::lobby_choices::kept_position;
use crate::gui::widgets::{
    BUTTON_HEIGHT, DIM_TEXT, FormArea, Input, LINE_HEIGHT, TEXT, button_width, choice_row,
    create_room_button, label, toggle, wrap_to_width,
};

const LEVEL_BUTTON: f32 = 40.0;

/// Who sits in the one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EwnPlayer {
    Human,
    Solver,
    Random,
}

impl EwnPlayer {
    pub fn seat(self) -> SeatSpec {
        let ai = |kind| SeatSpec::Ai {
            move_ms: DEFAULT_AI_MOVE_MS,
            kind,
        };
        match self {
            EwnPlayer::Human => SeatSpec::Human,
            EwnPlayer::Solver => ai(AiKind::Standard),
            EwnPlayer::Random => ai(AiKind::RandomPlayer),
        }
    }
}

pub struct EwnLobbyForm {
    levels: Option<Vec<LevelChoice>>,
    chosen: usize,
    /// The level kept from the last run, chosen once the levels are read, if still there.
    kept_level: Option<String>,
    player: EwnPlayer,
}

/// What the window keeps of the form for its next run (`lobby_choices.rs`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EwnChoices {
    /// The level's name, which outlives its place in a folder that changes.
    level: Option<String>,
    player: EwnPlayer,
}

impl Default for EwnLobbyForm {
    fn default() -> Self {
        EwnLobbyForm {
            levels: None,
            chosen: 0,
            kept_level: None,
            player: EwnPlayer::Human,
        }
    }
}

impl EwnLobbyForm {
    pub fn choices(&self) -> EwnChoices {
        let chosen = (self.levels.as_ref()).and_then(|levels| levels.get(self.chosen));
        EwnChoices {
            level: chosen
                .map(|level| level.name.clone())
                .or(self.kept_level.clone()),
            player: self.player,
        }
    }

    /// Takes the kept `choices`: the player, and the level once the levels are read.
    pub fn recall(&mut self, choices: &EwnChoices) {
        self.player = choices.player;
        self.kept_level = choices.level.clone();
    }

    /// The levels read, with the kept one chosen if it is among them.
    fn take_levels(&mut self, levels: Vec<LevelChoice>) {
        let names = levels.iter().map(|level| level.name.as_str());
        if let Some(index) = kept_position(&mut self.kept_level, names) {
            self.chosen = index;
        }
        self.levels = Some(levels);
    }

    /// The setup and seats of the room the form describes (`None` with no level at all).
    pub fn room(&self) -> Option<(GameSetup, Vec<SeatSpec>)> {
        let level = self.levels.as_ref()?.get(self.chosen)?;
        Some((GameSetup::Ewn(level.spec), vec![self.player.seat()]))
    }

    /// Draws the form in `area`; returns the room to create when Create is clicked.
    pub fn update(
        &mut self,
        input: &Input,
        area: &FormArea,
        connected: bool,
    ) -> Option<(GameSetup, Vec<SeatSpec>)> {
        let (x, mut y, width) = (area.x, area.top, area.width);
        if self.levels.is_none() {
            self.take_levels(load_levels(Path::new(LEVELS_DIR)));
        }
        let levels = self.levels.as_deref().unwrap_or_default();
        label("Level", x, y + 20.0, TEXT);
        let left = x + 60.0;
        let per_row = (((width - 60.0) / (LEVEL_BUTTON + 4.0)).floor() as usize).max(1);
        for (index, level) in levels.iter().enumerate() {
            let (row, col) = (index / per_row, index % per_row);
            let rect = Rect::new(
                left + col as f32 * (LEVEL_BUTTON + 4.0),
                y + row as f32 * (BUTTON_HEIGHT + 4.0),
                LEVEL_BUTTON.max(button_width(&level.name)),
                BUTTON_HEIGHT,
            );
            if toggle(input, rect, &level.name, self.chosen == index) {
                self.chosen = index;
            }
        }
        let rows = levels.len().div_ceil(per_row).max(1);
        y += rows as f32 * (BUTTON_HEIGHT + 4.0) + 2.0;
        if let Some(level) = levels.get(self.chosen) {
            // The puzzle's goal in words: its level file says only "target" and "removed".
            let text = format!(
                "Bring piece {} to square 0, the top left corner; square {} is closed.",
                level.spec.target, level.spec.blocked
            );
            for line in wrap_to_width(&text, width - (left - x)) {
                label(&line, left, y + 16.0, DIM_TEXT);
                y += LINE_HEIGHT;
            }
            y += 2.0;
        }
        label("Player", x, y + 20.0, TEXT);
        let choices = [
            (EwnPlayer::Human, "You"),
            (EwnPlayer::Solver, "AI solver"),
            (EwnPlayer::Random, "Random"),
        ];
        choice_row(input, left, y, &choices, &mut self.player);
        let hint = (self.player == EwnPlayer::Solver).then_some("Watch it solve, then Replay.");
        let enabled = connected && self.room().is_some();
        create_room_button(input, area, enabled, hint.as_slice())
            .then(|| self.room())
            .flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_solver_seat_is_the_standard_ai_and_random_the_random_player() {
        assert_eq!(EwnPlayer::Human.seat(), SeatSpec::Human);
        assert!(matches!(
            EwnPlayer::Solver.seat(),
            SeatSpec::Ai {
                kind: AiKind::Standard,
                ..
            }
        ));
        assert!(matches!(
            EwnPlayer::Random.seat(),
            SeatSpec::Ai {
                kind: AiKind::RandomPlayer,
                ..
            }
        ));
        assert_eq!(EwnLobbyForm::default().room(), None);
    }

    #[test]
    fn the_kept_level_is_chosen_by_name_once_the_levels_are_read() {
        let levels = || load_levels(Path::new("/nonexistent"));
        assert!(levels().len() >= 3, "the built-in levels");
        let mut used = EwnLobbyForm::default();
        used.take_levels(levels());
        used.chosen = 2;
        used.player = EwnPlayer::Solver;
        let mut next_run = EwnLobbyForm::default();
        next_run.recall(&used.choices());
        assert_eq!(
            next_run.choices(),
            used.choices(),
            "kept until the levels are read"
        );
        next_run.take_levels(levels());
        assert_eq!(next_run.room(), used.room());

        let mut gone = EwnLobbyForm::default();
        let unknown = EwnChoices {
            level: Some("no such level".into()),
            player: EwnPlayer::Random,
        };
        gone.recall(&unknown);
        gone.take_levels(levels());
        assert_eq!(gone.chosen, 0, "a level that went is no choice");
        assert_eq!(gone.player, EwnPlayer::Random);
    }
}
