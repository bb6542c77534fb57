//! Closing the window with its close button ends the client at once, however long it meant to
//! sleep, with its embedded server's store flushed: the write-ahead log beside `games.db` is
//! empty, so `games.db` alone holds the hall. The close button's message (`WM_DELETE_WINDOW`)
//! is sent as a window manager sends it, by `python3` through Xlib, on an Xvfb screen of the
//! test's own; without `python3`, `xdotool` or `Xvfb` the test is skipped with a note, except
//! in CI.

mod common;

use std::time::{Duration, Instant};

use common::x_screen::Screen;
use common::{have_command, scratch};

/// Sends `WM_DELETE_WINDOW` to the window whose id is the first argument.
const CLOSE_BUTTON: &str = r#"
import ctypes, sys
x = ctypes.cdll.LoadLibrary("libX11.so.6")
x.XOpenDisplay.restype = ctypes.c_void_p
x.XInternAtom.restype = ctypes.c_ulong
x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
x.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
x.XFlush.argtypes = [ctypes.c_void_p]
class ClientMessage(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", ctypes.c_ulong),
                ("message_type", ctypes.c_ulong), ("format", ctypes.c_int),
                ("data", ctypes.c_long * 5)]
class XEvent(ctypes.Union):
    _fields_ = [("xclient", ClientMessage), ("pad", ctypes.c_long * 24)]
display = x.XOpenDisplay(None)
event = XEvent()
event.xclient.type = 33
event.xclient.window = int(sys.argv[1])
event.xclient.message_type = x.XInternAtom(display, b"WM_PROTOCOLS", 0)
event.xclient.format = 32
event.xclient.data[0] = x.XInternAtom(display, b"WM_DELETE_WINDOW", 0)
x.XSendEvent(display, int(sys.argv[1]), 0, 0, ctypes.byref(event))
x.XFlush(display)
"#;

#[test]
fn a_window_closed_by_its_close_button_flushes_its_store_and_ends() {
    let tools = [
        ("Xvfb", "xvfb"),
        ("xdotool", "xdotool"),
        ("python3", "python3"),
    ];
    if !tools
        .iter()
        .all(|&(tool, package)| have_command(tool, package))
    {
        return;
    }
    let dir = scratch();
    let data = dir.path().join("data");
    let screen = Screen::start();
    let mut client = screen.client_in(dir.path(), &[]);
    let found = screen
        .command("timeout")
        .args(["30", "xdotool", "search", "--sync", "--name", "^Parlor$"])
        .output()
        .unwrap();
    let window = String::from_utf8(found.stdout).unwrap();
    let window = window.lines().next().expect("the window is there");
    // Quiet by now: the lobby drawn, the store made.
    std::thread::sleep(Duration::from_secs(2));
    let sent = screen
        .command("python3")
        .args(["-c", CLOSE_BUTTON, window])
        .status()
        .unwrap();
    assert!(sent.success(), "the close message is sent");

    let start = Instant::now();
    let status = loop {
        if let Some(status) = client.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(20) {
            let _ = client.kill();
            panic!("the window did not close");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(status.success(), "{status}");
    let log = std::fs::metadata(data.join("games.db-wal")).map_or(0, |meta| meta.len());
    assert_eq!(log, 0, "the store's log is copied back into games.db");
    assert!(data.join("games.db").exists());
}
