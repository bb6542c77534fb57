//! The lobby: which server, the games it offers, a form to create a room (Magnetic Cave here,
//! EWN in `ewn::EwnLobbyForm`; Dropping Bricks goes on to its own init screen), and in the
//! right column (`right_column`) the open rooms to join or watch and the stored games to
//! replay. Their rows are drawn by `rows`.

mod more_rows;
mod news;
mod right_column;
mod rows;

use std::collections::HashMap;

use macroquad::math::Rect;
use macroquad::time::get_time;
use parlor_shared::game::{GameKind, GameSetup};
use parlor_shared::identity::Player;
use parlor_shared::protocol::{
    BrainSummary, GameInfo, RecordId, RecordSummary, RoomId, RoomSummary, SeatSpec,
};

use super::board_play::HeldSeat;
use super::cave::lobby_form::CaveLobbyForm;
use super::confirm::Confirmation;
use super::describe;
use super::ewn::EwnLobbyForm;
use super::hexapawn::{FormAction, HexLobbyForm};
use super::key_focus;
use super::klotski::KlotskiLobbyForm;
use super::lobby_choices::LobbyChoices;
use super::text_field::{FieldEvent, TextField};
use super::widgets::TOP_BAR_HEIGHT;
use super::widgets::{
    BUTTON_HEIGHT, DIM_TEXT, FormArea, Input, LINE_HEIGHT, TEXT, button, button_at, button_width,
    fit_to_width, heading_fit, label, text_width, toggle, wrap_to_width,
};
use crate::gui::canvas::{canvas_height, canvas_width};
use news::LobbyNews;
use rows::rematches_for;

const LEFT_X: f32 = 20.0;
const LEFT_WIDTH: f32 = 390.0;
const RIGHT_X: f32 = 430.0;
/// The space kept free along the window's right and bottom edges.
const MARGIN: f32 = 16.0;
/// How long the lobby says a name typed but not entered did not count, in seconds.
const NOTE_SECONDS: f64 = 6.0;
/// The width of the name field, at the right of the server row.
const NAME_FIELD_WIDTH: f32 = 160.0;
/// Where the game buttons start, right of "Game".
const GAME_BUTTONS_X: f32 = 50.0;
/// The most lines of a game's description the form shows.
const DESCRIPTION_LINES: usize = 2;
/// The window height from which the form shows the game's description.
const DESCRIPTION_MIN_HEIGHT: f32 = 700.0;

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
    /// Take back the seats this window holds in the room (by their tokens).
    ResumeHeld(RoomId),
    /// Go by this name from now on (checked by the app).
    Rename(String),
    Replay(RecordId),
    /// Ask the server for HER's brains, for the forms of HER's rooms.
    ListBrains,
    /// End this unfinished room of ours (asked twice: see `confirm.rs`).
    Close(RoomId),
}

pub struct LobbyView {
    pub address: TextField,
    pub games: Vec<GameInfo>,
    pub rooms: Vec<RoomSummary>,
    /// Whether the server said `rooms` misses the rooms of the hall's nodes it cannot reach.
    rooms_partial: bool,
    pub records: Vec<RecordSummary>,
    /// Who the server knows us as, once connected.
    pub me: Option<Player>,
    /// The seats we hold in unfinished rooms on this server, from any window or machine.
    my_seats: Vec<parlor_shared::protocol::HeldSeat>,
    /// The rooms other players made to play again a game of ours, with their makers, as the
    /// last list of rooms named them (`rows::rematches_for`).
    rematches: HashMap<RoomId, Player>,
    /// What the lists say that is news to the person.
    news: LobbyNews,
    /// The name we go by, to change.
    pub name: TextField,
    /// When the name field last put back a name that was typed but not entered.
    name_put_back_at: Option<f64>,
    /// The creation form's game, and each game's form.
    game: GameKind,
    cave: CaveLobbyForm,
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
            rooms_partial: false,
            records: Vec::new(),
            me: None,
            my_seats: Vec::new(),
            rematches: HashMap::new(),
            news: LobbyNews::default(),
            name: TextField::entered_with_enter(""),
            name_put_back_at: None,
            game: GameKind::Cave,
            cave: CaveLobbyForm::default(),
            ewn: EwnLobbyForm::default(),
            hexapawn: HexLobbyForm::default(),
            klotski: KlotskiLobbyForm::default(),
            rooms_scroll: 0,
            records_scroll: 0,
            closing: Confirmation::default(),
        }
    }

    /// Shows the creation form of `game`, as a click on its button does.
    pub fn choose_game(&mut self, game: GameKind) {
        self.game = game;
    }

    /// The forms' choices, for the window's next run (the Bricks screen's are the app's).
    pub fn choices(&self) -> LobbyChoices {
        LobbyChoices {
            game: Some(self.game),
            cave: Some(self.cave.choices()),
            bricks: None,
            ewn: Some(self.ewn.choices()),
            hexapawn: Some(self.hexapawn.choices()),
            klotski: Some(self.klotski.choices()),
        }
    }

    /// Takes the choices kept from the window's last run, each form what it offers.
    pub fn recall(&mut self, kept: &LobbyChoices) {
        if let Some(game) = kept.game {
            self.game = game;
        }
        if let Some(cave) = &kept.cave {
            self.cave.recall(cave);
        }
        if let Some(ewn) = &kept.ewn {
            self.ewn.recall(ewn);
        }
        if let Some(hexapawn) = &kept.hexapawn {
            self.hexapawn.recall(hexapawn);
        }
        if let Some(klotski) = &kept.klotski {
            self.klotski.recall(klotski);
        }
    }

    /// Forgets everything learnt from a server, before talking to another one.
    pub fn clear_lists(&mut self) {
        self.games.clear();
        self.rooms.clear();
        self.rematches.clear();
        self.records.clear();
        self.me = None;
        self.my_seats.clear();
        self.news.entered();
        self.hexapawn.forget_brains();
    }

    /// The server's brains of HER arrived.
    pub fn set_brains(&mut self, brains: Vec<BrainSummary>) {
        self.hexapawn.set_brains(brains);
    }

    /// The lobby is shown again: the brains are asked for again when the form shows next
    /// (they learn in every game), and the next lists are what later ones are compared with.
    pub fn entered(&mut self) {
        self.hexapawn.forget_brains();
        self.news.entered();
    }

    /// The seats we hold arrived; the rooms that have come to wait for our move (see
    /// [`LobbyNews`]).
    pub fn set_my_seats(&mut self, seats: Vec<parlor_shared::protocol::HeldSeat>) -> Vec<RoomId> {
        let newly = self.news.my_seats(&seats);
        self.my_seats = seats;
        newly
    }

    /// The rooms arrived (`partial` when some of the hall's are missing); the rematches other
    /// players have made for us, with their makers (see [`LobbyNews`]).
    pub fn set_rooms(&mut self, rooms: Vec<RoomSummary>, partial: bool) -> Vec<(RoomId, Player)> {
        let me = self.me.as_ref().map(|me| me.id);
        self.rematches = (me.map(|me| rematches_for(&rooms, me))).unwrap_or_default();
        self.rooms = rooms;
        self.rooms_partial = partial;
        self.news.rematches(&self.rematches)
    }

    /// Handles input and draws the lobby. `held` are the seats this client holds.
    ///
    /// Left: the server row, then the room creation form, whose Create button keeps its place
    /// at the bottom however the form above it changes. Right: the seats we hold, the open
    /// rooms, and under them the stored games, sharing the height the window has.
    pub fn update(
        &mut self,
        input: &Input,
        connected: bool,
        held: &HashMap<RoomId, Vec<HeldSeat>>,
    ) -> Option<LobbyAction> {
        let top = TOP_BAR_HEIGHT + 14.0;
        let mut action = self.draw_server_row(input, top);
        let columns_top = top + 64.0;
        let bottom = canvas_height() - MARGIN;
        action = action.or(self.draw_create_form(input, columns_top, bottom, connected));
        action.or(self.draw_right_column(input, (columns_top, bottom), connected, held))
    }

    fn draw_server_row(&mut self, input: &Input, y: f32) -> Option<LobbyAction> {
        label("Server", LEFT_X, y + 19.0, TEXT);
        // The name field keeps its width at the right; the address takes what is left.
        let name_field_w = NAME_FIELD_WIDTH;
        let buttons_w = button_width("Connect") + button_width("Refresh") + 20.0;
        let name_label_w = text_width("Name") + 10.0;
        let address_x = LEFT_X + 60.0;
        let address_w = (canvas_width()
            - MARGIN
            - name_field_w
            - name_label_w
            - 20.0
            - buttons_w
            - 10.0
            - address_x)
            .clamp(120.0, 470.0);
        let field = Rect::new(address_x, y, address_w, BUTTON_HEIGHT);
        let submitted = self.address.update(input, field) == FieldEvent::Submitted;
        let connect_x = field.x + field.w + 10.0;
        let mut action = None;
        if submitted || button_at(input, connect_x, y, "Connect") {
            let url = describe::server_url(&self.address.text);
            // An empty address is refused, and the field shows again the one in use.
            if url.is_none() && self.address.text.trim().is_empty() {
                self.address.put_back();
            }
            action = Some(url.map_or(LobbyAction::BadAddress, LobbyAction::Connect));
        }
        let refresh_x = connect_x + button_width("Connect") + 10.0;
        if button_at(input, refresh_x, y, "Refresh") {
            action = Some(LobbyAction::Refresh);
        }
        let name_x = refresh_x + button_width("Refresh") + 20.0;
        label("Name", name_x, y + 19.0, TEXT);
        let name_field = Rect::new(name_x + name_label_w, y, name_field_w, BUTTON_HEIGHT);
        match self.name.update(input, name_field) {
            FieldEvent::Submitted => action = Some(LobbyAction::Rename(self.name.text.clone())),
            FieldEvent::PutBack => self.name_put_back_at = Some(get_time()),
            FieldEvent::None => {}
        }
        let put_back = (self.name_put_back_at).is_some_and(|at| get_time() - at < NOTE_SECONDS);
        let hint = if self.address.is_focused() {
            "Type an address such as ws://192.168.1.20:7878 and press Enter."
        } else if self.name.is_focused() {
            "Type the name you go by (1 to 32 characters) and press Enter."
        } else if put_back {
            "Your name did not change: a new name counts once Enter is pressed in its field."
        } else if key_focus::ring_shown() {
            "Tab: the next button. F6: the next part (form, Create, your games, rooms, stored games)."
        } else {
            "Click the address to switch to another server, or your name to change it."
        };
        let hint_w = canvas_width() - MARGIN - field.x;
        label(
            &fit_to_width(hint, hint_w),
            field.x,
            y + BUTTON_HEIGHT + 20.0,
            DIM_TEXT,
        );
        action
    }

    /// The chosen game as the server describes it, in at most two lines under the game
    /// buttons (the buttons name the others); returns where the form continues.
    fn draw_description(&self, y: f32) -> f32 {
        let text = match self.games.iter().find(|game| game.kind == self.game) {
            Some(game) => game.description.as_str(),
            None => "(the server has not said yet what it offers)",
        };
        let mut lines = wrap_to_width(text, LEFT_WIDTH);
        if lines.len() > DESCRIPTION_LINES {
            let rest = lines.split_off(DESCRIPTION_LINES - 1).join(" ");
            lines.push(fit_to_width(&rest, LEFT_WIDTH));
        }
        let mut y = y;
        for line in &lines {
            label(line, LEFT_X, y + 16.0, DIM_TEXT);
            y += LINE_HEIGHT;
        }
        y + 6.0
    }

    /// The room creation form from `top` down, its Create button's row ending at `bottom`.
    fn draw_create_form(
        &mut self,
        input: &Input,
        top: f32,
        bottom: f32,
        connected: bool,
    ) -> Option<LobbyAction> {
        key_focus::part();
        let title = format!("New {} room", self.game.name());
        heading_fit(&title, LEFT_X, top + 22.0, LEFT_WIDTH);
        let mut y = top + 36.0;
        label("Game", LEFT_X, y + 19.0, TEXT);
        let mut x = LEFT_X + GAME_BUTTONS_X;
        for game in GameKind::ALL {
            let name = form_button_name(game);
            if x + button_width(name) + 6.0 > LEFT_X + LEFT_WIDTH {
                x = LEFT_X + GAME_BUTTONS_X;
                y += BUTTON_HEIGHT + 6.0;
            }
            let rect = Rect::new(x, y, button_width(name) + 6.0, BUTTON_HEIGHT);
            if toggle(input, rect, name, self.game == game) {
                self.game = game;
            }
            x += rect.w + 8.0;
        }
        y += BUTTON_HEIGHT + 8.0;
        // On a short window the form needs the height more than the words.
        if canvas_height() >= DESCRIPTION_MIN_HEIGHT {
            y = self.draw_description(y);
        }
        let area = FormArea {
            x: LEFT_X,
            top: y,
            width: LEFT_WIDTH,
            create_y: bottom - BUTTON_HEIGHT,
        };
        if self.game == GameKind::Bricks {
            label(
                "H, D, B and the seats come next.",
                LEFT_X,
                y + 19.0,
                DIM_TEXT,
            );
            let text = "Set up the game...";
            let rect = Rect::new(LEFT_X, area.create_y, button_width(text), BUTTON_HEIGHT);
            return button(input, rect, text).then_some(LobbyAction::SetUpBricks);
        }
        let (ewn, klotski) = (&mut self.ewn, &mut self.klotski);
        let form = match self.game {
            GameKind::Ewn => Some(ewn.update(input, &area, connected)),
            GameKind::Klotski => Some(klotski.update(input, &area, connected)),
            _ => None,
        };
        if let Some(room) = form {
            return room.map(|(setup, seats)| LobbyAction::Create { setup, seats });
        }
        if matches!(self.game, GameKind::Hexapawn | GameKind::HerMatch) {
            let form = self.hexapawn.update(input, self.game, &area, connected);
            return form.map(|form| match form {
                FormAction::Create(setup, seats) => LobbyAction::Create { setup, seats },
                FormAction::ListBrains => LobbyAction::ListBrains,
            });
        }
        self.cave
            .update(input, &area, connected)
            .map(|(setup, seats)| LobbyAction::Create { setup, seats })
    }
}

/// A game's name on its button in the form (the form's title names it in full).
fn form_button_name(game: GameKind) -> &'static str {
    match game {
        GameKind::Cave => "Cave",
        GameKind::Bricks => "Bricks",
        GameKind::Ewn => "EWN",
        GameKind::Klotski => "Klotski",
        GameKind::Hexapawn => "Hexapawn",
        GameKind::HerMatch => "HER vs HER",
    }
}
