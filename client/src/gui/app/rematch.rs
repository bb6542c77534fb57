//! Play again with another person. The first player to press it makes the new room
//! (`PlayAgain`), which the finished room then names in its `again.made`; a player who presses
//! it after that joins that room's open seat instead of making a room of their own. Two who
//! press it at the same moment both make rooms, and the finished room names only the first:
//! whoever's room it did not name closes theirs and joins the named one, so the two still meet.
//! A named rematch that has closed by the time it is reached (its maker gave up) is replaced
//! by a room of our own, where we wait, and which the finished room names in its place:
//! pressing Play again always ends in a room.

use parlor_shared::protocol::{ClientMsg, ErrorCode, Rematch, RoomId, RoomSnapshot, SeatState};

use super::from_server::refuses_opening_a_room;
use super::{App, Screen};

/// What Play again is waiting for.
#[derive(Default)]
pub(super) struct PlayingAgain {
    /// The rematch this client made (`mine`) for room `old`, until `old` is left: should
    /// `old` name another player's rematch instead, this client goes there.
    made: Option<Made>,
    /// A rematch opened as a spectator: its first state tells which seat is left to take.
    seat_wanted: Option<Joining>,
    /// A rematch of ours closed for another player's: its closing is no news to the user.
    given_up: Option<RoomId>,
}

/// Another player's rematch of room `old` we are opening, and what `old` offered, to make a
/// room of our own should that rematch have closed.
struct Joining {
    rematch: RoomId,
    old: RoomId,
    offered: Rematch,
}

#[derive(Clone, Copy)]
struct Made {
    old: RoomId,
    mine: RoomId,
}

impl App {
    /// Play again in room `old`: join the rematch another player made for it, or ask for one.
    pub(super) fn play_again(&mut self, old: RoomId, again: Rematch) {
        match again.made.as_ref().map(|made| made.room) {
            Some(rematch) => {
                self.send(ClientMsg::Leave { room: old });
                self.join_rematch(old, rematch, again);
            }
            None => self.create_room(again.setup, again.seats, Some(old)),
        }
    }

    /// Opens `rematch` of room `old`, watched until its first state shows the seat to take:
    /// ours, should we have made it (and come back to the old room since), else the one left
    /// open.
    fn join_rematch(&mut self, old: RoomId, rematch: RoomId, offered: Rematch) {
        self.playing_again.seat_wanted = Some(Joining {
            rematch,
            old,
            offered,
        });
        self.open_room(rematch, ClientMsg::Watch { room: rematch });
    }

    /// Our rematch `mine` of room `old` (left by now) exists: whether to take a seat in it,
    /// which we do unless `old` already names another player's.
    pub(super) fn keep_rematch(&mut self, old: RoomId, mine: RoomId) -> bool {
        self.playing_again.made = Some(Made { old, mine });
        match (self.snapshots.get(&old)).and_then(|s| naming_another(s, mine)) {
            Some(offered) => {
                self.give_up_rematch(old, mine, offered);
                false
            }
            None => true,
        }
    }

    /// A state of a room this client follows, once it is shown: takes the seat a rematch left
    /// for us, or goes to another player's rematch that the room we played again names.
    pub(super) fn on_rematch_state(&mut self, snapshot: &RoomSnapshot) {
        let wanted = |joining: &mut Joining| joining.rematch == snapshot.room;
        if self.playing_again.seat_wanted.take_if(wanted).is_some() {
            self.take_seat_left(snapshot);
        }
        let Some(Made { old, mine }) = self.playing_again.made else {
            return;
        };
        if snapshot.room != old {
            return;
        }
        if let Some(offered) = naming_another(snapshot, mine) {
            self.give_up_rematch(old, mine, offered);
        }
    }

    /// Room `room` was left or closed: no state of it will come to wait for.
    pub(super) fn on_room_gone(&mut self, room: RoomId) {
        (self.playing_again.made).take_if(|made| made.old == room);
    }

    /// A new connection: nothing asked on the old one is awaited.
    pub(super) fn forget_playing_again(&mut self) {
        self.playing_again = PlayingAgain::default();
    }

    /// Whether the closing of `room` is news to the user: not when it is a rematch of ours we
    /// closed for another's.
    pub(super) fn closing_is_news(&mut self, room: RoomId) -> bool {
        self.playing_again
            .given_up
            .take_if(|r| *r == room)
            .is_none()
    }

    /// Another player's rematch of room `old`, named in what it offers (`offered`), came
    /// before ours, `mine`: ours is closed (nobody has played in it) and theirs joined.
    fn give_up_rematch(&mut self, old: RoomId, mine: RoomId, offered: Rematch) {
        let Some(theirs) = named(&offered) else {
            return;
        };
        self.playing_again.made = None;
        self.playing_again.given_up = Some(mine);
        self.send(ClientMsg::CloseRoom { room: mine });
        self.held.remove(&mine);
        self.join_rematch(old, theirs, offered);
    }

    /// A refusal (`code`) to open the rematch Play again went to: it has closed (its maker
    /// closed it, say), so we ask for a room of our own to wait in, and say so rather than
    /// the server's bare "no room 8". `None` for any other refusal.
    pub(super) fn rematch_gone(&mut self, code: ErrorCode) -> Option<String> {
        let opening = match &self.screen {
            Screen::Room(view) if !self.snapshots.contains_key(&view.room) => view.room,
            _ => return None,
        };
        if !refuses_opening_a_room(code) {
            return None;
        }
        let is_opening = |joining: &mut Joining| joining.rematch == opening;
        let Joining {
            rematch,
            old,
            offered,
        } = self.playing_again.seat_wanted.take_if(is_opening)?;
        // We have left `old`; its state, should it linger, must not send us back to `rematch`.
        self.snapshots.remove(&old);
        let me = self.lobby.me.as_ref().map(|me| me.id);
        let ours = offered
            .made
            .as_ref()
            .is_some_and(|made| Some(made.by.id) == me);
        let who = if ours { "you" } else { "your opponent" };
        self.create_room(offered.setup, offered.seats, Some(old));
        Some(format!(
            "Room #{rematch}, where {who} waited to play again, has closed; \
             a room of your own is on its way"
        ))
    }

    fn take_seat_left(&mut self, snapshot: &RoomSnapshot) {
        let me = self.lobby.me.as_ref().map(|me| me.id);
        let ours = |seat: &SeatState| match seat {
            SeatState::Taken { player, .. } => player.as_ref().map(|p| p.id) == me,
            SeatState::Kept { player } => Some(player.id) == me,
            _ => false,
        };
        let seats = || snapshot.seats.iter();
        let open = || seats().position(|seat| *seat == SeatState::Open);
        match seats().position(ours).or_else(open) {
            Some(seat) if snapshot.outcome.is_none() => {
                self.send(ClientMsg::join_seat(snapshot.room, seat as u8));
            }
            _ => self.say(
                format!(
                    "Room #{} has no seat left to play; you watch it",
                    snapshot.room
                ),
                false,
            ),
        }
    }
}

/// The room made to play the game again that `again` names, if a player made one.
fn named(again: &Rematch) -> Option<RoomId> {
    again.made.as_ref().map(|made| made.room)
}

/// What the finished room `snapshot` offers, when it names a rematch other than `mine`.
fn naming_another(snapshot: &RoomSnapshot, mine: RoomId) -> Option<Rematch> {
    let again = snapshot.again.as_deref()?;
    named(again).filter(|theirs| *theirs != mine)?;
    Some(again.clone())
}

#[cfg(test)]
mod tests;
