//! HER's rooms in the window under Xvfb: the client with its embedded server opens a room by
//! itself (the hidden `--open-room`), plays the given moves by clicking pawns, targets and
//! HER's arrows, and saves a screenshot once the room shows them. The tests read the pixels:
//! pawns on their squares, HER's matchbox arrows in slow mode, HER's own reply in fast mode,
//! an auto match's learning curve, and a room that stays on the screen while the client
//! reconnects to a server that was killed. Without `xvfb-run` they are skipped with a note,
//! except in CI.

mod common;

use std::time::{Duration, Instant};

use common::server::{free_addr, start_server};
use common::{
    Screenshot, close_to, have_xvfb, open_room, scratch, screenshot_taken, spawn_under_xvfb,
};
use macroquad::color::Color;
use macroquad::math::Rect;
use parlor_client::gui::hexapawn::{
    BEAD_ARROW, BLACK_PAWN, DARK_SQUARE, HER_COLORS, HexLayout, LAST_MOVE, LIGHT_SQUARE,
    MatchLayout, WHITE_PAWN, chart_rects, match_layout, play_layout, replay_layout,
};
use parlor_client::gui::{ERROR_TEXT, GOOD_TEXT, TOP_BAR_HEIGHT, WINDOW_HEIGHT, WINDOW_WIDTH};
use parlor_client::identity::Identity;
use parlor_client::net::{Connection, NetEvent};
use parlor_shared::hexapawn::{
    Brain, Dims, HexGame, HexSetup, MatchSetup, MatchView, Pace, PlayMode, Square,
};
use parlor_shared::protocol::{ClientMsg, ServerMsg};

/// The board and the matchbox's place for a game of `dims` in `mode`.
fn layouts(dims: Dims, mode: PlayMode) -> (HexLayout, Option<HexLayout>) {
    let setup = HexSetup {
        dims,
        mirrors: false,
        mode,
        brain: "HER".into(),
    };
    let game = HexGame::new(setup, &Brain::new(dims, false));
    let (board, matchbox, _) = play_layout(WINDOW_WIDTH as f32, WINDOW_HEIGHT as f32, &game);
    (board, matchbox)
}

/// What the centre of `square` shows: a pawn's colour, or the square's.
fn centre(shot: &Screenshot, layout: HexLayout, square: &str) -> [u8; 3] {
    let point = layout.square_center(square.parse::<Square>().unwrap());
    shot.pixel(point.x, point.y)
}

fn check(shot: &Screenshot, layout: HexLayout, squares: &str, want: Color) {
    for square in squares.split_whitespace() {
        let pixel = centre(shot, layout, square);
        assert!(close_to(pixel, want), "{square}: {pixel:?}");
    }
}

/// How many squares of the rows `rows` (0 is row 1) show a pawn of `colour`.
fn pawns(shot: &Screenshot, layout: HexLayout, rows: &[u8], colour: Color) -> usize {
    rows.iter()
        .flat_map(|&row| (0..layout.dims.cols()).map(move |col| Square::new(col, row)))
        .filter(|&square| {
            let point = layout.square_center(square);
            close_to(shot.pixel(point.x, point.y), colour)
        })
        .count()
}

/// Where the window puts the parts of a 3x3 auto match of `rounds` rounds.
fn hexapawn_match_layout(rounds: u64) -> MatchLayout {
    let view = MatchView::new(MatchSetup {
        dims: Dims::HEXAPAWN,
        mirrors: false,
        rounds,
        pace: Pace::FullSpeed,
        brains: ["HER A".into(), "HER B".into()],
    });
    match_layout(WINDOW_WIDTH as f32, WINDOW_HEIGHT as f32, &view)
}

fn empty_colour(square: &str) -> Color {
    let square: Square = square.parse().unwrap();
    if (square.row + square.col).is_multiple_of(2) {
        DARK_SQUARE
    } else {
        LIGHT_SQUARE
    }
}

#[test]
fn slow_mode_shows_the_board_and_her_matchbox_with_an_arrow_per_bead() {
    let Some(shot) = open_room("hexapawn slow b1-b2") else {
        return;
    };
    let (board, matchbox) = layouts(Dims::HEXAPAWN, PlayMode::Slow);
    check(&shot, board, "a1 c1 b2", WHITE_PAWN);
    check(&shot, board, "a3 b3 c3", BLACK_PAWN);
    for square in ["b1", "a2", "c2"] {
        let pixel = centre(&shot, board, square);
        assert!(close_to(pixel, empty_colour(square)), "{square}: {pixel:?}");
    }
    // A fresh box: one bead for each of HER's four moves, each arrow blue along its shaft.
    let matchbox = matchbox.expect("slow mode has a matchbox");
    check(&shot, matchbox, "b2", WHITE_PAWN);
    for mv in ["a3-a2", "a3xb2", "c3xb2", "c3-c2"] {
        let arrow = matchbox.arrow(mv.parse().unwrap());
        let point = arrow.tail.lerp(arrow.head, 0.3);
        let pixel = shot.pixel(point.x, point.y);
        assert!(close_to(pixel, BEAD_ARROW), "{mv} at {point}: {pixel:?}");
    }
}

#[test]
fn let_her_pick_makes_her_draw_a_bead_and_move() {
    let Some(shot) = open_room("hexapawn slow b1-b2 pick") else {
        return;
    };
    let (board, _) = layouts(Dims::HEXAPAWN, PlayMode::Slow);
    check(&shot, board, "a1 c1", WHITE_PAWN);
    check(&shot, board, "b1", empty_colour("b1"));
    // Whatever HER drew, one of its three pawns left row 3 and none was taken.
    assert_eq!(
        (
            pawns(&shot, board, &[0, 1, 2], BLACK_PAWN),
            pawns(&shot, board, &[2], BLACK_PAWN)
        ),
        (3, 2)
    );
}

#[test]
fn a_whole_game_against_her_is_stored_and_replayed_to_its_end() {
    // The person forces HER's answers too (slow mode), wins, and opens the stored game.
    let moves = "b1-b2 a3xb2 c1xb2 c3xb2 a1xb2";
    let Some(shot) = open_room(&format!("hexapawn slow {moves} replay")) else {
        return;
    };
    let (board, _) = replay_layout(WINDOW_WIDTH as f32, WINDOW_HEIGHT as f32, Dims::HEXAPAWN);
    check(&shot, board, "b2", WHITE_PAWN);
    check(&shot, board, "b3", BLACK_PAWN);
    for square in ["a1", "b1", "c1", "a2", "c2", "a3", "c3"] {
        check(&shot, board, square, empty_colour(square));
    }
}

#[test]
fn play_again_opens_a_new_room_at_the_start() {
    let moves = "b1-b2 a3xb2 c1xb2 c3xb2 a1xb2";
    let Some(shot) = open_room(&format!("hexapawn slow {moves} again")) else {
        return;
    };
    let (board, _) = layouts(Dims::HEXAPAWN, PlayMode::Slow);
    check(&shot, board, "a1 b1 c1", WHITE_PAWN);
    check(&shot, board, "a3 b3 c3", BLACK_PAWN);
    for square in ["a2", "b2", "c2"] {
        check(&shot, board, square, empty_colour(square));
    }
}

#[test]
fn fast_mode_her_answers_by_itself_on_a_4x4_board() {
    // Two moves by clicks, each answered by HER on its own.
    let Some(shot) = open_room("hexapawn fast 4x4 b1-b2 a1-a2") else {
        return;
    };
    let (board, matchbox) = layouts(Dims::OCTAPAWN, PlayMode::Fast);
    assert_eq!(matchbox, None);
    check(&shot, board, "c1 d1", WHITE_PAWN);
    check(&shot, board, "a1", empty_colour("a1"));
    check(&shot, board, "b1", empty_colour("b1"));
    // White has captured nothing, so HER still has four pawns; it has moved twice, one pawn
    // twice or two pawns once, so one or two of them have left row 4.
    assert_eq!(pawns(&shot, board, &[0, 1, 2, 3], BLACK_PAWN), 4);
    assert!((2..=3).contains(&pawns(&shot, board, &[3], BLACK_PAWN)));
}

#[test]
fn an_auto_match_draws_its_learning_curve() {
    let Some(shot) = open_room("her-match 3x3 300") else {
        return;
    };
    let layout = hexapawn_match_layout(300);
    // The board of the last round: six pawns at most, none of them off the board.
    let pawns =
        [WHITE_PAWN, BLACK_PAWN].map(|colour| pawns(&shot, layout.board, &[0, 1, 2], colour));
    let pawns: usize = pawns.iter().sum();
    assert!((1..=6).contains(&pawns), "{pawns} pawns");
    for (chart, plot) in ["losses", "beads"].iter().zip(chart_rects(layout.curve)) {
        for (her, colour) in HER_COLORS.iter().enumerate() {
            let lit = shot.lit_pixels(plot, *colour);
            assert!(lit > 50, "{chart} chart: {lit} pixels of HER {her}'s line");
        }
    }
}

#[test]
fn a_match_that_stopped_with_a_full_brain_draws_its_curves_across_the_rounds_played() {
    // On 8x8 the brains fill after some thousands of the million rounds set up.
    let Some(shot) = open_room("her-match 8x8 1000000") else {
        return;
    };
    let [_, beads] = chart_rects(hexapawn_match_layout(1_000_000).curve);
    let right_quarter = Rect::new(beads.x + beads.w * 0.75, beads.y, beads.w * 0.25, beads.h);
    let lit: usize = HER_COLORS
        .iter()
        .map(|colour| shot.lit_pixels(right_quarter, *colour))
        .sum();
    assert!(
        lit > 20,
        "{lit} pixels of the beads lines in the chart's right quarter"
    );
}

#[test]
fn an_auto_match_frames_the_last_move_on_its_board() {
    // One round of fresh HERs: nobody resigns in front of a full box, so the round ends with
    // a move, framed on the two squares it joins.
    let Some(shot) = open_room("her-match 3x3 1") else {
        return;
    };
    let board = hexapawn_match_layout(1).board;
    let framed: Vec<Square> = (0..3)
        .flat_map(|row| (0..3).map(move |col| Square::new(col, row)))
        .filter(|&square| shot.lit_pixels(board.square_rect(square), LAST_MOVE) > 40)
        .collect();
    assert_eq!(framed.len(), 2, "framed squares: {framed:?}");
}

/// Whether the server at `url` came to have a room with at least `moves` moves within a minute.
/// It is asked five times a second, after each answer (the server cuts off a client asking
/// more than 50 times a second).
fn room_with_moves_came(url: &str, moves: u32) -> bool {
    let lobby = Connection::open_once(url, &Identity::fresh());
    let deadline = Instant::now() + Duration::from_secs(60);
    let (mut connected, mut asked) = (false, false);
    while Instant::now() < deadline {
        match lobby.recv_timeout(Duration::from_millis(200)) {
            Some(NetEvent::Connected { .. }) => connected = true,
            Some(NetEvent::Message(message)) => {
                if let ServerMsg::Rooms { rooms, .. } = &*message {
                    if rooms.iter().any(|room| room.moves >= moves) {
                        return true;
                    }
                    asked = false;
                }
            }
            Some(NetEvent::Disconnected(reason)) => panic!("the lobby connection closed: {reason}"),
            Some(_) | None => {}
        }
        if connected && !asked {
            std::thread::sleep(Duration::from_millis(200));
            lobby.send(ClientMsg::ListRooms);
            asked = true;
        }
    }
    false
}

#[test]
fn a_room_stays_on_the_screen_while_the_client_reconnects() {
    if !have_xvfb() {
        return;
    }
    let dir = scratch();
    let data = dir.path().join("data");
    let png = dir.path().join("reconnecting.png");
    let addr = free_addr();
    let url = format!("ws://{addr}");
    let server = start_server(addr, &data);
    let client = spawn_under_xvfb(&[
        "--server".as_ref(),
        url.as_ref(),
        "--open-room".as_ref(),
        "hexapawn slow b1-b2 reconnecting".as_ref(),
        "--screenshot".as_ref(),
        png.as_os_str(),
    ]);
    let came = room_with_moves_came(&url, 1);
    server.kill_9();
    let output = client.wait_with_output().unwrap();
    assert!(
        came,
        "the client's room never had its move: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let shot = screenshot_taken(&output, &png);
    // The room as it was when the server went away: the board after b1-b2.
    let (board, _) = layouts(Dims::HEXAPAWN, PlayMode::Slow);
    check(&shot, board, "a1 c1 b2", WHITE_PAWN);
    check(&shot, board, "a3 b3 c3", BLACK_PAWN);
    // The top bar says so in the colour of trouble, not of a good link.
    let link_line = Rect::new(0.0, 0.0, WINDOW_WIDTH as f32, TOP_BAR_HEIGHT / 2.0);
    assert!(
        shot.lit_pixels(link_line, ERROR_TEXT) > 30,
        "no reconnecting line"
    );
    assert_eq!(
        shot.lit_pixels(link_line, GOOD_TEXT),
        0,
        "still says connected"
    );
}
