//! One row of the lobby's room list or stored-game list, with the buttons that lead into it.

use macroquad::math::Rect;
use macroquad::shapes::draw_rectangle;
use parlor_shared::game::GameKind;
use parlor_shared::identity::PlayerId;
use parlor_shared::protocol::{RecordSummary, RoomSummary, SeatState};

use super::board_play::HeldSeat;
use super::describe;
use super::game_view::{draw_seat_swatch, seat_in_list};
use super::lobby::LobbyAction;
use super::widgets::{
    DIM_TEXT, GOOD_TEXT, Input, LINE_HEIGHT, PANEL, TEXT, button, button_enabled, button_width,
    fit_to_width, label, text_width, truncate,
};

/// Buttons inside list rows are a little lower than ordinary ones.
const ROW_BUTTON_HEIGHT: f32 = 24.0;

/// A room: what it is, who made it, who sits where, and the ways in (join an open seat, take
/// back the seats `held` here, resume the seats player `me` took elsewhere, or watch).
pub fn draw_room_row(
    input: &Input,
    row: Rect,
    room: &RoomSummary,
    held: &[HeldSeat],
    me: Option<PlayerId>,
) -> Option<LobbyAction> {
    draw_rectangle(row.x, row.y, row.w, row.h, PANEL);
    // An auto match counts its rounds where games count moves.
    let unit = if room.game == GameKind::HerMatch {
        "rounds"
    } else {
        "moves"
    };
    let creator = room
        .creator
        .as_ref()
        .map_or(String::new(), |creator| format!(" by {}", creator.label()));
    let summary = format!(
        "#{} {}{creator}: {} {unit}, {} watching",
        room.room,
        room.game.name(),
        room.moves,
        room.spectators
    );
    let open = |state: &SeatState| *state == SeatState::Open;
    let (status, color) = match room.outcome {
        Some(outcome) => (describe::game_result(room.game, outcome), DIM_TEXT),
        None if room.seats.iter().any(open) => ("open seat".to_string(), GOOD_TEXT),
        None => ("in play".to_string(), TEXT),
    };
    let status_x = row.x + row.w - text_width(&status) - 8.0;
    label(&status, status_x, row.y + 20.0, color);
    let summary = fit_to_width(&summary, status_x - row.x - 18.0);
    label(&summary, row.x + 6.0, row.y + 20.0, TEXT);
    let mine = |seat: u8, state: &SeatState| {
        held.iter().any(|h| h.seat == seat)
            || matches!(state, SeatState::Taken { player: Some(p), .. } if Some(p.id) == me)
    };

    let mut buttons: Vec<(String, LobbyAction)> = Vec::new();
    for (seat, state) in room.seats.iter().enumerate() {
        let seat = seat as u8;
        let join = LobbyAction::Join {
            room: room.room,
            seat,
        };
        let name = describe::game_seat_name(room.game, seat);
        if room.outcome.is_some() {
            continue;
        }
        if open(state) {
            buttons.push((format!("Join {name}"), join));
        } else if mine(seat, state) && !held.iter().any(|h| h.seat == seat) {
            // Taken by us in another window or before a restart: joining takes it back.
            buttons.push((format!("Resume {name}"), join));
        }
    }
    if held.is_empty() {
        buttons.push(("Watch".into(), LobbyAction::Watch(room.room)));
    } else {
        buttons.push(("Rejoin".into(), LobbyAction::Rejoin(room.room)));
    }
    // Right-aligned, so the last button always sits at the row's end; the seats get the
    // room left of the buttons.
    let mut right = row.x + row.w - 6.0;
    let mut action = None;
    for (text, on_click) in buttons.into_iter().rev() {
        let width = button_width(&text);
        right -= width;
        let rect = Rect::new(right, row.y + 28.0, width, ROW_BUTTON_HEIGHT);
        if button(input, rect, &text) {
            action = Some(on_click);
        }
        right -= 6.0;
    }

    let mut x = row.x + 6.0;
    let baseline = row.y + 46.0;
    for (seat, state) in room.seats.iter().enumerate() {
        let seat = seat as u8;
        x += draw_seat_swatch(room.game, x, baseline, seat);
        let who = if mine(seat, state) {
            "you".to_string()
        } else {
            describe::seat_state(state)
        };
        let chars = ((right - 10.0 - x) / text_width("m")).floor().max(0.0) as usize;
        let text = truncate(&seat_in_list(room.game, seat, &who), chars);
        x += label(&text, x, baseline, TEXT) + 16.0;
    }
    action
}

/// A stored game: result, length, players and age, with a Replay button. `now` is in
/// seconds since the Unix epoch.
pub fn draw_record_row(
    input: &Input,
    row: Rect,
    record: &RecordSummary,
    now: u64,
    connected: bool,
) -> Option<LobbyAction> {
    draw_rectangle(row.x, row.y, row.w, row.h, PANEL);
    let width = button_width("Replay");
    let (summary, detail) = record_lines(record, now, row.w - 18.0 - width);
    label(&summary, row.x + 6.0, row.y + 19.0, TEXT);
    label(
        &fit_to_width(&detail, row.w - 12.0),
        row.x + 6.0,
        row.y + 39.0,
        DIM_TEXT,
    );
    let rect = Rect::new(
        row.x + row.w - width - 6.0,
        row.y + 4.0,
        width,
        ROW_BUTTON_HEIGHT,
    );
    button_enabled(input, rect, "Replay", connected).then_some(LobbyAction::Replay(record.id))
}

/// A stored game's two lines: "#2 EWN puzzle: Solved, 6 moves" (the game, its result and
/// length, in `first_width`; the length moves to the second line when the first has no room
/// for it) and "human, 5 min ago" (players and age).
fn record_lines(record: &RecordSummary, now: u64, first_width: f32) -> (String, String) {
    let game = describe::short_game_name(record.game);
    let result = describe::game_result(record.game, record.outcome);
    let head = fit_to_width(&format!("#{} {game}: {result}", record.id), first_width);
    let moves = describe::count_s(record.moves, "move");
    let players = record.seats.join(" vs ");
    let ago = describe::ago(record.finished_at, now);
    let whole = format!("{head}, {moves}");
    if text_width(&whole) <= first_width {
        (whole, format!("{players}, {ago}"))
    } else {
        (head, format!("{moves} - {players}, {ago}"))
    }
}

/// The rooms' heading: "Rooms (3)"; without a server the count is not known.
pub fn rooms_heading(count: usize, connected: bool) -> String {
    if connected {
        format!("Rooms ({count})")
    } else {
        "Rooms".into()
    }
}

/// What an empty room list says: with a server, that there are none and how to make one;
/// without one, only that nothing is known (Create room is off then too).
pub fn empty_rooms_text(connected: bool) -> &'static str {
    if connected {
        "(no rooms: create one on the left)"
    } else {
        "(not connected)"
    }
}

/// What an empty list of stored games says, with a server or without one.
pub fn empty_records_text(connected: bool) -> &'static str {
    if connected {
        "(none yet: finished games appear here)"
    } else {
        "(not connected)"
    }
}

/// "9 of 14 shown; scroll for more" under a list that does not fit.
pub fn draw_more_hint(list: Rect, total: usize, first: usize, visible: usize) {
    if let Some(text) = more_hint(total, first, visible) {
        label(&text, list.x, list.y + list.h + LINE_HEIGHT - 4.0, DIM_TEXT);
    }
}

/// The words of [`draw_more_hint`]: how many rows are shown and where the others are. Rows are
/// counted, not named by number: a stored game's row starts with its own "#id".
pub fn more_hint(total: usize, first: usize, visible: usize) -> Option<String> {
    if total <= visible {
        return None;
    }
    let shown = visible.min(total - first.min(total));
    let above = first;
    let below = total - above - shown;
    let rest = match (above, below) {
        (0, _) => format!("{below} more below"),
        (_, 0) => format!("{above} more above"),
        _ => format!("{above} above, {below} below"),
    };
    Some(format!("{shown} of {total} shown, {rest}; scroll for more"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_server_the_lists_say_not_connected() {
        assert_eq!(rooms_heading(0, false), "Rooms");
        assert_eq!(rooms_heading(3, true), "Rooms (3)");
        assert_eq!(empty_rooms_text(false), "(not connected)");
        assert_eq!(empty_records_text(false), "(not connected)");
        assert!(empty_rooms_text(true).contains("create one"));
        assert!(empty_records_text(true).contains("none yet"));
    }

    #[test]
    fn the_more_hint_counts_rows_and_names_no_game_number() {
        assert_eq!(more_hint(2, 0, 2), None);
        assert_eq!(
            more_hint(2, 1, 1).as_deref(),
            Some("1 of 2 shown, 1 more above; scroll for more")
        );
        assert_eq!(
            more_hint(14, 0, 9).as_deref(),
            Some("9 of 14 shown, 5 more below; scroll for more")
        );
        assert_eq!(
            more_hint(14, 2, 9).as_deref(),
            Some("9 of 14 shown, 2 above, 3 below; scroll for more")
        );
    }
}
