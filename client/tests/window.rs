//! Window tests: the real `client` binary under Xvfb, judged by the pixels of its own
//! screenshot (`get_screen_data().export_png`, since grabbing an Xvfb screen from outside gives
//! a black image). Without `xvfb-run` they are skipped with a note, except in CI.

use std::path::Path;
use std::process::Command;

use macroquad::color::Color;
use parlor_client::gui::cave_board::{
    BLACK_BRICK, EMPTY_CELL, WHITE_BRICK, board_layout, cell_center,
};
use parlor_client::gui::{WINDOW_HEIGHT, WINDOW_WIDTH};
use parlor_shared::cave::Square;

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

/// Runs the client under Xvfb with `args` plus `--screenshot PATH` and decodes the PNG.
fn screenshot(name: &str, args: &[&str]) -> Option<Screenshot> {
    if !have_xvfb() {
        return None;
    }
    let path =
        std::env::temp_dir().join(format!("parlor-window-{name}-{}.png", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let screen = format!("-screen 0 {WINDOW_WIDTH}x{WINDOW_HEIGHT}x24");
    let output = Command::new("xvfb-run")
        .args(["-a", "-s", &screen, CLIENT])
        .args(args)
        .arg("--screenshot")
        .arg(&path)
        .output()
        .expect("xvfb-run runs");
    assert!(
        output.status.success(),
        "client failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(Screenshot::read(&path))
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

    /// The colour at the centre of a cell.
    fn cell(&self, name: &str) -> [u8; 3] {
        let layout = board_layout(self.width as f32, self.height as f32);
        let (x, y) = cell_center(layout, name.parse::<Square>().unwrap());
        self.pixel(x, y)
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
fn the_cave_board_shows_placed_bricks_in_their_cells() {
    // Black a1 b1 c1, White h1 g1: the pixels at those cells' centres must be brick colours,
    // and the untouched cells the empty colour, in the chess orientation (row 1 at the bottom).
    let Some(shot) = screenshot("bricks", &["cave", "show", "--moves", "a1 h1 b1 g1 c1"]) else {
        return;
    };
    assert_eq!(
        (shot.width, shot.height),
        (WINDOW_WIDTH as u32, WINDOW_HEIGHT as u32)
    );
    for cell in ["a1", "b1", "c1"] {
        assert!(
            close_to(shot.cell(cell), BLACK_BRICK),
            "{cell}: {:?}",
            shot.cell(cell)
        );
    }
    for cell in ["h1", "g1"] {
        assert!(
            close_to(shot.cell(cell), WHITE_BRICK),
            "{cell}: {:?}",
            shot.cell(cell)
        );
    }
    for cell in ["d1", "a2", "h8", "d4", "a8"] {
        assert!(
            close_to(shot.cell(cell), EMPTY_CELL),
            "{cell}: {:?}",
            shot.cell(cell)
        );
    }
}

#[test]
fn an_empty_cave_shows_only_empty_cells() {
    let Some(empty) = screenshot("empty", &["cave", "show"]) else {
        return;
    };
    for square in Square::all() {
        let name = square.to_string();
        assert!(
            close_to(empty.cell(&name), EMPTY_CELL),
            "{name}: {:?}",
            empty.cell(&name)
        );
    }
}

#[test]
fn an_illegal_game_is_refused_before_any_window_opens() {
    let output = Command::new(CLIENT)
        .args(["cave", "show", "--moves", "a1 d4"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("move 2 (d4)"), "{stderr}");
}
