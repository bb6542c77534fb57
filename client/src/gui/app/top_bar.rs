//! The bar across the top of every screen: the title, the link to the server, and the latest
//! notice.

use macroquad::color::Color;
use macroquad::shapes::draw_rectangle;

use super::{App, Link, NOTICE_SECONDS};
use crate::gui::canvas::canvas_width;
use crate::gui::widgets::{
    DIM_TEXT, ERROR_TEXT, GOOD_TEXT, PANEL, TEXT, TOP_BAR_HEIGHT, fit_to_width, heading, label,
    wrap_to_width,
};

impl App {
    /// Title, connection state and the latest notice, across the top of every screen.
    pub(super) fn draw_top_bar(&self, now: f64) {
        let width = canvas_width();
        draw_rectangle(0.0, 0.0, width, TOP_BAR_HEIGHT, PANEL);
        heading("Parlor", 16.0, 38.0);
        let x = 140.0;
        let room = width - x - 10.0;
        let (text, color): (String, Color) = match &self.link {
            Link::Offline(reason) if reason.is_empty() => ("Not connected".into(), DIM_TEXT),
            Link::Offline(reason) => (format!("Not connected: {reason}"), ERROR_TEXT),
            Link::Connecting { url } => (format!("Connecting to {url} ..."), TEXT),
            Link::Connected { url, server, node } => (connected_text(url, node, server), GOOD_TEXT),
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
        let notice = self
            .notice
            .as_ref()
            .filter(|notice| notice.at.is_none_or(|at| now - at < NOTICE_SECONDS));
        let status = wrap_to_width(&text, room);
        let [first, second] = match notice {
            // A notice too long for the second line takes both while it is shown: it says what
            // matters now; the link's state is back when it goes.
            Some(notice) => {
                let notice_color = if notice.is_error { ERROR_TEXT } else { TEXT };
                let wrapped = wrap_to_width(&notice.text, room);
                match &wrapped[..] {
                    [one] => [
                        (status.first().cloned().unwrap_or_default(), color),
                        (one.clone(), notice_color),
                    ],
                    _ => two_lines(&wrapped, room).map(|line| (line, notice_color)),
                }
            }
            None => two_lines(&status, room).map(|line| (line, color)),
        };
        label(&first.0, x, 24.0, first.1);
        label(&second.0, x, 48.0, second.1);
    }
}

/// `lines` in two: the first as it is, the rest joined and cut to `width`.
fn two_lines(lines: &[String], width: f32) -> [String; 2] {
    let first = lines.first().cloned().unwrap_or_default();
    let rest = lines.get(1..).unwrap_or_default().join(" ");
    [first, fit_to_width(&rest, width)]
}

/// "Connected to ws://a:7878 (parlor-server 0.1.0)"; with several nodes in `url`, the one
/// reached and how many there are.
fn connected_text(url: &str, node: &str, server: &str) -> String {
    let nodes = url.split(',').count();
    match nodes {
        1 => format!("Connected to {node} ({server})"),
        _ => format!("Connected to {node}, one of {nodes} nodes ({server})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hall_of_several_nodes_names_the_one_reached() {
        assert_eq!(
            connected_text("ws://a:1", "ws://a:1", "parlor-server 0.1.0"),
            "Connected to ws://a:1 (parlor-server 0.1.0)"
        );
        assert_eq!(
            connected_text(
                "ws://a:1,ws://b:2,ws://c:3",
                "ws://b:2",
                "parlor-server 0.1.0"
            ),
            "Connected to ws://b:2, one of 3 nodes (parlor-server 0.1.0)"
        );
    }
}
