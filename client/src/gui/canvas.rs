//! The area the screens are laid out on. Every screen is laid out for at least
//! [`MIN_WIDTH`] x [`MIN_HEIGHT`] logical pixels (the layout test's size); a smaller window
//! shows that area shrunk to fit, through a camera, rather than overlapping text and buttons.
//! Layout code asks [`canvas_width`] and [`canvas_height`], never the window's own size, and
//! the pointer is brought into the canvas's coordinates once a frame, in `Input::gather`.

use macroquad::camera::{Camera2D, set_camera, set_default_camera};
use macroquad::math::{Rect, Vec2};
use macroquad::window::{screen_height, screen_width};

pub const MIN_WIDTH: f32 = 800.0;
pub const MIN_HEIGHT: f32 = 600.0;

/// How much the canvas is shrunk to fit a window of `window` logical pixels: 1 when the
/// window is at least the smallest canvas, else the factor that fits both sides (so text keeps
/// its shape).
pub fn scale_for(window: (f32, f32)) -> f32 {
    let (width, height) = window;
    (width / MIN_WIDTH)
        .min(height / MIN_HEIGHT)
        .clamp(0.05, 1.0)
}

fn scale() -> f32 {
    scale_for((screen_width(), screen_height()))
}

pub fn canvas_width() -> f32 {
    screen_width() / scale()
}

pub fn canvas_height() -> f32 {
    screen_height() / scale()
}

/// A point of the window (the pointer's) in the canvas's coordinates.
pub fn to_canvas(point: Vec2) -> Vec2 {
    point / scale()
}

/// Draws this frame's canvas onto the window: shrunk by a camera when the window is smaller
/// than the canvas, else straight (the default camera, which keeps drawing pixel-exact).
pub fn begin_frame() {
    if scale() < 1.0 {
        let area = Rect::new(0.0, 0.0, canvas_width(), canvas_height());
        let mut camera = Camera2D::from_display_rect(area);
        // `from_display_rect` is made for render targets, whose rows run bottom up; the
        // window's run top down (seen in a screenshot: the canvas came out upside down).
        camera.zoom.y = -camera.zoom.y;
        set_camera(&camera);
    } else {
        set_default_camera();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_at_least_the_smallest_canvas_is_drawn_unscaled() {
        assert_eq!(scale_for((800.0, 600.0)), 1.0);
        assert_eq!(scale_for((1920.0, 1080.0)), 1.0);
    }

    #[test]
    fn a_smaller_window_shrinks_the_canvas_by_its_tighter_side() {
        assert_eq!(scale_for((400.0, 600.0)), 0.5);
        assert_eq!(scale_for((1200.0, 300.0)), 0.5);
        // Both sides of the canvas then fill or exceed the smallest one.
        let (width, height) = (500.0, 400.0);
        let scale = scale_for((width, height));
        assert!(width / scale >= MIN_WIDTH && height / scale >= MIN_HEIGHT - 0.01);
    }

    #[test]
    fn a_window_minimised_to_nothing_does_not_divide_by_zero() {
        assert!(scale_for((0.0, 0.0)) > 0.0);
    }
}
