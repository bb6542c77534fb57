//! What the window tests share: running the real `client` under Xvfb and reading the pixels
//! of the screenshot it takes of itself (`get_screen_data().export_png`; grabbing an Xvfb
//! screen from outside gives a black image). Without `xvfb-run` a test is skipped with a note,
//! except in CI. Beside it: the real `server` as a process (`server`), waits on a
//! connection's events (`net`) and a scripted fake server (`fake_server`), for the reconnect
//! tests.

#![allow(dead_code)] // each test binary uses its own part of this module

pub mod fake_server;
pub mod klotski;
pub mod net;
pub mod server;
pub mod x_screen;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use macroquad::color::Color;
use macroquad::math::Rect;
use parlor_client::gui::{WINDOW_HEIGHT, WINDOW_WIDTH};

pub const CLIENT: &str = env!("CARGO_BIN_EXE_client");

/// Whether `xvfb-run` is here; in CI its absence is a failure.
pub fn have_xvfb() -> bool {
    have_command("xvfb-run", "xvfb")
}

/// Whether `command` is here; in CI its absence is a failure, elsewhere the test is skipped
/// with a note naming the Debian `package` that has it.
pub fn have_command(command: &str, package: &str) -> bool {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {command}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have {command} (see .ci/run)"
        );
        eprintln!("window test skipped: {command} is not installed (apt-get install {package})");
    }
    found
}

/// Runs the client under Xvfb, on a screen the size of its window, with `args`.
pub fn run_under_xvfb(args: &[&std::ffi::OsStr]) -> Output {
    run_under_xvfb_reading(args, Stdio::null())
}

/// [`run_under_xvfb`] with `stdin` as the client's standard input (e.g. an opened file).
pub fn run_under_xvfb_reading(args: &[&std::ffi::OsStr], stdin: impl Into<Stdio>) -> Output {
    under_xvfb(args)
        .stdin(stdin)
        .output()
        .expect("xvfb-run runs")
}

/// Starts the client under Xvfb with `args` and goes on; `wait_with_output` gives its output.
pub fn spawn_under_xvfb(args: &[&std::ffi::OsStr]) -> Child {
    under_xvfb(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("xvfb-run starts")
}

/// Where the window tests' client keeps its identity: the tests', never the person's running
/// them.
pub const TEST_HOME: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/parlor-home");

/// The command running the client on an Xvfb screen the size of its window.
fn under_xvfb(args: &[&std::ffi::OsStr]) -> Command {
    under_xvfb_at(args, Path::new(TEST_HOME))
}

/// [`under_xvfb`] with `home` as the client's `PARLOR_HOME`.
fn under_xvfb_at(args: &[&std::ffi::OsStr], home: &Path) -> Command {
    let screen = format!("-screen 0 {WINDOW_WIDTH}x{WINDOW_HEIGHT}x24");
    let mut command = Command::new("xvfb-run");
    command.args(["-a", "-s", &screen, CLIENT]).args(args);
    command.env("PARLOR_HOME", home);
    command
}

/// Runs the client with `args` in a window of `size` (its logical pixels, `--window-size`) on
/// an Xvfb screen large enough for it, with `home` as its `PARLOR_HOME`. With `scale` 2 the
/// screen is a HiDPI desktop's (`Xft.dpi: 192`, set with `xrdb`, which must be there), and
/// the window takes twice the pixels.
pub fn run_in_window(
    size: (u32, u32),
    scale: u32,
    home: &Path,
    args: &[&std::ffi::OsStr],
) -> Output {
    // -noreset keeps xrdb's setting once xrdb has gone.
    let screen = format!(
        "-noreset -screen 0 {}x{}x24",
        (size.0 * scale).max(1920),
        (size.1 * scale).max(1080)
    );
    let mut command = Command::new("xvfb-run");
    command.args(["-a", "-s", &screen]);
    if scale > 1 {
        let dpi = (96 * scale).to_string();
        let set_dpi = "echo \"Xft.dpi: $0\" | xrdb -nocpp -merge && exec \"$@\"";
        command.args(["sh", "-c", set_dpi, &dpi]);
    }
    command
        .arg(CLIENT)
        .args(args)
        .arg("--window-size")
        .arg(format!("{}x{}", size.0, size.1))
        .env("PARLOR_HOME", home)
        .output()
        .expect("xvfb-run runs")
}

/// [`spawn_under_xvfb`] with `home` as the client's `PARLOR_HOME`: one person's machine.
pub fn spawn_under_xvfb_at(args: &[&std::ffi::OsStr], home: &Path) -> Child {
    under_xvfb_at(args, home)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("xvfb-run starts")
}

/// A fresh directory for one test's files (inputs, data, screenshots). It is removed when
/// dropped, also when the test fails, so no run leaves files behind.
pub fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("parlor-window-")
        .tempdir()
        .expect("a temporary directory")
}

/// Runs the client with its embedded server on a fresh data directory in `dir` with the hidden
/// `--open-room room` and `--screenshot`; returns its output and the screenshot's path in `dir`.
pub fn run_open_room(dir: &Path, room: &str) -> (Output, PathBuf) {
    let data = dir.join("data");
    let png = dir.join("screenshot.png");
    let args = [
        "--data".as_ref(),
        data.as_os_str(),
        "--open-room".as_ref(),
        room.as_ref(),
        "--screenshot".as_ref(),
        png.as_os_str(),
    ];
    (run_under_xvfb(&args), png)
}

/// [`run_open_room`] in a scratch directory, which must succeed, and its screenshot; `None`
/// without `xvfb-run`.
pub fn open_room(room: &str) -> Option<Screenshot> {
    if !have_xvfb() {
        return None;
    }
    let dir = scratch();
    let (output, png) = run_open_room(dir.path(), room);
    Some(screenshot_taken(&output, &png))
}

/// The screenshot at `png` of a client that exited with `output`, which must be a success.
pub fn screenshot_taken(output: &Output, png: &Path) -> Screenshot {
    screenshot_taken_at(output, png, (WINDOW_WIDTH as u32, WINDOW_HEIGHT as u32))
}

/// [`screenshot_taken`] of a window of `size`.
pub fn screenshot_taken_at(output: &Output, png: &Path, size: (u32, u32)) -> Screenshot {
    assert!(
        output.status.success(),
        "client failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let shot = Screenshot::read(png);
    assert_eq!((shot.width, shot.height), size);
    shot
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

    /// How many pixels of `rect` (clipped to the screenshot) show `colour`.
    pub fn lit_pixels(&self, rect: Rect, colour: Color) -> usize {
        let (right, bottom) = (
            ((rect.x + rect.w) as u32).min(self.width),
            ((rect.y + rect.h) as u32).min(self.height),
        );
        (rect.y as u32..bottom)
            .flat_map(|y| (rect.x as u32..right).map(move |x| (x, y)))
            .filter(|&(x, y)| close_to(self.pixel(x as f32, y as f32), colour))
            .count()
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
