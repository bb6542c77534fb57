//! The EWN viewer window under Xvfb (`client ewn view FILE --gui --screenshot`), judged by the
//! pixels of its own screenshot: the target piece red on its square, the removed square dark.
//! Without `xvfb-run` it is skipped with a note, except in CI.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;

use common::{CLIENT, Screenshot, close_to, have_xvfb, run_under_xvfb, scratch};

use parlor_client::gui::ewn::{REMOVED_SQUARE, TARGET_PIECE, ewn_layout, square_rect};
use parlor_client::gui::{WINDOW_HEIGHT, WINDOW_WIDTH};

fn level1() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/ewn/level1.txt")
}

fn run_viewer(file: &Path, png: &Path) -> Output {
    let args = [
        "ewn".as_ref(),
        "view".as_ref(),
        file.as_os_str(),
        "--gui".as_ref(),
        "--screenshot".as_ref(),
        png.as_os_str(),
    ];
    run_under_xvfb(&args)
}

#[test]
fn the_viewer_shows_the_target_red_on_its_square_and_the_removed_square_dark() {
    if !have_xvfb() {
        return;
    }
    // Level 1 solved by the solver: the viewer opens at the start, where the target (piece 2)
    // stands on square 32 and square 22 is removed.
    let dir = scratch();
    let moves = dir.path().join("moves.txt");
    let solved = Command::new(CLIENT)
        .env(
            "PARLOR_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/parlor-home"),
        )
        .args(["ewn", "solve"])
        .arg(level1())
        .arg("--out")
        .arg(&moves)
        .output()
        .unwrap();
    assert!(solved.status.success());
    let png = dir.path().join("view.png");
    let output = run_viewer(&moves, &png);
    assert!(
        output.status.success(),
        "client failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(String::from_utf8_lossy(&output.stdout).contains("File loaded successfully"));
    let shot = Screenshot::read(&png);
    assert_eq!(
        (shot.width, shot.height),
        (WINDOW_WIDTH as u32, WINDOW_HEIGHT as u32)
    );
    let layout = ewn_layout(shot.width as f32, shot.height as f32);
    // Left of the token's centre, beside its digit.
    let target = square_rect(layout, 32);
    let target_px = shot.pixel(target.x + target.w * 0.3, target.y + target.h / 2.0);
    assert!(
        close_to(target_px, TARGET_PIECE),
        "square 32: {target_px:?}"
    );
    // Square 0 is empty at the start: not red.
    let goal = square_rect(layout, 0);
    let goal_px = shot.pixel(goal.x + goal.w * 0.3, goal.y + goal.h / 2.0);
    assert!(!close_to(goal_px, TARGET_PIECE), "square 0: {goal_px:?}");
    // The removed square, at the middle of its left edge (clear of the cross).
    let removed = square_rect(layout, 22);
    let removed_px = shot.pixel(removed.x + 4.0, removed.y + removed.h / 2.0);
    assert!(
        close_to(removed_px, REMOVED_SQUARE),
        "square 22: {removed_px:?}"
    );
}

#[test]
fn a_file_failing_the_check_opens_no_window_and_exits_1() {
    if !have_xvfb() {
        return;
    }
    let dir = scratch();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "Someone\n1 2 3\n").unwrap();
    let png = dir.path().join("bad.png");
    let output = run_viewer(&bad, &png);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stdout).contains("line 2"));
    assert!(!png.exists(), "no screenshot: the window never opened");
}
