//! Resigning in the real window: a Magnetic Cave game against the classic AI, a brick placed
//! and answered, then Resign pressed twice (the hidden script's `resign`, which is done only
//! once the game is over): the game ends, lost, as the side panel says in red.

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

#[test]
fn resigning_in_the_window_ends_the_game_lost() {
    let Some(playing) = open_room("cave classic a1") else {
        return;
    };
    assert_eq!(red_in_the_panel(&playing), 0, "the game is on");
    let resigned = open_room("cave classic a1 resign").expect("xvfb-run is here");
    let red = red_in_the_panel(&resigned);
    assert!(
        red >= 40,
        "{red} red pixels: the result says the game is lost"
    );
}
