//! A room being played or watched: the board of the latest snapshot, whose turn it is, seats,
//! spectators and moves. The server sends a full snapshot after every change, so this screen
//! never applies moves itself; the game's board (`cave::room`, `bricks`, `ewn`) turns a click into a
//! move, and this screen sends it as a `Move` request.
//!
//! One client may hold several seats of a room (two people sharing a screen), so the seats held
//! are a list and a move is made for whichever of them is to move.

use macroquad::color::Color;
use macroquad::math::Rect;
use macroquad::time::get_time;
use parlor_shared::game::{GameMove, GameState, Outcome, turns};
use parlor_shared::identity::PlayerId;
use parlor_shared::protocol::{ClientMsg, RecordId, Rematch, RoomId, RoomSnapshot, SeatState};

use super::arrival::Arrival;
use super::board_play::{BoardPlay, HeldSeat};
use super::bricks::BricksRoomBoard;
use super::cave::room as cave_room;
use super::confirm::Confirmation;
use super::describe;
use super::ewn::{self, EwnRoomBoard};
use super::game_view::{acting_seat, draw_moves, draw_seat_swatch, outcome_color, your_turn_hint};
use super::hexapawn::{HexRoomBoard, draw_match, her_waits_for_white, match_turn_line};
use super::klotski::KlotskiRoomBoard;
use super::takeback::{self, Takebacks};
use super::widgets::{
    BUTTON_HEIGHT, DIM_TEXT, ERROR_TEXT, GOOD_TEXT, Input, LINE_HEIGHT, TEXT, button, button_width,
    fit_to_width, heading, heading_fit, label, wrap_to_width,
};
use super::widgets::{SIDE_PANEL_WIDTH, TOP_BAR_HEIGHT, side_panel_x};
use crate::gui::canvas::{canvas_height, canvas_width};

/// What the room screen asks of its owner.
mod buttons;

use buttons::{draw_buttons, note_height, played_here};
pub(in crate::gui) use buttons::{play_again_rect, resign_rect};

#[derive(Debug, PartialEq, Eq)]
pub enum RoomAction {
    /// Send this request (a move, or taking an open seat).
    Send(ClientMsg),
    /// Stop following the room and go back to the lobby.
    Leave,
    /// Leave and open the stored record of the finished game.
    Replay(RecordId),
    /// Replay the solution a solver seat has planned, while the room plays it.
    ReplaySolution,
    /// Leave for a room that plays this game again: a new one like it, or the one a player
    /// made for it (`Rematch::made`).
    PlayAgain(Rematch),
    /// Leave, a spectator, to watch the room a player made to play this game again.
    WatchRematch(RoomId),
}

pub struct RoomView {
    pub room: RoomId,
    /// The version a move was sent on: more clicks wait until a newer state or an error.
    awaiting: Option<u64>,
    /// Why the last click on the board did nothing, with the version it was made on: the hint
    /// is dropped once the room moves on.
    hint: Option<(u64, String, Color)>,
    /// The Dropping Bricks controls, which keep the typed drop height between frames.
    bricks: BricksRoomBoard,
    /// What was typed of a Magnetic Cave cell's name, and the board's cursor.
    cave_keys: cave_room::CaveKeyboard,
    /// The EWN controls, which keep the picked piece between frames.
    ewn: EwnRoomBoard,
    /// The Hexapawn controls, which keep the picked pawn between frames.
    hexapawn: HexRoomBoard,
    /// The Numeric Klotski controls: the piece picked last and the slide on show.
    klotski: KlotskiRoomBoard,
    /// How far the last move has come on the board.
    arrival: Arrival,
    /// A puzzle's Undo and Restart.
    takebacks: Takebacks,
    /// Resign, which asks twice.
    resigning: Confirmation<RoomId>,
}

impl RoomView {
    pub fn new(room: RoomId) -> RoomView {
        RoomView {
            room,
            awaiting: None,
            hint: None,
            bricks: BricksRoomBoard::default(),
            cave_keys: cave_room::CaveKeyboard::default(),
            ewn: EwnRoomBoard::default(),
            hexapawn: HexRoomBoard::default(),
            klotski: KlotskiRoomBoard::default(),
            arrival: Arrival::default(),
            takebacks: Takebacks::default(),
            resigning: Confirmation::default(),
        }
    }

    /// A new snapshot of this room arrived.
    pub fn on_state(&mut self, snapshot: &RoomSnapshot) {
        if self
            .awaiting
            .is_some_and(|version| snapshot.version > version)
        {
            self.awaiting = None;
        }
    }

    /// The server refused something; a move in flight is no longer awaited.
    pub fn on_error(&mut self) {
        self.awaiting = None;
    }

    /// What the panel says under the turn line, for the app's tests.
    #[cfg(test)]
    pub fn hint_text(&self) -> Option<&str> {
        self.hint.as_ref().map(|(_, hint, _)| hint.as_str())
    }

    /// The room meant to replace this one (Play again) was refused: why, shown where the
    /// player looks for as long as the room stays as it is (`version`, its last state's).
    pub fn refused(&mut self, version: Option<u64>, why: String) {
        self.hint = version.map(|version| (version, why, ERROR_TEXT));
    }

    /// Handles the board and buttons and draws the screen; `snapshot` is `None` until the
    /// server's first state for the room arrives. `held` are this client's seats here; `me`
    /// is this client's player, once the server has greeted it.
    pub fn update(
        &mut self,
        input: &Input,
        snapshot: Option<&RoomSnapshot>,
        held: &[HeldSeat],
        me: Option<PlayerId>,
    ) -> Option<RoomAction> {
        let x = side_panel_x(canvas_width()) + 10.0;
        let Some(snapshot) = snapshot else {
            heading(&format!("Room #{}", self.room), x, TOP_BAR_HEIGHT + 36.0);
            label(
                "Waiting for the room...",
                x,
                TOP_BAR_HEIGHT + 70.0,
                DIM_TEXT,
            );
            return draw_buttons(input, None, &[], me, &mut self.resigning);
        };
        // Drawn, and so reached by Tab, as they are read: the board's controls, the panel's
        // seats, a puzzle's Undo and Restart, and the buttons under them (Leave last but one).
        let action = self.update_board(input, snapshot, held);
        let panel = self.draw_panel(input, snapshot, held, me);
        let takeback = self.update_takebacks(input, snapshot, held);
        let panel = panel.or(draw_buttons(
            input,
            Some(snapshot),
            held,
            me,
            &mut self.resigning,
        ));
        self.on_panel_action(panel.as_ref());
        panel.or(action).or(takeback)
    }

    /// A seat taken makes the reason a spectator's click did nothing out of date.
    fn on_panel_action(&mut self, action: Option<&RoomAction>) {
        if let Some(RoomAction::Send(ClientMsg::JoinSeat { .. })) = action {
            self.hint = None;
        }
    }

    /// A puzzle's Undo and Restart, under its moves, for its player.
    fn update_takebacks(
        &mut self,
        input: &Input,
        snapshot: &RoomSnapshot,
        held: &[HeldSeat],
    ) -> Option<RoomAction> {
        if !takeback::shown(snapshot, !held.is_empty()) {
            return None;
        }
        let at = (side_panel_x(canvas_width()) + 10.0, takeback_row_y());
        let may_move = self.awaiting.is_none();
        let now = get_time();
        let mv = (self.takebacks).update(input, at, snapshot, may_move, now)?;
        self.send_move(snapshot, held, mv)
    }

    fn update_board(
        &mut self,
        input: &Input,
        snapshot: &RoomSnapshot,
        held: &[HeldSeat],
    ) -> Option<RoomAction> {
        let mine: Vec<u8> = held.iter().map(|h| h.seat).collect();
        let awaiting = self.awaiting.is_some();
        let arrival = self.arrival.progress(snapshot.moves.len(), get_time());
        let play = match &snapshot.state {
            GameState::Cave(position) => {
                let typed = (arrival, &mut self.cave_keys);
                cave_room::update_board(input, snapshot, position, (&mine, awaiting), typed)
            }
            GameState::Bricks(game) => {
                let seats = (mine.as_slice(), awaiting);
                (self.bricks).update(input, snapshot.version, game, seats, arrival)
            }
            GameState::Ewn(game) => {
                let allowed = ewn::may_move(snapshot, &mine, awaiting);
                let last = snapshot.moves.last();
                (self.ewn).update(input, snapshot.version, game, (last, arrival), allowed)
            }
            GameState::Hexapawn(game) => {
                (self.hexapawn).update(input, snapshot, game, (&mine, awaiting), arrival)
            }
            GameState::HerMatch(view) => draw_match(view),
            GameState::Klotski(game) => {
                let allowed = ewn::may_move(snapshot, &mine, awaiting);
                let (now, seated) = (get_time(), !mine.is_empty());
                let moves = &snapshot.moves;
                self.klotski
                    .update(input, now, game, moves, seated, allowed)
            }
        };
        self.note_hint(snapshot.version, &play);
        let mv = match play {
            BoardPlay::Nothing
            | BoardPlay::Refused(_)
            | BoardPlay::Prompt(_)
            | BoardPlay::Picked => return None,
            BoardPlay::PlayAgain(again) => return Some(RoomAction::PlayAgain(again)),
            BoardPlay::Move(mv) => mv,
        };
        self.send_move(snapshot, held, mv)
    }

    /// What a board's play at `version` leaves of the hint: a refusal shows its reason, a
    /// prompt what to do next, and a pick makes the last reason out of date.
    fn note_hint(&mut self, version: u64, play: &BoardPlay) {
        match play {
            BoardPlay::Refused(reason) => self.hint = Some((version, reason.clone(), ERROR_TEXT)),
            BoardPlay::Prompt(next) => self.hint = Some((version, next.clone(), GOOD_TEXT)),
            BoardPlay::Picked => self.hint = None,
            _ => {}
        }
    }

    /// Sends `mv` for the seat of ours that acts now, and waits for the room's answer.
    fn send_move(
        &mut self,
        snapshot: &RoomSnapshot,
        held: &[HeldSeat],
        mv: GameMove,
    ) -> Option<RoomAction> {
        let mover = held
            .iter()
            .find(|h| acting_seat(&snapshot.state) == Some(h.seat))?;
        self.hint = None;
        self.awaiting = Some(snapshot.version);
        Some(RoomAction::Send(ClientMsg::Move {
            room: snapshot.room,
            token: mover.token.clone(),
            version: snapshot.version,
            mv,
        }))
    }

    /// The side panel above its buttons: the room, the turn, the seats (Sit here, Also play,
    /// Resume), the hint and the moves.
    fn draw_panel(
        &mut self,
        input: &Input,
        snapshot: &RoomSnapshot,
        held: &[HeldSeat],
        me: Option<PlayerId>,
    ) -> Option<RoomAction> {
        let x = side_panel_x(canvas_width()) + 10.0;
        let mut y = TOP_BAR_HEIGHT + 36.0;
        heading_fit(snapshot.state.kind().name(), x, y, SIDE_PANEL_WIDTH - 20.0);
        y += LINE_HEIGHT + 8.0;
        let game = snapshot.state.kind();
        let names: Vec<String> = held
            .iter()
            .map(|h| describe::game_seat_name(game, h.seat))
            .collect();
        let role = describe::role_text(game, &names);
        label(&format!("Room #{} - {role}", snapshot.room), x, y, DIM_TEXT);
        y += LINE_HEIGHT + 6.0;
        // "You won" only makes sense when this client played one side.
        let only_seat = match held {
            [one] => Some(one.seat),
            _ => None,
        };
        draw_turn(x, y, snapshot, held, only_seat);
        let my_turn = held
            .iter()
            .any(|h| acting_seat(&snapshot.state) == Some(h.seat));
        y += LINE_HEIGHT;
        y += 10.0;
        let mut action = None;
        for (seat, state) in snapshot.seats.iter().enumerate() {
            let seat = seat as u8;
            let swatch = draw_seat_swatch(game, x, y, seat);
            let mine = held.iter().any(|h| h.seat == seat);
            let who = if mine {
                "you".to_string()
            } else {
                describe::seat_state(game, state)
            };
            let width = label(
                &format!("{}: {who}", describe::game_seat_name(game, seat)),
                x + swatch,
                y,
                TEXT,
            );
            let offer = seat_offer(state, mine, played_here(snapshot, held, me), me);
            if let Some(text) = offer.filter(|_| snapshot.outcome.is_none()) {
                let rect = Rect::new(
                    x + swatch + width + 12.0,
                    y - 18.0,
                    button_width(text),
                    24.0,
                );
                if button(input, rect, text) {
                    action = Some(RoomAction::Send(ClientMsg::join_seat(snapshot.room, seat)));
                }
            }
            y += LINE_HEIGHT + 4.0;
        }
        // Under the seats, so that a reason appearing does not move their Sit here buttons
        // from under the pointer.
        let hint = match &self.hint {
            Some((version, hint, color)) if *version == snapshot.version => {
                Some((hint.as_str(), *color))
            }
            _ if self.awaiting.is_some() => Some(("Waiting for the server...", DIM_TEXT)),
            _ if my_turn => Some((your_turn_hint(&snapshot.state), DIM_TEXT)),
            _ => None,
        };
        if let Some((text, color)) = hint {
            for line in wrap_to_width(text, SIDE_PANEL_WIDTH - 20.0) {
                label(&line, x, y, color);
                y += LINE_HEIGHT;
            }
        }
        label(
            &format!("Spectators: {}", snapshot.spectators),
            x,
            y,
            DIM_TEXT,
        );
        y += LINE_HEIGHT;
        let progress = match &snapshot.state {
            // An auto match keeps no moves; its rounds are its progress.
            GameState::HerMatch(view) => format!("Rounds: {}", view.rounds_played),
            // A Klotski game counts slides, as its status line does; a give-up is none.
            GameState::Klotski(game) => format!("Steps: {}", game.steps()),
            // A drop and its answer are two moves of the room, one drop to a person.
            GameState::Bricks(_) => format!("Drops: {}", turns(&snapshot.moves)),
            // Counted as the lobby counts them: an undone move is not one.
            _ => format!("Moves: {}", turns(&snapshot.moves)),
        };
        label(&progress, x, y, DIM_TEXT);
        y += 6.0;
        let list_bottom = if takeback::shown(snapshot, !held.is_empty()) {
            takeback_row_y() - 8.0
        } else {
            canvas_height() - BUTTON_HEIGHT - 30.0 - note_height(snapshot, held, me)
        };
        let area = Rect::new(
            x,
            y,
            SIDE_PANEL_WIDTH - 30.0,
            (list_bottom - y).max(LINE_HEIGHT),
        );
        draw_moves(
            input,
            area,
            game,
            &snapshot.moves,
            snapshot.moves.len().checked_sub(1),
        );
        action
    }
}

/// Whose turn it is and who that is, or the result.
fn draw_turn(x: f32, y: f32, snapshot: &RoomSnapshot, held: &[HeldSeat], only_seat: Option<u8>) {
    let game = snapshot.state.kind();
    if let Some(outcome) = snapshot.outcome.or(snapshot.state.outcome()) {
        let swatch = match outcome {
            Outcome::Won { seat } => draw_seat_swatch(game, x, y, seat),
            Outcome::Tie | Outcome::Unsolved => 0.0,
        };
        label(
            &describe::state_outcome(&snapshot.state, outcome, only_seat),
            x + swatch,
            y,
            outcome_color(game, outcome, only_seat),
        );
        return;
    }
    let Some(seat) = snapshot.state.seat_to_move() else {
        // An auto match has no seats and no turns; it says which round is being played.
        if let GameState::HerMatch(view) = &snapshot.state {
            let text = fit_to_width(&match_turn_line(view), SIDE_PANEL_WIDTH - 20.0);
            label(
                &text,
                x,
                y,
                if view.store_waiting { ERROR_TEXT } else { TEXT },
            );
        }
        return;
    };
    let swatch = draw_seat_swatch(game, x, y, seat);
    let mine = held
        .iter()
        .any(|h| acting_seat(&snapshot.state) == Some(h.seat));
    let who = if mine && held.iter().any(|h| h.seat == seat) {
        "you"
    } else if mine {
        // Slow mode: the person picks HER's bead.
        "you pick"
    } else {
        match snapshot.seats.get(usize::from(seat)) {
            // In slow mode HER's seat waits for White to force its move or let it pick.
            Some(SeatState::Ai { .. }) if her_waits_for_white(&snapshot.state) => "White picks",
            // A solver that has its solution plays it without searching.
            Some(SeatState::Ai { .. }) if !snapshot.plan_ahead.is_empty() => "AI plays its plan",
            Some(SeatState::Ai { .. }) => "AI thinking",
            Some(SeatState::Open) => "seat open",
            Some(SeatState::Kept { .. }) => "waiting for its player",
            _ if held.is_empty() => "human",
            _ => "opponent",
        }
    };
    let color = if mine { GOOD_TEXT } else { TEXT };
    let text = describe::turn_text(game, seat, who);
    label(&text, x + swatch, y, color);
}

/// Whether the room is a game that is stored once it is over, so that it can be replayed: not
/// an auto match, which keeps only its brains and its curve.
fn is_stored_when_over(snapshot: Option<&RoomSnapshot>) -> bool {
    !snapshot.is_some_and(|s| matches!(s.state, GameState::HerMatch(_)))
}

/// Where a puzzle's Undo and Restart go: above Leave.
fn takeback_row_y() -> f32 {
    canvas_height() - BUTTON_HEIGHT - 16.0 - takeback::ROW_HEIGHT
}

/// What a seat of the panel offers the person, if anything: an open seat is taken ("Also play"
/// when they hold another here, which leaves no seat for an opponent), one their player holds
/// from elsewhere (another window, or this one before it was opened again) is taken back
/// ("Resume"), as the lobby offers them.
fn seat_offer(
    state: &SeatState,
    held_here: bool,
    holds_another: bool,
    me: Option<PlayerId>,
) -> Option<&'static str> {
    let mine_elsewhere = !held_here && state.taken_by(me);
    if mine_elsewhere {
        return Some("Resume");
    }
    if !state.may_be_taken_by(me) {
        return None;
    }
    Some(match holds_another && *state == SeatState::Open {
        true => "Also play",
        false => "Sit here",
    })
}

#[cfg(test)]
mod tests;
