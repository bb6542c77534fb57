//! The Numeric Klotski window under Xvfb (`client klotski gui --step S --screenshot PNG <
//! input`), judged by the pixels of its own screenshot: at the end of the solution every cell
//! shows the goal (tile, block or blank colour), at step 0 the start. Bad input opens no window.
//! Without `xvfb-run` it is skipped with a note, except in CI.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Output;

mod common;

use common::{Screenshot, close_to, have_xvfb, run_under_xvfb_reading};

use macroquad::color::Color;
use parlor_client::gui::klotski::{BLANK, BLOCK, TILE, board_layout, viewer_layout};
use parlor_client::gui::{WINDOW_HEIGHT, WINDOW_WIDTH};
use parlor_shared::klotski::{Puzzle, Shape, parse_puzzle};

/// 3x4 with a 2x1 block (6/10), a 2x2 block (3/4/7/8) and two blanks; 17 steps.
const LEVEL: &str = "lunaqu4kez_extra_04.in";

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("parlor-klotski-{}-{name}", std::process::id()))
}

fn level(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../levels/klotski")
        .join(name)
}

fn run_gui(input: &Path, step: &str, png: &Path) -> Output {
    let args = [
        "klotski".as_ref(),
        "gui".as_ref(),
        "--step".as_ref(),
        step.as_ref(),
        "--screenshot".as_ref(),
        png.as_os_str(),
    ];
    run_under_xvfb_reading(&args, File::open(input).expect("input file"))
}

/// Runs the window on `input` (written to a file named after `name`) at `step`; returns the
/// output and where the screenshot would be, removed beforehand.
fn run_gui_on_text(name: &str, input: &str, step: &str) -> (Output, PathBuf) {
    let file = temp(&format!("{name}.in"));
    std::fs::write(&file, input).unwrap();
    let png = temp(&format!("{name}.png"));
    let _ = std::fs::remove_file(&png);
    let output = run_gui(&file, step, &png);
    let _ = std::fs::remove_file(&file);
    (output, png)
}

/// The colour each cell must show when the board reads `grid` (row-major, 0 = blank).
fn expected_colors(puzzle: &Puzzle, grid: &[u16]) -> Vec<Color> {
    let shape_of = |number: u16| {
        let piece = puzzle
            .pieces()
            .iter()
            .find(|p| p.numbers().contains(&number));
        piece.expect("every number is on a piece").shape
    };
    grid.iter()
        .map(|&number| match number {
            0 => BLANK,
            n if shape_of(n) == Shape::Single => TILE,
            _ => BLOCK,
        })
        .collect()
}

/// What each cell shows on the screenshot: the colour a fifth of a cell in from its left edge
/// (inside any piece, clear of its outline and of the number in the middle), by cell.
fn shown_colors(shot: &Screenshot, puzzle: &Puzzle, expected: &[Color]) -> Vec<bool> {
    let area = viewer_layout(shot.width as f32, shot.height as f32).board;
    let layout = board_layout(puzzle.rows(), puzzle.cols(), area);
    expected
        .iter()
        .enumerate()
        .map(|(cell, &want)| {
            let rect = layout.cell_rect(cell as u8);
            close_to(
                shot.pixel(rect.x + rect.w * 0.2, rect.y + rect.h / 2.0),
                want,
            )
        })
        .collect()
}

/// Runs the window at `step` and checks every cell against `grid`; returns standard error.
fn check_cells(puzzle: &Puzzle, step: &str, grid: &[u16]) -> String {
    let png = temp(&format!("step-{step}.png"));
    let output = run_gui(&level(LEVEL), step, &png);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "client failed: {stderr}");
    assert!(
        output.stdout.is_empty(),
        "the answer goes to standard error"
    );
    let shot = Screenshot::read(&png);
    assert_eq!(
        (shot.width, shot.height),
        (WINDOW_WIDTH as u32, WINDOW_HEIGHT as u32)
    );
    let expected = expected_colors(puzzle, grid);
    let shown = shown_colors(&shot, puzzle, &expected);
    let wrong: Vec<usize> = (0..grid.len()).filter(|&cell| !shown[cell]).collect();
    assert!(
        wrong.is_empty(),
        "step {step}: cells {wrong:?} show the wrong colour"
    );
    let _ = std::fs::remove_file(&png);
    stderr
}

#[test]
fn the_last_step_shows_the_goal_and_step_0_the_start() {
    if !have_xvfb() {
        return;
    }
    let puzzle = parse_puzzle(&std::fs::read_to_string(level(LEVEL)).unwrap()).unwrap();
    let count = puzzle.number_count() as u16;
    let goal: Vec<u16> = (1..=count)
        .chain(std::iter::repeat(0))
        .take(usize::from(puzzle.rows()) * usize::from(puzzle.cols()))
        .collect();
    let start = puzzle.grid(puzzle.start());
    // The two pictures differ in where the blanks are, so neither check passes for the other.
    assert_ne!(
        expected_colors(&puzzle, &goal),
        expected_colors(&puzzle, &start)
    );
    let stderr = check_cells(&puzzle, "end", &goal);
    assert!(
        stderr.contains("Yes: 17 steps, proved shortest"),
        "{stderr}"
    );
    check_cells(&puzzle, "0", &start);
}

#[test]
fn bad_input_is_a_line_numbered_error_with_exit_1_and_no_window() {
    if !have_xvfb() {
        return;
    }
    let (output, png) = run_gui_on_text("bad", "2 2\n1 2\n2 0\n0\n", "0");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("the puzzle on standard input: line 3: number 2 is repeated"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());
    assert!(!png.exists(), "no screenshot: the window never opened");
}

#[test]
fn an_unsolvable_puzzle_shows_its_start_and_says_why_on_standard_error() {
    if !have_xvfb() {
        return;
    }
    let input = "2 2\n2 1\n0 3\n0\n";
    let (output, png) = run_gui_on_text("no", input, "end");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "client failed: {stderr}");
    assert!(stderr.contains("No solution: one blank"), "{stderr}");
    let puzzle = parse_puzzle(input).unwrap();
    let shot = Screenshot::read(&png);
    let expected = expected_colors(&puzzle, &puzzle.grid(puzzle.start()));
    assert_eq!(expected[2], BLANK);
    assert!(shown_colors(&shot, &puzzle, &expected).iter().all(|&ok| ok));
    let _ = std::fs::remove_file(&png);
}
