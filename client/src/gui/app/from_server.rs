//! What the server and the network thread tell the app: connection events and server
//! messages, applied at the start of each frame.

use parlor_shared::game::GameKind;
use parlor_shared::protocol::{ClientMsg, ErrorCode, RecordId, RoomId, SeatSpec, ServerMsg};

use super::{App, Link, PendingRoom, Screen, loading_text};
use crate::gui::board_play::HeldSeat;
use crate::gui::describe;
use crate::gui::lobby::LobbyAction;
use crate::gui::replay_view::ReplayView;
use crate::gui::scripted::RoomScript;
use crate::net::{NetEvent, refuses_a_join};

impl App {
    pub(super) fn handle_event(&mut self, event: NetEvent) {
        match event {
            NetEvent::Connected {
                server,
                player,
                node,
            } => {
                let url = self.server_url().unwrap_or_default().to_string();
                let resumed = matches!(self.link, Link::Reconnecting { .. });
                self.link = Link::Connected { url, server, node };
                self.lobby.me = Some(player);
                // A room request held for the link goes out now: a drop from here on loses it.
                if let Some(pending) = &mut self.pending_room {
                    pending.queued = false;
                }
                if resumed {
                    // The network thread has reclaimed our seats and watches again: the room
                    // on screen stays and gets its fresh state; the lobby refreshes its lists.
                    self.say("Reconnected", false);
                    self.send(ClientMsg::ListGames);
                    match &mut self.screen {
                        Screen::Lobby => self.enter_lobby(),
                        // A move sent just before the drop may be lost with it: stop waiting
                        // for it (one made twice is refused as stale, so nothing lands twice).
                        Screen::Room(view) => view.on_error(),
                        _ => {}
                    }
                    return;
                }
                self.send(ClientMsg::ListGames);
                self.enter_lobby();
                if let Some((setup, seats)) =
                    self.script.as_mut().and_then(RoomScript::room_to_create)
                {
                    self.create_room(setup, seats, None);
                }
            }
            NetEvent::Message(message) => self.handle_message(*message),
            NetEvent::Reconnecting { attempt, reason } => {
                let url = self.server_url().unwrap_or_default().to_string();
                self.link = Link::Reconnecting {
                    url,
                    attempt,
                    reason,
                };
                // A room asked for on the lost connection will not be announced; one asked for
                // since the link went down waits in the network thread and will be.
                self.pending_room.take_if(|pending| !pending.queued);
            }
            NetEvent::NotSent(request) => {
                if matches!(
                    *request,
                    ClientMsg::CreateRoom { .. } | ClientMsg::PlayAgain { .. }
                ) {
                    self.pending_room = None;
                }
                self.say(crate::net::not_sent_text(&request), true);
            }
            NetEvent::Disconnected(reason) => {
                let url = self.server_url().unwrap_or_default().to_string();
                self.link = Link::Disconnected { url, reason };
                self.connection = None;
                self.snapshots.clear();
                self.pending_room = None;
                self.forget_playing_again();
                // A replay needs no server and may stay; a room cannot.
                if matches!(self.screen, Screen::Room(_)) {
                    self.screen = Screen::Lobby;
                }
            }
        }
    }

    fn handle_message(&mut self, message: ServerMsg) {
        match message {
            ServerMsg::Welcome { .. } => {}
            ServerMsg::Games(games) => self.lobby.games = games,
            ServerMsg::Rooms { rooms, partial } => {
                let made = self.lobby.set_rooms(rooms, partial);
                if let (Screen::Lobby, Some((room, by))) = (&self.screen, made.first()) {
                    let text = format!("{} waits in room #{room} to play you again", by.label());
                    self.say(text, false);
                }
            }
            ServerMsg::MySeats(seats) => {
                let resume = self.script.as_mut().and_then(|s| s.seat_to_resume(&seats));
                let waiting = self.lobby.set_my_seats(seats);
                if matches!(self.screen, Screen::Lobby) && !waiting.is_empty() {
                    self.say(describe::waiting_for_your_move(&waiting), false);
                }
                if let Some((room, seat)) = resume {
                    self.on_lobby_action(LobbyAction::Join { room, seat });
                }
            }
            ServerMsg::Records(records) => self.lobby.records = records,
            ServerMsg::Brains(brains) => self.lobby.set_brains(brains),
            ServerMsg::Brain { name, .. } => self.say(format!("Brain {name} received"), false),
            ServerMsg::RoomCreated { room } => self.room_created(room),
            ServerMsg::RoomRefused { code, message } => {
                let pending = self.pending_room.take();
                let text = format!("No new room: {}", in_words(code, &message));
                if let Some(script) = self.script.as_mut() {
                    script.room_refused(&text);
                }
                // Play again refused: the player stays in the room they played, told why
                // there, with Leave as the way back.
                match (
                    &mut self.screen,
                    pending.and_then(|pending| pending.replaces),
                ) {
                    (Screen::Room(view), Some(old)) if view.room == old => {
                        let version = self.snapshots.get(&old).map(|s| s.version);
                        view.refused(version, text.clone());
                    }
                    _ => {}
                }
                self.say(text, true);
            }
            ServerMsg::Seated { room, seat, token } => {
                let seats = self.held.entry(room).or_default();
                seats.retain(|held| held.seat != seat);
                seats.push(HeldSeat { seat, token });
            }
            ServerMsg::SeatTakenBack { room, seat } => {
                if let Some(seats) = self.held.get_mut(&room) {
                    seats.retain(|held| held.seat != seat);
                }
                // Watched on from here: a connection that was away when it happened follows
                // the room no more, and one that was not is answered with the room's state.
                if matches!(&self.screen, Screen::Room(view) if view.room == room) {
                    self.send(ClientMsg::Watch { room });
                }
                let seat = match self.snapshots.get(&room) {
                    Some(snapshot) => describe::game_seat_name(snapshot.state.kind(), seat),
                    None => format!("Seat {seat}"),
                };
                let text = format!(
                    "{seat} of room #{room} was taken back in another window of yours; \
                     Resume takes it here again"
                );
                self.say(text, false);
            }
            ServerMsg::State(snapshot) => {
                match &mut self.screen {
                    Screen::Room(view) if view.room == snapshot.room => view.on_state(&snapshot),
                    _ => {}
                }
                self.on_rematch_state(&snapshot);
                self.snapshots.insert(snapshot.room, snapshot);
            }
            ServerMsg::Left { room } => {
                self.snapshots.remove(&room);
                self.on_room_gone(room);
            }
            ServerMsg::RoomClosed { room, message } => {
                self.snapshots.remove(&room);
                self.on_room_gone(room);
                if matches!(&self.screen, Screen::Room(view) if view.room == room) {
                    self.enter_lobby();
                }
                if self.closing_is_news(room) {
                    self.say(message, true);
                }
            }
            ServerMsg::Record(record)
                if self
                    .wanted_record
                    .is_some_and(|wanted| wanted.id == record.summary.id) =>
            {
                let room = self.wanted_record.take().and_then(|wanted| wanted.room);
                let id = record.summary.id;
                self.notice
                    .take_if(|notice| notice.text == loading_text(id));
                let title = replay_title(id, room, record.summary.game);
                match ReplayView::new(title, record.summary.seats, record.start, record.moves) {
                    Ok(view) => {
                        self.screen = Screen::Replay {
                            view,
                            back_to: None,
                        }
                    }
                    Err(reason) => self.say(format!("Cannot replay game #{id}: {reason}"), true),
                }
            }
            // A replay asked for before a room was opened: the room keeps the screen.
            ServerMsg::Record(_) => {}
            ServerMsg::Error { code, message } => {
                let text = (self.rematch_gone(code))
                    .or_else(|| self.shown_room_gone(code))
                    .unwrap_or_else(|| format!("Server: {}", in_words(code, &message)));
                self.say(text, true);
                if let Screen::Room(view) = &mut self.screen {
                    if self.snapshots.contains_key(&view.room) {
                        view.on_error();
                    } else if refuses_opening_a_room(code) {
                        // Joining or watching failed: there is no room to show.
                        self.enter_lobby();
                    }
                }
            }
        }
    }

    /// Our room exists: take its first human seat, or watch when the AI plays both.
    fn room_created(&mut self, room: RoomId) {
        // A refusal said before (a name the server refused, say) is over: this one went through.
        self.notice.take_if(|notice| notice.is_error);
        let Some(PendingRoom {
            seats, replaces, ..
        }) = self.pending_room.take()
        else {
            self.say(format!("Room #{room} created"), false);
            return;
        };
        if let Some(old) = replaces {
            self.send(ClientMsg::Leave { room: old });
            if !self.keep_rematch(old, room) {
                return;
            }
        }
        match seats.iter().position(|spec| *spec == SeatSpec::Human) {
            Some(seat) => self.open_room(room, ClientMsg::join_seat(room, seat as u8)),
            None => self.open_room(room, ClientMsg::Watch { room }),
        }
    }
}

impl App {
    /// What a `NoSuchRoom` means while a room is shown (its game over, say, as the window
    /// follows it again after a reconnection): the room is gone from the server, which a
    /// restart does to a finished game's room. `None` for any other refusal.
    fn shown_room_gone(&self, code: ErrorCode) -> Option<String> {
        match &self.screen {
            Screen::Room(view) if code == ErrorCode::NoSuchRoom => Some(format!(
                "Room #{} is gone from the server (it closed, or the server restarted); its \
                 games are kept with the stored games",
                view.room
            )),
            _ => None,
        }
    }
}

/// Codes that answer a `JoinSeat`, `Watch` or `Reclaim` the server refused: a join's refusals
/// (which cover a watch's) or a reclaim's `BadToken`. Any other `Error` (a late refusal of a
/// move made in an earlier room, say) leaves a room being opened alone.
pub(super) fn refuses_opening_a_room(code: ErrorCode) -> bool {
    refuses_a_join(code) || code == ErrorCode::BadToken
}

/// A replay's title: the stored game's number, and the room's when it was played in one just
/// left ("Stored game #5, room #6: Magnetic Cave"), since the two count apart.
pub(super) fn replay_title(id: RecordId, room: Option<RoomId>, game: GameKind) -> String {
    match room {
        Some(room) => format!("Stored game #{id}, room #{room}: {}", game.name()),
        None => format!("Stored game #{id}: {}", game.name()),
    }
}

/// What the server said of a refusal: its words (the code's name is for programs), or the
/// code's name when it gave none.
fn in_words(code: ErrorCode, message: &str) -> String {
    if message.trim().is_empty() {
        format!("{code:?}")
    } else {
        message.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replay_names_its_stored_game_and_the_room_it_was_played_in() {
        assert_eq!(
            replay_title(5, Some(6), GameKind::Cave),
            "Stored game #5, room #6: Magnetic Cave"
        );
        assert_eq!(
            replay_title(5, None, GameKind::Klotski),
            "Stored game #5: Numeric Klotski"
        );
    }
}
