//! The EWN viewer window under Xvfb (`client ewn view FILE --gui --screenshot`), judged by the
//! pixels of its own screenshot: the target piece red on its square, the removed square dark.
//! Without `xvfb-run` it is skipped with a note, except in CI.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use macroquad::color::Color;
use parlor_client::gui::ewn::{REMOVED_SQUARE, TARGET_PIECE, ewn_layout, square_rect};
use parlor_client::gui::{WINDOW_HEIGHT, WINDOW_WIDTH};

const CLIENT: &str = env!("CARGO_BIN_EXE_client");

fn have_xvfb() -> bool {
    let found = Command::new("sh")
        .args(["-c", "command -v xvfb-run"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have xvfb-run (see .ci/run)"
        );
        eprintln!("window test skipped: xvfb-run is not installed (apt-get install xvfb)");
    }
    found
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("parlor-ewn-{}-{name}", std::process::id()))
}

fn level1() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/ewn/level1.txt")
}

fn run_viewer(file: &Path, png: &Path) -> Output {
    let screen = format!("-screen 0 {WINDOW_WIDTH}x{WINDOW_HEIGHT}x24");
    Command::new("xvfb-run")
        .args(["-a", "-s", &screen, CLIENT, "ewn", "view"])
        .arg(file)
        .args(["--gui", "--screenshot"])
        .arg(png)
        .output()
        .expect("xvfb-run runs")
}

struct Screenshot {
    width: u32,
    height: u32,
    rgba: Vec<u8>,
}

impl Screenshot {
    fn read(path: &Path) -> Screenshot {
        let decoder = png::Decoder::new(std::fs::File::open(path).expect("screenshot written"));
        let mut reader = decoder.read_info().unwrap();
        let mut rgba = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut rgba).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgba);
        Screenshot {
            width: info.width,
            height: info.height,
            rgba,
        }
    }

    fn pixel(&self, x: f32, y: f32) -> [u8; 3] {
        let at = ((y as u32 * self.width + x as u32) * 4) as usize;
        [self.rgba[at], self.rgba[at + 1], self.rgba[at + 2]]
    }
}

fn close_to(actual: [u8; 3], expected: Color) -> bool {
    let want = [expected.r, expected.g, expected.b].map(|c| (c * 255.0).round() as i32);
    actual
        .iter()
        .zip(want)
        .all(|(&a, w)| (i32::from(a) - w).abs() <= 6)
}

#[test]
fn the_viewer_shows_the_target_red_on_its_square_and_the_removed_square_dark() {
    if !have_xvfb() {
        return;
    }
    // Level 1 solved by the solver: the viewer opens at the start, where the target (piece 2)
    // stands on square 32 and square 22 is removed.
    let moves = temp("moves.txt");
    let solved = Command::new(CLIENT)
        .args(["ewn", "solve"])
        .arg(level1())
        .arg("--out")
        .arg(&moves)
        .output()
        .unwrap();
    assert!(solved.status.success());
    let png = temp("view.png");
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
    let _ = std::fs::remove_file(&png);
    let _ = std::fs::remove_file(&moves);
}

#[test]
fn a_file_failing_the_check_opens_no_window_and_exits_1() {
    if !have_xvfb() {
        return;
    }
    let bad = temp("bad.txt");
    std::fs::write(&bad, "Someone\n1 2 3\n").unwrap();
    let png = temp("bad.png");
    let _ = std::fs::remove_file(&png);
    let output = run_viewer(&bad, &png);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stdout).contains("line 2"));
    assert!(!png.exists(), "no screenshot: the window never opened");
    let _ = std::fs::remove_file(&bad);
}
