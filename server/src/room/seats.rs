//! Taking, taking back and leaving a room's seats. A seat is held by its token, from the
//! joiner's `JoinSeat` on; whoever presents the token holds the seat (`Reclaim`), so a token
//! is the whole authority: it is never logged, and the room keeps only its key (`SeatKey`).
//! A seat also belongs to the player who took it: that player's `JoinSeat` with a new token,
//! from any connection or machine, takes it back and retires the old token (a client that
//! restarted has lost its tokens, never its player). A seat left stays taken. A connection
//! that loses its seat to a new holder stays as a spectator, within the room's cap of them.
//! A player who comes back under a new name is shown by it in the seats they took. A rematch's
//! seats are kept for the players of the game it plays again (`play_again.rs`): a kept seat
//! is taken as if its player took it back, and by nobody else.

use parlor_shared::identity::Player;
use parlor_shared::protocol::{ErrorCode, SeatSpec, SeatToken, ServerMsg};
use tracing::info;

use super::{ConnId, Room, Subscriber};
use crate::players::rename_shown;
use crate::seat_key::SeatKey;

impl Room {
    /// `player` goes by a new name: the seats it took, and the room if it made it, show it.
    /// While the game goes on, the seats' players and the creator are stored again, so that a
    /// restart shows the new name too.
    pub(super) async fn renamed(&mut self, player: &Player) {
        let mut seats_renamed = false;
        for taken in self
            .seats
            .iter_mut()
            .filter_map(|seat| seat.player.as_mut())
        {
            seats_renamed |= rename_shown(taken, player);
        }
        let creator_renamed =
            (self.creator.as_mut()).is_some_and(|creator| rename_shown(creator, player));
        // The rematch a finished room names is told by its maker's name too (kept in memory).
        let maker_renamed =
            (self.rematch.as_mut()).is_some_and(|named| rename_shown(&mut named.made.by, player));
        if self.state.outcome().is_none() {
            // A refusal is logged; the name shows all the same.
            if seats_renamed {
                let _ = self.save_seats().await;
            }
            if creator_renamed {
                let _ = self.save_creator().await;
            }
        }
        if seats_renamed || creator_renamed || maker_renamed {
            self.broadcast();
        }
    }

    pub(super) async fn join(
        &mut self,
        seat: u8,
        token: Option<SeatToken>,
        who: Subscriber,
        spectator_cap: usize,
    ) {
        let token = token.unwrap_or_else(SeatToken::random);
        if !token.is_strong() {
            return who.error(
                ErrorCode::BadRequest,
                "a seat token is 32 lowercase hex digits drawn at random (as the server gives them \
                 in SeatTaken); this one is malformed or could be guessed",
            );
        }
        match self.seat_of(&token) {
            // The same join again, its answer lost in a disconnect: answered the same way.
            Some(held) if held == seat => {
                info!(room = self.id, seat, conn = who.id, "seat joined again");
                return self.hand_over(held, token, who, spectator_cap);
            }
            Some(held) => {
                return who.error(
                    ErrorCode::BadRequest,
                    format!("that token already holds seat {held}"),
                );
            }
            None => {}
        }
        let Some(place) = self.seats.get_mut(seat as usize) else {
            return who.error(
                ErrorCode::NoSuchSeat,
                format!("this room has seats 0..{}", self.seats.len()),
            );
        };
        if place.spec != SeatSpec::Human {
            return who.error(
                ErrorCode::SeatTaken,
                format!("seat {seat} is played by the AI"),
            );
        }
        // A seat belongs to the player who took it, or for whom it is kept; an old room's
        // seat taken by nobody known belongs to its token alone.
        let taken_back = place.key.is_some();
        let owner = place.player.as_ref().map(|p| p.id);
        if (taken_back || owner.is_some()) && owner != Some(who.player.id) {
            let message = match &place.player {
                Some(kept) if !taken_back => format!(
                    "seat {seat} is kept for {}, who played the game this room plays again",
                    kept.label()
                ),
                _ => format!("seat {seat} is taken"),
            };
            return who.error(ErrorCode::SeatTaken, message);
        }
        let before = (place.key.clone(), place.player.clone());
        place.key = Some(SeatKey::of(&token));
        place.player = Some(who.player.clone());
        // Stored before the holder hears the token, so it still holds after a restart; a seat
        // the store refused stays as it was.
        if let Err((code, message)) = self.save_seats().await {
            let place = &mut self.seats[seat as usize];
            (place.key, place.player) = before;
            return who.error(code, message);
        }
        let how = if taken_back {
            "seat taken back by its player"
        } else {
            "seat taken"
        };
        info!(room = self.id, seat, conn = who.id, "{how}");
        if taken_back {
            self.tell_taken_back(seat, who.id);
        }
        self.hand_over(seat, token, who, spectator_cap);
    }

    pub(super) fn reclaim(&mut self, token: SeatToken, who: Subscriber, spectator_cap: usize) {
        let Some(seat) = self.seat_of(&token) else {
            return who.error(ErrorCode::BadToken, "that token holds no seat in this room");
        };
        info!(room = self.id, seat, conn = who.id, "seat reclaimed");
        self.hand_over(seat, token, who, spectator_cap);
    }

    /// Tells the connection that held `seat` until `taker` took it back with a new token that
    /// its token plays no more: the room's state, which names the player and not the
    /// connection, looks the same to it.
    fn tell_taken_back(&self, seat: u8, taker: ConnId) {
        let holder = self.seats[seat as usize]
            .holder
            .filter(|&conn| conn != taker);
        if let Some(member) = holder.and_then(|conn| self.audience.get(conn)) {
            member.send(ServerMsg::SeatTakenBack {
                room: self.id,
                seat,
            });
        }
    }

    /// `who` holds `seat`, taken with `token`, from now on, and hears so. The seat's previous
    /// holder becomes a spectator, or leaves the room if it already has `spectator_cap`:
    /// else passing one token around many connections would grow the audience without end.
    fn hand_over(&mut self, seat: u8, token: SeatToken, who: Subscriber, spectator_cap: usize) {
        let previous = self.seats[seat as usize].holder.replace(who.id);
        self.audience.insert(who.clone());
        if let Some(previous) = previous.filter(|&conn| conn != who.id)
            && !self.seats.iter().any(|seat| seat.holder == Some(previous))
            && self.spectator_count() as usize > spectator_cap
            && let Some(dropped) = self.audience.remove(previous)
        {
            // The room is gone for it: `RoomClosed` names the room, where an `Error` would
            // leave the client to guess which of its requests was refused.
            dropped.send(ServerMsg::RoomClosed {
                room: self.id,
                message: format!(
                    "seat {seat} of room {} was taken over by another connection, and the \
                     room already has {spectator_cap} spectators",
                    self.id
                ),
            });
        }
        who.send(ServerMsg::Seated {
            room: self.id,
            seat,
            token,
        });
        self.broadcast();
    }

    /// `who` stops following the room; answered `Left` even when it did not follow it (a
    /// second Leave, or one after the room dropped it), so that nobody waits for the answer.
    pub(super) fn leave(&mut self, who: Subscriber) {
        self.drop_member(who.id);
        who.send(ServerMsg::Left { room: self.id });
    }

    /// Forgets connection `conn` as a member; a seat it held stays taken, for its token.
    pub(super) fn drop_member(&mut self, conn: ConnId) {
        if self.audience.remove(conn).is_none() {
            return;
        }
        let mut held_a_seat = false;
        for seat in &mut self.seats {
            if seat.holder == Some(conn) {
                // The seat stays taken: its token can reclaim it.
                seat.holder = None;
                held_a_seat = true;
            }
        }
        if held_a_seat {
            // Everyone sees the seat's owner gone.
            self.broadcast();
        } else {
            self.publish_summary();
            self.spectators_changed();
        }
    }

    pub(super) fn seat_of(&self, token: &SeatToken) -> Option<u8> {
        let key = SeatKey::of(token);
        self.seats
            .iter()
            .position(|seat| seat.key.as_ref() == Some(&key))
            .map(|i| i as u8)
    }
}
