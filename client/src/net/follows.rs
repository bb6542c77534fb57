//! What a connection follows, to take it up again after a reconnect: the seats it holds (from
//! `Seated`), the rooms it watches (from the `Watch`es it sent; `Leave` forgets a room), and
//! the `JoinSeat`s it sent whose answer has not come. Pure bookkeeping of the messages that
//! pass, so the network thread's reconnects are tested without a network.

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
}

#[derive(Default)]
pub struct Follows {
    rooms: BTreeMap<RoomId, Room>,
    /// Oldest first.
    joins: VecDeque<Join>,
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

impl Follows {
    /// Notes a request sent to the server.
    pub fn sent(&mut self, request: &ClientMsg) {
        match request {
            ClientMsg::Watch { room } => self.rooms.entry(*room).or_default().watching = true,
            ClientMsg::Leave { room } => self.forget(*room),
            // A join without a token of ours cannot be repeated safely: it is not noted.
            ClientMsg::JoinSeat {
                room,
                seat,
                token: Some(token),
            } => self.joins.push_back(Join {
                room: *room,
                seat: *seat,
                token: token.clone(),
            }),
            _ => {}
        }
    }

    /// Notes a message from the server: the seat a `Seated` gives and the join it answers. A
    /// refusal answers the oldest join: each room answers its joins in order, and in the rare
    /// mix-up with a refusal of another request a join is only forgotten, not sent again.
    pub fn received(&mut self, message: &ServerMsg) {
        match message {
            ServerMsg::Seated { room, seat, token } => {
                let seats = &mut self.rooms.entry(*room).or_default().seats;
                seats.retain(|(held, _)| held != seat);
                seats.push((*seat, token.clone()));
                self.joins.retain(|join| join.token != *token);
            }
            ServerMsg::Error { code, .. } if refuses_a_join(*code) => {
                self.joins.pop_front();
            }
            // A room that failed on the server: there is nothing to take up again.
            ServerMsg::RoomClosed { room, .. } => self.forget(*room),
            _ => {}
        }
    }

    fn forget(&mut self, room: RoomId) {
        self.rooms.remove(&room);
        self.joins.retain(|join| join.room != room);
    }

    /// The requests that take everything up again on a new connection: `Reclaim` for every
    /// seat held, `Watch` for every room only watched, and every unanswered `JoinSeat` again
    /// as it was (the server answers a repeat with the seat it gave).
    pub fn resume(&self) -> Vec<ClientMsg> {
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
        follows.received(&seated(3, &b));
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
        follows.received(&seated(2, &token));
        let closed = |room| ServerMsg::RoomClosed {
            room,
            message: String::new(),
        };
        follows.received(&closed(1));
        follows.received(&closed(2));
        assert_eq!(follows.resume(), []);
    }

    #[test]
    fn a_refusal_answers_the_oldest_join_and_other_errors_none() {
        let (a, b) = (SeatToken::random(), SeatToken::random());
        let mut follows = Follows::default();
        follows.sent(&join(1, &a));
        follows.sent(&join(2, &b));
        let error = |code| ServerMsg::Error {
            code,
            message: String::new(),
        };
        follows.received(&error(ErrorCode::NotYourTurn));
        assert_eq!(follows.resume(), [join(1, &a), join(2, &b)]);
        follows.received(&error(ErrorCode::SeatTaken));
        assert_eq!(follows.resume(), [join(2, &b)]);
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
