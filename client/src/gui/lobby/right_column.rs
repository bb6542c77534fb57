//! The lobby's right column: our games in progress and the open rooms, and under them the
//! stored games. Each list gets the height it needs when both fit; otherwise a list that needs
//! less than its share leaves the rest to the other, and two long lists share the height at
//! [`ROOMS_SHARE`].

use std::collections::HashMap;
use std::time::{SystemTime, UNIX_EPOCH};

use macroquad::math::Rect;
use macroquad::time::get_time;
use parlor_shared::protocol::{RoomId, RoomSummary};

use super::more_rows::{MORE_ROWS_HEIGHT, draw_more_rows};
use super::rows::{
    LIST_HEADING_HEIGHT, STALE, draw_my_seats, draw_record_row, draw_room_row, empty_records_text,
    empty_rooms_text, my_seats_height, rooms_heading,
};
use super::{LobbyAction, LobbyView, MARGIN, RIGHT_X};
use crate::gui::board_play::HeldSeat;
use crate::gui::canvas::canvas_width;
use crate::gui::key_focus;
use crate::gui::widgets::{DIM_TEXT, Input, fit_to_width, heading_fit, label};

const ROOM_ROW_HEIGHT: f32 = 62.0;
const RECORD_ROW_HEIGHT: f32 = 50.0;

impl LobbyView {
    /// The right column from `top` to `bottom`, shared by need (see [`records_top`]); drawn
    /// top down, so that Tab walks it in the order it is seen.
    pub(super) fn draw_right_column(
        &mut self,
        input: &Input,
        (top, bottom): (f32, f32),
        connected: bool,
        held: &HashMap<RoomId, Vec<HeldSeat>>,
    ) -> Option<LobbyAction> {
        let rooms =
            my_seats_height(self.my_seats.len()) + list_height(self.rooms.len(), ROOM_ROW_HEIGHT);
        let records = list_height(self.records.len(), RECORD_ROW_HEIGHT);
        let records_top = records_top(top, bottom, MARGIN, rooms, records);
        let rooms_action = self.draw_rooms(input, top, records_top - MARGIN, connected, held);
        rooms_action.or(self.draw_records(input, records_top, bottom, connected))
    }

    /// The stored games, in the right column from `top` to `bottom`.
    fn draw_records(
        &mut self,
        input: &Input,
        top: f32,
        bottom: f32,
        connected: bool,
    ) -> Option<LobbyAction> {
        let title = match (connected, self.records.is_empty()) {
            (false, false) => format!("Stored games {STALE}"),
            _ => "Stored games".to_string(),
        };
        let empty = self
            .records
            .is_empty()
            .then(|| empty_records_text(connected));
        let list = right_list(&title, empty, top, bottom)?;
        key_focus::part();
        let visible = ((list.h / RECORD_ROW_HEIGHT).floor() as usize).max(1);
        input.scroll(&mut self.records_scroll, list, self.records.len(), visible);
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_secs());
        let mut action = None;
        let shown = self.records.iter().skip(self.records_scroll).take(visible);
        for (row, record) in shown.enumerate() {
            let y = list.y + row as f32 * RECORD_ROW_HEIGHT;
            let rect = Rect::new(list.x, y, list.w, RECORD_ROW_HEIGHT - 4.0);
            let row = (record, self.me.as_ref());
            let scope = ("stored game", record.id);
            let drawn =
                key_focus::scoped(scope, || draw_record_row(input, rect, row, now, connected));
            action = action.or(drawn);
        }
        let total = self.records.len();
        draw_more_rows(input, list, total, &mut self.records_scroll, visible);
        action
    }

    /// The seats we hold and the open rooms, in the right column from `top` to `bottom`.
    fn draw_rooms(
        &mut self,
        input: &Input,
        top: f32,
        bottom: f32,
        connected: bool,
        held: &HashMap<RoomId, Vec<HeldSeat>>,
    ) -> Option<LobbyAction> {
        let my_seats = &self.my_seats[..];
        // Our games give up lines before the rooms' list has less than two rows (one, for a
        // hall of one room) and its hint: our games are among the rooms anyway.
        let least_rows = self.rooms.len().clamp(1, 2) as f32;
        let rooms_least = LIST_HEADING_HEIGHT + least_rows * ROOM_ROW_HEIGHT + MORE_ROWS_HEIGHT;
        let (resume, top) = draw_my_seats(
            input,
            my_seats,
            RIGHT_X,
            (top, bottom - rooms_least),
            (held, connected),
        );
        let now = get_time();
        if resume.is_some() {
            return resume;
        }
        let heading = rooms_heading(self.rooms.len(), connected, self.rooms_partial);
        let empty = self.rooms.is_empty().then(|| empty_rooms_text(connected));
        let list = right_list(&heading, empty, top, bottom)?;
        key_focus::part();
        // Newest first: fresh rooms are the ones people are waiting in.
        let mut rooms: Vec<&RoomSummary> = self.rooms.iter().collect();
        rooms.sort_by_key(|room| std::cmp::Reverse(room.room));
        let visible = ((list.h / ROOM_ROW_HEIGHT).floor() as usize).max(1);
        input.scroll(&mut self.rooms_scroll, list, rooms.len(), visible);
        let me = self.me.as_ref().map(|me| me.id);
        let mut action = None;
        for (row, room) in rooms
            .iter()
            .skip(self.rooms_scroll)
            .take(visible)
            .enumerate()
        {
            let y = list.y + row as f32 * ROOM_ROW_HEIGHT;
            let row_action = key_focus::scoped(("room", room.room), || {
                draw_room_row(
                    input,
                    Rect::new(list.x, y, list.w, ROOM_ROW_HEIGHT - 4.0),
                    room,
                    (held.get(&room.room).map_or(&[][..], Vec::as_slice), me),
                    (
                        &self.closing.text(room.room, "Close", now),
                        self.rematches.contains_key(&room.room),
                    ),
                    connected,
                )
            });
            let row_action = match row_action.filter(|_| connected) {
                Some(LobbyAction::Close(room)) if !self.closing.click(room, now) => None,
                other => other,
            };
            action = action.or(row_action);
        }
        draw_more_rows(input, list, rooms.len(), &mut self.rooms_scroll, visible);
        action
    }
}

/// A list of the right column from `top` to `bottom` under its `heading`: the rectangle its
/// rows go in (its hint under it), or `None` when it is `empty`, said in these words in its
/// place.
fn right_list(heading: &str, empty: Option<&str>, top: f32, bottom: f32) -> Option<Rect> {
    let width = canvas_width() - RIGHT_X - MARGIN;
    heading_fit(heading, RIGHT_X, top + 22.0, width);
    let list = Rect::new(
        RIGHT_X,
        top + LIST_HEADING_HEIGHT,
        width,
        bottom - top - LIST_HEADING_HEIGHT - MORE_ROWS_HEIGHT,
    );
    if let Some(empty) = empty {
        label(
            &fit_to_width(empty, width),
            RIGHT_X,
            list.y + 20.0,
            DIM_TEXT,
        );
        return None;
    }
    Some(list)
}

/// The share of the right column's height the open rooms take when both lists are long.
const ROOMS_SHARE: f32 = 0.55;

/// The height a list of `rows` rows of `row_height` wants: its heading, at least one row (an
/// empty list says so on one), and the line under it.
fn list_height(rows: usize, row_height: f32) -> f32 {
    LIST_HEADING_HEIGHT + rows.max(1) as f32 * row_height + MORE_ROWS_HEIGHT
}

/// Where the stored games start in the column from `top` to `bottom`, `gap` under the rooms,
/// when the rooms (with our games) want `rooms` and the stored games `records` in height.
fn records_top(top: f32, bottom: f32, gap: f32, rooms: f32, records: f32) -> f32 {
    let shared = top + (bottom - top) * ROOMS_SHARE;
    let under_rooms = top + rooms + gap;
    if under_rooms <= shared {
        return under_rooms;
    }
    shared.max(under_rooms.min(bottom - records))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_list_gets_what_it_needs_and_two_long_ones_share() {
        // A column of 500 from 100; the shared split is at 375.
        let top_of_records = |rooms, records| records_top(100.0, 600.0, 16.0, rooms, records);
        assert_eq!(
            top_of_records(100.0, 100.0),
            216.0,
            "both fit: right under the rooms"
        );
        assert_eq!(
            top_of_records(450.0, 80.0),
            520.0,
            "few stored games give way"
        );
        assert_eq!(top_of_records(400.0, 80.0), 516.0, "both fit, just");
        assert_eq!(top_of_records(330.0, 80.0), 446.0, "both fit still");
        assert_eq!(top_of_records(400.0, 400.0), 375.0, "both long: shared");
        assert_eq!(
            top_of_records(900.0, 50.0),
            550.0,
            "the stored games keep what they need"
        );
        assert_eq!(
            top_of_records(900.0, 300.0),
            375.0,
            "but never less than their share"
        );
    }

    #[test]
    fn an_empty_list_wants_one_row() {
        assert_eq!(list_height(0, 50.0), 34.0 + 50.0 + MORE_ROWS_HEIGHT);
        assert_eq!(list_height(3, 50.0), 34.0 + 150.0 + MORE_ROWS_HEIGHT);
    }
}
