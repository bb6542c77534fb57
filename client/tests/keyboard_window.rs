//! The window is usable without a mouse (`gui/key_focus.rs`): the real client under an Xvfb of
//! the test's own, keys sent with `xdotool`. Tab brings the keyboard to the name field, where a
//! new name is typed and entered; Shift+Tab reaches the last control of the lobby, Create room,
//! and Enter presses it. Another connection then sees the room, made by the renamed person.

mod common;

use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::net::{PATIENCE, WindowHall, message};
use common::x_screen::Screen;
use common::{CLIENT, have_command};
use parlor_shared::protocol::{ClientMsg, RoomSummary, ServerMsg};

/// Keys typed into the window, each after the one before has been seen.
fn keys(screen: &Screen, keys: &[&str]) {
    let status = screen
        .command("xdotool")
        .args(["key", "--delay", "250"])
        .args(keys)
        .status()
        .unwrap();
    assert!(status.success(), "xdotool key {keys:?}");
    std::thread::sleep(Duration::from_millis(400));
}

/// Starts the client on `screen`, connected to `hall`, and waits until it has drawn and holds
/// the keyboard.
fn start_window(screen: &Screen, hall: &WindowHall) -> Child {
    let client = screen
        .command(CLIENT)
        .args(["--server", &hall.url])
        .env("PARLOR_HOME", &hall.home)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the client starts");
    let focused = screen
        .command("xdotool")
        .args(["search", "--sync", "--name", "^Parlor$", "windowfocus"])
        .status()
        .unwrap();
    assert!(focused.success(), "the window appears");
    let start = Instant::now();
    while !screen.grab().pixels.iter().any(|&byte| byte != 0) {
        assert!(start.elapsed() < PATIENCE, "the window never drew");
        std::thread::sleep(Duration::from_millis(200));
    }
    // The lobby's lists come, and a frame has counted the controls Tab walks.
    std::thread::sleep(Duration::from_secs(2));
    client
}

#[test]
fn tab_shift_tab_and_enter_rename_the_person_and_create_a_room() {
    if !have_command("xdotool", "xdotool") || !have_command("Xvfb", "xvfb") {
        return;
    }
    let hall = WindowHall::start();
    let observer = hall.somebody_else();
    let screen = Screen::start();
    let mut client = start_window(&screen, &hall);

    // The server field, Connect, Refresh, then the name field, which takes the keyboard.
    keys(&screen, &["Tab", "Tab", "Tab", "Tab"]);
    keys(&screen, &["BackSpace"; 40]);
    keys(&screen, &["K", "a", "t", "e", "Return"]);
    // A click on nothing takes the ring away; Shift+Tab then starts from the last control.
    let clicked = screen
        .command("xdotool")
        .args(["mousemove", "600", "620", "click", "1"])
        .status()
        .unwrap();
    assert!(clicked.success());
    // Shift held down on its own: `key shift+Tab` sometimes loses the Shift.
    let shift_tab = screen
        .command("xdotool")
        .args(["keydown", "Shift_L", "key", "Tab", "keyup", "Shift_L"])
        .status()
        .unwrap();
    assert!(shift_tab.success());
    std::thread::sleep(Duration::from_millis(400));
    keys(&screen, &["Return"]);

    let deadline = Instant::now() + PATIENCE;
    let made = loop {
        observer.send(ClientMsg::ListRooms);
        let (rooms, _) = message(&observer, |m| match m {
            ServerMsg::Rooms(rooms) => Some(rooms.clone()),
            _ => None,
        });
        let made: Vec<RoomSummary> = rooms.into_iter().filter(|r| r.creator.is_some()).collect();
        if !made.is_empty() || Instant::now() > deadline {
            break made;
        }
        std::thread::sleep(Duration::from_millis(300));
    };
    let _ = client.kill();
    let _ = client.wait();
    let [room] = made.as_slice() else {
        panic!("one room made by the keyboard, not {made:?}");
    };
    let creator = room.creator.as_ref().unwrap();
    assert_eq!(creator.name, "Kate", "the name typed and entered");
}
