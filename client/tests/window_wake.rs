//! A quiet window sleeps until something happens (`gui/wake.rs`): the person's input wakes it
//! by itself. The client runs under Xvfb with quiet frames 10 minutes apart, so only a wake
//! can redraw it within the test; the pointer is moved onto a button with `xdotool` and the
//! screen is grabbed from outside with `xwd` until the button shows its hover colour.
//! The same hover, in a window smaller than the smallest canvas (`gui/canvas.rs`), shows that
//! the pointer is brought into the shrunk canvas's coordinates.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::x_screen::{Grab, Screen};
use common::{have_command, run_in_window, scratch};

/// A window of the size the screens are laid out for, and one smaller than the smallest canvas
/// (800x600), which shows the canvas shrunk to 0.7.
const SIZE: (u32, u32) = (1200, 680);
const SHRUNK: (u32, u32) = (560, 420);

/// Where the lobby draws its "Create room" button in a window of `size`, in the canvas's
/// coordinates, from its layout report.
fn create_button(dir: &Path, size: (u32, u32)) -> [f32; 4] {
    let (data, png, report) = (
        dir.join("data"),
        dir.join("lobby.png"),
        dir.join("lobby.json"),
    );
    let args = [
        "--data".as_ref(),
        data.as_os_str(),
        "--open-room".as_ref(),
        "lobby cave".as_ref(),
        "--screenshot".as_ref(),
        png.as_os_str(),
        "--layout-report".as_ref(),
        report.as_os_str(),
    ];
    let output = run_in_window(size, 1, &dir.join("home"), &args);
    assert!(output.status.success(), "{output:?}");
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(report).unwrap()).unwrap();
    let button = report["drawn"]
        .as_array()
        .unwrap()
        .iter()
        .find(|drawn| drawn["kind"] == "Control" && drawn["text"] == "Create room")
        .expect("the lobby has a Create room button");
    serde_json::from_value(button["rect"].clone()).unwrap()
}

/// Grabs until two grabs a second apart are the same (the window has drawn and gone quiet);
/// gives up after `patience`.
fn settled(screen: &Screen, patience: Duration) -> Grab {
    let start = Instant::now();
    let mut last = screen.grab();
    loop {
        std::thread::sleep(Duration::from_secs(1));
        let grab = screen.grab();
        let drawn = grab.pixels.iter().any(|&byte| byte != 0);
        if drawn && grab == last {
            return grab;
        }
        assert!(start.elapsed() < patience, "the window never went quiet");
        last = grab;
    }
}

#[test]
fn the_pointer_wakes_a_quiet_window() {
    check_pointer_hovers_create_button(SIZE);
}

#[test]
fn the_pointer_finds_its_button_in_a_window_smaller_than_the_canvas() {
    check_pointer_hovers_create_button(SHRUNK);
}

/// A quiet lobby in a window of `size`: the pointer moved onto "Create room" must redraw the
/// button in its hover colour, by itself (the window sleeps for ten minutes otherwise).
fn check_pointer_hovers_create_button(size: (u32, u32)) {
    if !have_command("xdotool", "xdotool") || !have_command("xwd", "x11-apps") {
        return;
    }
    if !have_command("Xvfb", "xvfb") {
        return;
    }
    let dir = scratch();
    // The canvas is shrunk by the tighter of the window's sides to the canvas's (800x600).
    let scale = (size.0 as f32 / 800.0).min(size.1 as f32 / 600.0).min(1.0);
    let button = create_button(dir.path(), size).map(|v| v * scale);
    let screen = Screen::start();
    let size = format!("{}x{}", size.0, size.1);
    let mut client = screen.client_in(dir.path(), &["--window-size", &size]);
    let quiet = settled(&screen, Duration::from_secs(60));
    let before = quiet.region(button);

    let [x, y, w, h] = button;
    let (x, y) = ((x + w / 2.0) as i32, (y + h / 2.0) as i32);
    let moved = screen
        .command("xdotool")
        .args(["mousemove", &x.to_string(), &y.to_string()])
        .status()
        .unwrap();
    assert!(moved.success());
    let start = Instant::now();
    let hovered = loop {
        let now = screen.grab().region(button);
        if now != before {
            break true;
        }
        if start.elapsed() > Duration::from_secs(20) {
            break false;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let _ = client.kill();
    let _ = client.wait();
    assert!(
        hovered,
        "the button under the pointer was not redrawn: the pointer did not wake the window"
    );
}
