//! The Numeric Klotski windows under Xvfb, judged by the pixels of their own screenshots. The
//! solution viewer (`client klotski gui --step S --screenshot PNG < input`): at the end of the
//! solution every cell shows the goal (tile, block or blank colour), at step 0 the start. The
//! room game's replay view (`client klotski show --moves FILE --step S ...`): the board after
//! S slides and the goal picture beside it. Bad input opens no window. Without `xvfb-run` the
//! tests are skipped with a note, except in CI.

use std::fs::File;
use std::path::Path;
use std::process::Output;

mod common;

use common::klotski::{
    LEVEL, expected_colors, goal_grid, level, level_puzzle, shown_colors, wrong_cells,
};
use common::{Screenshot, have_xvfb, run_under_xvfb_reading, scratch};

use macroquad::math::Rect;
use parlor_client::gui::klotski::{BLANK, room_layout, viewer_layout};
use parlor_client::gui::{WINDOW_HEIGHT, WINDOW_WIDTH};
use parlor_shared::klotski::{Move, Puzzle, parse_puzzle};

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

/// Writes `text` to a file in a scratch directory and runs `run` with it and a screenshot path
/// there; returns the output and the screenshot, if the client took one.
fn run_on_text(
    text: &str,
    run: impl FnOnce(&Path, &Path) -> Output,
) -> (Output, Option<Screenshot>) {
    let dir = scratch();
    let file = dir.path().join("input.txt");
    std::fs::write(&file, text).unwrap();
    let png = dir.path().join("screenshot.png");
    let output = run(&file, &png);
    (output, png.exists().then(|| Screenshot::read(&png)))
}

/// Runs the window on `input` at `step`.
fn run_gui_on_text(input: &str, step: &str) -> (Output, Option<Screenshot>) {
    run_on_text(input, |file, png| run_gui(file, step, png))
}

/// The viewer's board area on the screenshot.
fn viewer_board(shot: &Screenshot) -> Rect {
    viewer_layout(shot.width as f32, shot.height as f32).board
}

/// Runs the window at `step` and checks every cell against `grid`; returns standard error.
fn check_cells(puzzle: &Puzzle, step: &str, grid: &[u16]) -> String {
    let dir = scratch();
    let png = dir.path().join("screenshot.png");
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
    let shown = shown_colors(&shot, puzzle, &expected, viewer_board(&shot));
    let wrong: Vec<usize> = (0..grid.len()).filter(|&cell| !shown[cell]).collect();
    assert!(
        wrong.is_empty(),
        "step {step}: cells {wrong:?} show the wrong colour"
    );
    stderr
}

#[test]
fn the_last_step_shows_the_goal_and_step_0_the_start() {
    if !have_xvfb() {
        return;
    }
    let puzzle = level_puzzle();
    let goal = goal_grid(&puzzle);
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
    let (output, shot) = run_gui_on_text("2 2\n1 2\n2 0\n0\n", "0");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("the puzzle: line 3: number 2 is repeated"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());
    assert!(shot.is_none(), "no screenshot: the window never opened");
}

#[test]
fn an_unsolvable_puzzle_shows_its_start_and_says_why_on_standard_error() {
    if !have_xvfb() {
        return;
    }
    let input = "2 2\n2 1\n0 3\n0\n";
    let (output, shot) = run_gui_on_text(input, "end");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "client failed: {stderr}");
    assert!(stderr.contains("No solution: one blank"), "{stderr}");
    let puzzle = parse_puzzle(input).unwrap();
    let shot = shot.expect("a screenshot");
    let expected = expected_colors(&puzzle, &puzzle.grid(puzzle.start()));
    assert_eq!(expected[2], BLANK);
    let shown = shown_colors(&shot, &puzzle, &expected, viewer_board(&shot));
    assert!(shown.iter().all(|&ok| ok));
}

/// Runs `client klotski show` on the level with a moves file of `moves` at `step`.
fn run_show(moves: &str, step: &str) -> (Output, Option<Screenshot>) {
    run_on_text(moves, |file, png| {
        let args = [
            "klotski".as_ref(),
            "show".as_ref(),
            "--moves".as_ref(),
            file.as_os_str(),
            "--step".as_ref(),
            step.as_ref(),
            "--screenshot".as_ref(),
            png.as_os_str(),
        ];
        run_under_xvfb_reading(&args, File::open(level(LEVEL)).expect("level"))
    })
}

/// `client klotski terminal`'s answer for the level.
fn terminal_answer() -> String {
    let solution = std::process::Command::new(common::CLIENT)
        .env(
            "PARLOR_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/parlor-home"),
        )
        .args(["klotski", "terminal"])
        .stdin(File::open(level(LEVEL)).unwrap())
        .output()
        .unwrap();
    String::from_utf8(solution.stdout).unwrap()
}

#[test]
fn the_replay_view_shows_the_board_after_the_chosen_slide_and_the_goal_beside_it() {
    if !have_xvfb() {
        return;
    }
    let puzzle = level_puzzle();
    let answer = terminal_answer();
    let moves: Vec<Move> = answer.lines().skip(2).map(|l| l.parse().unwrap()).collect();
    assert_eq!(moves.len(), 17, "{answer}");
    let goal = goal_grid(&puzzle);
    let layout = room_layout(WINDOW_WIDTH as f32, WINDOW_HEIGHT as f32);
    for step in [5, 17] {
        let (output, shot) = run_show(&answer, &step.to_string());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "client failed: {stderr}");
        let grid = puzzle.grid(&puzzle.replay(&moves[..step]).unwrap());
        if step == 5 {
            assert_ne!(
                expected_colors(&puzzle, &grid),
                expected_colors(&puzzle, &goal)
            );
        }
        let shot = shot.expect("a screenshot");
        let wrong = wrong_cells(&shot, &puzzle, &grid, layout.board);
        assert!(wrong.is_empty(), "step {step}: board cells {wrong:?}");
        let wrong = wrong_cells(&shot, &puzzle, &goal, layout.goal);
        assert!(wrong.is_empty(), "step {step}: goal cells {wrong:?}");
    }
}

#[test]
fn a_slide_that_cannot_be_made_opens_no_replay_window() {
    if !have_xvfb() {
        return;
    }
    // 9 stands at the right edge: 9 R leaves the board.
    let (output, shot) = run_show("9 L\n9 R\n9 R\n", "end");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("move 3 (9 R) cannot be replayed"),
        "{stderr}"
    );
    assert!(shot.is_none(), "no screenshot: the window never opened");
}

#[test]
fn a_solution_longer_than_a_rooms_step_limit_is_replayed_whole() {
    if !have_xvfb() {
        return;
    }
    let puzzle = level_puzzle();
    let answer = terminal_answer();
    // 9 steps left and back 510 times, then the solution: 1,037 slides, past a room's 1,000.
    let detour = "9 L\n9 R\n".repeat(510);
    let slides = format!(
        "{detour}{}",
        answer.lines().skip(2).collect::<Vec<_>>().join("\n")
    );
    assert_eq!(slides.lines().count(), 1037);
    let (output, shot) = run_show(&slides, "end");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "client failed: {stderr}");
    let layout = room_layout(WINDOW_WIDTH as f32, WINDOW_HEIGHT as f32);
    let shot = shot.expect("a screenshot");
    let wrong = wrong_cells(&shot, &puzzle, &goal_grid(&puzzle), layout.board);
    assert!(wrong.is_empty(), "board cells {wrong:?} are not the goal's");
}
