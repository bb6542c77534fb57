//! The lobby: which server, the games it offers, a form to create a room (Magnetic Cave here,
//! EWN in `ewn::EwnLobbyForm`; Dropping Bricks goes on to its own init screen), the open rooms to join or watch, and the
//! stored games to replay. Its rows are drawn by `rows`.

mod rows;

use std::collections::HashMap;
use std::time::{SystemTime, UNIX_EPOCH};

use macroquad::math::Rect;
use macroquad::time::get_time;
use macroquad::window::{screen_height, screen_width};
use parlor_shared::game::{GameKind, GameSetup};
use parlor_shared::identity::Player;
use parlor_shared::protocol::{
    BrainSummary, DEFAULT_AI_MOVE_MS, GameInfo, MAX_AI_MOVE_MS, RecordId, RecordSummary, RoomId,
    RoomSummary, SeatSpec,
};

use super::board_play::HeldSeat;
use super::cave::board::draw_swatch;
use super::confirm::Confirmation;
use super::describe;
use super::ewn::EwnLobbyForm;
use super::hexapawn::{FormAction, HexLobbyForm};
use super::klotski::KlotskiLobbyForm;
use super::seats::seat_player;
use super::widgets::TOP_BAR_HEIGHT;
use super::widgets::{
    BUTTON_HEIGHT, DIM_TEXT, FieldEvent, Input, LINE_HEIGHT, TEXT, TextField, button, button_at,
    button_enabled, button_width, heading, heading_fit, label, text_width, toggle,
};
use rows::{
    STALE, draw_more_hint, draw_my_seats, draw_record_row, draw_room_row, empty_records_text,
    empty_rooms_text, rooms_heading,
};

/// The per-move budgets offered for AI seats.
const AI_BUDGETS: [u32; 3] = [100, DEFAULT_AI_MOVE_MS, MAX_AI_MOVE_MS];
const LEFT_X: f32 = 20.0;
const LEFT_WIDTH: f32 = 390.0;
const RIGHT_X: f32 = 430.0;
const ROOM_ROW_HEIGHT: f32 = 62.0;
const RECORD_ROW_HEIGHT: f32 = 50.0;

/// What the lobby asks of its owner.
#[derive(Debug, PartialEq, Eq)]
pub enum LobbyAction {
    /// Connect to this URL (already given a scheme).
    Connect(String),
    /// The typed address is not usable.
    BadAddress,
    Refresh,
    Create {
        setup: GameSetup,
        seats: Vec<SeatSpec>,
    },
    /// Open the Dropping Bricks init screen, where H, D, B and the seats are chosen.
    SetUpBricks,
    Join {
        room: RoomId,
        seat: u8,
    },
    Watch(RoomId),
    /// Take back the seat this client holds in the room.
    Rejoin(RoomId),
    /// Go by this name from now on (checked by the app).
    Rename(String),
    Replay(RecordId),
    /// Ask the server for HER's brains, for the forms of HER's rooms.
    ListBrains,
    /// End this unfinished room of ours (asked twice: see `confirm.rs`).
    Close(RoomId),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SeatChoice {
    Human,
    Ai,
}

pub struct LobbyView {
    pub address: TextField,
    pub games: Vec<GameInfo>,
    pub rooms: Vec<RoomSummary>,
    pub records: Vec<RecordSummary>,
    /// Who the server knows us as, once connected.
    pub me: Option<Player>,
    /// The seats we hold in unfinished rooms on this server, from any window or machine.
    pub my_seats: Vec<parlor_shared::protocol::HeldSeat>,
    /// The name we go by, to change.
    pub name: TextField,
    /// The creation form: the game, who sits in each seat, and the AI's time per move.
    game: GameKind,
    seats: [SeatChoice; 2],
    ai_move_ms: u32,
    /// The EWN form: level and player.
    ewn: EwnLobbyForm,
    /// The forms of HER's rooms: against HER, and HER against HER.
    hexapawn: HexLobbyForm,
    /// The Numeric Klotski form: board and player.
    klotski: KlotskiLobbyForm,
    rooms_scroll: usize,
    records_scroll: usize,
    /// The room whose Close button waits for its second click.
    closing: Confirmation<RoomId>,
}

impl LobbyView {
    pub fn new(address: &str) -> LobbyView {
        LobbyView {
            address: TextField::new(address),
            games: Vec::new(),
            rooms: Vec::new(),
            records: Vec::new(),
            me: None,
            my_seats: Vec::new(),
            name: TextField::new(""),
            game: GameKind::Cave,
            seats: [SeatChoice::Human, SeatChoice::Ai],
            ai_move_ms: DEFAULT_AI_MOVE_MS,
            ewn: EwnLobbyForm::default(),
            hexapawn: HexLobbyForm::default(),
            klotski: KlotskiLobbyForm::default(),
            rooms_scroll: 0,
            records_scroll: 0,
            closing: Confirmation::default(),
        }
    }

    /// Forgets everything learnt from a server, before talking to another one.
    pub fn clear_lists(&mut self) {
        self.games.clear();
        self.rooms.clear();
        self.records.clear();
        self.me = None;
        self.my_seats.clear();
        self.hexapawn.forget_brains();
    }

    /// The server's brains of HER arrived.
    pub fn set_brains(&mut self, brains: Vec<BrainSummary>) {
        self.hexapawn.set_brains(brains);
    }

    /// The brains are asked for again when the form shows next (they learn in every game).
    pub fn forget_brains(&mut self) {
        self.hexapawn.forget_brains();
    }

    /// The seats of the room the form describes.
    fn seat_specs(&self) -> Vec<SeatSpec> {
        self.seats
            .iter()
            .map(|choice| match choice {
                SeatChoice::Human => SeatSpec::Human,
                SeatChoice::Ai => SeatSpec::ai(self.ai_move_ms),
            })
            .collect()
    }

    /// Handles input and draws the lobby. `held` are the seats this client holds.
    pub fn update(
        &mut self,
        input: &Input,
        connected: bool,
        held: &HashMap<RoomId, Vec<HeldSeat>>,
    ) -> Option<LobbyAction> {
        let top = TOP_BAR_HEIGHT + 14.0;
        let mut action = self.draw_server_row(input, top);
        let columns_top = top + 64.0;
        let form_top = self.draw_games(columns_top) + 4.0;
        let (create, records_top) = self.draw_create_form(input, form_top, connected);
        action = action.or(create);
        action = action.or(self.draw_records(input, records_top + 16.0, connected));
        action.or(self.draw_rooms(input, columns_top, connected, held))
    }

    fn draw_server_row(&mut self, input: &Input, y: f32) -> Option<LobbyAction> {
        label("Server", LEFT_X, y + 20.0, TEXT);
        let field = Rect::new(LEFT_X + 70.0, y, 470.0, BUTTON_HEIGHT);
        let submitted = self.address.update(input, field) == FieldEvent::Submitted;
        let connect_x = field.x + field.w + 10.0;
        let mut action = None;
        if submitted || button_at(input, connect_x, y, "Connect") {
            action = Some(
                describe::server_url(&self.address.text)
                    .map_or(LobbyAction::BadAddress, LobbyAction::Connect),
            );
        }
        let refresh_x = connect_x + button_width("Connect") + 10.0;
        if button_at(input, refresh_x, y, "Refresh") {
            action = Some(LobbyAction::Refresh);
        }
        let name_x = refresh_x + button_width("Refresh") + 20.0;
        label("Name", name_x, y + 20.0, TEXT);
        let name_field = Rect::new(
            name_x + 50.0,
            y,
            (screen_width() - name_x - 70.0).max(60.0),
            BUTTON_HEIGHT,
        );
        if self.name.update(input, name_field) == FieldEvent::Submitted {
            action = Some(LobbyAction::Rename(self.name.text.clone()));
        }
        let hint = if self.address.is_focused() {
            "Type an address such as ws://192.168.1.20:7878 and press Enter."
        } else if self.name.is_focused() {
            "Type the name you go by (1 to 32 characters) and press Enter."
        } else {
            "Click the address to switch to another server, or your name to change it."
        };
        label(hint, field.x, y + BUTTON_HEIGHT + 20.0, DIM_TEXT);
        action
    }

    /// The game chosen in the form as the server describes it (the form's buttons name the
    /// others, and six descriptions would push the form off the screen); returns where the
    /// column continues.
    fn draw_games(&self, top: f32) -> f32 {
        heading("Games", LEFT_X, top + 22.0);
        let mut y = top + 22.0 + LINE_HEIGHT + 4.0;
        if self.games.is_empty() {
            label("(not known yet)", LEFT_X, y, DIM_TEXT);
            return y + LINE_HEIGHT;
        }
        let chars_per_line = (LEFT_WIDTH / text_width("m")).floor() as usize;
        for game in self.games.iter().filter(|game| game.kind == self.game) {
            label(&game.name, LEFT_X, y, TEXT);
            y += LINE_HEIGHT;
            for line in describe::wrap(&game.description, chars_per_line) {
                label(&line, LEFT_X, y, DIM_TEXT);
                y += LINE_HEIGHT;
            }
        }
        y
    }

    /// The room creation form; returns its action and where the column continues.
    fn draw_create_form(
        &mut self,
        input: &Input,
        top: f32,
        connected: bool,
    ) -> (Option<LobbyAction>, f32) {
        let title = format!("New {} room", self.game.name());
        heading_fit(&title, LEFT_X, top + 22.0, LEFT_WIDTH);
        let mut y = top + 36.0;
        label("Game", LEFT_X, y + 20.0, TEXT);
        let mut x = LEFT_X + 50.0;
        for game in GameKind::ALL {
            let name = describe::short_game_name(game);
            if x + button_width(name) + 6.0 > LEFT_X + LEFT_WIDTH {
                x = LEFT_X + 50.0;
                y += BUTTON_HEIGHT + 6.0;
            }
            let rect = Rect::new(x, y, button_width(name) + 6.0, BUTTON_HEIGHT);
            if toggle(input, rect, name, self.game == game) {
                self.game = game;
            }
            x += rect.w + 8.0;
        }
        y += BUTTON_HEIGHT + 6.0;
        if self.game == GameKind::Bricks {
            label(
                "H, D, B and the seats come next.",
                LEFT_X,
                y + 20.0,
                DIM_TEXT,
            );
            y += BUTTON_HEIGHT + 6.0;
            let text = "Set up the game...";
            let rect = Rect::new(LEFT_X, y, button_width(text), BUTTON_HEIGHT);
            let action = button(input, rect, text).then_some(LobbyAction::SetUpBricks);
            return (action, y + BUTTON_HEIGHT);
        }
        let (ewn, klotski) = (&mut self.ewn, &mut self.klotski);
        let form = match self.game {
            GameKind::Ewn => Some(ewn.update(input, LEFT_X, y, LEFT_WIDTH, connected)),
            GameKind::Klotski => Some(klotski.update(input, LEFT_X, y, LEFT_WIDTH, connected)),
            _ => None,
        };
        if let Some((room, bottom)) = form {
            let action = room.map(|(setup, seats)| LobbyAction::Create { setup, seats });
            return (action, bottom);
        }
        if matches!(self.game, GameKind::Hexapawn | GameKind::HerMatch) {
            let (form, bottom) = self
                .hexapawn
                .update(input, self.game, LEFT_X, y, LEFT_WIDTH, connected);
            let action = form.map(|form| match form {
                FormAction::Create(setup, seats) => LobbyAction::Create { setup, seats },
                FormAction::ListBrains => LobbyAction::ListBrains,
            });
            return (action, bottom);
        }
        for seat in 0..2u8 {
            let swatch =
                seat_player(seat).map_or(0.0, |player| draw_swatch(LEFT_X, y + 20.0, player));
            let order = if seat == 0 { "first" } else { "second" };
            label(
                &format!("{} ({order})", describe::seat_name(seat)),
                LEFT_X + swatch,
                y + 20.0,
                TEXT,
            );
            let choice = &mut self.seats[usize::from(seat)];
            for (index, (option, text)) in [(SeatChoice::Human, "Human"), (SeatChoice::Ai, "AI")]
                .into_iter()
                .enumerate()
            {
                let rect = choice_rect(index, y);
                if toggle(input, rect, text, *choice == option) {
                    *choice = option;
                }
            }
            y += BUTTON_HEIGHT + 6.0;
        }
        if self.seats.contains(&SeatChoice::Ai) {
            label("AI time per move", LEFT_X, y + 20.0, TEXT);
            for (index, budget) in AI_BUDGETS.into_iter().enumerate() {
                let rect = choice_rect(index, y);
                let text = describe::seconds(budget);
                if toggle(input, rect, &text, self.ai_move_ms == budget) {
                    self.ai_move_ms = budget;
                }
            }
        }
        y += BUTTON_HEIGHT + 10.0;
        let text = "Create room";
        let rect = Rect::new(LEFT_X, y, button_width(text), BUTTON_HEIGHT);
        let action = button_enabled(input, rect, text, connected).then(|| LobbyAction::Create {
            setup: GameSetup::Cave,
            seats: self.seat_specs(),
        });
        (action, y + BUTTON_HEIGHT)
    }

    fn draw_records(&mut self, input: &Input, top: f32, connected: bool) -> Option<LobbyAction> {
        let title = match (connected, self.records.is_empty()) {
            (false, false) => format!("Stored games {STALE}"),
            _ => "Stored games".to_string(),
        };
        heading_fit(&title, LEFT_X, top + 22.0, LEFT_WIDTH);
        let list = Rect::new(
            LEFT_X,
            top + 34.0,
            LEFT_WIDTH,
            screen_height() - top - 34.0 - LINE_HEIGHT - 8.0,
        );
        if self.records.is_empty() {
            label(
                empty_records_text(connected),
                LEFT_X,
                list.y + 20.0,
                DIM_TEXT,
            );
            return None;
        }
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
            action = action.or(draw_record_row(input, rect, record, now, connected));
        }
        draw_more_hint(list, self.records.len(), self.records_scroll, visible);
        action
    }

    fn draw_rooms(
        &mut self,
        input: &Input,
        top: f32,
        connected: bool,
        held: &HashMap<RoomId, Vec<HeldSeat>>,
    ) -> Option<LobbyAction> {
        let my_seats = if connected { &self.my_seats[..] } else { &[] };
        let (resume, top) = draw_my_seats(input, my_seats, RIGHT_X, top, held);
        let now = get_time();
        if resume.is_some() {
            return resume;
        }
        heading(
            &rooms_heading(self.rooms.len(), connected),
            RIGHT_X,
            top + 22.0,
        );
        let width = screen_width() - RIGHT_X - 20.0;
        let list = Rect::new(
            RIGHT_X,
            top + 34.0,
            width,
            screen_height() - top - 34.0 - LINE_HEIGHT - 8.0,
        );
        if self.rooms.is_empty() {
            label(
                empty_rooms_text(connected),
                RIGHT_X,
                list.y + 20.0,
                DIM_TEXT,
            );
            return None;
        }
        // Newest first: fresh rooms are the ones people are waiting in.
        let mut rooms: Vec<&RoomSummary> = self.rooms.iter().collect();
        rooms.sort_by_key(|room| std::cmp::Reverse(room.room));
        let visible = ((list.h / ROOM_ROW_HEIGHT).floor() as usize).max(1);
        input.scroll(&mut self.rooms_scroll, list, rooms.len(), visible);
        let mut action = None;
        for (row, room) in rooms
            .iter()
            .skip(self.rooms_scroll)
            .take(visible)
            .enumerate()
        {
            let y = list.y + row as f32 * ROOM_ROW_HEIGHT;
            let row_action = draw_room_row(
                input,
                Rect::new(list.x, y, list.w, ROOM_ROW_HEIGHT - 4.0),
                room,
                (
                    held.get(&room.room).map_or(&[][..], Vec::as_slice),
                    self.me.as_ref().map(|me| me.id),
                ),
                &self.closing.text(room.room, "Close", now),
                connected,
            );
            let row_action = match row_action.filter(|_| connected) {
                Some(LobbyAction::Close(room)) if !self.closing.click(room, now) => None,
                other => other,
            };
            action = action.or(row_action);
        }
        draw_more_hint(list, rooms.len(), self.rooms_scroll, visible);
        action
    }
}

/// Where Magnetic Cave's choice `index` in a row (Human or AI, an AI budget) goes: the rows
/// share columns, as many as there are budgets, right of the middle of the left column and
/// inside it.
fn choice_rect(index: usize, y: f32) -> Rect {
    let x = LEFT_X + 170.0;
    let gap = 6.0;
    let step = ((LEFT_X + LEFT_WIDTH - x + gap) / AI_BUDGETS.len() as f32).min(80.0);
    Rect::new(x + index as f32 * step, y, step - gap, BUTTON_HEIGHT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cave_choices_stay_inside_the_left_column() {
        let last = choice_rect(AI_BUDGETS.len() - 1, 0.0);
        assert!(last.x + last.w <= LEFT_X + LEFT_WIDTH + 0.01, "{last:?}");
        assert!(last.w >= 60.0, "{last:?}");
        assert_eq!(choice_rect(1, 5.0).y, 5.0);
    }
}
