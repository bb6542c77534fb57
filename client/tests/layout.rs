//! The window fits the screens people have: the real client under Xvfb at 800x600, 1366x768
//! and 1920x1080, on the lobby (with each game's creation form, rooms and stored games in its
//! lists) and on a room of every game, writes what its screenshot's frame drew where (the
//! hidden `--layout-report`), and nothing in it is cut off by the window's edge, no text runs
//! into another, and no control covers another.

mod common;

use std::ffi::OsStr;
use std::path::Path;

use common::klotski::{LEVEL, level};
use common::server::{free_addr, start_server};
use common::{have_xvfb, scratch};

/// The sizes the issue names: a small window, a laptop, a desktop.
const SIZES: [(u32, u32); 3] = [(800, 600), (1366, 768), (1920, 1080)];

/// The rooms looked at, as `--open-room` words (the Klotski board is added).
const ROOMS: [&str; 10] = [
    "cave classic a1 b1",
    "bricks agent",
    "bricks answerer",
    "bricks watch",
    "hexapawn slow b1-b2",
    "hexapawn slow 4x4",
    "hexapawn fast 4x4 b1-b2 a1-a2",
    "her-match 3x3 300",
    "ewn 1",
    "klotski",
];

/// The lobby's forms looked at.
const FORMS: [&str; 6] = ["cave", "bricks", "ewn", "klotski", "hexapawn", "her-match"];

/// Runs the client at `size` (at `scale`: see `common::run_in_window`) with `args` and the
/// layout report; the report, after checking that the window had the size asked for and drew
/// something.
fn layout_report(
    size: (u32, u32),
    scale: u32,
    (home, dir): (&Path, &Path),
    args: &[&str],
) -> serde_json::Value {
    let (png, report) = (dir.join("shot.png"), dir.join("layout.json"));
    let mut all: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    all.extend(["--screenshot".as_ref(), png.as_os_str()]);
    all.extend(["--layout-report".as_ref(), report.as_os_str()]);
    let output = common::run_in_window(size, scale, home, &all);
    let window = format!("{}x{}", size.0, size.1);
    assert!(
        output.status.success(),
        "{args:?} at {window}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let shot = common::Screenshot::read(&png);
    assert_eq!(
        (shot.width, shot.height),
        (size.0 * scale, size.1 * scale),
        "{args:?}: drawn at the screen's resolution"
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).expect("a layout report"))
            .expect("the report is JSON");
    assert_eq!(
        report["screen"],
        serde_json::json!([size.0 as f32, size.1 as f32]),
        "{args:?}: the window has the size asked for"
    );
    let drawn = report["drawn"].as_array().expect("what was drawn").len();
    assert!(
        drawn > 10,
        "{args:?} at {window}: only {drawn} things drawn"
    );
    report
}

/// The problems the layout report of the client at `size` with `args` names.
fn problems(size: (u32, u32), home: &Path, dir: &Path, args: &[&str]) -> Vec<String> {
    let report = layout_report(size, 1, (home, dir), args);
    let window = format!("{}x{}", size.0, size.1);
    let problems = report["problems"].as_array().expect("the problems");
    problems
        .iter()
        .map(|problem| format!("{args:?} at {window}: {}", problem.as_str().unwrap()))
        .collect()
}

/// Every screen at `size`: the problems found on any of them.
fn every_screen_at(size: (u32, u32)) -> Vec<String> {
    let (dir, home) = (scratch(), scratch());
    let klotski = format!("klotski {} 9L 2R", level(LEVEL).display());
    let mut found = Vec::new();
    for (index, room) in ROOMS.into_iter().enumerate() {
        let words = if room == "klotski" {
            klotski.as_str()
        } else {
            room
        };
        // A hall of its own for each room: the rooms left unfinished would fill one player's
        // quota of AI rooms.
        let data = dir.path().join(format!("data-{index}"));
        let args = ["--data", data.to_str().unwrap(), "--open-room", words];
        found.extend(problems(size, home.path(), dir.path(), &args));
    }
    // A server whose lobby lists rooms (the cave rooms left by the first runs) and a stored
    // game (a board the solver solves), for the same player, who holds seats in more rooms
    // than "Your games in progress" lists, so that it and the rooms' list share the column.
    let (addr, server_data) = (free_addr(), scratch());
    let _server = start_server(addr, server_data.path());
    let url = format!("ws://{addr}");
    let solved = format!("klotski {} solver 50ms", level(LEVEL).display());
    let cave = "cave classic a1";
    // And a room of theirs whose White seat waits for a person: its row has the most buttons
    // (Also play White, Close, Resume Black, Watch).
    for words in [solved.as_str(), cave, cave, cave, cave, "cave person"] {
        let args = ["--server", &url, "--open-room", words];
        problems(size, home.path(), dir.path(), &args);
    }
    for form in FORMS {
        let words = format!("lobby {form}");
        let args = ["--server", &url, "--open-room", &words];
        found.extend(problems(size, home.path(), dir.path(), &args));
    }
    found
}

fn check(size: (u32, u32)) {
    if !have_xvfb() {
        return;
    }
    let found = every_screen_at(size);
    assert!(
        found.is_empty(),
        "{} problems:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn nothing_overlaps_or_is_cut_off_at_800x600() {
    check(SIZES[0]);
}

#[test]
fn nothing_overlaps_or_is_cut_off_at_1366x768() {
    check(SIZES[1]);
}

#[test]
fn nothing_overlaps_or_is_cut_off_at_1920x1080() {
    check(SIZES[2]);
}

#[test]
fn a_hidpi_screen_gets_a_window_of_the_size_asked_drawn_at_twice_the_pixels() {
    // xrdb gives the Xvfb screen its HiDPI setting.
    if !have_xvfb() || !common::have_command("xrdb", "x11-xserver-utils") {
        return;
    }
    let (dir, home) = (scratch(), scratch());
    let data = dir.path().join("data");
    let args = [
        "--data",
        data.to_str().unwrap(),
        "--open-room",
        "lobby cave",
    ];
    // A scale of two, as a HiDPI desktop sets it: an 800x600 layout drawn at 1600x1200.
    let report = layout_report((800, 600), 2, (home.path(), dir.path()), &args);
    assert_eq!(report["problems"], serde_json::json!([]), "{report}");
}
