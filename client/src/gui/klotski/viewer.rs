//! `client klotski gui`: a puzzle's solution in a window of its own. The board on the left
//! (the piece that moves slides), the answer and "step k of n" above it, Start / Back / Next /
//! End buttons under it (and the arrow, Home and End keys), the goal picture on the right.

use std::fmt;
use std::path::Path;
use std::process::ExitCode;
use std::str::FromStr;

use crate::gui::canvas::{canvas_height, canvas_width};
use anyhow::bail;
use macroquad::color::Color;
use macroquad::input::{KeyCode, is_key_pressed};
use macroquad::math::Rect;
use macroquad::shapes::draw_rectangle;
use macroquad::time::get_time;
use parlor_engines::klotski::Verdict;
use parlor_shared::klotski::{Puzzle, Shape};

use super::board::{BoardLayout, board_layout, draw_board, draw_goal, piece_at};
use super::walk::{Walk, count_steps};
use crate::gui::describe::count_s;
use crate::gui::widgets::{
    BUTTON_HEIGHT, DIM_TEXT, ERROR_TEXT, GOOD_TEXT, Input, LINE_HEIGHT, PANEL, TEXT,
    button_enabled, button_width, heading, label, wrap_to_width,
};
use crate::gui::widgets::{SIDE_PANEL_WIDTH, TOP_BAR_HEIGHT};
use crate::gui::{KLOTSKI_CONSOLE, check_display, draw_title_bar, run_window, writable_png_path};

/// Margin around the board and inside the side panel.
const MARGIN: f32 = 16.0;
/// Room above the board for the answer (up to [`SUMMARY_LINES`] lines) and the step line.
const INFO_BAND: f32 = 96.0;
const SUMMARY_LINES: usize = 2;
/// Room under the board for the buttons.
const BUTTON_BAND: f32 = 56.0;
/// Height of the goal picture's area in the side panel.
const GOAL_HEIGHT: f32 = 240.0;

/// The step the window opens at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartStep {
    At(usize),
    End,
}

impl StartStep {
    /// The step number in a solution of `steps` steps; past the end is an error.
    pub fn resolve(self, steps: usize) -> anyhow::Result<usize> {
        match self {
            StartStep::End => Ok(steps),
            StartStep::At(step) if step <= steps => Ok(step),
            StartStep::At(step) => {
                bail!("--step {step} is past the end: {}", steps_shown(steps))
            }
        }
    }
}

/// "the solution has 17 steps", or "there is no solution to step through".
fn steps_shown(steps: usize) -> String {
    match steps {
        0 => "there is no solution to step through".into(),
        _ => format!("the solution has {}", count_steps(steps)),
    }
}

/// A step number, or `end`.
impl FromStr for StartStep {
    type Err = String;

    fn from_str(text: &str) -> Result<StartStep, String> {
        if text.eq_ignore_ascii_case("end") {
            return Ok(StartStep::End);
        }
        text.parse()
            .map(StartStep::At)
            .map_err(|_| format!("{text:?} is not a step: give a number from 0, or `end`"))
    }
}

impl fmt::Display for StartStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartStep::At(step) => write!(f, "{step}"),
            StartStep::End => f.write_str("end"),
        }
    }
}

/// Where the viewer's parts sit on a `screen_w` x `screen_h` window. The board's own grid is
/// [`board_layout`] of the puzzle's size in `board`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewerLayout {
    /// The area the board is centred in.
    pub board: Rect,
    /// The area the goal picture is centred in.
    pub goal: Rect,
    /// Top of the button row.
    pub buttons_y: f32,
}

pub fn viewer_layout(screen_w: f32, screen_h: f32) -> ViewerLayout {
    let board_top = TOP_BAR_HEIGHT + INFO_BAND;
    let side_x = screen_w - SIDE_PANEL_WIDTH;
    ViewerLayout {
        board: Rect::new(
            MARGIN,
            board_top,
            (side_x - 2.0 * MARGIN).max(0.0),
            (screen_h - board_top - BUTTON_BAND).max(0.0),
        ),
        goal: Rect::new(
            side_x + MARGIN,
            TOP_BAR_HEIGHT + 50.0,
            SIDE_PANEL_WIDTH - 2.0 * MARGIN,
            GOAL_HEIGHT,
        ),
        buttons_y: screen_h - BUTTON_BAND + (BUTTON_BAND - BUTTON_HEIGHT) / 2.0,
    }
}

/// The colour of the answer line: proved shortest, a solution, no solution, no answer.
fn verdict_color(verdict: &Verdict) -> Color {
    match verdict {
        Verdict::Solved {
            proved_shortest: true,
            ..
        } => GOOD_TEXT,
        Verdict::Solved { .. } => TEXT,
        Verdict::Unsolvable(_) => ERROR_TEXT,
        Verdict::Undecided => DIM_TEXT,
    }
}

/// What the user asked for this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    Start,
    Back,
    Next,
    End,
    Close,
}

/// The viewer's state: the puzzle, its walk and the answer line.
struct KlotskiViewer {
    puzzle: Puzzle,
    walk: Walk,
    summary: String,
    summary_color: Color,
}

impl KlotskiViewer {
    /// Handles this frame's keys and buttons, draws everything, and says whether to close.
    fn frame(&mut self, input: &Input, now: f64) -> bool {
        let layout = viewer_layout(canvas_width(), canvas_height());
        let keys = [
            (KeyCode::Home, Action::Start),
            (KeyCode::Left, Action::Back),
            (KeyCode::Right, Action::Next),
            (KeyCode::End, Action::End),
            (KeyCode::Escape, Action::Close),
        ];
        let pressed = keys
            .into_iter()
            .find(|&(key, _)| is_key_pressed(key))
            .map(|(_, action)| action);
        let clicked = self.draw(input, &layout, now);
        match pressed.or(clicked) {
            Some(Action::Start) => self.walk.jump(0),
            Some(Action::Back) => {
                self.walk.back(now);
            }
            Some(Action::Next) => {
                self.walk.forward(now);
            }
            Some(Action::End) => self.walk.jump(self.walk.steps()),
            Some(Action::Close) => return true,
            None => {}
        }
        false
    }

    /// Draws the window; returns the button clicked (a click on the piece that moves next is
    /// Next), if any.
    fn draw(&self, input: &Input, layout: &ViewerLayout, now: f64) -> Option<Action> {
        draw_title_bar("Numeric Klotski: Right/Left arrows step, Home/End jump, Escape closes");
        let mut y = TOP_BAR_HEIGHT + 28.0;
        for line in wrap_to_width(&self.summary, layout.board.w)
            .iter()
            .take(SUMMARY_LINES)
        {
            label(line, MARGIN, y, self.summary_color);
            y += LINE_HEIGHT;
        }
        let step_y = TOP_BAR_HEIGHT + 28.0 + SUMMARY_LINES as f32 * LINE_HEIGHT + 6.0;
        label(&self.step_line(), MARGIN, step_y, TEXT);
        let (rows, cols) = (self.puzzle.rows(), self.puzzle.cols());
        let board = board_layout(rows, cols, layout.board);
        draw_board(
            &board,
            &self.puzzle,
            self.walk.position(),
            self.walk.motion(now),
        );
        self.draw_side_panel(layout);
        let on_next_piece = clicks_next_piece(input, &board, &self.puzzle, &self.walk);
        let button = self.buttons(input, layout.buttons_y);
        button.or(on_next_piece.then_some(Action::Next))
    }

    /// "step k of n - moved 9 L - next 5 U".
    fn step_line(&self) -> String {
        if self.walk.steps() == 0 {
            return "the start position: no steps to show".into();
        }
        let mut line = self.walk.counter();
        if let Some(mv) = self.walk.last_move() {
            line += &format!(" - moved {mv}");
        }
        match self.walk.next_move() {
            Some(mv) => line += &format!(" - next {mv}"),
            None => line += " - solved",
        }
        line
    }

    fn draw_side_panel(&self, layout: &ViewerLayout) {
        let x = canvas_width() - SIDE_PANEL_WIDTH;
        draw_rectangle(
            x,
            TOP_BAR_HEIGHT,
            SIDE_PANEL_WIDTH,
            canvas_height() - TOP_BAR_HEIGHT,
            PANEL,
        );
        heading("Goal", x + MARGIN, TOP_BAR_HEIGHT + 34.0);
        let (rows, cols) = (self.puzzle.rows(), self.puzzle.cols());
        draw_goal(&board_layout(rows, cols, layout.goal), &self.puzzle);
        let blocks = self.puzzle.pieces().iter();
        let blocks = blocks.filter(|piece| piece.shape != Shape::Single).count();
        let facts = [
            format!(
                "{rows} x {cols} board, {} numbers",
                self.puzzle.number_count()
            ),
            format!(
                "{}, {}",
                count_s(self.puzzle.blank_count() as u64, "blank"),
                count_s(blocks as u64, "block")
            ),
        ];
        let mut y = layout.goal.bottom() + 30.0;
        for fact in facts {
            label(&fact, x + MARGIN, y, DIM_TEXT);
            y += LINE_HEIGHT;
        }
        y += LINE_HEIGHT;
        for hint in ["A click on the piece that", "moves next is Next."] {
            label(hint, x + MARGIN, y, DIM_TEXT);
            y += LINE_HEIGHT;
        }
    }

    /// The button row; greyed out where there is nowhere to go.
    fn buttons(&self, input: &Input, y: f32) -> Option<Action> {
        let walk = &self.walk;
        let row = [
            ("|< Start", Action::Start, !walk.at_start()),
            ("< Back", Action::Back, !walk.at_start()),
            ("Next >", Action::Next, !walk.at_end()),
            ("End >|", Action::End, !walk.at_end()),
            ("Quit", Action::Close, true),
        ];
        let mut x = MARGIN;
        let mut clicked = None;
        for (text, action, enabled) in row {
            let rect = Rect::new(x, y, button_width(text).max(90.0), BUTTON_HEIGHT);
            if button_enabled(input, rect, text, enabled) {
                clicked = Some(action);
            }
            x += rect.w + 10.0;
        }
        clicked
    }
}

/// Whether this frame's click is on the piece that moves next.
fn clicks_next_piece(input: &Input, board: &BoardLayout, puzzle: &Puzzle, walk: &Walk) -> bool {
    let (x, y) = (input.mouse.x, input.mouse.y);
    input.clicked
        && walk
            .next_move()
            .is_some_and(|mv| piece_at(board, puzzle, walk.position(), x, y) == Some(mv.label))
}

/// A window that can open: its screenshot path is writable and there is a display. Checked
/// before the (possibly long) solve, so that a mistake costs no waiting.
pub struct ViewerWindow {
    screenshot: Option<String>,
}

impl ViewerWindow {
    /// Checks that `screenshot` (save the window as PNG after a few frames and close it) can
    /// be written and that a display is there.
    pub fn check(screenshot: Option<&Path>) -> anyhow::Result<ViewerWindow> {
        let screenshot = screenshot.map(writable_png_path).transpose()?;
        check_display(KLOTSKI_CONSOLE)?;
        Ok(ViewerWindow { screenshot })
    }

    /// Opens the window on `puzzle` with the solver's `verdict` (its moves, if solved) and
    /// the one-line `summary` of it, at step `start`; a step past the end is an error.
    pub fn show(
        self,
        puzzle: &Puzzle,
        verdict: &Verdict,
        summary: String,
        start: StartStep,
    ) -> anyhow::Result<ExitCode> {
        let moves = match verdict {
            Verdict::Solved { moves, .. } => moves.clone(),
            Verdict::Unsolvable(_) | Verdict::Undecided => Vec::new(),
        };
        let mut walk = Walk::new(puzzle, moves)
            .map_err(|(index, error)| anyhow::anyhow!("step {}: {error}", index + 1))?;
        walk.jump(start.resolve(walk.steps())?);
        let mut viewer = KlotskiViewer {
            puzzle: puzzle.clone(),
            walk,
            summary,
            summary_color: verdict_color(verdict),
        };
        run_window("Parlor - Numeric Klotski", self.screenshot, move |input| {
            viewer.frame(input, get_time())
        })?;
        Ok(ExitCode::SUCCESS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::{WINDOW_HEIGHT, WINDOW_WIDTH};

    #[test]
    fn a_start_step_is_a_number_or_end_and_past_the_end_is_refused() {
        assert_eq!("end".parse(), Ok(StartStep::End));
        assert_eq!("END".parse(), Ok(StartStep::End));
        assert_eq!("3".parse(), Ok(StartStep::At(3)));
        assert!("-1".parse::<StartStep>().is_err());
        assert!("last".parse::<StartStep>().is_err());
        assert_eq!(StartStep::End.resolve(17).unwrap(), 17);
        assert_eq!(StartStep::At(0).resolve(0).unwrap(), 0);
        assert_eq!(StartStep::At(17).resolve(17).unwrap(), 17);
        let error = StartStep::At(18).resolve(17).unwrap_err().to_string();
        assert!(error.ends_with("the solution has 17 steps"), "{error}");
        let error = StartStep::At(1).resolve(0).unwrap_err().to_string();
        assert!(error.ends_with("no solution to step through"), "{error}");
    }

    #[test]
    fn a_click_on_the_piece_that_moves_next_is_next_and_elsewhere_nothing() {
        let text = include_str!("../../../../levels/klotski/lunaqu4kez_extra_04.in");
        let puzzle = parlor_shared::klotski::parse_puzzle(text).unwrap();
        // The shortest solution's first step; 9 stands on cell 11, 5 on cell 9.
        let moves = vec!["9 L".parse().unwrap()];
        let mut walk = Walk::new(&puzzle, moves).unwrap();
        let board = board_layout(3, 4, viewer_layout(1024.0, 768.0).board);
        let click = |cell: u8, clicked: bool| Input {
            mouse: board.cell_rect(cell).center(),
            clicked,
            typed: Vec::new(),
            wheel: 0.0,
        };
        assert!(clicks_next_piece(&click(11, true), &board, &puzzle, &walk));
        assert!(!clicks_next_piece(
            &click(11, false),
            &board,
            &puzzle,
            &walk
        ));
        assert!(!clicks_next_piece(&click(9, true), &board, &puzzle, &walk));
        assert!(!clicks_next_piece(&click(10, true), &board, &puzzle, &walk));
        walk.jump(1);
        assert!(!clicks_next_piece(&click(10, true), &board, &puzzle, &walk));
    }

    #[test]
    fn board_goal_and_buttons_share_the_window_without_overlapping() {
        let sizes = [
            (WINDOW_WIDTH, WINDOW_HEIGHT),
            (800, 600),
            (1366, 768),
            (1920, 1080),
        ];
        for (w, h) in sizes.map(|(w, h)| (w as f32, h as f32)) {
            let layout = viewer_layout(w, h);
            assert!(layout.board.y >= TOP_BAR_HEIGHT + INFO_BAND);
            assert!(layout.board.right() <= layout.goal.x - MARGIN);
            assert!(layout.board.bottom() <= layout.buttons_y);
            assert!(layout.buttons_y + BUTTON_HEIGHT <= h);
            assert!(layout.goal.right() <= w && layout.goal.y > TOP_BAR_HEIGHT);
            // The board's area is a good share of what the top bar leaves.
            let side = layout.board.w.min(layout.board.h);
            assert!(
                side > 0.55 * w.min(h - TOP_BAR_HEIGHT),
                "{w}x{h}: {layout:?}"
            );
        }
    }
}
