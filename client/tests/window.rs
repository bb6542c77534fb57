//! Window tests: the real `client` binary under Xvfb, judged by the pixels of its own
//! screenshot (`get_screen_data().export_png`, since grabbing an Xvfb screen from outside gives
//! a black image). Without `xvfb-run` they are skipped with a note, except in CI.

use std::process::Command;

mod common;

use common::{CLIENT, Screenshot, close_to, have_xvfb, open_room, run_under_xvfb, scratch};
use macroquad::color::Color;
use parlor_client::cli::bricks::parse_moves;
use parlor_client::gui::bricks::{
    BROKEN_FLOOR, OPEN_FLOOR, PENDING_BRICK, SAFE_FLOOR, TowerLayout, board_area, tower_layout,
};
use parlor_client::gui::cave::board::{
    BLACK_BRICK, EMPTY_CELL, LEGAL_CELL, WHITE_BRICK, board_layout, cell_center,
};
use parlor_client::gui::{WINDOW_HEIGHT, WINDOW_WIDTH};
use parlor_shared::bricks::{BricksGame, Setup};
use parlor_shared::cave::Square;

/// Runs the client under Xvfb with `args` plus `--screenshot PATH` and decodes the PNG.
fn screenshot(args: &[&str]) -> Option<Screenshot> {
    if !have_xvfb() {
        return None;
    }
    let dir = scratch();
    let path = dir.path().join("screenshot.png");
    let mut all: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    all.extend([std::ffi::OsStr::new("--screenshot"), path.as_os_str()]);
    let output = run_under_xvfb(&all);
    assert!(
        output.status.success(),
        "client failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(Screenshot::read(&path))
}

/// The colour at the centre of a Magnetic Cave cell.
fn cave_cell(shot: &Screenshot, name: &str) -> [u8; 3] {
    let layout = board_layout(shot.width as f32, shot.height as f32);
    let (x, y) = cell_center(layout, name.parse::<Square>().unwrap());
    shot.pixel(x, y)
}

#[test]
fn the_cave_board_shows_placed_bricks_in_their_cells() {
    // Black a1 b1 c1, White h1 g1: the pixels at those cells' centres must be brick colours,
    // and the untouched cells the empty colour, in the chess orientation (row 1 at the bottom).
    let Some(shot) = screenshot(&["cave", "show", "--moves", "a1 h1 b1 g1 c1"]) else {
        return;
    };
    assert_eq!(
        (shot.width, shot.height),
        (WINDOW_WIDTH as u32, WINDOW_HEIGHT as u32)
    );
    for cell in ["a1", "b1", "c1"] {
        assert!(
            close_to(cave_cell(&shot, cell), BLACK_BRICK),
            "{cell}: {:?}",
            cave_cell(&shot, cell)
        );
    }
    for cell in ["h1", "g1"] {
        assert!(
            close_to(cave_cell(&shot, cell), WHITE_BRICK),
            "{cell}: {:?}",
            cave_cell(&shot, cell)
        );
    }
    for cell in ["d1", "a2", "h8", "d4", "a8"] {
        assert!(
            close_to(cave_cell(&shot, cell), EMPTY_CELL),
            "{cell}: {:?}",
            cave_cell(&shot, cell)
        );
    }
}

#[test]
fn an_empty_cave_shows_only_empty_cells() {
    let Some(empty) = screenshot(&["cave", "show"]) else {
        return;
    };
    for square in Square::all() {
        let name = square.to_string();
        assert!(
            close_to(cave_cell(&empty, &name), EMPTY_CELL),
            "{name}: {:?}",
            cave_cell(&empty, &name)
        );
    }
}

#[test]
fn an_illegal_game_is_refused_before_any_window_opens() {
    let output = Command::new(CLIENT)
        .env(
            "PARLOR_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/parlor-home"),
        )
        .args(["cave", "show", "--moves", "a1 d4"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("move 2 (d4)"), "{stderr}");
}

/// The Dropping Bricks tower the window draws for a game, as the tests compute it.
struct Tower {
    layout: TowerLayout,
}

impl Tower {
    fn after(height: u64, drops: u64, bricks: u32, moves: &str) -> Tower {
        let mut game = BricksGame::new(Setup::new(height, drops, bricks).unwrap());
        for mv in parse_moves(moves).unwrap() {
            game = game.play(mv).unwrap();
        }
        let area = board_area(WINDOW_WIDTH as f32, WINDOW_HEIGHT as f32);
        Tower {
            layout: tower_layout(area, &game),
        }
    }
}

/// Runs `client bricks show` and checks the colour at the centre of each floor of the
/// detailed column (the close-up when there is one).
fn check_floors(setup: [&str; 3], moves: &str, floors: &[(u64, Color)]) {
    let [height, drops, bricks] = setup;
    let args = [
        "bricks", "show", "--height", height, "--drops", drops, "--bricks", bricks, "--moves",
        moves,
    ];
    let Some(shot) = screenshot(&args) else {
        return;
    };
    let tower = Tower::after(
        height.parse().unwrap(),
        drops.parse().unwrap(),
        bricks.parse().unwrap(),
        moves,
    );
    let column = tower.layout.close_up.unwrap_or(tower.layout.whole);
    for &(floor, colour) in floors {
        let (x, y) = column.floor_center(floor);
        let pixel = shot.pixel(x, y);
        assert!(
            close_to(pixel, colour),
            "floor {floor} at ({x}, {y}): {pixel:?}"
        );
    }
}

#[test]
fn the_bricks_tower_shades_safe_floors_green_and_broken_floors_red() {
    // Broken at 50, safe at 20: floors 1..=20 are safe, 21..=49 open, 50..=100 broken.
    let mut floors = vec![];
    floors.extend([1, 10, 20].map(|floor| (floor, SAFE_FLOOR)));
    floors.extend([21, 35, 49].map(|floor| (floor, OPEN_FLOOR)));
    floors.extend([50, 75, 100].map(|floor| (floor, BROKEN_FLOOR)));
    check_floors(
        ["100", "14", "2"],
        "drop 50, broken, drop 20, safe",
        &floors,
    );
}

#[test]
fn a_drop_waiting_for_its_answer_shows_a_brick_on_its_floor() {
    check_floors(
        ["100", "14", "2"],
        "drop 50, broken, drop 20, safe, drop 35",
        &[(35, PENDING_BRICK), (30, OPEN_FLOOR), (40, OPEN_FLOOR)],
    );
}

#[test]
fn a_tall_tower_shows_the_open_floors_in_a_close_up() {
    // A million floors cannot have a pixel each; the close-up shows 1000..=1040.
    let tower = Tower::after(1_000_000, 30, 3, "drop 1040, broken, drop 1000, safe");
    let close_up = tower.layout.close_up.expect("a close-up");
    assert_eq!((close_up.low, close_up.high), (1000, 1040));
    check_floors(
        ["1000000", "30", "3"],
        "drop 1040, broken, drop 1000, safe",
        &[(1000, SAFE_FLOOR), (1020, OPEN_FLOOR), (1040, BROKEN_FLOOR)],
    );
}

#[test]
fn a_bad_bricks_game_is_refused_before_any_window_opens() {
    for (moves, expected) in [
        ("drop 5, safe, drop 3", "move 3 (drop from 3)"),
        ("drop 5, perhaps", "move 2 (\"perhaps\")"),
    ] {
        let output = Command::new(CLIENT)
            .env(
                "PARLOR_HOME",
                concat!(env!("CARGO_TARGET_TMPDIR"), "/parlor-home"),
            )
            .args(["bricks", "show", "--height", "10", "--drops", "3"])
            .args(["--bricks", "1", "--moves", moves])
            .output()
            .unwrap();
        assert!(!output.status.success());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{stderr}");
    }
}

/// [`open_room`] on a window of `size`, on a screen large enough for it.
fn open_room_at(words: &str, size: (u32, u32)) -> Option<Screenshot> {
    if !have_xvfb() {
        return None;
    }
    let (dir, home) = (scratch(), scratch());
    let (data, png) = (dir.path().join("data"), dir.path().join("screenshot.png"));
    let args = [
        "--data".as_ref(),
        data.as_os_str(),
        "--open-room".as_ref(),
        words.as_ref(),
        "--screenshot".as_ref(),
        png.as_os_str(),
    ];
    let output = common::run_in_window(size, 1, home.path(), &args);
    let shot = common::screenshot_taken_at(&output, &png, size);
    Some(shot)
}

#[test]
fn a_cave_room_shows_the_persons_clicked_bricks_and_the_ais_answers() {
    let Some(shot) = open_room("cave classic a1 b1") else {
        return;
    };
    check_cave_room(&shot);
}

#[test]
fn the_cave_room_draws_its_bricks_where_they_are_at_every_window_size() {
    for size in [(800, 600), (1366, 768), (1920, 1080)] {
        let Some(shot) = open_room_at("cave classic a1 b1", size) else {
            return;
        };
        check_cave_room(&shot);
    }
}

/// The room of `cave classic a1 b1` as `shot` shows it, at whatever size it was taken.
fn check_cave_room(shot: &Screenshot) {
    // The person (Black) clicks a1, then b1; classic answers each. Classic's fixed-depth
    // search is deterministic, so its answers are known: the screen must show exactly these
    // four bricks, every other cell empty (or lit as legal: it is the person's turn again).
    let mut classic = parlor_engines::cave::cave_engine(parlor_shared::protocol::AiKind::Classic);
    let mut position = parlor_shared::cave::Position::new();
    let mut white = Vec::new();
    for black in ["a1", "b1"] {
        position = position.play(black.parse().unwrap()).unwrap();
        let answer = classic
            .choose_move(&position, std::time::Duration::from_secs(3))
            .unwrap();
        position = position.play(answer).unwrap();
        white.push(answer.to_string());
    }
    for square in Square::all() {
        let name = square.to_string();
        let expected = if ["a1", "b1"].contains(&name.as_str()) {
            vec![BLACK_BRICK]
        } else if white.contains(&name) {
            vec![WHITE_BRICK]
        } else {
            vec![EMPTY_CELL, LEGAL_CELL]
        };
        let seen = cave_cell(shot, &name);
        assert!(
            expected.iter().any(|&colour| close_to(seen, colour)),
            "{name} at {}x{}: {seen:?} (classic answered {white:?})",
            shot.width,
            shot.height
        );
    }
}
