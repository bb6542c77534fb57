//! The lobby of the real window marks the games that wait for the person's move: Ada holds
//! Black in two Magnetic Cave games against Bob, and her window's lobby shows green ("your
//! move") while one of them waits for her, and none once both wait for Bob.

mod common;

use std::ffi::OsStr;
use std::path::Path;

use common::net::{WindowHall, created, join, state_where};
use common::{Screenshot, have_xvfb, screenshot_taken, spawn_under_xvfb_at};
use macroquad::math::Rect;
use parlor_client::gui::{GOOD_TEXT, TOP_BAR_HEIGHT, WINDOW_HEIGHT, WINDOW_WIDTH};
use parlor_client::net::Connection;
use parlor_shared::game::{GameMove, GameSetup};
use parlor_shared::protocol::{ClientMsg, RoomId, SeatSpec, SeatToken};

/// A Cave room Ada made, with Ada as Black and Bob as White; the room and Ada's token.
fn game(ada: &Connection, bob: &Connection) -> (RoomId, SeatToken) {
    ada.send(ClientMsg::CreateRoom {
        setup: GameSetup::Cave,
        seats: vec![SeatSpec::Human; 2],
    });
    let room = created(ada);
    let token = join(ada, room, 0);
    join(bob, room, 1);
    (room, token)
}

/// Ada, Black, plays a1 in `room`; Bob sees it.
fn black_moves(ada: &Connection, bob: &Connection, room: RoomId, token: SeatToken) {
    ada.send(ClientMsg::Move {
        room,
        token,
        version: 0,
        mv: GameMove::Cave("a1".parse().unwrap()),
    });
    state_where(bob, room, |s| s.version == 1);
}

/// Ada's lobby in her window (her identity under `home`), as a screenshot.
fn lobby_of(home: &Path, url: &str, png: &Path) -> Screenshot {
    let args: [&OsStr; 6] = [
        "--server".as_ref(),
        url.as_ref(),
        "--open-room".as_ref(),
        "lobby".as_ref(),
        "--screenshot".as_ref(),
        png.as_os_str(),
    ];
    let output = spawn_under_xvfb_at(&args, home).wait_with_output().unwrap();
    screenshot_taken(&output, png)
}

/// Green pixels under the top bar (which says "Connected" in green), left and right of x = 900:
/// a line of "Your games in progress" starts at the right column's left edge (x = 430) and
/// is shorter than 470 pixels; a room's status ends at the window's right edge and is
/// narrower than 300.
fn green_below_the_top_bar(shot: &Screenshot) -> [usize; 2] {
    let (width, height) = (WINDOW_WIDTH as f32, WINDOW_HEIGHT as f32);
    let split = 900.0;
    let below = height - TOP_BAR_HEIGHT;
    [
        Rect::new(0.0, TOP_BAR_HEIGHT, split, below),
        Rect::new(split, TOP_BAR_HEIGHT, width - split, below),
    ]
    .map(|part| shot.lit_pixels(part, GOOD_TEXT))
}

#[test]
fn the_lobby_shows_the_games_that_wait_for_your_move() {
    if !have_xvfb() {
        return;
    }
    let hall = WindowHall::start();
    let (ada, bob) = (hall.the_person(), hall.somebody_else());
    let (dir, home, url) = (hall.dir.path(), &hall.home, &hall.url);
    let (played, played_token) = game(&ada, &bob);
    black_moves(&ada, &bob, played, played_token);
    let (waiting, waiting_token) = game(&ada, &bob);

    let marked = green_below_the_top_bar(&lobby_of(home, url, &dir.join("a.png")));
    black_moves(&ada, &bob, waiting, waiting_token);
    let unmarked = green_below_the_top_bar(&lobby_of(home, url, &dir.join("b.png")));
    // "your move" twice: at the end of the game's line, and as its room's status.
    let [line, status] = marked;
    assert!(line >= 40, "{line} green pixels in room {waiting}'s line");
    assert!(
        status >= 10,
        "{status} green pixels in room {waiting}'s status"
    );
    assert_eq!(unmarked, [0, 0], "nothing waits for Ada");
}
