//! Play again between two people, with the real window as one of them: Ada's window takes back
//! her seat before the last move, Bob wins and presses Play again first, and Ada's Play again
//! (the hidden script's `rematch`) takes the seat left in Bob's room instead of making a room
//! of her own.

mod common;

use std::ffi::OsStr;

use common::net::{WindowHall, created, join, message, seated, state_where};
use common::{have_xvfb, spawn_under_xvfb_at};
use parlor_shared::game::{GameMove, GameSetup};
use parlor_shared::protocol::{ClientMsg, RoomId, SeatSpec, ServerMsg};

/// White's five along the right wall, Black's bricks kept apart on the left: the tenth move,
/// White's `h4`, wins.
const PLIES: [&str; 10] = ["a1", "h8", "a3", "h7", "a5", "h6", "a7", "h5", "b1", "h4"];

#[test]
fn the_window_joins_the_rematch_the_other_player_made() {
    if !have_xvfb() {
        return;
    }
    let hall = WindowHall::start();
    let (ada, bob) = (hall.the_person(), hall.somebody_else());
    let (dir, home, url) = (hall.dir.path(), &hall.home, &hall.url);

    ada.send(ClientMsg::CreateRoom {
        setup: GameSetup::Cave,
        seats: vec![SeatSpec::Human; 2],
    });
    let room = created(&ada);
    let tokens = [join(&ada, room, 0), join(&bob, room, 1)];
    let (last, before) = PLIES.split_last().unwrap();
    for (version, cell) in (0u64..).zip(before) {
        let mover = [&ada, &bob][version as usize % 2];
        mover.send(ClientMsg::Move {
            room,
            token: tokens[version as usize % 2].clone(),
            version,
            mv: GameMove::Cave(cell.parse().unwrap()),
        });
        state_where(&bob, room, |s| s.version > version);
    }
    // Ada goes on in the window: her connection here goes, the window takes her seat back.
    drop(ada);
    let away = state_where(&bob, room, |s| seated(s, 0).is_some_and(|(_, on)| !on));
    let (ada_player, _) = seated(&away, 0).unwrap();
    let png = dir.join("rematch.png");
    let args: [&OsStr; 6] = [
        "--server".as_ref(),
        url.as_ref(),
        "--open-room".as_ref(),
        "cave resume rematch".as_ref(),
        "--screenshot".as_ref(),
        png.as_os_str(),
    ];
    let window = spawn_under_xvfb_at(&args, home);
    state_where(&bob, room, |s| seated(s, 0).is_some_and(|(_, on)| on));

    // Bob wins, and presses Play again at once.
    let version = before.len() as u64;
    bob.send(ClientMsg::Move {
        room,
        token: tokens[1].clone(),
        version,
        mv: GameMove::Cave(last.parse().unwrap()),
    });
    let end = state_where(&bob, room, |s| s.again.is_some());
    let again = *end.again.unwrap();
    bob.send(ClientMsg::PlayAgain {
        room,
        setup: again.setup,
        seats: again.seats,
    });
    let rematch = created(&bob);
    join(&bob, rematch, 0);

    // Ada's window takes the seat left for her there, and makes no room of its own.
    let full = state_where(&bob, rematch, |s| seated(s, 1).is_some());
    assert_eq!(seated(&full, 1).map(|(player, _)| player), Some(ada_player));
    let output = window.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "the window got to the rematch: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    bob.send(ClientMsg::ListRooms);
    let (rooms, _) = message(&bob, |message| match message {
        ServerMsg::Rooms { rooms, .. } => Some(rooms.clone()),
        _ => None,
    });
    let mut listed: Vec<RoomId> = rooms.iter().map(|summary| summary.room).collect();
    listed.sort();
    assert_eq!(listed, vec![room, rematch], "no third room");
    // Nor one closed at once (what a window does whose own rematch lost a race): one server's
    // room numbers count up, so the next room is the rematch's successor.
    bob.send(ClientMsg::CreateRoom {
        setup: GameSetup::Cave,
        seats: vec![SeatSpec::Human; 2],
    });
    assert_eq!(created(&bob), rematch + 1, "the window made no room");
}
