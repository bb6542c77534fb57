//! Play again: what a finished room offers its players, and the room the first of them made
//! for it, which the others then join instead of making rooms of their own (so two people who
//! both press Play again meet again rather than wait in two rooms). A rematch that closed
//! before the others came (its maker gave up) is named no more once the finished room hears
//! of it, and gives its place to the next one made. A rematch keeps its seats for the finished
//! game's players (`seats_kept`), so that no stranger takes the seat the others are shown to
//! wait for them.

use parlor_shared::game::GameSetup;
use parlor_shared::identity::Player;
use parlor_shared::protocol::SeatState;
use parlor_shared::protocol::{AiKind, Rematch, RematchRoom, RoomId, RoomSummary, SeatSpec};
use serde::{Deserialize, Serialize};
use tracing::debug;

use super::{Room, Subscriber};

/// A room made with `PlayAgain` for a finished room: its id, what it plays, and the rematch the
/// finished room named before, should the connection have found that one closed (this one
/// then takes its place, so a player who gave up waiting does not leave the others a dead end).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayedAgain {
    pub rematch: RoomId,
    pub setup: GameSetup,
    pub seats: Vec<SeatSpec>,
    pub replacing: Option<RoomId>,
}

/// The rematch a finished room names, and when it was named.
pub(super) struct NamedRematch {
    pub(super) made: RematchRoom,
    pub(super) at: tokio::time::Instant,
}

impl Room {
    /// The room that plays this game again: its start's setup and its seats, an oracle of a
    /// secret strength given a new secret one (the old one must stay secret), and the room a
    /// player made for it, if one did.
    pub(super) fn rematch(&self) -> Rematch {
        let seats = (self.seats.iter())
            .map(|seat| match seat.spec {
                SeatSpec::Ai {
                    move_ms,
                    kind: AiKind::Oracle { .. },
                } => SeatSpec::Ai {
                    move_ms,
                    kind: AiKind::Oracle { strength: None },
                },
                spec => spec,
            })
            .collect();
        Rematch {
            setup: self.start.setup(),
            seats,
            made: self.rematch.as_ref().map(|named| named.made.clone()),
        }
    }

    /// `who` made room `made.rematch` with its setup and seats. It becomes this game's
    /// rematch only if the game is over, `who` played in it, the setup and seats are what the
    /// room offers, and no rematch was named before but the closed one it replaces: anything
    /// else is somebody's own room, which the other players must not be sent to. Either way
    /// `who` has its room, so nothing is said.
    pub(super) fn played_again(&mut self, made: PlayedAgain, who: &Subscriber) {
        let PlayedAgain {
            rematch,
            setup,
            seats,
            replacing,
        } = made;
        let offered = self.rematch();
        let played_here = (self.seats.iter())
            .any(|seat| seat.player.as_ref().is_some_and(|p| p.id == who.player.id));
        let named_before = self.rematch.as_ref().map(|named| named.made.room);
        let taken = self.state.outcome().is_some()
            && (named_before.is_none() || named_before == replacing)
            && played_here
            && offered.setup == setup
            && offered.seats == seats;
        if !taken {
            debug!(room = self.id, rematch, "not taken as this room's rematch");
            return;
        }
        self.rematch = Some(NamedRematch {
            made: RematchRoom {
                room: rematch,
                by: who.player.clone(),
            },
            at: tokio::time::Instant::now(),
        });
        self.broadcast();
    }

    /// Room `closed` has closed, or its game is over: if it is the rematch named here, nobody
    /// waits there any more, the next player to play again makes the room, and this one may
    /// close (it stays open while it names a rematch, for the lobby to mark it).
    pub(super) fn rematch_closed(&mut self, closed: RoomId) {
        if self
            .rematch
            .as_ref()
            .is_some_and(|named| named.made.room == closed)
        {
            debug!(room = self.id, rematch = closed, "the rematch closed");
            self.rematch = None;
            self.broadcast();
        }
    }
}

/// The seats that a room made with `setup` and `seats` to play the finished room `finished`
/// again keeps for that game's players, one per seat: `maker`'s at the first person's seat
/// (where its window sits down), the other players' at the next ones, in the order of the
/// finished room's seats. Nothing is kept unless the game is over, `maker` played in it, and
/// the new room plays the same game with people and AIs in the same seats. Its setup may
/// differ from the one the finished room offers (which the summary does not carry): such a
/// room, which the finished room does not name (`Room::played_again`), is still only the
/// maker's own, and keeping its seats for the maker's opponents takes nothing from anyone.
pub fn seats_kept(
    finished: &RoomSummary,
    setup: &GameSetup,
    seats: &[SeatSpec],
    maker: &Player,
) -> Vec<Option<Player>> {
    let mut players: Vec<&Player> = vec![maker];
    for seat in &finished.seats {
        if let SeatState::Taken {
            player: Some(player),
            ..
        } = seat
            && !players.iter().any(|known| known.id == player.id)
        {
            players.push(player);
        }
    }
    let played_here = (finished.seats.iter()).any(|seat| seat.taken_by(Some(maker.id)));
    let same_seats = finished.seats.len() == seats.len()
        && (finished.seats.iter().zip(seats))
            .all(|(was, spec)| matches!(was, SeatState::Ai { .. }) == (*spec != SeatSpec::Human));
    if finished.outcome.is_none() || finished.game != setup.kind() || !same_seats || !played_here {
        return Vec::new();
    }
    let mut kept_for = players.into_iter();
    (seats.iter())
        .map(|spec| match spec {
            SeatSpec::Human => kept_for.next().cloned(),
            SeatSpec::Ai { .. } => None,
        })
        .collect()
}

#[cfg(test)]
mod tests;
