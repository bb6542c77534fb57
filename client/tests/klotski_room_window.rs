//! Numeric Klotski rooms in the window under Xvfb: the client with its embedded server opens a
//! room on a course board by itself (the hidden `--open-room`), makes the given slides by
//! clicking the pieces as a person would, or watches the server's solver, and saves a
//! screenshot once the room shows them. The tests read every cell's colour (tile, block or
//! blank) against the position the rules give. Without `xvfb-run` they are skipped with a
//! note, except in CI.

mod common;

use common::klotski::{LEVEL, goal_grid, level, level_puzzle, wrong_cells};
use common::{Screenshot, have_xvfb, open_room, run_open_room, scratch};
use macroquad::math::Rect;
use parlor_client::gui::klotski::room_layout;
use parlor_client::gui::{ERROR_TEXT, TOP_BAR_HEIGHT, WINDOW_HEIGHT, WINDOW_WIDTH, side_panel_x};
use parlor_shared::klotski::{Move, Puzzle};

/// The `--open-room` words for the course board followed by `words`.
fn room_on_level(words: &str) -> String {
    format!("klotski {} {words}", level(LEVEL).display())
}

/// The board's cells after `slides` (`9 L` each), as the rules give them.
fn grid_after(puzzle: &Puzzle, slides: &[&str]) -> Vec<u16> {
    let moves: Vec<Move> = slides.iter().map(|slide| slide.parse().unwrap()).collect();
    puzzle.grid(&puzzle.replay(&moves).expect("legal slides"))
}

/// The room's board cells that do not show `grid`.
fn wrong_board_cells(shot: &Screenshot, puzzle: &Puzzle, grid: &[u16]) -> Vec<usize> {
    let layout = room_layout(WINDOW_WIDTH as f32, WINDOW_HEIGHT as f32);
    wrong_cells(shot, puzzle, grid, layout.board)
}

/// How many pixels of the side panel, under the top bar, are in the colour of a refusal.
fn refusal_pixels(shot: &Screenshot) -> usize {
    let left = side_panel_x(WINDOW_WIDTH as f32);
    let panel = Rect::new(
        left,
        TOP_BAR_HEIGHT,
        WINDOW_WIDTH as f32 - left,
        WINDOW_HEIGHT as f32 - TOP_BAR_HEIGHT,
    );
    shot.lit_pixels(panel, ERROR_TEXT)
}

#[test]
fn slides_clicked_by_hand_leave_the_board_the_rules_give() {
    // 5 may go left or right (the click leans left); 1 and then 2 only down.
    let Some(shot) = open_room(&room_on_level("5L 1D 2D")) else {
        return;
    };
    let puzzle = level_puzzle();
    let grid = grid_after(&puzzle, &["5 L", "1 D", "2 D"]);
    assert_ne!(grid, puzzle.grid(puzzle.start()));
    let wrong = wrong_board_cells(&shot, &puzzle, &grid);
    assert!(wrong.is_empty(), "cells {wrong:?} show the wrong colour");
    assert_eq!(refusal_pixels(&shot), 0, "no slide was refused");
}

#[test]
fn the_solver_plays_to_the_goal_and_its_stored_game_replays_to_it() {
    let puzzle = level_puzzle();
    let goal = goal_grid(&puzzle);
    assert_ne!(goal, puzzle.grid(puzzle.start()));
    let Some(shot) = open_room(&room_on_level("solver 100ms")) else {
        return;
    };
    let wrong = wrong_board_cells(&shot, &puzzle, &goal);
    assert!(wrong.is_empty(), "room: cells {wrong:?} are not the goal's");
    // The replay opens at the last slide, on the same place as the room's board.
    let Some(shot) = open_room(&room_on_level("solver 50ms replay")) else {
        return;
    };
    let wrong = wrong_board_cells(&shot, &puzzle, &goal);
    assert!(
        wrong.is_empty(),
        "replay: cells {wrong:?} are not the goal's"
    );
}

#[test]
fn a_click_on_a_piece_that_cannot_slide_is_refused_and_moves_nothing() {
    // After 9 L, piece 2 has the 6/10 block left, the 2x2 block right and 1 under it.
    let Some(shot) = open_room(&room_on_level("9L 2R")) else {
        return;
    };
    let puzzle = level_puzzle();
    let wrong = wrong_board_cells(&shot, &puzzle, &grid_after(&puzzle, &["9 L"]));
    assert!(wrong.is_empty(), "cells {wrong:?} moved");
    let red = refusal_pixels(&shot);
    assert!(red > 50, "the reason is shown: {red} pixels");
}

#[test]
fn a_board_file_that_does_not_parse_opens_no_window() {
    if !have_xvfb() {
        return;
    }
    let dir = scratch();
    let bad = dir.path().join("bad.in");
    std::fs::write(&bad, "2 2\n1 2\n2 0\n0\n").unwrap();
    let (output, png) = run_open_room(dir.path(), &format!("klotski {} 1R", bad.display()));
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "--open-room: {}: line 3: number 2 is repeated",
            bad.display()
        )),
        "{stderr}"
    );
    assert!(!png.exists(), "no screenshot: the window never opened");
    let other = scratch();
    let (output, _) = run_open_room(other.path(), &room_on_level("9Q"));
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("\"9Q\" is not solver"), "{stderr}");
}
