//! The bar across the top of every screen: the title, the link to the server, and the latest
//! notice.

use macroquad::color::Color;
use macroquad::shapes::draw_rectangle;
use macroquad::window::screen_width;

use super::{App, Link, NOTICE_SECONDS};
use crate::gui::widgets::{
    DIM_TEXT, ERROR_TEXT, GOOD_TEXT, PANEL, TEXT, TOP_BAR_HEIGHT, fit_to_width, heading, label,
    wrap_to_width,
};

impl App {
    /// Title, connection state and the latest notice, across the top of every screen.
    pub(super) fn draw_top_bar(&self, now: f64) {
        let width = screen_width();
        draw_rectangle(0.0, 0.0, width, TOP_BAR_HEIGHT, PANEL);
        heading("Parlor", 16.0, 38.0);
        let x = 140.0;
        let room = width - x - 10.0;
        let (text, color): (String, Color) = match &self.link {
            Link::Offline(reason) if reason.is_empty() => ("Not connected".into(), DIM_TEXT),
            Link::Offline(reason) => (format!("Not connected: {reason}"), ERROR_TEXT),
            Link::Connecting { url } => (format!("Connecting to {url} ..."), TEXT),
            Link::Connected { url, server } => {
                (format!("Connected to {url} ({server})"), GOOD_TEXT)
            }
            Link::Reconnecting {
                url,
                attempt,
                reason,
            } => (
                format!("Reconnecting to {url}... (attempt {attempt}; {reason})"),
                ERROR_TEXT,
            ),
            // The reason names the address when it matters ("cannot connect to ...").
            Link::Disconnected { reason, .. } => (format!("Disconnected: {reason}"), ERROR_TEXT),
        };
        let mut lines = wrap_to_width(&text, room).into_iter();
        label(&lines.next().unwrap_or_default(), x, 24.0, color);
        // The second line shows the latest notice, or else the rest of a long link status.
        let notice = self
            .notice
            .as_ref()
            .filter(|notice| notice.at.is_none_or(|at| now - at < NOTICE_SECONDS));
        let (second, color) = match notice {
            Some(notice) => (
                notice.text.clone(),
                if notice.is_error { ERROR_TEXT } else { TEXT },
            ),
            None => (lines.collect::<Vec<_>>().join(" "), color),
        };
        label(&fit_to_width(&second, room), x, 48.0, color);
    }
}
