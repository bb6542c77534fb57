//! Resigning in the real window: a Magnetic Cave game against the classic AI, a brick placed
//! and answered, then Resign pressed twice (the hidden script's `resign`, which is done only
//! once the game is over): the game ends, lost, as the side panel says in red. The same for
//! Dropping Bricks' answering side, resigning while the agent's first drop waits.

mod common;

use common::{Screenshot, open_room};
use macroquad::math::Rect;
use parlor_client::gui::{ERROR_TEXT, TOP_BAR_HEIGHT, WINDOW_WIDTH, side_panel_x};

/// Red pixels in the side panel's top, where the turn line or the result is.
fn red_in_the_panel(shot: &Screenshot) -> usize {
    let x = side_panel_x(WINDOW_WIDTH as f32);
    let top = Rect::new(x, TOP_BAR_HEIGHT, WINDOW_WIDTH as f32 - x, 150.0);
    shot.lit_pixels(top, ERROR_TEXT)
}

/// Opens `playing` and the same with `resign` after it: no red in the panel while the game is
/// on, the result in red once resigned.
fn resigning_ends_it_lost(playing: &str) {
    let Some(on) = open_room(playing) else {
        return;
    };
    assert_eq!(red_in_the_panel(&on), 0, "{playing}: the game is on");
    let resigned = open_room(&format!("{playing} resign")).expect("xvfb-run is here");
    let red = red_in_the_panel(&resigned);
    assert!(
        red >= 40,
        "{playing}: {red} red pixels, where the result should say the game is lost"
    );
}

#[test]
fn resigning_in_the_window_ends_the_game_lost() {
    resigning_ends_it_lost("cave classic a1");
}

#[test]
fn the_answerer_of_dropping_bricks_resigns_too() {
    resigning_ends_it_lost("bricks answerer");
}
