//! What a connection follows, to take it up again after a reconnect: the seats it holds (from
//! `Seated`), the rooms it watches (from the `Watch`es it sent, unless refused; `Leave` forgets
//! a room), and the `JoinSeat`s it sent whose answer has not come. Pure bookkeeping of the
//! messages that pass, so the network thread's reconnects are tested without a network.
//!
//! An `Error` names no request, so a refusal is matched to the oldest unanswered request it
//! can refuse: a `JoinSeat` or a `Reclaim` is answered by `Seated` or a refusal, a `Watch` by
//! a `State` of its room or a refusal. A `Watch` answered by a `State` holds: no later error
//! drops it. A refused `Reclaim` (its room closed while we were away) forgets the seat.

use std::collections::{BTreeMap, VecDeque};

use parlor_shared::protocol::{ClientMsg, ErrorCode, RoomId, SeatToken, ServerMsg};

/// What is followed in one room.
#[derive(Default)]
struct Room {
    /// Seat number and token of every seat held in the room.
    seats: Vec<(u8, SeatToken)>,
    /// Whether the room was watched (`Watch` sent).
    watching: bool,
}

/// A `JoinSeat` sent with a token of ours.
struct Join {
    room: RoomId,
    seat: u8,
    token: SeatToken,
    /// When it was sent, in the order of [`Follows::sent_count`].
    sent: u64,
}

/// A `Watch` or a `Reclaim` sent and not answered yet.
struct Asked {
    room: RoomId,
    /// When it was sent, in the order of [`Follows::sent_count`].
    sent: u64,
}

#[derive(Default)]
pub struct Follows {
    rooms: BTreeMap<RoomId, Room>,
    /// Oldest first.
    joins: VecDeque<Join>,
    /// Oldest first.
    watches: VecDeque<Asked>,
    /// Oldest first, each with the token it reclaims with.
    reclaims: VecDeque<(Asked, SeatToken)>,
    /// Requests numbered so far, to tell which of them was sent first.
    sent_count: u64,
}

/// Errors that answer a `JoinSeat` the server refused.
pub(crate) fn refuses_a_join(code: ErrorCode) -> bool {
    matches!(
        code,
        ErrorCode::NoSuchRoom
            | ErrorCode::NoSuchSeat
            | ErrorCode::SeatTaken
            | ErrorCode::BadRequest
            | ErrorCode::LimitReached
    )
}

/// Errors that answer a `Watch` the server refused: the room is gone, or has all the
/// spectators it takes.
fn refuses_a_watch(code: ErrorCode) -> bool {
    matches!(code, ErrorCode::NoSuchRoom | ErrorCode::LimitReached)
}

/// Errors that answer a `Reclaim` the server refused: the room is gone, or the token holds
/// nothing in it.
fn refuses_a_reclaim(code: ErrorCode) -> bool {
    matches!(code, ErrorCode::NoSuchRoom | ErrorCode::BadToken)
}

impl Follows {
    /// Notes a request sent to the server.
    pub fn sent(&mut self, request: &ClientMsg) {
        match request {
            ClientMsg::Watch { room } => self.watch(*room),
            ClientMsg::Reclaim { room, token } => {
                let sent = self.number();
                self.reclaims
                    .push_back((Asked { room: *room, sent }, token.clone()));
            }
            ClientMsg::Leave { room } => self.forget(*room),
            // A join without a token of ours cannot be repeated safely: it is not noted.
            ClientMsg::JoinSeat {
                room,
                seat,
                token: Some(token),
            } => {
                let sent = self.number();
                self.joins.push_back(Join {
                    room: *room,
                    seat: *seat,
                    token: token.clone(),
                    sent,
                });
            }
            _ => {}
        }
    }

    fn number(&mut self) -> u64 {
        self.sent_count += 1;
        self.sent_count
    }

    fn watch(&mut self, room: RoomId) {
        self.rooms.entry(room).or_default().watching = true;
        let sent = self.number();
        self.watches.push_back(Asked { room, sent });
    }

    /// Notes a message from the server: the seat a `Seated` gives and the join it answers, the
    /// watch a `State` answers. A refusal answers the oldest join or watch it can refuse: each
    /// room answers its requests in order, and in the rare mix-up with a refusal of another
    /// request a join or watch is only forgotten, never sent again after it was refused.
    ///
    /// Returns what the UI is to be given for it: the message itself, but for a `Reclaim`
    /// refused `BadToken`, whose seat its player took back on another connection while this
    /// one was away (its token retired), the `SeatTakenBack` it would have had if connected.
    pub fn received(&mut self, message: ServerMsg) -> ServerMsg {
        if let ServerMsg::Error { code, .. } = &message
            && let Some((room, seat)) = self.refused(*code)
        {
            return ServerMsg::SeatTakenBack { room, seat };
        }
        self.note(&message);
        message
    }

    fn note(&mut self, message: &ServerMsg) {
        match message {
            ServerMsg::Seated { room, seat, token } => {
                let seats = &mut self.rooms.entry(*room).or_default().seats;
                seats.retain(|(held, _)| held != seat);
                seats.push((*seat, token.clone()));
                self.joins.retain(|join| join.token != *token);
                let reclaim = self.reclaims.iter().position(|(r, _)| r.room == *room);
                if let Some(reclaim) = reclaim {
                    self.reclaims.remove(reclaim);
                }
            }
            ServerMsg::State(state) => {
                let answered = self.watches.iter().position(|w| w.room == state.room);
                if let Some(answered) = answered {
                    self.watches.remove(answered);
                }
            }
            // The seat is another connection's now; this one watches the room from where it
            // was, and watches it again after a reconnect.
            ServerMsg::SeatTakenBack { room, seat } => {
                if let Some(followed) = self.rooms.get_mut(room) {
                    followed.seats.retain(|(held, _)| held != seat);
                    followed.watching = true;
                }
            }
            // A room gone for us (failed, closed, or our seat taken over): there is nothing
            // to take up again.
            ServerMsg::RoomClosed { room, .. } => self.forget(*room),
            _ => {}
        }
    }

    /// Drops the oldest unanswered join, watch or reclaim that `code` refuses; the room and seat
    /// of a reclaim refused because its token holds the seat no more.
    fn refused(&mut self, code: ErrorCode) -> Option<(RoomId, u8)> {
        let join = (self.joins.front())
            .filter(|_| refuses_a_join(code))
            .map(|join| join.sent);
        let watch = (self.watches.front())
            .filter(|_| refuses_a_watch(code))
            .map(|watch| watch.sent);
        let reclaim = (self.reclaims.front())
            .filter(|_| refuses_a_reclaim(code))
            .map(|(reclaim, _)| reclaim.sent);
        let oldest = [join, watch, reclaim].into_iter().flatten().min()?;
        if join == Some(oldest) {
            self.joins.pop_front();
        } else if watch == Some(oldest) {
            if let Some(Asked { room, .. }) = self.watches.pop_front() {
                // The room may have a seat of ours too (joined after the watch): that stays.
                self.stop_following(room, |followed| followed.watching = false);
            }
        } else if let Some((Asked { room, .. }, token)) = self.reclaims.pop_front() {
            let held = (self.rooms.get(&room))
                .and_then(|followed| followed.seats.iter().find(|(_, held)| *held == token))
                .map(|&(seat, _)| seat);
            match (code, held) {
                // The room is there, the seat another connection's now.
                (ErrorCode::BadToken, Some(seat)) => {
                    self.stop_following(room, |followed| {
                        followed.seats.retain(|(_, held)| *held != token)
                    });
                    return Some((room, seat));
                }
                // The room closed while we were away.
                _ => self.stop_following(room, |followed| followed.seats.clear()),
            }
        }
        None
    }

    /// Changes what is followed in `room`, and forgets the room once nothing is.
    fn stop_following(&mut self, room: RoomId, change: impl FnOnce(&mut Room)) {
        if let Some(followed) = self.rooms.get_mut(&room) {
            change(followed);
            if followed.seats.is_empty() && !followed.watching {
                self.rooms.remove(&room);
            }
        }
    }

    fn forget(&mut self, room: RoomId) {
        self.rooms.remove(&room);
        self.joins.retain(|join| join.room != room);
        self.watches.retain(|watch| watch.room != room);
        self.reclaims.retain(|(reclaim, _)| reclaim.room != room);
    }

    /// The requests that take everything up again on a new connection: `Reclaim` for every
    /// seat held, `Watch` for every room only watched, and every unanswered `JoinSeat` again
    /// as it was (the server answers a repeat with the seat it gave). What they send awaits
    /// its answer anew: the old connection's answers are lost.
    pub fn resume(&mut self) -> Vec<ClientMsg> {
        self.watches.clear();
        self.reclaims.clear();
        let mut requests = Vec::new();
        for (&room, followed) in &self.rooms {
            for (_, token) in &followed.seats {
                let token = token.clone();
                requests.push(ClientMsg::Reclaim { room, token });
            }
            let joining = self.joins.iter().any(|join| join.room == room);
            if followed.seats.is_empty() && followed.watching && !joining {
                requests.push(ClientMsg::Watch { room });
            }
        }
        // Numbered in the order they go out: reclaims and watches, then joins.
        for request in &requests {
            self.sent_count += 1;
            let sent = self.sent_count;
            match request {
                ClientMsg::Reclaim { room, token } => {
                    (self.reclaims).push_back((Asked { room: *room, sent }, token.clone()))
                }
                ClientMsg::Watch { room } => self.watches.push_back(Asked { room: *room, sent }),
                _ => {}
            }
        }
        for join in &mut self.joins {
            self.sent_count += 1;
            join.sent = self.sent_count;
        }
        requests.extend(self.joins.iter().map(|join| ClientMsg::JoinSeat {
            room: join.room,
            seat: join.seat,
            token: Some(join.token.clone()),
        }));
        requests
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::game::GameSetup;
    use parlor_shared::protocol::RoomSnapshot;

    fn join(room: RoomId, token: &SeatToken) -> ClientMsg {
        ClientMsg::JoinSeat {
            room,
            seat: 0,
            token: Some(token.clone()),
        }
    }

    fn seated(room: RoomId, token: &SeatToken) -> ServerMsg {
        ServerMsg::Seated {
            room,
            seat: 0,
            token: token.clone(),
        }
    }

    #[test]
    fn seats_are_reclaimed_watched_rooms_watched_and_unanswered_joins_sent_again() {
        let (a, b) = (SeatToken::random(), SeatToken::random());
        let mut follows = Follows::default();
        follows.sent(&ClientMsg::Watch { room: 1 });
        follows.sent(&ClientMsg::Watch { room: 2 });
        follows.sent(&join(2, &a));
        follows.sent(&join(3, &b));
        follows.received(seated(3, &b));
        let reclaim = ClientMsg::Reclaim {
            room: 3,
            token: b.clone(),
        };
        // Room 2 is joined, not only watched: the join alone takes it up again.
        let expected = [ClientMsg::Watch { room: 1 }, reclaim.clone(), join(2, &a)];
        assert_eq!(follows.resume(), expected);
        follows.sent(&ClientMsg::Leave { room: 2 });
        follows.sent(&ClientMsg::Leave { room: 1 });
        assert_eq!(follows.resume(), [reclaim]);
    }

    #[test]
    fn a_room_the_server_closed_is_not_taken_up_again() {
        let token = SeatToken::random();
        let mut follows = Follows::default();
        follows.sent(&ClientMsg::Watch { room: 1 });
        follows.sent(&join(2, &token));
        follows.received(seated(2, &token));
        let closed = |room| ServerMsg::RoomClosed {
            room,
            message: String::new(),
        };
        follows.received(closed(1));
        follows.received(closed(2));
        assert_eq!(follows.resume(), []);
    }

    #[test]
    fn a_seat_taken_back_elsewhere_is_watched_not_reclaimed_after_a_reconnect() {
        let token = SeatToken::random();
        let mut follows = Follows::default();
        follows.sent(&join(2, &token));
        follows.received(seated(2, &token));
        follows.received(ServerMsg::SeatTakenBack { room: 2, seat: 0 });
        assert_eq!(follows.resume(), [ClientMsg::Watch { room: 2 }]);
    }

    #[test]
    fn a_seat_taken_back_while_away_comes_to_the_ui_as_taken_back_and_a_closed_room_as_refused() {
        let (a, b) = (SeatToken::random(), SeatToken::random());
        let mut follows = Follows::default();
        for (room, token) in [(2, &a), (3, &b)] {
            follows.sent(&join(room, token));
            follows.received(seated(room, token));
        }
        assert_eq!(follows.resume().len(), 2, "two reclaims");
        let given = follows.received(error(ErrorCode::BadToken));
        assert_eq!(given, ServerMsg::SeatTakenBack { room: 2, seat: 0 });
        let given = follows.received(error(ErrorCode::NoSuchRoom));
        assert_eq!(
            given,
            error(ErrorCode::NoSuchRoom),
            "a room gone is said as it is"
        );
        assert_eq!(follows.resume(), [], "neither seat is reclaimed again");
    }

    #[test]
    fn a_refusal_answers_the_oldest_join_and_other_errors_none() {
        let (a, b) = (SeatToken::random(), SeatToken::random());
        let mut follows = Follows::default();
        follows.sent(&join(1, &a));
        follows.sent(&join(2, &b));
        follows.received(error(ErrorCode::NotYourTurn));
        assert_eq!(follows.resume(), [join(1, &a), join(2, &b)]);
        follows.received(error(ErrorCode::SeatTaken));
        assert_eq!(follows.resume(), [join(2, &b)]);
    }

    fn error(code: ErrorCode) -> ServerMsg {
        ServerMsg::Error {
            code,
            message: String::new(),
        }
    }

    fn state(room: RoomId) -> ServerMsg {
        ServerMsg::State(RoomSnapshot {
            creator: None,
            watchers: Vec::new(),
            room,
            version: 0,
            seats: Vec::new(),
            spectators: 1,
            state: GameSetup::Cave.start().unwrap(),
            moves: Vec::new(),
            plan_ahead: vec![],
            outcome: None,
            record: None,
            again: None,
        })
    }

    #[test]
    fn a_refused_watch_is_not_taken_up_again() {
        for code in [ErrorCode::NoSuchRoom, ErrorCode::LimitReached] {
            let mut follows = Follows::default();
            follows.sent(&ClientMsg::Watch { room: 1 });
            follows.received(error(code));
            assert_eq!(follows.resume(), [], "refused with {code:?}");
        }
    }

    #[test]
    fn a_watch_its_state_answered_outlives_later_errors_and_others_do_not_refuse_it() {
        let mut follows = Follows::default();
        follows.sent(&ClientMsg::Watch { room: 1 });
        follows.received(state(1));
        follows.sent(&ClientMsg::Watch { room: 2 });
        // Not a refusal of a watch: room 2 is still awaited.
        follows.received(error(ErrorCode::NotYourTurn));
        // Refuses room 2, the only watch unanswered, not room 1.
        follows.received(error(ErrorCode::NoSuchRoom));
        follows.received(error(ErrorCode::NoSuchRoom));
        assert_eq!(follows.resume(), [ClientMsg::Watch { room: 1 }]);
    }

    #[test]
    fn a_seat_in_a_room_closed_while_away_is_forgotten_and_takes_no_watch_with_it() {
        let token = SeatToken::random();
        let mut follows = Follows::default();
        follows.sent(&join(5, &token));
        follows.received(seated(5, &token));
        follows.sent(&ClientMsg::Watch { room: 7 });
        follows.received(state(7));
        // Back after room 5 was closed: its reclaim is refused, before room 7's state.
        let resumed = follows.resume();
        assert_eq!(
            resumed,
            [
                ClientMsg::Reclaim {
                    room: 5,
                    token: token.clone()
                },
                ClientMsg::Watch { room: 7 },
            ]
        );
        follows.received(error(ErrorCode::NoSuchRoom));
        follows.received(state(7));
        assert_eq!(follows.resume(), [ClientMsg::Watch { room: 7 }]);
        follows.received(state(7));
        // A reclaim answered by its seat holds against later refusals.
        follows.sent(&ClientMsg::Reclaim {
            room: 5,
            token: token.clone(),
        });
        follows.received(seated(5, &token));
        follows.received(error(ErrorCode::NoSuchRoom));
        assert_eq!(follows.resume().len(), 2);
    }

    #[test]
    fn a_refusal_answers_the_older_of_a_join_and_a_watch() {
        let token = SeatToken::random();
        let mut follows = Follows::default();
        follows.sent(&join(2, &token));
        follows.sent(&ClientMsg::Watch { room: 1 });
        follows.received(error(ErrorCode::NoSuchRoom));
        assert_eq!(follows.resume(), [ClientMsg::Watch { room: 1 }]);
        // A seat-only refusal cannot answer a watch.
        follows.received(error(ErrorCode::SeatTaken));
        assert_eq!(follows.resume(), [ClientMsg::Watch { room: 1 }]);

        let mut follows = Follows::default();
        follows.sent(&ClientMsg::Watch { room: 1 });
        follows.sent(&join(2, &token));
        follows.received(error(ErrorCode::LimitReached));
        assert_eq!(follows.resume(), [join(2, &token)]);
    }

    #[test]
    fn a_watch_sent_again_on_resuming_awaits_its_answer_again() {
        let mut follows = Follows::default();
        follows.sent(&ClientMsg::Watch { room: 1 });
        follows.received(state(1));
        assert_eq!(follows.resume(), [ClientMsg::Watch { room: 1 }]);
        // The room went while the connection was down.
        follows.received(error(ErrorCode::NoSuchRoom));
        assert_eq!(follows.resume(), []);
    }

    #[test]
    fn a_join_without_a_token_of_ours_is_not_repeated() {
        let mut follows = Follows::default();
        follows.sent(&ClientMsg::JoinSeat {
            room: 1,
            seat: 0,
            token: None,
        });
        assert!(follows.resume().is_empty());
    }
}
