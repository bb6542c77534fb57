//! The real window opens its lobby as the person last left it: with a `lobby.json` that chose
//! HER vs HER on a 4x4 board, that game's and that board's buttons are the chosen ones, as
//! the Magnetic Cave button is in a window opened for the first time.

mod common;

use std::ffi::OsStr;
use std::path::Path;

use common::{Screenshot, have_xvfb, scratch, screenshot_taken, spawn_under_xvfb_at};

/// Points inside the lobby form's buttons, clear of their words: the games' row and the
/// HER forms' Board row.
const CAVE: (f32, f32) = (74.0, 178.0);
const BRICKS: (f32, f32) = (148.0, 178.0);
const HER_VS_HER: (f32, f32) = (192.0, 212.0);
const BOARD_4X4: (f32, f32) = (236.0, 248.0);
const BOARD_3X3: (f32, f32) = (124.0, 248.0);

/// The lobby of a window whose config folder under `home` holds `kept` as its `lobby.json`.
fn lobby_with(home: &Path, kept: Option<&str>) -> Screenshot {
    if let Some(kept) = kept {
        std::fs::create_dir_all(home.join("config")).unwrap();
        std::fs::write(home.join("config").join("lobby.json"), kept).unwrap();
    }
    let (data, png) = (home.join("data"), home.join("lobby.png"));
    let args: [&OsStr; 6] = [
        "--data".as_ref(),
        data.as_os_str(),
        "--open-room".as_ref(),
        "lobby".as_ref(),
        "--screenshot".as_ref(),
        png.as_os_str(),
    ];
    let output = spawn_under_xvfb_at(&args, home).wait_with_output().unwrap();
    screenshot_taken(&output, &png)
}

#[test]
fn the_lobby_opens_with_the_game_and_board_kept_from_the_last_run() {
    if !have_xvfb() {
        return;
    }
    let (first, kept) = (scratch(), scratch());
    let new = lobby_with(first.path(), None);
    let at = |shot: &Screenshot, (x, y): (f32, f32)| shot.pixel(x, y);
    let (chosen, not_chosen) = (at(&new, CAVE), at(&new, BRICKS));
    assert_ne!(chosen, not_chosen, "a chosen button stands out");
    let hex = r#"{"game": "HerMatch", "hexapawn": {"dims": [4, 4], "mirrors": false,
        "mode": "Slow", "brain": "HER", "pause_ms": 1, "rounds": 1000, "pace": "FullSpeed",
        "brains": ["Left", "Right"]}}"#;
    let back = lobby_with(kept.path(), Some(hex));
    assert_eq!(at(&back, HER_VS_HER), chosen, "the game kept is chosen");
    assert_eq!(at(&back, CAVE), not_chosen);
    assert_eq!(at(&back, BOARD_4X4), chosen, "the board kept is chosen");
    assert_eq!(at(&back, BOARD_3X3), not_chosen);
}
