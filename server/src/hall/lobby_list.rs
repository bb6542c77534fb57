//! Which open rooms the lobby's list names when there are more than one frame holds.

use parlor_shared::protocol::RoomSummary;

use super::MAX_LISTED_ROOMS;
use crate::frame_fit::fit_in_a_frame;

/// At most [`MAX_LISTED_ROOMS`] of `rooms` (oldest first), in the same order, and no more
/// than one frame holds: past the cap, finished rooms (which only linger a minute for their
/// last watchers) give way first, oldest first, then the oldest unfinished ones. So games
/// that end at once, however many are made, never hide the rooms that wait for players.
pub fn listed(mut rooms: Vec<RoomSummary>) -> Vec<RoomSummary> {
    let mut excess = rooms.len().saturating_sub(MAX_LISTED_ROOMS);
    rooms.retain(|room| {
        let gives_way = excess > 0 && room.outcome.is_some();
        excess -= usize::from(gives_way);
        !gives_way
    });
    rooms.drain(..excess);
    let next_to_go = |left: &[RoomSummary]| {
        let finished = left.iter().position(|room| room.outcome.is_some());
        finished.or((!left.is_empty()).then_some(0))
    };
    fit_in_a_frame(&mut rooms, next_to_go);
    rooms
}

#[cfg(test)]
mod tests {
    use parlor_shared::game::{GameKind, Outcome};

    use super::*;

    fn room(room: u64, finished: bool) -> RoomSummary {
        RoomSummary {
            room,
            game: GameKind::Klotski,
            seats: vec![],
            spectators: 0,
            version: 0,
            moves: 0,
            outcome: finished.then_some(Outcome::Won { seat: 0 }),
            creator: None,
            to_move: None,
            rematch: None,
        }
    }

    fn ids(rooms: &[RoomSummary]) -> Vec<u64> {
        rooms.iter().map(|room| room.room).collect()
    }

    #[test]
    fn finished_rooms_give_way_before_unfinished_ones() {
        let cap = MAX_LISTED_ROOMS as u64;
        // One room waits for players, then a flood of games over as soon as they were made.
        let mut rooms = vec![room(0, false)];
        rooms.extend((1..=cap + 40).map(|id| room(id, true)));
        let shown = listed(rooms);
        assert_eq!(shown.len(), MAX_LISTED_ROOMS);
        assert_eq!(shown[0].room, 0, "the waiting room stays");
        assert_eq!(shown[1].room, 42, "the 41 oldest finished ones went");
        assert_eq!(shown.last().map(|room| room.room), Some(cap + 40));

        // With only unfinished rooms past the cap, the oldest go.
        let shown = listed((0..cap + 3).map(|id| room(id, false)).collect());
        assert_eq!(ids(&shown), (3..cap + 3).collect::<Vec<_>>());

        // A few finished among many unfinished: those go first, then the oldest.
        let mut rooms: Vec<RoomSummary> = (0..cap + 5).map(|id| room(id, false)).collect();
        rooms[10].outcome = Some(Outcome::Tie);
        rooms[20].outcome = Some(Outcome::Tie);
        let shown = ids(&listed(rooms));
        assert_eq!(shown.len(), MAX_LISTED_ROOMS);
        assert!(!shown.contains(&10) && !shown.contains(&20));
        assert_eq!(&shown[..2], &[3, 4]);

        // Under the cap nothing goes.
        assert_eq!(ids(&listed(vec![room(1, true), room(2, false)])), [1, 2]);
    }

    #[test]
    fn the_widest_rooms_are_cut_to_a_frame_finished_first_then_the_oldest() {
        use parlor_shared::codec::{self, Format};
        use parlor_shared::identity::widest_player;
        use parlor_shared::protocol::{RematchRoom, SeatState, ServerMsg};
        let someone = widest_player();
        let widest = |id: u64, finished: bool| RoomSummary {
            creator: Some(someone.clone()),
            seats: vec![
                SeatState::Taken {
                    player: Some(someone.clone()),
                    connected: true
                };
                2
            ],
            rematch: finished.then(|| RematchRoom {
                room: u64::MAX,
                by: someone.clone(),
            }),
            version: u64::MAX,
            ..room(id, finished)
        };
        let mut rooms: Vec<RoomSummary> = (0..MAX_LISTED_ROOMS as u64)
            .map(|id| widest(id, false))
            .collect();
        rooms[150] = widest(150, true);
        let whole = ServerMsg::Rooms {
            rooms: rooms.clone(),
            partial: true,
        };
        assert!(
            codec::encode(&whole, Format::Json).is_err(),
            "too wide to send whole"
        );
        let shown = listed(rooms);
        let message = ServerMsg::Rooms {
            rooms: shown.clone(),
            partial: true,
        };
        for format in [Format::Json, Format::Binary] {
            assert!(codec::encode(&message, format).is_ok(), "{format:?}");
        }
        let ids = ids(&shown);
        assert!(!ids.contains(&150), "the finished room went first");
        assert_eq!(
            ids.last(),
            Some(&(MAX_LISTED_ROOMS as u64 - 1)),
            "then the oldest"
        );
        assert!(ids.windows(2).all(|pair| pair[0] < pair[1]), "in order");
    }
}
