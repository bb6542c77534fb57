//! Stepping through a finished (or local) game: First / Previous / Next / Last, also on the
//! Home / Left / Right / End keys. Every state is computed once up front with
//! `GameState::replay`, so stepping is only an index change.

use macroquad::input::{KeyCode, is_key_pressed};
use macroquad::math::Rect;
use macroquad::time::get_time;
use parlor_shared::cave::Position;
use parlor_shared::game::{GameMove, GameState};

use super::arrival::Arrival;
use super::bricks::draw_replay_board;
use super::cave::board::{BoardMarks, board_layout, draw_board};
use super::describe;
use super::ewn::draw_replay_board as draw_ewn_replay;
use super::game_view::{draw_moves, draw_seat_swatch, outcome_color};
use super::hexapawn::{draw_match, draw_replay_board as draw_hex_replay};
use super::key_focus;
use super::klotski::{Slides, draw_replay_board as draw_klotski_replay};
use super::widgets::{
    BUTTON_HEIGHT, DIM_TEXT, Input, LINE_HEIGHT, TEXT, button_at, button_enabled, fit_to_width,
    heading_lines, label,
};
use super::widgets::{SIDE_PANEL_WIDTH, TOP_BAR_HEIGHT, side_panel_x};
use crate::gui::canvas::{canvas_height, canvas_width};

/// What the replay screen asks of its owner.
#[derive(Debug, PartialEq, Eq)]
pub enum ReplayAction {
    Close,
}

pub struct ReplayView {
    title: String,
    /// One line per seat, e.g. "human" or "AI 1 s" (empty when unknown).
    seat_labels: Vec<String>,
    moves: Vec<GameMove>,
    /// `states[k]` is the state after the first `k` moves.
    states: Vec<GameState>,
    /// How many moves have been made at the shown state.
    step: usize,
    /// Numeric Klotski: the piece sliding into (or back out of) the shown step.
    klotski: Slides,
    /// The other games: how far the shown step's move has come.
    arrival: Arrival,
}

impl ReplayView {
    /// A replay positioned at the last move, or why `moves` cannot be replayed from `start`.
    pub fn new(
        title: impl Into<String>,
        seat_labels: Vec<String>,
        start: GameState,
        moves: Vec<GameMove>,
    ) -> Result<ReplayView, String> {
        let states = start.replay(&moves).map_err(|(index, error)| {
            format!(
                "move {} ({}) cannot be replayed: {error}",
                index + 1,
                moves[index]
            )
        })?;
        Ok(ReplayView {
            title: title.into(),
            seat_labels,
            step: moves.len(),
            moves,
            states,
            klotski: Slides::default(),
            arrival: Arrival::default(),
        })
    }

    pub fn first(&mut self) {
        self.step = 0;
    }

    pub fn previous(&mut self) {
        self.step = self.step.saturating_sub(1);
    }

    pub fn next(&mut self) {
        self.step = (self.step + 1).min(self.moves.len());
    }

    pub fn last(&mut self) {
        self.step = self.moves.len();
    }

    fn state(&self) -> &GameState {
        &self.states[self.step]
    }

    /// Handles keys and buttons and draws the screen. `close_label` names the way out ("Back to
    /// lobby" in the app, "Quit" for a lone replay); Escape does the same.
    pub fn update(&mut self, input: &Input, close_label: &str) -> Option<ReplayAction> {
        self.handle_keys();
        let arrival = self.arrival.progress(self.step, get_time());
        match &self.states[self.step] {
            GameState::Cave(position) => self.draw_cave_board(position, arrival),
            GameState::Bricks(game) => draw_replay_board(game, arrival),
            GameState::Ewn(game) => {
                let last = self.step.checked_sub(1).and_then(|ply| self.moves.get(ply));
                let before = match self.step.checked_sub(1).map(|ply| &self.states[ply]) {
                    Some(GameState::Ewn(before)) => Some(before),
                    _ => None,
                };
                draw_ewn_replay(game, last, before, arrival)
            }
            GameState::Hexapawn(game) => {
                let last = self.step.checked_sub(1).and_then(|ply| self.moves.get(ply));
                draw_hex_replay(game, last, arrival)
            }
            GameState::Klotski(game) => {
                let (step, moves) = (self.step, &self.moves);
                draw_klotski_replay(&mut self.klotski, game, step, moves, get_time())
            }
            // Matches are not stored; a match's state shows as it stands.
            GameState::HerMatch(view) => {
                draw_match(view);
            }
        }
        self.draw_panel(input, close_label)
    }

    fn draw_cave_board(&self, position: &Position, arrival: f32) {
        let layout = board_layout(canvas_width(), canvas_height());
        let last_move = self.step.checked_sub(1).map(|ply| self.moves[ply]);
        let marks = BoardMarks {
            last_move: last_move.and_then(|mv| match mv {
                GameMove::Cave(square) => Some(square),
                _ => None,
            }),
            winning_line: position.winning_line(),
            entering: Some(arrival),
            ..BoardMarks::default()
        };
        draw_board(layout, position, &marks);
    }

    fn handle_keys(&mut self) {
        if is_key_pressed(KeyCode::Home) {
            self.first();
        }
        if is_key_pressed(KeyCode::Left) {
            self.previous();
        }
        if is_key_pressed(KeyCode::Right) {
            self.next();
        }
        if is_key_pressed(KeyCode::End) {
            self.last();
        }
    }

    fn draw_panel(&mut self, input: &Input, close_label: &str) -> Option<ReplayAction> {
        let x = side_panel_x(canvas_width()) + 10.0;
        let mut y = TOP_BAR_HEIGHT + 36.0;
        y = heading_lines(&self.title, x, y, SIDE_PANEL_WIDTH - 20.0, 2);
        y += LINE_HEIGHT + 8.0;
        let game = self.state().kind();
        for (seat, who) in self.seat_labels.iter().enumerate() {
            let seat = seat as u8;
            let swatch = draw_seat_swatch(game, x, y, seat);
            // A moves file's player name may be any length.
            let line = format!("{}: {who}", describe::game_seat_name(game, seat));
            let line = fit_to_width(&line, SIDE_PANEL_WIDTH - 20.0 - swatch);
            label(&line, x + swatch, y, TEXT);
            y += LINE_HEIGHT;
        }
        y += 10.0;
        // Steps, not moves as the room counts them: a Bricks answer, an undo or a
        // resignation is a step of its own.
        label(
            &format!("Step {} of {}", self.step, self.moves.len()),
            x,
            y,
            TEXT,
        );
        y += LINE_HEIGHT;
        self.draw_step_line(x, y);
        y += LINE_HEIGHT + 10.0;
        let buttons = [("First", 0), ("Prev", 1), ("Next", 2), ("Last", 3)];
        let width = 72.0;
        for (text, index) in buttons {
            let rect = Rect::new(x + index as f32 * (width + 6.0), y, width, BUTTON_HEIGHT);
            // Greyed where they lead nowhere (and passed over by Tab).
            let enabled = match index {
                0 | 1 => self.step > 0,
                _ => self.step < self.moves.len(),
            };
            if button_enabled(input, rect, text, enabled) {
                match index {
                    0 => self.first(),
                    1 => self.previous(),
                    2 => self.next(),
                    _ => self.last(),
                }
            }
        }
        y += BUTTON_HEIGHT + 6.0;
        label("Keys: Home, Left, Right, End", x, y + 14.0, DIM_TEXT);
        y += LINE_HEIGHT + 12.0;
        let list_bottom = canvas_height() - BUTTON_HEIGHT - 30.0;
        let area = Rect::new(x, y, 300.0, (list_bottom - y).max(LINE_HEIGHT));
        if let Some(ply) = draw_moves(input, area, game, &self.moves, self.step.checked_sub(1)) {
            self.step = ply + 1;
        }
        let closing = button_at(
            input,
            x,
            canvas_height() - BUTTON_HEIGHT - 16.0,
            close_label,
        ) || (is_key_pressed(KeyCode::Escape) && !key_focus::escape_took_ring());
        closing.then_some(ReplayAction::Close)
    }

    /// The move just made at this step, or whose turn it is, or the result at the end.
    fn draw_step_line(&self, x: f32, y: f32) {
        let state = self.state();
        let game = state.kind();
        if let Some(outcome) = state.outcome() {
            label(
                // As the state says it: who resigned, where one did.
                &format!("Result: {}", describe::state_outcome(state, outcome, None)),
                x,
                y,
                outcome_color(game, outcome, None),
            );
        } else if let Some(seat) = state.seat_to_move() {
            let swatch = draw_seat_swatch(game, x, y, seat);
            let unfinished = if self.step == self.moves.len() {
                " (game unfinished)"
            } else {
                ""
            };
            label(
                &format!(
                    "{} to move{unfinished}",
                    describe::game_seat_name(game, seat)
                ),
                x + swatch,
                y,
                TEXT,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::game::GameSetup;

    fn cave_moves(names: &str) -> Vec<GameMove> {
        let squares = parlor_shared::cave::parse_moves(names).unwrap();
        squares.into_iter().map(GameMove::Cave).collect()
    }

    #[test]
    fn starts_at_the_last_move_and_steps_within_bounds() {
        let moves = cave_moves("a1 h1 b1 g1 c1");
        let mut view =
            ReplayView::new("t", vec![], GameSetup::Cave.start().unwrap(), moves).unwrap();
        assert_eq!(view.step, 5);
        view.next();
        assert_eq!(view.step, 5);
        view.previous();
        assert_eq!(view.step, 4);
        view.first();
        view.previous();
        assert_eq!(view.step, 0);
        assert_eq!(view.state(), &GameSetup::Cave.start().unwrap());
        view.next();
        assert_eq!(view.step, 1);
        view.last();
        assert_eq!(view.step, 5);
    }

    #[test]
    fn an_illegal_move_is_reported_not_replayed() {
        let error = ReplayView::new(
            "t",
            vec![],
            GameSetup::Cave.start().unwrap(),
            cave_moves("a1 a1"),
        )
        .err()
        .unwrap();
        assert!(error.starts_with("move 2 (a1)"), "{error}");
    }

    #[test]
    fn an_empty_game_has_one_state() {
        let mut view =
            ReplayView::new("t", vec![], GameSetup::Cave.start().unwrap(), vec![]).unwrap();
        view.next();
        assert_eq!(view.step, 0);
    }
}
