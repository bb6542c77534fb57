//! The window is usable without a mouse (`gui/key_focus.rs`, `gui/board_cursor.rs`): the real
//! client under an Xvfb of the test's own, keys sent with `xdotool`. Tab brings the keyboard to
//! the name field, where a new name is typed and entered; Shift+Tab reaches the last control of
//! the lobby, Create room, and Enter presses it. Another connection then sees the room, made by
//! the renamed person. On the boards, the arrow keys and Enter play Magnetic Cave, EWN and
//! Hexapawn, and a piece's number typed and an arrow key slide a Numeric Klotski piece: another
//! connection watching the room sees each move. F6 brings the ring to the lobby's rooms in
//! four presses.

mod common;

use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::net::{PATIENCE, WindowHall, message};
use common::x_screen::Screen;
use common::{CLIENT, have_command};
use parlor_shared::ewn::EwnMove;
use parlor_shared::game::{GameMove, GameSetup};
use parlor_shared::hexapawn::{Dims, HexMove, Move, Position, Square};
use parlor_shared::klotski::{Dir, KlotskiMove, Move as Slide};
use parlor_shared::protocol::{
    ClientMsg, RoomId, RoomSnapshot, RoomSummary, SeatSpec, SeatState, ServerMsg,
};

use common::net::{created, state_where};

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

/// Starts the client on `screen`, connected to `hall`, with `args`, and waits until it has
/// drawn and holds the keyboard.
fn start_window(screen: &Screen, hall: &WindowHall, args: &[&str]) -> Child {
    let client = screen
        .command(CLIENT)
        .args(["--server", &hall.url])
        .args(args)
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
    let mut client = start_window(&screen, &hall, &[]);

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

    let made = rooms_made(&observer);
    let _ = client.kill();
    let _ = client.wait();
    let [room] = made.as_slice() else {
        panic!("one room made by the keyboard, not {made:?}");
    };
    let creator = room.creator.as_ref().unwrap();
    assert_eq!(creator.name, "Kate", "the name typed and entered");
}

#[test]
fn f6_reaches_the_rooms_list_in_four_presses_and_enter_joins_a_room() {
    if !have_command("xdotool", "xdotool") || !have_command("Xvfb", "xvfb") {
        return;
    }
    let hall = WindowHall::start();
    let observer = hall.somebody_else();
    observer.send(ClientMsg::CreateRoom {
        setup: GameSetup::Cave,
        seats: vec![SeatSpec::Human, SeatSpec::Human],
    });
    let room = created(&observer);
    observer.send(ClientMsg::Watch { room });
    state_where(&observer, room, |_| true);
    let screen = Screen::start();
    let mut client = start_window(&screen, &hall, &[]);
    // The server row (its address field first), the creation form, its Create button, then
    // the rooms, whose first button is the room's "Join Black".
    keys(&screen, &["F6", "F6", "F6", "F6", "Return"]);
    let joined = state_where(&observer, room, |state| state.seats[0] != SeatState::Open);
    let _ = client.kill();
    let _ = client.wait();
    assert!(
        matches!(
            &joined.seats[0],
            SeatState::Taken {
                player: Some(_),
                ..
            }
        ),
        "{:?}",
        joined.seats
    );
    assert_eq!(
        joined.seats[1],
        SeatState::Open,
        "only the first button pressed"
    );
}

/// The rooms made by somebody, as `observer` lists them, once there are any.
fn rooms_made(observer: &parlor_client::net::Connection) -> Vec<RoomSummary> {
    let deadline = Instant::now() + PATIENCE;
    loop {
        observer.send(ClientMsg::ListRooms);
        let (rooms, _) = message(observer, |m| match m {
            ServerMsg::Rooms { rooms, .. } => Some(rooms.clone()),
            _ => None,
        });
        let made: Vec<RoomSummary> = rooms.into_iter().filter(|r| r.creator.is_some()).collect();
        if !made.is_empty() || Instant::now() > deadline {
            return made;
        }
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// Opens the window on the room `open_room` makes, has `observer` watch it, presses each batch
/// of `batches` once the room is on the screen (the room's answer to the one before come), and
/// returns the room's first `count` moves as `observer` sees them.
fn moves_by_keys(open_room: &str, batches: &[&[&str]], count: usize) -> Option<Vec<GameMove>> {
    if !have_command("xdotool", "xdotool") || !have_command("Xvfb", "xvfb") {
        return None;
    }
    let hall = WindowHall::start();
    let observer = hall.somebody_else();
    let screen = Screen::start();
    let mut client = start_window(&screen, &hall, &["--open-room", open_room]);
    let made = rooms_made(&observer);
    let [room] = made.as_slice() else {
        panic!("the window made one room, not {made:?}");
    };
    let room: RoomId = room.room;
    observer.send(ClientMsg::Watch { room });
    state_where(&observer, room, |_| true);
    // The room's screen has drawn a frame or two before the keys come.
    std::thread::sleep(Duration::from_secs(1));
    for batch in batches {
        keys(&screen, batch);
    }
    let state: RoomSnapshot = state_where(&observer, room, |state| state.moves.len() >= count);
    let _ = client.kill();
    let _ = client.wait();
    Some(state.moves[..count].to_vec())
}

/// The room's first move made by `keys_pressed`, as another connection sees it.
fn first_move_by_keys(open_room: &str, keys_pressed: &[&str]) -> Option<GameMove> {
    moves_by_keys(open_room, &[keys_pressed], 1).map(|moves| moves[0])
}

#[test]
fn the_arrow_keys_and_enter_play_a_magnetic_cave_cell() {
    // The cursor comes on d5 (the middle, no brick yet), and goes three cells left, to the wall.
    let keys = ["Left", "Left", "Left", "Left", "Return"];
    if let Some(first) = first_move_by_keys("cave classic", &keys) {
        assert_eq!(first, GameMove::Cave("a5".parse().unwrap()));
    }
}

#[test]
fn the_arrow_keys_and_enter_move_an_ewn_piece() {
    // Level 1: die 3, and piece 3 on square 43 (row 4, column 3) the only one to move, so the
    // cursor comes on it, picked; one square right is free.
    let keys = ["Right", "Right", "Return"];
    if let Some(first) = first_move_by_keys("ewn 1", &keys) {
        assert_eq!(first, GameMove::Ewn(EwnMove { piece: 3, to: 44 }));
    }
}

#[test]
fn tab_in_a_puzzle_room_rings_undo_before_leave() {
    // After a move, the first Tab goes to Undo (read before Leave, under it), and Enter
    // undoes the move rather than leaving the room.
    let moved = ["Right", "Right", "Return"];
    if let Some(moves) = moves_by_keys("ewn 1", &[&moved, &["Tab", "Return"]], 2) {
        assert_eq!(moves[1], GameMove::Undo);
    }
}

#[test]
fn the_arrow_keys_and_enter_pick_a_hexapawn_pawn_then_its_target() {
    // The cursor comes on the first pawn with a move: Enter picks it, Up and Enter move it on.
    let from = Position::start(Dims::default()).legal_moves()[0].from;
    let to = Square::new(from.col, from.row + 1);
    let keys = ["Up", "Return", "Up", "Return"];
    if let Some(first) = first_move_by_keys("hexapawn fast", &keys) {
        assert_eq!(
            first,
            GameMove::Hexapawn(HexMove::Play(Move::new(from, to)))
        );
    }
}

#[test]
fn in_slow_mode_the_keys_force_hers_move_on_the_board_too() {
    // White: a1 to a2. Then HER's turn, which the person plays in slow mode: the cursor goes
    // from a2 up to a3, right to b3 (Enter picks it), down to b2 (Enter forces b3-b2).
    let white = ["Up", "Return", "Up", "Return"];
    let her = ["Up", "Right", "Return", "Down", "Return"];
    if let Some(moves) = moves_by_keys("hexapawn slow", &[&white, &her], 2) {
        let play = |text: &str| GameMove::Hexapawn(HexMove::Play(text.parse().unwrap()));
        assert_eq!(moves, [play("a1-a2"), play("b3-b2")]);
    }
}

#[test]
fn a_typed_number_picks_a_klotski_piece_and_an_arrow_key_slides_it() {
    // 10 is the lower half of block 6, which may slide down into the blank under it.
    let board = common::klotski::level(common::klotski::LEVEL);
    let open_room = format!("klotski {}", board.display());
    if let Some(first) = first_move_by_keys(&open_room, &["1", "0", "Down"]) {
        let slide = Slide {
            label: 6,
            dir: Dir::Down,
        };
        assert_eq!(first, GameMove::Klotski(KlotskiMove::Slide(slide)));
    }
}
