//! A room being played or watched: the board of the latest snapshot, whose turn it is, seats,
//! spectators and moves. The server sends a full snapshot after every change, so this screen
//! never applies moves itself; it only turns a click on a legal cell into a `Move` request.
//!
//! One client may hold several seats of a room (two people sharing a screen), so the seats held
//! are a list and a click plays for whichever of them is to move.

use macroquad::math::Rect;
use macroquad::window::{screen_height, screen_width};
use parlor_shared::cave::Square;
use parlor_shared::game::{GameMove, GameState, Outcome};
use parlor_shared::protocol::{ClientMsg, RecordId, RoomId, RoomSnapshot, SeatState, SeatToken};

use super::cave_board::{
    BoardMarks, SIDE_PANEL_WIDTH, TOP_BAR_HEIGHT, board_layout, draw_board, draw_swatch,
    seat_player, side_panel_x, square_at,
};
use super::describe;
use super::move_list::draw_move_list;
use super::widgets::{
    BUTTON_HEIGHT, DIM_TEXT, ERROR_TEXT, GOOD_TEXT, Input, LINE_HEIGHT, TEXT, button, button_at,
    button_enabled, button_width, heading, label, text_width,
};

/// What the room screen asks of its owner.
#[derive(Debug, PartialEq, Eq)]
pub enum RoomAction {
    /// Send this request (a move, or taking an open seat).
    Send(ClientMsg),
    /// Stop following the room and go back to the lobby.
    Leave,
    /// Leave and open the stored record of the finished game.
    Replay(RecordId),
}

/// A seat this client holds in a room, with the token that proves it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldSeat {
    pub seat: u8,
    pub token: SeatToken,
}

pub struct RoomView {
    pub room: RoomId,
    /// The version a move was sent on: more clicks wait until a newer state or an error.
    awaiting: Option<u64>,
    /// Why the last click on the board did nothing, with the version it was made on: the hint
    /// is dropped once the room moves on.
    hint: Option<(u64, String)>,
}

impl RoomView {
    pub fn new(room: RoomId) -> RoomView {
        RoomView {
            room,
            awaiting: None,
            hint: None,
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

    /// Handles the board and buttons and draws the screen; `snapshot` is `None` until the
    /// server's first state for the room arrives. `held` are this client's seats here.
    pub fn update(
        &mut self,
        input: &Input,
        snapshot: Option<&RoomSnapshot>,
        held: &[HeldSeat],
    ) -> Option<RoomAction> {
        let x = side_panel_x(screen_width()) + 10.0;
        let Some(snapshot) = snapshot else {
            heading(&format!("Room #{}", self.room), x, TOP_BAR_HEIGHT + 36.0);
            label(
                "Waiting for the room...",
                x,
                TOP_BAR_HEIGHT + 70.0,
                DIM_TEXT,
            );
            return draw_buttons(input, None);
        };
        let action = self.update_board(input, snapshot, held);
        self.draw_panel(input, snapshot, held).or(action)
    }

    fn update_board(
        &mut self,
        input: &Input,
        snapshot: &RoomSnapshot,
        held: &[HeldSeat],
    ) -> Option<RoomAction> {
        let layout = board_layout(screen_width(), screen_height());
        let GameState::Cave(position) = &snapshot.state else {
            let game = snapshot.state.kind().name();
            label(
                &format!("{game} has no board view in the window yet."),
                layout.left,
                layout.top,
                DIM_TEXT,
            );
            return None;
        };
        let mover = held
            .iter()
            .find(|h| snapshot.state.seat_to_move() == Some(h.seat));
        let may_click = mover.is_some() && self.awaiting.is_none();
        let hovered = square_at(layout, input.mouse.x, input.mouse.y);
        let preview = hovered
            .filter(|&square| may_click && position.is_legal(square))
            .map(|square| (square, position.to_move()));
        let marks = BoardMarks {
            legal: if may_click { position.legal_moves() } else { 0 },
            last_move: snapshot.moves.last().and_then(|mv| match mv {
                GameMove::Cave(square) => Some(*square),
                _ => None,
            }),
            winning_line: position.winning_line(),
            preview,
        };
        draw_board(layout, position, &marks);
        let square = hovered.filter(|_| input.clicked)?;
        let seats: Vec<u8> = held.iter().map(|h| h.seat).collect();
        if let Some(reason) = click_refusal(snapshot, &seats, self.awaiting.is_some(), square) {
            self.hint = Some((snapshot.version, reason));
            return None;
        }
        let mover = mover?;
        self.hint = None;
        self.awaiting = Some(snapshot.version);
        Some(RoomAction::Send(ClientMsg::Move {
            room: snapshot.room,
            token: mover.token.clone(),
            version: snapshot.version,
            mv: GameMove::Cave(square),
        }))
    }

    fn draw_panel(
        &self,
        input: &Input,
        snapshot: &RoomSnapshot,
        held: &[HeldSeat],
    ) -> Option<RoomAction> {
        let x = side_panel_x(screen_width()) + 10.0;
        let mut y = TOP_BAR_HEIGHT + 36.0;
        heading(snapshot.state.kind().name(), x, y);
        y += LINE_HEIGHT + 8.0;
        let names: Vec<String> = held.iter().map(|h| describe::seat_name(h.seat)).collect();
        let role = if names.is_empty() {
            "you are watching".to_string()
        } else {
            format!("you play {}", names.join(" and "))
        };
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
            .any(|h| snapshot.state.seat_to_move() == Some(h.seat));
        y += LINE_HEIGHT;
        let chars_per_line = ((SIDE_PANEL_WIDTH - 20.0) / text_width("m")).floor() as usize;
        let hint = match &self.hint {
            Some((version, hint)) if *version == snapshot.version => {
                Some((hint.as_str(), ERROR_TEXT))
            }
            _ if self.awaiting.is_some() => Some(("Waiting for the server...", DIM_TEXT)),
            _ if my_turn => Some(("Click a green cell to play.", DIM_TEXT)),
            _ => None,
        };
        if let Some((text, color)) = hint {
            for line in describe::wrap(text, chars_per_line) {
                label(&line, x, y, color);
                y += LINE_HEIGHT;
            }
        }
        y += 10.0;
        let mut action = None;
        for (seat, state) in snapshot.seats.iter().enumerate() {
            let seat = seat as u8;
            let swatch = seat_player(seat).map_or(0.0, |player| draw_swatch(x, y, player));
            let mine = held.iter().any(|h| h.seat == seat);
            let who = if mine {
                "you".to_string()
            } else {
                describe::seat_state(state)
            };
            let width = label(
                &format!("{}: {who}", describe::seat_name(seat)),
                x + swatch,
                y,
                TEXT,
            );
            if *state == SeatState::Open && snapshot.outcome.is_none() {
                let rect = Rect::new(
                    x + swatch + width + 12.0,
                    y - 18.0,
                    button_width("Sit here"),
                    24.0,
                );
                if button(input, rect, "Sit here") {
                    action = Some(RoomAction::Send(ClientMsg::JoinSeat {
                        room: snapshot.room,
                        seat,
                    }));
                }
            }
            y += LINE_HEIGHT + 4.0;
        }
        label(
            &format!("Spectators: {}", snapshot.spectators),
            x,
            y,
            DIM_TEXT,
        );
        y += LINE_HEIGHT;
        label(&format!("Moves: {}", snapshot.moves.len()), x, y, DIM_TEXT);
        y += 6.0;
        let list_bottom = screen_height() - BUTTON_HEIGHT - 30.0;
        let area = Rect::new(
            x,
            y,
            SIDE_PANEL_WIDTH - 30.0,
            (list_bottom - y).max(LINE_HEIGHT),
        );
        draw_move_list(
            input,
            area,
            &snapshot.moves,
            snapshot.moves.len().checked_sub(1),
        );
        action.or(draw_buttons(input, Some(snapshot)))
    }
}

/// Whose turn it is and who that is, or the result.
fn draw_turn(x: f32, y: f32, snapshot: &RoomSnapshot, held: &[HeldSeat], only_seat: Option<u8>) {
    if let Some(outcome) = snapshot.outcome.or(snapshot.state.outcome()) {
        let winner = match outcome {
            Outcome::Won { seat } => seat_player(seat),
            Outcome::Tie => None,
        };
        let swatch = winner.map_or(0.0, |player| draw_swatch(x, y, player));
        label(
            &describe::outcome(outcome, only_seat),
            x + swatch,
            y,
            GOOD_TEXT,
        );
        return;
    }
    let Some(seat) = snapshot.state.seat_to_move() else {
        return;
    };
    let swatch = seat_player(seat).map_or(0.0, |player| draw_swatch(x, y, player));
    let mine = held.iter().any(|h| h.seat == seat);
    let who = if mine {
        "you"
    } else {
        match snapshot.seats.get(usize::from(seat)) {
            Some(SeatState::Ai { .. }) => "AI thinking",
            Some(SeatState::Open) => "seat open",
            _ if held.is_empty() => "human",
            _ => "opponent",
        }
    };
    let color = if mine { GOOD_TEXT } else { TEXT };
    let text = format!("{} to move ({who})", describe::seat_name(seat));
    label(&text, x + swatch, y, color);
}

/// Leave, and Replay once the finished game is stored.
fn draw_buttons(input: &Input, snapshot: Option<&RoomSnapshot>) -> Option<RoomAction> {
    let x = side_panel_x(screen_width()) + 10.0;
    let y = screen_height() - BUTTON_HEIGHT - 16.0;
    if button_at(input, x, y, "Leave") {
        return Some(RoomAction::Leave);
    }
    let record = snapshot.and_then(|s| s.record);
    let text = "Replay this game";
    let rect = Rect::new(
        x + button_width("Leave") + 10.0,
        y,
        button_width(text),
        BUTTON_HEIGHT,
    );
    if button_enabled(input, rect, text, record.is_some()) {
        return record.map(RoomAction::Replay);
    }
    None
}

/// Why a click on `square` is not a move for any of the seats `mine`, or `None` when it is one.
fn click_refusal(
    snapshot: &RoomSnapshot,
    mine: &[u8],
    awaiting: bool,
    square: Square,
) -> Option<String> {
    let GameState::Cave(position) = &snapshot.state else {
        return Some("This game has no board to click.".into());
    };
    if mine.is_empty() {
        return Some("Spectators cannot move.".into());
    }
    if snapshot.outcome.is_some() || position.outcome().is_some() {
        return Some("The game is over.".into());
    }
    if !snapshot
        .state
        .seat_to_move()
        .is_some_and(|seat| mine.contains(&seat))
    {
        return Some("It is not your turn.".into());
    }
    if awaiting {
        return Some("Your move is on its way.".into());
    }
    position.check(square).err().map(|error| error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::game::GameSetup;

    fn snapshot_after(moves: &str) -> RoomSnapshot {
        let moves: Vec<GameMove> = moves
            .split_whitespace()
            .map(|n| GameMove::Cave(n.parse().unwrap()))
            .collect();
        let state = GameSetup::Cave
            .start()
            .unwrap()
            .replay(&moves)
            .unwrap()
            .pop()
            .unwrap();
        RoomSnapshot {
            room: 1,
            version: moves.len() as u64,
            seats: vec![SeatState::Taken { connected: true }; 2],
            spectators: 0,
            outcome: state.outcome(),
            state,
            moves,
            record: None,
        }
    }

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn a_legal_cell_on_my_turn_is_a_move() {
        let snapshot = snapshot_after("a1");
        assert_eq!(click_refusal(&snapshot, &[1], false, sq("b1")), None);
        assert_eq!(click_refusal(&snapshot, &[1], false, sq("h5")), None);
        // Holding both seats, every turn is mine.
        assert_eq!(click_refusal(&snapshot, &[0, 1], false, sq("b1")), None);
    }

    #[test]
    fn clicks_that_are_not_moves_say_why() {
        let snapshot = snapshot_after("a1");
        let refusal = |mine: &[u8], awaiting, name| {
            click_refusal(&snapshot, mine, awaiting, sq(name)).unwrap()
        };
        assert_eq!(refusal(&[], false, "b1"), "Spectators cannot move.");
        assert_eq!(refusal(&[0], false, "b1"), "It is not your turn.");
        assert_eq!(refusal(&[1], true, "b1"), "Your move is on its way.");
        assert!(refusal(&[1], false, "a1").contains("taken"));
        assert!(refusal(&[1], false, "d4").contains("not against a side wall"));
        let over = snapshot_after("a1 h8 b1 h7 c1 h6 d1 h5 e1");
        assert_eq!(
            click_refusal(&over, &[1], false, sq("h4")).unwrap(),
            "The game is over."
        );
    }

    #[test]
    fn a_newer_state_or_an_error_ends_the_wait_for_a_move() {
        let mut view = RoomView::new(1);
        view.awaiting = Some(3);
        view.on_state(&snapshot_after("a1 h1 b1"));
        assert_eq!(view.awaiting, Some(3));
        view.on_state(&snapshot_after("a1 h1 b1 g1"));
        assert_eq!(view.awaiting, None);
        view.awaiting = Some(4);
        view.on_error();
        assert_eq!(view.awaiting, None);
    }
}
