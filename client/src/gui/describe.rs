//! Words for protocol values, shared by the lobby, room and replay screens. Pure functions, so
//! the wording is tested without a window. The window font has no ■/□ glyphs, so texts name the
//! colours and screens draw a brick swatch beside them instead.
//!
//! The plain functions word Magnetic Cave; the `game_` ones take the game and word any.

use parlor_engines::bricks::Solution;
use parlor_shared::bricks::{AGENT_SEAT, ANSWERER_SEAT, Turn};
use parlor_shared::game::{GameKind, GameState, Outcome};
use parlor_shared::hexapawn::brain_title;
use parlor_shared::identity::Player;
use parlor_shared::protocol::{RoomId, RoomSummary, SeatState};
use parlor_shared::words;

use super::seats::{player_name, seat_player};

/// "Black", "White", or "seat N" for a seat the cave does not have.
pub fn seat_name(seat: u8) -> String {
    seat_player(seat).map_or_else(|| format!("seat {seat}"), |p| player_name(p).to_string())
}

/// A seat's name in `game`: "Black" and "White" in Magnetic Cave, "Agent" and "Answerer" in
/// Dropping Bricks.
pub fn game_seat_name(game: GameKind, seat: u8) -> String {
    match game {
        GameKind::Cave => seat_name(seat),
        GameKind::Bricks => match seat {
            AGENT_SEAT => "Agent".into(),
            ANSWERER_SEAT => "Answerer".into(),
            _ => format!("seat {seat}"),
        },
        GameKind::Ewn | GameKind::Klotski => "Player".into(),
        GameKind::Hexapawn => match seat {
            0 => "White".into(),
            _ => "HER".into(),
        },
        // Its brains' own names are its summary's seats (`seat_state`), and in the match's
        // setup, which a room's view has.
        GameKind::HerMatch => match seat {
            0 => "first brain".into(),
            _ => "second brain".into(),
        },
    }
}

/// The game's name where room is short: the lobby form's buttons (three in a row) and the
/// stored-game list.
pub fn short_game_name(game: GameKind) -> &'static str {
    match game {
        GameKind::Cave => "Magnetic Cave",
        GameKind::Bricks => "Dropping Bricks",
        GameKind::Ewn => "EWN puzzle",
        GameKind::Klotski => "Klotski",
        GameKind::Hexapawn => "Hexapawn",
        GameKind::HerMatch => "HER vs HER",
    }
}

/// Whether `game` is a one-player puzzle, which is solved or not rather than won.
fn is_puzzle(game: GameKind) -> bool {
    matches!(game, GameKind::Ewn | GameKind::Klotski)
}

/// [`outcome`] for any game. Short enough for the side panel: the board says why.
pub fn game_outcome(game: GameKind, result: Outcome, me: Option<u8>) -> String {
    let Outcome::Won { seat } = result else {
        return match game {
            GameKind::Cave => outcome(result, me),
            GameKind::Bricks | GameKind::Hexapawn | GameKind::HerMatch => "Tie".into(),
            GameKind::Ewn | GameKind::Klotski => "Not solved".into(),
        };
    };
    if is_puzzle(game) {
        return "Solved".into();
    }
    let winner = game_seat_name(game, seat);
    match me {
        Some(mine) if mine == seat => format!("{winner} won - you won!"),
        Some(_) => format!("{winner} won - you lost"),
        None => format!("{winner} won"),
    }
}

/// [`game_outcome`] of the game in `state`: an auto match names the brain that won, and a
/// resigned game who resigned.
pub fn state_outcome(state: &GameState, result: Outcome, me: Option<u8>) -> String {
    match (state, result) {
        (state, Outcome::Won { seat }) if is_resigned(state) => {
            let name = |seat| game_seat_name(state.kind(), seat);
            let resigned = name(1 - seat);
            match me {
                Some(me) if me == seat => format!("{resigned} resigned - you won!"),
                Some(_) => format!("{resigned} resigned - you lost"),
                None => format!("{resigned} resigned - {} won", name(seat)),
            }
        }
        (GameState::HerMatch(view), Outcome::Won { seat }) => {
            match view.setup.brains.get(usize::from(seat)) {
                Some(brain) => format!("{} won", brain_title(brain)),
                None => game_outcome(state.kind(), result, me),
            }
        }
        _ => game_outcome(state.kind(), result, me),
    }
}

/// A resignation as a list of moves says it: "White resigns", "Answerer resigns".
pub fn resigns(game: GameKind, seat: u8) -> String {
    format!("{} resigns", game_seat_name(game, seat))
}

/// Whether a player gave `state`'s game up (only two-player games take a resignation).
fn is_resigned(state: &GameState) -> bool {
    match state {
        GameState::Cave(position) => position.resigned().is_some(),
        GameState::Bricks(game) => matches!(game.turn(), Turn::Resigned { .. }),
        _ => false,
    }
}

/// [`result`] for any game.
pub fn game_result(game: GameKind, outcome: Outcome) -> String {
    match outcome {
        Outcome::Won { .. } if is_puzzle(game) => "Solved".into(),
        Outcome::Won { seat } => format!("{} won", game_seat_name(game, seat)),
        Outcome::Tie | Outcome::Unsolved => result(outcome),
    }
}

/// A finished room's result as the lobby's summary of it tells it: an auto match names the
/// brain that won (its summary's seats are its brains).
pub fn summary_result(room: &RoomSummary, outcome: Outcome) -> String {
    let winner = match outcome {
        Outcome::Won { seat } if room.game == GameKind::HerMatch => {
            room.seats.get(usize::from(seat))
        }
        _ => None,
    };
    match winner {
        Some(SeatState::Ai { name, .. }) => format!("{} won", brain_title(name)),
        _ => game_result(room.game, outcome),
    }
}

/// `count` with its noun: "1 box", "2 boxes", "0 wins". `one` is the singular, `many` the
/// plural.
pub fn count_of(count: impl Into<u64>, one: &str, many: &str) -> String {
    let count = count.into();
    if count == 1 {
        format!("1 {one}")
    } else {
        format!("{count} {many}")
    }
}

/// `count` of a noun whose plural adds "s": "1 move", "2 moves".
pub fn count_s(count: impl Into<u64>, noun: &str) -> String {
    count_of(count, noun, &format!("{noun}s"))
}

/// The news that `rooms` (at least one) have come to wait for our move: "Room #3 waits for
/// your move", "Rooms #3, #5 and #8 wait for your move".
pub fn waiting_for_your_move(rooms: &[RoomId]) -> String {
    let named: Vec<String> = rooms.iter().map(|room| format!("#{room}")).collect();
    match named.split_last() {
        Some((last, [])) => format!("Room {last} waits for your move"),
        Some((last, rest)) => format!("Rooms {} and {last} wait for your move", rest.join(", ")),
        None => String::new(),
    }
}

/// Dropping Bricks' f(D, B) for people: "at least 18446744073709551615" where the closed form
/// stopped counting.
pub fn distinguishable_heights(solution: &Solution) -> String {
    let heights = solution.distinguishable_heights;
    match solution.distinguishable_heights_capped {
        true => format!("at least {heights}"),
        false => heights.to_string(),
    }
}

/// What the viewer is in a room, from the names of the seats held: "you are watching", "you
/// play White", "you play White and Black"; a puzzle's one seat is "you are the player".
pub fn role_text(game: GameKind, held_names: &[String]) -> String {
    if held_names.is_empty() {
        "you are watching".into()
    } else if is_puzzle(game) {
        "you are the player".into()
    } else {
        format!("you play {}", held_names.join(" and "))
    }
}

/// Whose move it is: "White to move (AI thinking)"; a puzzle's player who is this client reads
/// "Your move", not "Player to move (you)".
pub fn turn_text(game: GameKind, seat: u8, who: &str) -> String {
    if is_puzzle(game) && who == "you" {
        return "Your move".into();
    }
    format!("{} to move ({who})", game_seat_name(game, seat))
}

/// What a turn of `game` is called: a Bricks turn is a drop, a Klotski one a step.
pub fn turn_unit(game: GameKind) -> &'static str {
    match game {
        GameKind::Bricks => "drop",
        GameKind::Klotski => "step",
        _ => "move",
    }
}

pub use parlor_shared::words::seconds;

/// Who sits in a seat of a `game` room, for someone who does not hold it: the player's name
/// and the start of their id ("Ada #3f2a"), "(away)" while they are; an AI with its time a move,
/// except HER, which does not search: its matchbox picks at once (a seat's time is at most a
/// pause, which the moves show, and in slow mode the person sends HER's moves anyway).
pub fn seat_state(game: GameKind, state: &SeatState) -> String {
    match state {
        SeatState::Open => "open".into(),
        SeatState::Kept { player } => format!("kept for {}", player.label()),
        SeatState::Taken { connected, player } => {
            let who = player
                .as_ref()
                .map_or_else(|| "human".into(), Player::label);
            if *connected {
                who
            } else {
                format!("{who} (away)")
            }
        }
        SeatState::Ai { name, .. } if game == GameKind::HerMatch => brain_title(name),
        SeatState::Ai { .. } if game == GameKind::Hexapawn => words::HER_SEAT.into(),
        SeatState::Ai { move_ms, name } => words::ai_seat(*move_ms, name),
    }
}

/// "Black won" or "tie"; `me` is the viewer's seat, to add "you won" / "you lost".
pub fn outcome(outcome: Outcome, me: Option<u8>) -> String {
    match (outcome, me) {
        (Outcome::Tie, _) => "Tie - the cave is full".into(),
        (Outcome::Won { seat }, Some(mine)) if seat == mine => {
            format!("{} won - you won!", seat_name(seat))
        }
        (Outcome::Won { seat }, Some(_)) => format!("{} won - you lost", seat_name(seat)),
        (Outcome::Won { seat }, None) => format!("{} won", seat_name(seat)),
        (Outcome::Unsolved, _) => "Not solved".into(),
    }
}

/// A result in few words, for lists: "Black won" or "Tie".
pub fn result(outcome: Outcome) -> String {
    match outcome {
        Outcome::Won { seat } => format!("{} won", seat_name(seat)),
        Outcome::Tie => "Tie".into(),
        Outcome::Unsolved => "Not solved".into(),
    }
}

/// How long ago `then` was, both in seconds since the Unix epoch: "just now", "5 min ago".
pub fn ago(then: u64, now: u64) -> String {
    let seconds = now.saturating_sub(then);
    match seconds {
        0..60 => "just now".into(),
        60..3600 => format!("{} min ago", seconds / 60),
        3600..86400 => format!("{} h ago", seconds / 3600),
        _ => format!("{} d ago", seconds / 86400),
    }
}

/// Splits `text` at spaces into lines that each `fits`; a word that fits on no line is cut
/// where it stops fitting (at least one character a line, so it always ends).
pub fn wrap_by(text: &str, fits: impl Fn(&str) -> bool) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let mut candidate = line.clone();
        if !candidate.is_empty() {
            candidate.push(' ');
        }
        candidate.push_str(word);
        if fits(&candidate) {
            line = candidate;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        let mut rest = word;
        while !fits(rest) {
            let cut = longest_fitting_prefix(rest, &fits)
                .max(rest.chars().next().map_or(1, char::len_utf8));
            lines.push(rest[..cut].to_string());
            rest = &rest[cut..];
        }
        line = rest.to_string();
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// `text` cut with "..." to be at most `width` wide as `measure` measures it.
pub fn fit_by(text: &str, width: f32, measure: impl Fn(&str) -> f32) -> String {
    if measure(text) <= width {
        return text.to_string();
    }
    let kept = longest_fitting_prefix(text, |prefix| measure(&format!("{prefix}...")) <= width);
    format!("{}...", text[..kept].trim_end())
}

/// The byte length of the longest prefix of `text` that `fits` (ending at a character).
pub fn longest_fitting_prefix(text: &str, fits: impl Fn(&str) -> bool) -> usize {
    let ends: Vec<usize> = text
        .char_indices()
        .map(|(at, c)| at + c.len_utf8())
        .collect();
    // Prefixes grow with their length, so the ones that fit come first: a binary search.
    let fitting = ends.partition_point(|&end| fits(&text[..end]));
    if fitting == 0 { 0 } else { ends[fitting - 1] }
}

/// A server address as typed, made into a WebSocket URL: `host:port` gets `ws://` in front,
/// and an `http://` or `https://` one (a server's address as a browser has it) becomes `ws://`
/// or `wss://`. `None` when blank or of another scheme.
pub fn server_url(typed: &str) -> Option<String> {
    let typed = typed.trim();
    let (scheme, rest) = typed.split_once("://").unwrap_or(("ws", typed));
    let scheme = match scheme.to_ascii_lowercase().as_str() {
        "ws" | "http" => "ws",
        "wss" | "https" => "wss",
        _ => return None,
    };
    (!rest.is_empty() && ports_usable(rest)).then(|| format!("{scheme}://{rest}"))
}

/// Whether every port `addresses` name (one address, or several joined by commas) is a port,
/// 1 to 65535: the WebSocket library wraps a larger number round to another port.
fn ports_usable(addresses: &str) -> bool {
    addresses.split(',').all(|address| {
        let address = address.trim();
        let rest = address.split_once("://").map_or(address, |(_, rest)| rest);
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        match authority.rsplit_once(':') {
            // "[::1]" names no port: its colons are the address's.
            Some((_, port)) if !port.ends_with(']') => port.parse::<u16>().is_ok_and(|p| p > 0),
            _ => true,
        }
    })
}

#[cfg(test)]
mod tests;
