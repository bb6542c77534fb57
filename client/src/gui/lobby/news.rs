//! What the lobby's lists say that is news to the person: a game of theirs that has come to
//! wait for their move, a room another player made to play a game of theirs again. Each list
//! is compared with the one before it; the first list since the lobby was shown is only
//! remembered, since the person saw those games before leaving the lobby.

use std::collections::{HashMap, HashSet};

use parlor_shared::identity::Player;
use parlor_shared::protocol::{HeldSeat, RoomId};

#[derive(Default)]
pub struct LobbyNews {
    /// Our seats whose move the last list said is awaited; `None` before the first list.
    moves_awaited: Option<HashSet<(RoomId, u8)>>,
    /// The rematches made for us that the last list named; `None` before the first list.
    rematches: Option<HashSet<RoomId>>,
}

impl LobbyNews {
    /// The lobby is shown (again): the next lists are only remembered.
    pub fn entered(&mut self) {
        *self = LobbyNews::default();
    }

    /// Our seats arrived: the rooms that have come to wait for our move.
    pub fn my_seats(&mut self, seats: &[HeldSeat]) -> Vec<RoomId> {
        let awaited: HashSet<(RoomId, u8)> = (seats.iter())
            .filter(|held| held.to_move)
            .map(|held| (held.room, held.seat))
            .collect();
        let mut newly: Vec<RoomId> = match &self.moves_awaited {
            Some(before) => awaited.difference(before).map(|(room, _)| *room).collect(),
            None => Vec::new(),
        };
        newly.sort_unstable();
        newly.dedup();
        self.moves_awaited = Some(awaited);
        newly
    }

    /// The rooms arrived, naming the rematches other players have `made` for us (see
    /// `rows::rematches_for`): those made since, each with its maker.
    pub fn rematches(&mut self, made: &HashMap<RoomId, Player>) -> Vec<(RoomId, Player)> {
        let mut newly: Vec<(RoomId, Player)> = match &self.rematches {
            Some(before) => (made.iter())
                .filter(|(room, _)| !before.contains(room))
                .map(|(room, by)| (*room, by.clone()))
                .collect(),
            None => Vec::new(),
        };
        newly.sort_by_key(|(room, _)| *room);
        self.rematches = Some(made.keys().copied().collect());
        newly
    }
}

#[cfg(test)]
mod tests {
    use parlor_shared::game::GameKind;
    use parlor_shared::identity::PlayerId;
    use parlor_shared::protocol::{RematchRoom, RoomSummary, SeatState};

    use super::super::rows::rematches_for;
    use super::*;

    fn held(room: RoomId, to_move: bool) -> HeldSeat {
        HeldSeat {
            room,
            seat: 0,
            game: GameKind::Cave,
            to_move,
            kept: false,
        }
    }

    #[test]
    fn a_game_that_comes_to_wait_for_our_move_is_news_once() {
        let mut news = LobbyNews::default();
        assert!(news.my_seats(&[held(4, true), held(6, false)]).is_empty());
        assert_eq!(news.my_seats(&[held(4, true), held(6, true)]), [6]);
        assert!(news.my_seats(&[held(4, true), held(6, true)]).is_empty());
        news.entered();
        assert!(news.my_seats(&[held(4, true), held(7, true)]).is_empty());
    }

    #[test]
    fn a_rematch_made_for_us_is_news_once() {
        let player = |id, name: &str| Player {
            id: PlayerId(id),
            name: name.into(),
        };
        let (ada, bob) = (player(0xada, "Ada"), player(0xb0b, "Bob"));
        let finished = |room, rematch: Option<RoomId>| RoomSummary {
            room,
            game: GameKind::Cave,
            creator: Some(ada.clone()),
            seats: [&ada, &bob]
                .map(|p| SeatState::Taken {
                    connected: true,
                    player: Some(p.clone()),
                })
                .to_vec(),
            spectators: 0,
            version: 9,
            moves: 9,
            outcome: Some(parlor_shared::game::Outcome::Won { seat: 0 }),
            to_move: None,
            rematch: rematch.map(|room| RematchRoom {
                room,
                by: bob.clone(),
            }),
        };
        let seen = |news: &mut LobbyNews, rooms: &[RoomSummary], me| {
            news.rematches(&rematches_for(rooms, me))
        };
        let mut news = LobbyNews::default();
        assert!(seen(&mut news, &[finished(4, None)], ada.id).is_empty());
        let named = [finished(4, Some(9))];
        assert_eq!(seen(&mut news, &named, ada.id), [(9, bob.clone())]);
        assert!(seen(&mut news, &named, ada.id).is_empty(), "told once");
        let mut bobs = LobbyNews::default();
        seen(&mut bobs, &[finished(4, None)], bob.id);
        assert!(seen(&mut bobs, &named, bob.id).is_empty(), "Bob made it");
    }
}
