//! The whole app: one server connection, what the server has told us, and which screen is
//! shown. Network events are applied first each frame, then the screen draws itself and
//! reports what the user did, and the app turns that into requests and screen changes.

use std::collections::HashMap;

use macroquad::time::get_time;
use parlor_shared::game::GameSetup;
use parlor_shared::protocol::{ClientMsg, RecordId, RoomId, RoomSnapshot, SeatSpec};

use super::board_play::HeldSeat;
use super::bricks::{BricksSetupView, SetupAction};
use super::lobby::{LobbyAction, LobbyView};
use super::replay_view::{ReplayAction, ReplayView};
use super::room_view::{RoomAction, RoomView};
use super::scripted::RoomScript;
use super::widgets::Input;
use crate::gui::canvas::{canvas_height, canvas_width};
use crate::identity::Identity;
use crate::net::{Connection, EventReceiver, NetEvent};

mod from_server;
mod kept_choices;
mod rematch;
mod replays;
#[cfg(test)]
mod tests;
mod top_bar;

/// The room list is asked for this often while the lobby is shown, in seconds.
const ROOMS_REFRESH_SECONDS: f64 = 2.0;
/// A message in the top bar disappears after this many seconds.
const NOTICE_SECONDS: f64 = 10.0;

/// The notice shown while stored game `id` is on its way; dropped when it arrives.
fn loading_text(id: RecordId) -> String {
    format!("Loading stored game #{id}...")
}

/// Where the app starts.
pub enum Startup {
    Connect(String),
    /// There is no server to connect to; the string says why.
    Failed(String),
}

/// The state of the link to the server, as the top bar shows it.
enum Link {
    Offline(String),
    Connecting {
        url: String,
    },
    Connected {
        url: String,
        server: String,
        /// The address reached, of those in `url`.
        node: String,
    },
    /// The connection dropped and the network thread is getting it back; rooms keep their
    /// last state on screen and get fresh ones after the resume.
    Reconnecting {
        url: String,
        attempt: u32,
        reason: String,
    },
    Disconnected {
        url: String,
        reason: String,
    },
}

enum Screen {
    Lobby,
    /// The Dropping Bricks init phase: H, D, B and the seats of a new room.
    BricksSetup,
    /// Boxed: a room's view, with every game's controls, is by far the largest screen.
    Room(Box<RoomView>),
    /// A replay, and the room it goes back to: a solver's solution is replayed while its room,
    /// still followed, plays it (`None`: back to the lobby).
    Replay {
        view: ReplayView,
        back_to: Option<RoomId>,
    },
}

impl Screen {
    /// Room `room`'s screen, as it opens.
    fn room(room: RoomId) -> Screen {
        Screen::Room(Box::new(RoomView::new(room)))
    }
}

/// A short message for the user in the top bar.
struct Notice {
    text: String,
    is_error: bool,
    /// When it was first drawn; stamped by the frame, so that the app's state needs no clock
    /// (its unit tests run without a window).
    at: Option<f64>,
}

/// A room asked for (`CreateRoom`) and not yet answered (`RoomCreated` or `RoomRefused`).
struct PendingRoom {
    /// `RoomCreated` does not repeat them, and they decide whether the creator joins or
    /// watches.
    seats: Vec<SeatSpec>,
    /// Asked while the link was down: the network thread holds the request and sends it once
    /// the link is back (see `net.rs`), so it is answered then, however many attempts that
    /// takes. A request the thread had sent is lost with its connection instead.
    queued: bool,
    /// The room it replaces (Play again): left once the new room exists, so that a refusal
    /// leaves the player where they were, told why.
    replaces: Option<RoomId>,
}

pub struct App {
    connection: Option<Connection>,
    /// Who we are to servers, sent in every `Hello`.
    identity: Identity,
    /// Where a new name is kept; `None` keeps it for this run only (the unit tests).
    identity_file: Option<std::path::PathBuf>,
    /// Where the lobby's choices are kept for the next run; `None` keeps them for this run only.
    choices_file: Option<std::path::PathBuf>,
    link: Link,
    lobby: LobbyView,
    /// Kept while the app runs, so a second bricks room starts from the last choices.
    bricks_setup: BricksSetupView,
    screen: Screen,
    /// The latest state of each room this client follows.
    snapshots: HashMap<RoomId, RoomSnapshot>,
    /// Seats this client holds on the current server; kept after leaving, for `Reclaim`.
    held: HashMap<RoomId, Vec<HeldSeat>>,
    /// The room asked for and not yet answered. One at a time, so a double click makes one
    /// room, not two.
    pending_room: Option<PendingRoom>,
    /// The stored game asked for to replay; opening a room meanwhile drops the wish, so a late
    /// answer does not take the screen from the room.
    wanted_record: Option<replays::WantedRecord>,
    notice: Option<Notice>,
    /// When the rooms list was last asked for, by the frame's clock.
    last_rooms_request: f64,
    /// Whether it was asked for in this frame: the frame stamps it, so that the app's state
    /// needs no clock (its unit tests run without a window).
    rooms_requested: bool,
    /// A room to open by itself once connected (the hidden `--open-room`).
    script: Option<RoomScript>,
    /// Play again with another person: what it waits for (`rematch.rs`).
    playing_again: rematch::PlayingAgain,
    /// Every request sent, for the unit tests, which have no server to send them to.
    #[cfg(test)]
    sent: Vec<ClientMsg>,
}

impl App {
    /// The app connecting as `identity`, kept in `identity_file` when given.
    pub fn new(
        startup: Startup,
        identity: Identity,
        identity_file: Option<std::path::PathBuf>,
    ) -> App {
        let mut lobby = LobbyView::new("");
        lobby.name.text = identity.name.clone();
        let mut app = App {
            connection: None,
            identity,
            identity_file,
            choices_file: None,
            link: Link::Offline(String::new()),
            lobby,
            bricks_setup: BricksSetupView::default(),
            screen: Screen::Lobby,
            snapshots: HashMap::new(),
            held: HashMap::new(),
            pending_room: None,
            wanted_record: None,
            notice: None,
            last_rooms_request: 0.0,
            rooms_requested: false,
            script: None,
            playing_again: rematch::PlayingAgain::default(),
            #[cfg(test)]
            sent: Vec::new(),
        };
        match startup {
            Startup::Connect(url) => app.connect(url),
            Startup::Failed(reason) => app.link = Link::Offline(reason),
        }
        app
    }

    /// The app that opens the room of `script` by itself once connected.
    pub fn with_script(mut self, script: Option<RoomScript>) -> App {
        if let Some(game) = script.as_ref().and_then(RoomScript::lobby_form) {
            self.lobby.choose_game(game);
        }
        self.script = script;
        self
    }

    /// The scripted room's next click, as this frame's input.
    pub fn scripted_input(&mut self) -> Option<Input> {
        let (Some(script), Screen::Room(view)) = (&mut self.script, &self.screen) else {
            return None;
        };
        let snapshot = self.snapshots.get(&view.room)?;
        let held = self.held.get(&view.room).map_or(&[][..], Vec::as_slice);
        let mouse = script.click(snapshot, held, canvas_width(), canvas_height())?;
        Some(Input {
            mouse,
            clicked: true,
            typed: Vec::new(),
            wheel: 0.0,
        })
    }

    /// Why the scripted room cannot be shown, if it cannot (the server refused it).
    pub fn script_failure(&self) -> Option<&str> {
        self.script.as_ref()?.failure()
    }

    /// Whether the scripted room shows what it was asked to.
    pub fn script_done(&mut self) -> bool {
        match (&mut self.script, &self.screen) {
            (Some(script), Screen::Room(view)) => {
                let reconnecting = matches!(self.link, Link::Reconnecting { .. });
                script.done(self.snapshots.get(&view.room), get_time())
                    && (reconnecting || !script.waits_for_reconnecting())
            }
            (Some(script), Screen::Replay { .. }) => script.ends_in_replay(),
            (Some(script), Screen::Lobby) => {
                let answered = self.lobby.me.is_some() && !self.lobby.games.is_empty();
                script.lobby_done(answered, get_time())
            }
            _ => false,
        }
    }

    /// Whether a script plays the window (the hidden `--open-room`) and has not got where it
    /// was asked yet.
    pub fn script_playing(&mut self) -> bool {
        self.script.is_some() && !self.script_done()
    }

    /// The network's events, for the window to sleep on (`pacing::FrameClock`): a move or a
    /// state is drawn as soon as it arrives, not at the next tick.
    pub fn network(&self) -> Option<&EventReceiver> {
        self.connection.as_ref().map(Connection::events)
    }

    /// One frame: apply what arrived, draw the screen, act on the user's input.
    pub fn frame(&mut self, input: &Input) {
        let arrived = self.connection.as_ref().map(|connection| {
            std::iter::from_fn(|| connection.try_recv()).collect::<Vec<NetEvent>>()
        });
        for event in arrived.into_iter().flatten() {
            self.handle_event(event);
        }
        if let (Some(script), Screen::Room(view)) = (&mut self.script, &self.screen) {
            let room = view.room;
            let record = self
                .snapshots
                .get(&room)
                .and_then(|snapshot| script.record_to_replay(snapshot));
            if let Some(record) = record {
                self.on_room_action(room, RoomAction::Replay(record));
            }
        }
        let now = get_time();
        if let Some(notice) = &mut self.notice {
            notice.at.get_or_insert(now);
        }
        let connected = matches!(self.link, Link::Connected { .. });
        if connected
            && matches!(self.screen, Screen::Lobby)
            && now - self.last_rooms_request >= ROOMS_REFRESH_SECONDS
        {
            self.send(ClientMsg::ListRooms);
            self.send(ClientMsg::ListMySeats);
        }
        match &mut self.screen {
            Screen::Lobby => {
                if let Some(action) = self.lobby.update(input, connected, &self.held) {
                    self.on_lobby_action(action);
                }
            }
            Screen::BricksSetup => match self.bricks_setup.update(input, connected) {
                Some(SetupAction::Create { setup, seats }) => {
                    self.keep_choices();
                    self.create_room(setup, seats, None)
                }
                Some(SetupAction::Back) => self.enter_lobby(),
                None => {}
            },
            Screen::Room(view) => {
                let room = view.room;
                let held = self.held.get(&room).map_or(&[][..], Vec::as_slice);
                let me = self.lobby.me.as_ref().map(|me| me.id);
                if let Some(action) = view.update(input, self.snapshots.get(&room), held, me) {
                    self.on_room_action(room, action);
                }
            }
            Screen::Replay { view, back_to } => {
                let close = match back_to {
                    Some(_) => "Back to the room",
                    None => "Back to lobby",
                };
                if view.update(input, close) == Some(ReplayAction::Close) {
                    match *back_to {
                        Some(room) => self.screen = Screen::room(room),
                        None => self.enter_lobby(),
                    }
                }
            }
        }
        if std::mem::take(&mut self.rooms_requested) {
            self.last_rooms_request = now;
        }
        self.draw_top_bar(now);
    }

    fn connect(&mut self, url: String) {
        if self.server_url() != Some(url.as_str()) {
            self.held.clear();
        }
        self.lobby.clear_lists();
        self.lobby.address.text = url.clone();
        self.snapshots.clear();
        self.pending_room = None;
        self.forget_playing_again();
        // Dropping the old connection closes it; its late events are dropped with it.
        self.connection = Some(Connection::open(&url, &self.identity));
        self.link = Link::Connecting { url };
        self.screen = Screen::Lobby;
    }

    /// The server connected to, being connected to, or last connected to.
    fn server_url(&self) -> Option<&str> {
        match &self.link {
            Link::Connecting { url }
            | Link::Connected { url, .. }
            | Link::Reconnecting { url, .. }
            | Link::Disconnected { url, .. } => Some(url),
            Link::Offline(_) => None,
        }
    }

    fn send(&mut self, message: ClientMsg) {
        if matches!(message, ClientMsg::ListRooms) {
            self.rooms_requested = true;
        }
        #[cfg(test)]
        self.sent.push(message.clone());
        if let Some(connection) = &self.connection {
            connection.send(message);
        }
    }

    fn say(&mut self, text: impl Into<String>, is_error: bool) {
        self.notice = Some(Notice {
            text: text.into(),
            is_error,
            at: None,
        });
    }

    /// Shows the lobby with fresh lists.
    fn enter_lobby(&mut self) {
        self.screen = Screen::Lobby;
        self.lobby.entered();
        self.send(ClientMsg::ListRooms);
        self.send(ClientMsg::ListMySeats);
        self.send(ClientMsg::ListRecords);
    }

    /// Goes by `name` from now on: kept with the identity, and told to the server by
    /// connecting again (a name travels in `Hello`); our seats stay ours.
    fn rename(&mut self, name: &str) {
        let renamed = match self.identity.renamed(name) {
            Ok(renamed) => renamed,
            Err(why) => {
                self.lobby.name.text = self.identity.name.clone();
                return self.say(format!("Name not changed: {why}"), true);
            }
        };
        if renamed == self.identity {
            return;
        }
        if let Some(path) = &self.identity_file
            && let Err(error) = renamed.write(path)
        {
            self.lobby.name.text = self.identity.name.clone();
            return self.say(format!("Name not changed: {error:#}"), true);
        }
        self.lobby.name.text = renamed.name.clone();
        self.say(format!("You go by {} now", renamed.name), false);
        self.identity = renamed;
        if let Some(url) = self.server_url().map(str::to_string) {
            self.connect(url);
        }
    }

    fn open_room(&mut self, room: RoomId, request: ClientMsg) {
        if !matches!(self.link, Link::Connected { .. }) {
            return self.say("Not connected to a server", true);
        }
        self.send(request);
        self.wanted_record = None;
        self.screen = Screen::room(room);
    }

    fn on_lobby_action(&mut self, action: LobbyAction) {
        match action {
            LobbyAction::Connect(url) => self.connect(url),
            LobbyAction::BadAddress => {
                let example = "ws://192.168.1.20:7878 (a port is 1 to 65535)";
                self.say(format!("Type a server address such as {example}"), true)
            }
            LobbyAction::Refresh => match &self.link {
                Link::Disconnected { url, .. } => self.connect(url.clone()),
                _ => {
                    self.send(ClientMsg::ListGames);
                    self.enter_lobby();
                }
            },
            LobbyAction::Create { setup, seats } => {
                self.keep_choices();
                self.create_room(setup, seats, None)
            }
            LobbyAction::SetUpBricks => self.screen = Screen::BricksSetup,
            LobbyAction::Join { room, seat } => {
                self.open_room(room, ClientMsg::join_seat(room, seat))
            }
            LobbyAction::Watch(room) => self.open_room(room, ClientMsg::Watch { room }),
            LobbyAction::ResumeHeld(room) => {
                let tokens: Vec<_> = self
                    .held
                    .get(&room)
                    .into_iter()
                    .flatten()
                    .map(|held| held.token.clone())
                    .collect();
                if tokens.is_empty() {
                    self.say(format!("You hold no seat in room #{room}"), true);
                }
                for token in tokens {
                    self.open_room(room, ClientMsg::Reclaim { room, token });
                }
            }
            LobbyAction::ListBrains => self.send(ClientMsg::ListBrains),
            LobbyAction::Rename(name) => self.rename(&name),
            LobbyAction::Replay(id) => {
                self.load_record(id, None);
            }
            LobbyAction::Close(room) => self.send(ClientMsg::CloseRoom { room }),
        }
    }

    /// Asks for a room; its creator joins or watches it once it exists (`room_created`),
    /// leaving the room it `replaces` (plays again) then.
    fn create_room(&mut self, setup: GameSetup, seats: Vec<SeatSpec>, replaces: Option<RoomId>) {
        if self.pending_room.is_some() {
            self.say("A room is on its way; wait for it", false);
            return;
        }
        self.pending_room = Some(PendingRoom {
            seats: seats.clone(),
            queued: !matches!(self.link, Link::Connected { .. }),
            replaces,
        });
        let request = match replaces {
            Some(room) => ClientMsg::PlayAgain { room, setup, seats },
            None => ClientMsg::CreateRoom { setup, seats },
        };
        self.send(request);
    }

    fn on_room_action(&mut self, room: RoomId, action: RoomAction) {
        match action {
            RoomAction::Send(message) => self.send(message),
            RoomAction::Leave => {
                self.send(ClientMsg::Leave { room });
                self.enter_lobby();
            }
            RoomAction::PlayAgain(again) => self.play_again(room, again),
            RoomAction::WatchRematch(rematch) => {
                self.send(ClientMsg::Leave { room });
                self.open_room(rematch, ClientMsg::Watch { room: rematch });
            }
            RoomAction::Replay(id) => {
                self.send(ClientMsg::Leave { room });
                self.enter_lobby();
                self.load_record(id, Some(room));
            }
            RoomAction::ReplaySolution => self.replay_solution(room),
        }
    }
}
