//! One row of the lobby's room list or stored-game list, with the buttons that lead into it.

use std::collections::HashMap;

use macroquad::color::Color;
use macroquad::math::Rect;
use macroquad::shapes::draw_rectangle;
use parlor_shared::game::GameKind;
use parlor_shared::identity::{Player, PlayerId};
use parlor_shared::protocol::{RecordSummary, RoomId, RoomSummary, SeatState};

use super::LobbyAction;
use crate::gui::board_play::HeldSeat;
use crate::gui::canvas::canvas_width;
use crate::gui::describe;
use crate::gui::game_view::{draw_seat_swatch, seat_in_list};
use crate::gui::key_focus;
use crate::gui::widgets::{
    BUTTON_HEIGHT, DIM_TEXT, GOOD_TEXT, Input, LINE_HEIGHT, PANEL, TEXT, button_enabled,
    button_width, fit_to_width, heading_fit, label, text_width,
};

/// Buttons inside list rows are a little lower than ordinary ones.
const ROW_BUTTON_HEIGHT: f32 = 24.0;

/// A room: what it is, who made it, who sits where, and the ways in (see [`room_buttons`],
/// greyed out while not `connected`); `close_text` is what the Close button of a room of ours
/// says now; `plays_me_again` when it is the rematch another player made of a game with us.
pub fn draw_room_row(
    input: &Input,
    row: Rect,
    room: &RoomSummary,
    (held, me): (&[HeldSeat], Option<PlayerId>),
    (close_text, plays_me_again): (&str, bool),
    connected: bool,
) -> Option<LobbyAction> {
    draw_rectangle(row.x, row.y, row.w, row.h, PANEL);
    // An auto match counts its rounds where games count turns.
    let unit = if room.game == GameKind::HerMatch {
        "round"
    } else {
        describe::turn_unit(room.game)
    };
    // Said as the seats say it: "you" for the person at this window.
    let creator = match &room.creator {
        Some(creator) if Some(creator.id) == me => " by you".to_string(),
        Some(creator) => format!(" by {}", creator.label()),
        None => String::new(),
    };
    let summary = format!(
        "#{} {}{creator}: {}, {} watching",
        room.room,
        room.game.name(),
        describe::count_s(room.moves, unit),
        room.spectators
    );
    let (status, color) = room_status(room, plays_me_again, waits_for_me(room, held, me));
    let status_x = row.x + row.w - text_width(&status) - 8.0;
    label(&status, status_x, row.y + 20.0, color);
    let summary = fit_to_width(&summary, status_x - row.x - 18.0);
    label(&summary, row.x + 6.0, row.y + 20.0, TEXT);
    let mut buttons = room_buttons(room, held, me, close_text);
    let widths = |buttons: &[(String, LobbyAction)]| {
        (buttons.iter())
            .map(|(text, _)| button_width(text) + 6.0)
            .sum::<f32>()
    };
    if widths(&buttons) > row.w - 6.0 {
        buttons = without_needless_seat_names(buttons);
    }
    // Right-aligned, so the last button always sits at the row's end; the seats get the
    // room left of the buttons. Drawn left to right, the order Tab walks them in.
    let right = row.x + row.w - 6.0 - widths(&buttons);
    let mut x = right + 6.0;
    let mut action = None;
    for (text, on_click) in buttons {
        let width = button_width(&text);
        let rect = Rect::new(x, row.y + 28.0, width, ROW_BUTTON_HEIGHT);
        if button_enabled(input, rect, &text, connected) {
            action = Some(on_click);
        }
        x += width + 6.0;
    }

    let mut x = row.x + 6.0;
    let baseline = row.y + 46.0;
    for (seat, state) in room.seats.iter().enumerate() {
        // Short of room for a swatch and a word, the seat is left out, swatch and all.
        if right - 10.0 - x < MIN_SEAT_ROOM {
            break;
        }
        let seat = seat as u8;
        x += draw_seat_swatch(room.game, x, baseline, seat);
        let who = if is_mine(seat, state, held, me) {
            "you".to_string()
        } else {
            describe::seat_state(room.game, state)
        };
        let room_left = right - 10.0 - x;
        let text = fit_to_width(&seat_in_list(room.game, seat, &who), room_left);
        // Three dots say nothing: a seat with no room for a word is left out.
        if text.trim_end_matches("...").trim().is_empty() {
            break;
        }
        x += label(&text, x, baseline, TEXT) + 16.0;
    }
    action
}

/// The least room a seat of a room's row is drawn in: its swatch and a short word.
const MIN_SEAT_ROOM: f32 = 48.0;

/// A room row's buttons for a narrow row: a seat's name is left out of a button whose verb no
/// other button shares ("Resume Black" is "Resume" when it is the only Resume), so the row
/// keeps every way in.
fn without_needless_seat_names(buttons: Vec<(String, LobbyAction)>) -> Vec<(String, LobbyAction)> {
    let verb = |text: &str| match text.rsplit_once(' ') {
        Some((verb, _)) if ["Join", "Also play", "Resume"].contains(&verb) => verb.to_string(),
        _ => text.to_string(),
    };
    let verbs: Vec<String> = buttons.iter().map(|(text, _)| verb(text)).collect();
    (buttons.into_iter().zip(&verbs))
        .map(|((text, action), short)| {
            let alone = verbs.iter().filter(|other| *other == short).count() == 1;
            match alone {
                true => (short.clone(), action),
                false => (text, action),
            }
        })
        .collect()
}

/// Whether `room`'s game waits for the move of a seat of ours.
fn waits_for_me(room: &RoomSummary, held: &[HeldSeat], me: Option<PlayerId>) -> bool {
    (room.to_move)
        .and_then(|seat| Some((seat, room.seats.get(usize::from(seat))?)))
        .is_some_and(|(seat, state)| is_mine(seat, state, held, me))
}

/// Whether seat `seat` of a room is ours: held by this window, or taken by player `me`.
fn is_mine(seat: u8, state: &SeatState, held: &[HeldSeat], me: Option<PlayerId>) -> bool {
    held.iter().any(|h| h.seat == seat) || state.taken_by(me)
}

/// What a room's row says at its right, and in which colour: its result, that it waits for
/// us to play again (`plays_me_again`) or for anyone to take a seat, for our move (`my_move`),
/// or that it is in play.
fn room_status(room: &RoomSummary, plays_me_again: bool, my_move: bool) -> (String, Color) {
    let open = room.seats.contains(&SeatState::Open);
    let untaken = room.seats.iter().any(SeatState::untaken);
    match room.outcome {
        Some(outcome) => (describe::summary_result(room, outcome), DIM_TEXT),
        None if untaken && plays_me_again => ("waits to play you again".into(), GOOD_TEXT),
        None if open => ("open seat".into(), GOOD_TEXT),
        None if untaken => ("waits for its players".into(), TEXT),
        None if my_move => ("your move".into(), GOOD_TEXT),
        None => ("in play".into(), TEXT),
    }
}

/// The rooms that other players made to play again a finished game of ours (player `me`'s),
/// as the finished rooms among `rooms` name them, each with its maker.
pub fn rematches_for(rooms: &[RoomSummary], me: PlayerId) -> HashMap<RoomId, Player> {
    (rooms.iter())
        .filter(|room| room.seats.iter().any(|state| state.taken_by(Some(me))))
        .filter_map(|room| room.rematch.as_ref())
        .filter(|rematch| rematch.by.id != me)
        .map(|rematch| (rematch.room, rematch.by.clone()))
        .collect()
}

/// A room row's buttons, left to right: join an open seat, resume the seats player `me` took
/// elsewhere (another window, before a restart), close an unfinished room `me` made (its text
/// `close_text`: the lobby asks twice), and watch, or resume the seats `held` here.
pub fn room_buttons(
    room: &RoomSummary,
    held: &[HeldSeat],
    me: Option<PlayerId>,
    close_text: &str,
) -> Vec<(String, LobbyAction)> {
    let mut buttons = Vec::new();
    let sits_here =
        (room.seats.iter().zip(0u8..)).any(|(state, seat)| is_mine(seat, state, held, me));
    if room.outcome.is_none() {
        for (seat, state) in room.seats.iter().enumerate() {
            let seat = seat as u8;
            let join = LobbyAction::Join {
                room: room.room,
                seat,
            };
            let name = describe::game_seat_name(room.game, seat);
            if *state == SeatState::Open && sits_here {
                // Taking the other seat too leaves no seat for an opponent: say so.
                buttons.push((format!("Also play {name}"), join));
            } else if state.may_be_taken_by(me) {
                buttons.push((format!("Join {name}"), join));
            } else if state.taken_by(me) && !held.iter().any(|h| h.seat == seat) {
                buttons.push((format!("Resume {name}"), join));
            }
        }
        let made_by_me = room.creator.as_ref().is_some_and(|c| Some(c.id) == me);
        if made_by_me {
            buttons.push((close_text.to_string(), LobbyAction::Close(room.room)));
        }
    }
    // The seats this window holds are resumed by their tokens, those held elsewhere by the
    // person's identity; to the person both are "Resume". A game that is over has nothing to
    // resume: its room is opened, to see the end or play again, also by a player whose seat
    // this window does not hold (opened again since): the room knows them by who they are.
    match held {
        [] if room.outcome.is_some() && sits_here => {
            buttons.push(("Open".into(), LobbyAction::Watch(room.room)));
        }
        [] => buttons.push(("Watch".into(), LobbyAction::Watch(room.room))),
        _ if room.outcome.is_some() => {
            buttons.push(("Open".into(), LobbyAction::ResumeHeld(room.room)));
        }
        [one] => {
            let name = describe::game_seat_name(room.game, one.seat);
            buttons.push((format!("Resume {name}"), LobbyAction::ResumeHeld(room.room)));
        }
        _ => buttons.push(("Resume".into(), LobbyAction::ResumeHeld(room.room))),
    }
    buttons
}

/// Our games, those that wait for our move first (they are what the person came back for),
/// then the rematches that keep a seat for us, else in the server's order, oldest first.
fn waiting_first(
    my_seats: &[parlor_shared::protocol::HeldSeat],
) -> Vec<&parlor_shared::protocol::HeldSeat> {
    let mut ordered: Vec<_> = my_seats.iter().collect();
    ordered.sort_by_key(|mine| (!mine.to_move, !mine.kept));
    ordered
}

/// A line of "Your games in progress": the room, its game and our seat, and whether the game
/// waits for our move, or a rematch keeps the seat for us, which stand out.
fn my_seat_line(mine: &parlor_shared::protocol::HeldSeat) -> (String, Color) {
    let seat = describe::game_seat_name(mine.game, mine.seat);
    let line = format!("#{} {}, {seat}", mine.room, mine.game.name());
    match (mine.to_move, mine.kept) {
        (true, _) => (format!("{line}: your move"), GOOD_TEXT),
        (false, true) => (format!("{line}: kept for you"), GOOD_TEXT),
        (false, false) => (line, TEXT),
    }
}

/// The games in progress in which we hold a seat (from any window or machine), each with
/// the way back in, in a column from `x` to the screen's right margin, from `top` and ending
/// above `bottom` where it can (it lists one game at least); returns its action and where the
/// column continues.
pub fn draw_my_seats(
    input: &Input,
    my_seats: &[parlor_shared::protocol::HeldSeat],
    x: f32,
    (top, bottom): (f32, f32),
    (held, connected): (&HashMap<RoomId, Vec<HeldSeat>>, bool),
) -> (Option<LobbyAction>, f32) {
    if my_seats.is_empty() {
        return (None, top);
    }
    key_focus::part();
    let width = canvas_width() - x - 20.0;
    // Kept, greyed, while the connection is down, as the other lists are: the column does
    // not jump when it comes back.
    let title = match connected {
        true => "Your games in progress".to_string(),
        false => format!("Your games in progress {STALE}"),
    };
    heading_fit(&title, x, top + 22.0, width);
    let mut y = top + LIST_HEADING_HEIGHT;
    let mut action = None;
    let shown = my_seats_shown(my_seats.len(), bottom - y);
    for mine in waiting_first(my_seats).into_iter().take(shown) {
        let (text, color) = my_seat_line(mine);
        let here = held
            .get(&mine.room)
            .is_some_and(|seats| seats.iter().any(|held| held.seat == mine.seat));
        let on_click = if here {
            LobbyAction::ResumeHeld(mine.room)
        } else {
            LobbyAction::Join {
                room: mine.room,
                seat: mine.seat,
            }
        };
        let button_text = if mine.kept { "Join" } else { "Resume" };
        let button_rect = Rect::new(
            x + width - button_width(button_text),
            y,
            button_width(button_text),
            BUTTON_HEIGHT,
        );
        let text = fit_to_width(&text, button_rect.x - x - 8.0);
        label(&text, x, y + 20.0, color);
        let scope = ("game in progress", mine.room << 8 | u64::from(mine.seat));
        let pressed = || button_enabled(input, button_rect, button_text, connected);
        if key_focus::scoped(scope, pressed) {
            action = Some(on_click);
        }
        y += MY_SEAT_ROW;
    }
    let more = my_seats.len() - shown;
    if more > 0 {
        let text = format!("and {more} more, in the rooms below");
        label(&text, x, y + 16.0, DIM_TEXT);
        y += LINE_HEIGHT;
    }
    (action, y + MY_SEATS_GAP)
}

/// How many of our games in progress the lobby lists above the rooms at most.
const MY_SEATS_SHOWN: usize = 3;
/// The height of one of them.
const MY_SEAT_ROW: f32 = BUTTON_HEIGHT + 4.0;
/// The space under our games, over the rooms' heading.
const MY_SEATS_GAP: f32 = 4.0;

/// How far under the top of a list of the right column its rows start, under its heading.
pub const LIST_HEADING_HEIGHT: f32 = 34.0;

/// The height [`draw_my_seats`] takes for `count` games when there is room for them all.
pub fn my_seats_height(count: usize) -> f32 {
    match count {
        0 => 0.0,
        _ => {
            let shown = count.min(MY_SEATS_SHOWN);
            let more = if shown < count { LINE_HEIGHT } else { 0.0 };
            LIST_HEADING_HEIGHT + shown as f32 * MY_SEAT_ROW + more + MY_SEATS_GAP
        }
    }
}

/// How many of `count` games in progress fit `space` (with the line saying how many more
/// there are, when not all do): at most [`MY_SEATS_SHOWN`], one at least.
fn my_seats_shown(count: usize, space: f32) -> usize {
    let fitting = |space: f32| (space / MY_SEAT_ROW).floor().max(1.0) as usize;
    let all = count.min(MY_SEATS_SHOWN);
    if all == count && fitting(space) >= all {
        return all;
    }
    all.min(fitting(space - LINE_HEIGHT))
}

/// A stored game: result, length, players and age, with a Replay button. `now` is in
/// seconds since the Unix epoch.
pub fn draw_record_row(
    input: &Input,
    row: Rect,
    (record, me): (&RecordSummary, Option<&Player>),
    now: u64,
    connected: bool,
) -> Option<LobbyAction> {
    draw_rectangle(row.x, row.y, row.w, row.h, PANEL);
    let width = button_width("Replay");
    let (summary, detail) = record_lines(record, me, now, row.w - 18.0 - width);
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

/// A stored game's players, "you" among them where a seat was ours (`me`'s), as the rooms'
/// seats say it: "you vs Bob #3f2a". A seat is ours by its player id, so also after a rename;
/// a game stored without ids (before protocol 14), or with a list of them that does not fit
/// its seats, goes by the seat's label.
fn players_line(record: &RecordSummary, me: Option<&Player>) -> String {
    let my_label = me.map(Player::label);
    let ids_fit = record.players.len() == record.seats.len();
    let named = record.seats.iter().enumerate().map(|(seat, label)| {
        let held_by = ids_fit.then(|| record.players[seat]).flatten();
        let mine = match (me, held_by) {
            (Some(me), Some(player)) => player == me.id,
            (Some(_), None) => my_label.as_ref() == Some(label),
            (None, _) => false,
        };
        if mine { "you" } else { label.as_str() }
    });
    named.collect::<Vec<_>>().join(" vs ")
}

/// A stored game's two lines: "#2 EWN puzzle: Solved, 6 moves" (the game, its result and
/// length, in `first_width`; the length moves to the second line when the first has no room
/// for it) and "you vs Bob #3f2a, 5 min ago" (players and age).
fn record_lines(
    record: &RecordSummary,
    me: Option<&Player>,
    now: u64,
    first_width: f32,
) -> (String, String) {
    let game = describe::short_game_name(record.game);
    let result = describe::game_result(record.game, record.outcome);
    let head = fit_to_width(&format!("#{} {game}: {result}", record.id), first_width);
    let moves = describe::count_s(record.moves, describe::turn_unit(record.game));
    let players = players_line(record, me);
    let ago = describe::ago(record.finished_at, now);
    let whole = format!("{head}, {moves}");
    if text_width(&whole) <= first_width {
        (whole, format!("{players}, {ago}"))
    } else {
        (head, format!("{moves} - {players}, {ago}"))
    }
}

/// The rooms' heading: "Rooms (3)"; without a server the count is not known, and rooms
/// still listed are those last seen. A `partial` list misses the rooms of the servers of the
/// hall that ours cannot reach now.
pub fn rooms_heading(count: usize, connected: bool, partial: bool) -> String {
    match (connected, count) {
        (true, _) if partial => format!("Rooms ({count}; other servers out of reach)"),
        (true, _) => format!("Rooms ({count})"),
        (false, 0) => "Rooms".into(),
        (false, _) => format!("Rooms {STALE}"),
    }
}

/// What a list heading adds while its contents are those last seen before the link dropped.
pub const STALE: &str = "(as last seen: not connected)";

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

#[cfg(test)]
mod tests;
