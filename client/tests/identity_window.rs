//! A person's seat outlives their window: the real client, killed with SIGKILL while it holds a
//! seat, is started again with the same `PARLOR_HOME` and takes the seat back (its tokens died
//! with it; its identity is on disk). Another `PARLOR_HOME` is another person.

mod common;

use std::ffi::OsStr;
use std::path::Path;
use std::time::{Duration, Instant};

use common::net::{WindowHall, message, seated, state_where};
use common::{have_xvfb, spawn_under_xvfb_at};
use parlor_client::identity::{Home, Identity};
use parlor_client::net::Connection;
use parlor_shared::protocol::{ClientMsg, RoomId, ServerMsg};

/// Kills with SIGKILL the client processes (not `xvfb-run`, which then ends its Xvfb) whose
/// command line holds `marker`.
fn kill_9_clients(marker: &str) {
    let client = std::fs::canonicalize(common::CLIENT).unwrap();
    let mut killed = 0;
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let path = entry.path();
        let is_client = std::fs::read_link(path.join("exe")).is_ok_and(|exe| exe == client);
        let cmdline = std::fs::read(path.join("cmdline")).unwrap_or_default();
        if is_client && String::from_utf8_lossy(&cmdline).contains(marker) {
            let pid = entry.file_name().to_string_lossy().to_string();
            let status = std::process::Command::new("kill")
                .args(["-9", &pid])
                .status();
            assert!(status.unwrap().success(), "kill -9 {pid}");
            killed += 1;
        }
    }
    assert_eq!(killed, 1, "one client holds the seat");
}

/// The room the server lists first, once there is one.
fn first_room(watcher: &Connection) -> RoomId {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        watcher.send(ClientMsg::ListRooms);
        let (rooms, _) = message(watcher, |message| match message {
            ServerMsg::Rooms { rooms, .. } => Some(rooms.clone()),
            _ => None,
        });
        if let Some(room) = rooms.first() {
            return room.room;
        }
        assert!(Instant::now() < deadline, "the window made no room");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_window_killed_while_seated_gets_its_seat_back_when_opened_again_with_the_same_home() {
    if !have_xvfb() {
        return;
    }
    let hall = WindowHall::start();
    let watcher = hall.somebody_else();
    let (dir, home, url) = (hall.dir.path(), &hall.home, &hall.url);

    // The first window makes a room against the AI and takes seat 0.
    let marker = format!("resume-test-{}", std::process::id());
    let first_args: [&OsStr; 6] = [
        "--server".as_ref(),
        url.as_ref(),
        "--open-room".as_ref(),
        "cave classic".as_ref(),
        "--name".as_ref(),
        marker.as_ref(),
    ];
    let first = spawn_under_xvfb_at(&first_args, home);
    let room = first_room(&watcher);
    watcher.send(ClientMsg::Watch { room });
    let first_seated = state_where(&watcher, room, |s| seated(s, 0).is_some_and(|(_, on)| on));
    let (player, _) = seated(&first_seated, 0).unwrap();
    assert_eq!(player.name, marker, "--name names the player");
    let kept = Identity::load_or_create(&Home::under(home)).unwrap();
    assert_eq!(kept.name, marker, "--name is kept for next time");

    kill_9_clients(&marker);
    let _ = first.wait_with_output();
    state_where(&watcher, room, |s| seated(s, 0).is_some_and(|(_, on)| !on));

    // Another person (another home) could not take it; the same home does, by itself.
    let png = dir.join("resumed.png");
    let again_args: [&OsStr; 6] = [
        "--server".as_ref(),
        url.as_ref(),
        "--open-room".as_ref(),
        "cave resume classic".as_ref(),
        "--screenshot".as_ref(),
        png.as_os_str(),
    ];
    let again = spawn_under_xvfb_at(&again_args, home);
    let back = state_where(&watcher, room, |s| seated(s, 0).is_some_and(|(_, on)| on));
    assert_eq!(
        seated(&back, 0).unwrap().0,
        player,
        "the same player holds it again"
    );
    let output = again.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "the window reopened on its room: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(Path::new(&png).exists());
}
