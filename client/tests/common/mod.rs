//! What the window tests share: running the real `client` under Xvfb and reading the pixels
//! of the screenshot it takes of itself (`get_screen_data().export_png`; grabbing an Xvfb
//! screen from outside gives a black image). Without `xvfb-run` a test is skipped with a note,
//! except in CI.

#![allow(dead_code)] // each window test binary uses its own part of this module

use std::path::Path;
use std::process::{Command, Output, Stdio};

use macroquad::color::Color;
use parlor_client::gui::{WINDOW_HEIGHT, WINDOW_WIDTH};

pub const CLIENT: &str = env!("CARGO_BIN_EXE_client");

/// Whether `xvfb-run` is here; in CI its absence is a failure.
pub fn have_xvfb() -> bool {
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

/// Runs the client under Xvfb, on a screen the size of its window, with `args`.
pub fn run_under_xvfb(args: &[&std::ffi::OsStr]) -> Output {
    run_under_xvfb_reading(args, Stdio::null())
}

/// [`run_under_xvfb`] with `stdin` as the client's standard input (e.g. an opened file).
pub fn run_under_xvfb_reading(args: &[&std::ffi::OsStr], stdin: impl Into<Stdio>) -> Output {
    let screen = format!("-screen 0 {WINDOW_WIDTH}x{WINDOW_HEIGHT}x24");
    Command::new("xvfb-run")
        .args(["-a", "-s", &screen, CLIENT])
        .args(args)
        .stdin(stdin)
        .output()
        .expect("xvfb-run runs")
}

pub struct Screenshot {
    pub width: u32,
    pub height: u32,
    rgba: Vec<u8>,
}

impl Screenshot {
    pub fn read(path: &Path) -> Screenshot {
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

    pub fn pixel(&self, x: f32, y: f32) -> [u8; 3] {
        let at = ((y as u32 * self.width + x as u32) * 4) as usize;
        [self.rgba[at], self.rgba[at + 1], self.rgba[at + 2]]
    }
}

/// Whether a pixel shows `expected`, allowing for rounding.
pub fn close_to(actual: [u8; 3], expected: Color) -> bool {
    let want = [expected.r, expected.g, expected.b].map(|c| (c * 255.0).round() as i32);
    actual
        .iter()
        .zip(want)
        .all(|(&a, w)| (i32::from(a) - w).abs() <= 6)
}
