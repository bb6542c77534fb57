//! A name in letters the window's font lacks is drawn in a font of the machine's that has
//! them: the real window shows "王芳" in its lobby's name field, and those pixels are not the
//! empty boxes it draws for letters no font has.

mod common;

use std::ffi::OsStr;

use common::{Screenshot, have_xvfb, scratch, screenshot_taken, spawn_under_xvfb_at};
use macroquad::math::Rect;
use parlor_client::gui::font_file_with;

/// The band of the lobby's first row right of the server field, where the "Name" field
/// shows the person's name.
const NAME_BAND: Rect = Rect {
    x: 740.0,
    y: 66.0,
    w: 460.0,
    h: 40.0,
};

/// The lobby of a window whose person is called `name` (their own `PARLOR_HOME`).
fn lobby_of(name: &str) -> Screenshot {
    let dir = scratch();
    let (home, data, png) = (
        dir.path().join("home"),
        dir.path().join("data"),
        dir.path().join("lobby.png"),
    );
    let args: [&OsStr; 8] = [
        "--data".as_ref(),
        data.as_os_str(),
        "--name".as_ref(),
        name.as_ref(),
        "--open-room".as_ref(),
        "lobby".as_ref(),
        "--screenshot".as_ref(),
        png.as_os_str(),
    ];
    let output = spawn_under_xvfb_at(&args, &home)
        .wait_with_output()
        .unwrap();
    screenshot_taken(&output, &png)
}

/// The pixels of `band` that differ between two screenshots.
fn differing_pixels(one: &Screenshot, other: &Screenshot, band: Rect) -> usize {
    let rows = band.y as u32..(band.y + band.h) as u32;
    (rows.flat_map(|y| (band.x as u32..(band.x + band.w) as u32).map(move |x| (x, y))))
        .filter(|&(x, y)| one.pixel(x as f32, y as f32) != other.pixel(x as f32, y as f32))
        .count()
}

/// Pixels of `band` much brighter than the field behind the text: the text's strokes.
fn bright_pixels(shot: &Screenshot, band: Rect) -> usize {
    let rows = band.y as u32..(band.y + band.h) as u32;
    (rows.flat_map(|y| (band.x as u32..(band.x + band.w) as u32).map(move |x| (x, y))))
        .filter(|&(x, y)| shot.pixel(x as f32, y as f32).iter().all(|&c| c > 150))
        .count()
}

#[test]
fn a_name_in_chinese_is_drawn_in_a_font_that_has_its_letters() {
    if !have_xvfb() {
        return;
    }
    if font_file_with('王').is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have a font with Chinese letters (see .ci/run)"
        );
        eprintln!(
            "skipped: no font here has Chinese letters (apt-get install fonts-droid-fallback)"
        );
        return;
    }
    let chinese = lobby_of("王芳");
    // Two letters of a private-use plane no font has: the window's font draws its empty box
    // for each, which is what "王芳" looked like before the window looked for other fonts.
    let boxes = lobby_of("\u{10FFFD}\u{10FFFD}");
    assert!(bright_pixels(&boxes, NAME_BAND) > 20, "the boxes are drawn");
    assert!(bright_pixels(&chinese, NAME_BAND) > 20, "the name is drawn");
    let differing = differing_pixels(&chinese, &boxes, NAME_BAND);
    assert!(
        differing > 40,
        "\"王芳\" is drawn as the boxes of letters no font has ({differing} pixels differ)"
    );
}
