//! The lobby's Numeric Klotski room form: a board from `levels/klotski/` (read once, on first
//! show; a file that does not parse says why) or a random one, with a small preview, and who
//! solves it: the person here (the server checks each slide) or the server's solver (watched
//! slide by slide, then replayed).

use std::path::Path;

use macroquad::math::Rect;
use parlor_shared::game::GameSetup;
use parlor_shared::klotski::{KlotskiBoard, Puzzle, Shape};
use parlor_shared::protocol::{AiKind, SeatSpec};
use serde::{Deserialize, Serialize};

use super::board::{board_layout, draw_board};
use super::levels::{BoardFile, LEVELS_DIR, RANDOM_SIZES, load_boards, random_board};
use crate::gui::describe::{count_s, fit_by};
use crate::gui::lobby_choices::kept_position;
use crate::gui::widgets::{
    BUTTON_HEIGHT, DIM_TEXT, ERROR_TEXT, FormArea, Input, LINE_HEIGHT, TEXT, button,
    button_enabled, button_width, choice_row, create_room_button, label, text_width, toggle,
    wrap_to_width,
};
use crate::seed::clock_seed;

/// The solver's pace: one slide this often, so that a person can follow it.
pub const SOLVER_MOVE_MS: u32 = 300;
const PREVIEW_W: f32 = 120.0;
const PREVIEW_H: f32 = 96.0;

#[derive(Default)]
pub struct KlotskiLobbyForm {
    boards: Option<Vec<BoardFile>>,
    chosen: usize,
    /// The random board on offer, made when Random is first picked and by New.
    random: Option<Result<Puzzle, String>>,
    use_random: bool,
    size: usize,
    solver: bool,
    /// The board kept from the last run, chosen once the boards are read, if still there.
    kept_board: Option<String>,
}

/// What the window keeps of the form for its next run (`lobby_choices.rs`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KlotskiChoices {
    /// The board file's name (`None` when the boards were never read).
    board: Option<String>,
    /// Whether a random board was chosen rather than the file.
    random: bool,
    /// The random boards' size, by its name on its button ("4x4").
    random_size: String,
    solver: bool,
}

/// The one seat: the person here, or the server's solver at `solver_ms` a slide.
pub fn klotski_seat(solver_ms: Option<u32>) -> SeatSpec {
    match solver_ms {
        Some(move_ms) => SeatSpec::Ai {
            move_ms,
            kind: AiKind::Standard,
        },
        None => SeatSpec::Human,
    }
}

impl KlotskiLobbyForm {
    pub fn choices(&self) -> KlotskiChoices {
        let chosen = (self.boards.as_ref()).and_then(|boards| boards.get(self.chosen));
        let board = chosen
            .map(|file| file.name.clone())
            .or(self.kept_board.clone());
        KlotskiChoices {
            board,
            random: self.use_random,
            random_size: RANDOM_SIZES[self.size].0.to_string(),
            solver: self.solver,
        }
    }

    /// Takes the kept `choices` that the form offers: the board once the boards are read (a
    /// random one is made anew).
    pub fn recall(&mut self, choices: &KlotskiChoices) {
        self.solver = choices.solver;
        let size = RANDOM_SIZES
            .iter()
            .position(|&(name, ..)| name == choices.random_size);
        self.size = size.unwrap_or(self.size);
        self.use_random = choices.random;
        self.kept_board = choices.board.clone();
    }

    /// The boards read, with the kept one chosen if it is among them.
    fn take_boards(&mut self, boards: Vec<BoardFile>) {
        let names = boards.iter().map(|file| file.name.as_str());
        if let Some(index) = kept_position(&mut self.kept_board, names) {
            self.chosen = index;
        }
        self.boards = Some(boards);
    }

    /// The board chosen, or why there is none to play.
    fn puzzle(&self) -> Result<&Puzzle, String> {
        if self.use_random {
            return match &self.random {
                Some(made) => made.as_ref().map_err(Clone::clone),
                None => Err("Click New for a random board.".into()),
            };
        }
        let boards = self.boards.as_deref().unwrap_or_default();
        match boards.get(self.chosen) {
            Some(file) => file
                .puzzle
                .as_ref()
                .map_err(|why| format!("{}: {why}", file.name)),
            None => Err("No board chosen: pick one, or Random.".into()),
        }
    }

    /// The setup and seat of the room the form describes, if its board is one.
    pub fn room(&self) -> Option<(GameSetup, Vec<SeatSpec>)> {
        let puzzle = self.puzzle().ok()?;
        let setup = GameSetup::Klotski(KlotskiBoard::of(puzzle));
        let solver_ms = self.solver.then_some(SOLVER_MOVE_MS);
        Some((setup, vec![klotski_seat(solver_ms)]))
    }

    fn new_random(&mut self) {
        self.random = Some(random_board(self.size, clock_seed()));
    }

    /// Draws the form in `area`; returns the room to create when Create is clicked.
    pub fn update(
        &mut self,
        input: &Input,
        area: &FormArea,
        connected: bool,
    ) -> Option<(GameSetup, Vec<SeatSpec>)> {
        let (x, mut y, width) = (area.x, area.top, area.width);
        if self.boards.is_none() {
            self.take_boards(load_boards(Path::new(LEVELS_DIR)));
        }
        if self.use_random && self.random.is_none() {
            self.new_random();
        }
        let count = self.boards.as_ref().map_or(0, Vec::len);
        let left = x + 60.0;
        label("Board", x, y + 20.0, TEXT);
        let mut bx = left;
        for (text, step) in [("<", count.saturating_sub(1)), (">", 1)] {
            let rect = Rect::new(bx, y, 36.0, BUTTON_HEIGHT);
            if button_enabled(input, rect, text, count > 0) {
                self.use_random = false;
                self.chosen = (self.chosen + step) % count;
            }
            bx += rect.w + 6.0;
        }
        let rect = Rect::new(bx + 6.0, y, button_width("Random"), BUTTON_HEIGHT);
        if toggle(input, rect, "Random", self.use_random) {
            self.use_random = true;
            if self.random.is_none() {
                self.new_random();
            }
        }
        y += BUTTON_HEIGHT + 6.0;
        y = self.draw_source_line(input, left, y, x + width - left, count);
        y = self.draw_preview(left, y, x + width - left);
        label("Player", x, y + 20.0, TEXT);
        let players = [(false, "Solve it myself"), (true, "Server's solver")];
        choice_row(input, left, y, &players, &mut self.solver);
        let hint = self.solver.then_some("Watch it solve, then Replay.");
        let enabled = connected && self.room().is_some();
        create_room_button(input, area, enabled, hint.as_slice())
            .then(|| self.room())
            .flatten()
    }

    /// The file's name and place in the list, or the random sizes and New; returns the next y.
    fn draw_source_line(
        &mut self,
        input: &Input,
        left: f32,
        y: f32,
        width: f32,
        count: usize,
    ) -> f32 {
        if !self.use_random {
            let boards = self.boards.as_deref().unwrap_or_default();
            if let Some(file) = boards.get(self.chosen) {
                let text = source_line(&file.name, self.chosen, count, width, text_width);
                label(&text, left, y + 18.0, TEXT);
            }
            return y + LINE_HEIGHT + 6.0;
        }
        let mut bx = left;
        for (size, &(name, ..)) in RANDOM_SIZES.iter().enumerate() {
            let rect = Rect::new(bx, y, button_width(name), BUTTON_HEIGHT);
            if toggle(input, rect, name, self.size == size) && self.size != size {
                self.size = size;
                self.new_random();
            }
            bx += rect.w + 6.0;
        }
        if button(
            input,
            Rect::new(bx, y, button_width("New"), BUTTON_HEIGHT),
            "New",
        ) {
            self.new_random();
        }
        y + BUTTON_HEIGHT + 6.0
    }

    /// The chosen board small, with its size beside it, or why there is none; returns the next y.
    fn draw_preview(&self, left: f32, y: f32, width: f32) -> f32 {
        match self.puzzle() {
            Ok(puzzle) => {
                let area = Rect::new(left, y, PREVIEW_W, PREVIEW_H);
                let layout = board_layout(puzzle.rows(), puzzle.cols(), area);
                draw_board(&layout, puzzle, puzzle.start(), None);
                let blocks = puzzle.pieces().iter();
                let blocks = blocks.filter(|piece| piece.shape != Shape::Single).count();
                let facts = [
                    format!("{} x {}", puzzle.rows(), puzzle.cols()),
                    count_s(puzzle.blank_count() as u64, "blank"),
                    count_s(blocks as u64, "block"),
                ];
                let fx = left + PREVIEW_W + 12.0;
                for (line, fact) in facts.iter().enumerate() {
                    label(fact, fx, y + 18.0 + line as f32 * LINE_HEIGHT, DIM_TEXT);
                }
                y + PREVIEW_H + 8.0
            }
            Err(reason) => {
                let mut line_y = y + 18.0;
                for line in wrap_to_width(&reason, width).iter().take(4) {
                    label(line, left, line_y, ERROR_TEXT);
                    line_y += LINE_HEIGHT;
                }
                y + PREVIEW_H + 8.0
            }
        }
    }
}

/// A board file's name and place in the list, "name.in (12 of 32)", at most `width` wide as
/// `measure` measures it: a long name is cut, its place kept.
fn source_line(
    name: &str,
    index: usize,
    count: usize,
    width: f32,
    measure: impl Fn(&str) -> f32,
) -> String {
    let place = format!(" ({} of {count})", index + 1);
    let room = width - measure(&place);
    format!("{}{place}", fit_by(name, room, measure))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_file_name_is_cut_and_its_place_kept() {
        let name = "mahynotch_test_2_spec_sample.in";
        let chars = |text: &str| text.chars().count() as f32;
        assert_eq!(
            source_line(name, 11, 32, 60.0, chars),
            format!("{name} (12 of 32)")
        );
        let cut = source_line(name, 11, 32, 34.0, chars);
        assert_eq!(cut, "mahynotch_test_2_spe... (12 of 32)");
    }

    #[test]
    fn the_player_is_a_person_or_the_standard_solver_at_a_watchable_pace() {
        assert_eq!(klotski_seat(None), SeatSpec::Human);
        assert_eq!(
            klotski_seat(Some(SOLVER_MOVE_MS)),
            SeatSpec::Ai {
                move_ms: 300,
                kind: AiKind::Standard
            }
        );
    }

    #[test]
    fn a_bad_file_is_no_room_and_says_its_name_and_reason() {
        let mut form = KlotskiLobbyForm {
            boards: Some(vec![BoardFile {
                name: "bad.in".into(),
                puzzle: Err("line 3: number 2 is repeated".into()),
            }]),
            ..KlotskiLobbyForm::default()
        };
        assert_eq!(form.room(), None);
        assert_eq!(
            form.puzzle().unwrap_err(),
            "bad.in: line 3: number 2 is repeated"
        );
        form.boards = Some(Vec::new());
        assert!(form.puzzle().unwrap_err().contains("or Random"));
        form.use_random = true;
        form.new_random();
        let (setup, seats) = form.room().unwrap();
        assert!(setup.start().is_ok());
        assert_eq!(seats, vec![SeatSpec::Human]);
    }

    #[test]
    fn the_kept_board_is_chosen_by_name_and_random_and_its_size_are_kept() {
        let boards = || load_boards(Path::new("/nonexistent"));
        assert!(boards().len() >= 3, "the built-in boards");
        let mut used = KlotskiLobbyForm::default();
        used.take_boards(boards());
        used.chosen = 2;
        used.solver = true;
        let mut next_run = KlotskiLobbyForm::default();
        next_run.recall(&used.choices());
        next_run.take_boards(boards());
        assert_eq!(next_run.room(), used.room());

        used.use_random = true;
        used.size = 1;
        let mut random = KlotskiLobbyForm::default();
        random.recall(&used.choices());
        random.take_boards(boards());
        assert!(random.use_random && random.size == 1 && random.solver);

        // A form never shown this run keeps what it was: not Random.
        let mut unopened = KlotskiLobbyForm::default();
        unopened.recall(&KlotskiLobbyForm::default().choices());
        assert!(!unopened.use_random);
        unopened.take_boards(boards());
        assert_eq!(unopened.chosen, 0);

        let mut edited = used.choices();
        edited.random_size = "99x99".into();
        let mut form = KlotskiLobbyForm::default();
        form.recall(&edited);
        assert_eq!(form.size, 0, "a size not offered is no choice");
    }
}
