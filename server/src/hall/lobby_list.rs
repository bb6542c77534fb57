//! Which open rooms the lobby's list names when there are more than it holds (200) or one
//! frame holds. Finished rooms give way first; then no source address takes more than its
//! share, of the places or of the frame, so a few hosts that fill their room quotas cannot
//! hide everybody else's rooms, however long the names they give.

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;

use parlor_shared::protocol::{RoomId, RoomSummary};
use serde::Serialize;

use super::MAX_LISTED_ROOMS;
use crate::frame_fit::fit_in_a_frame;
use crate::room_caps::Registered;

/// At most [`MAX_LISTED_ROOMS`] of `rooms` (oldest first), in the same order, and no more
/// than one frame holds. Past the cap, finished rooms (which only linger a minute for their
/// last watchers) give way first, oldest first, so games that end at once, however many are
/// made, never hide the rooms that wait for players. Then the unfinished rooms are shared out
/// by the source address they were asked for from: each source keeps its newest rooms, up to
/// an equal share of the places (a source with fewer leaves its spare places to the others),
/// and a room of no known address counts as a source of its own. Past a frame, finished rooms
/// that name no rematch go first, then the oldest rooms of the sources whose rooms take the
/// most bytes.
pub fn listed(mut rooms: Vec<Registered>) -> Vec<RoomSummary> {
    let mut excess = rooms.len().saturating_sub(MAX_LISTED_ROOMS);
    rooms.retain(|registered| {
        let gives_way = excess > 0 && registered.room.outcome.is_some();
        excess -= usize::from(gives_way);
        !gives_way
    });
    if excess > 0 {
        let kept = fair_shares(&rooms, MAX_LISTED_ROOMS);
        rooms.retain(|registered| kept.contains(&registered.room.room));
    }
    let mut rooms: Vec<Listed> = rooms.into_iter().map(Listed::from).collect();
    fit_in_a_frame(&mut rooms, next_to_go);
    rooms.into_iter().map(|listed| listed.room).collect()
}

/// Who a room counts against in the list: the source it was asked for from, or itself.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Source {
    Address(IpAddr),
    Unknown(RoomId),
}

impl Source {
    fn of(registered: &Registered) -> Source {
        match registered.address {
            Some(address) => Source::Address(address),
            None => Source::Unknown(registered.room.room),
        }
    }
}

/// A room of the list, sent as its summary alone.
#[derive(Serialize)]
#[serde(transparent)]
struct Listed {
    room: RoomSummary,
    #[serde(skip)]
    source: Source,
}

impl From<Registered> for Listed {
    fn from(registered: Registered) -> Listed {
        Listed {
            source: Source::of(&registered),
            room: registered.room,
        }
    }
}

/// Which room of `left` (oldest first, taking `sizes` bytes each) leaves the list when it
/// does not fit a frame: the oldest finished one that names no rematch (it lingers only for
/// its last watchers), else the oldest of the sources whose rooms take the most of the frame,
/// so that long names cut the list as fairly as its length does and cannot push out the
/// rooms, or the rematch marks, of people with short ones.
fn next_to_go(left: &[Listed], sizes: &[usize]) -> Option<usize> {
    let lingering =
        |listed: &Listed| listed.room.outcome.is_some() && listed.room.rematch.is_none();
    if let Some(finished) = left.iter().position(lingering) {
        return Some(finished);
    }
    let mut taken: HashMap<Source, usize> = HashMap::new();
    for (listed, bytes) in left.iter().zip(sizes) {
        *taken.entry(listed.source).or_default() += bytes;
    }
    let most = taken.values().copied().max()?;
    left.iter()
        .position(|listed| taken[&listed.source] + ABOUT_AS_MUCH >= most)
}

/// How many bytes less than the most a source may take and still count as taking as much,
/// so that among sources that take about the same (a room id one digit longer), the oldest
/// room goes, not the newest.
const ABOUT_AS_MUCH: usize = 512;

/// Which of `rooms` (oldest first) fill `places`: every source gets the same share `share`
/// (the largest that fits, its own rooms if fewer), and the places still free after it go, one
/// each, to the sources with more rooms, those with the newest rooms first (so, all else
/// equal, the oldest rooms give way, as they did before sources were counted). A source keeps
/// its newest rooms. The rooms kept.
fn fair_shares(rooms: &[Registered], places: usize) -> HashSet<RoomId> {
    // Each source's rooms, newest first, the sources in the order of their newest room.
    let mut by_source: Vec<(Source, Vec<RoomId>)> = Vec::new();
    let mut index: HashMap<Source, usize> = HashMap::new();
    for registered in rooms.iter().rev() {
        let at = *index.entry(Source::of(registered)).or_insert_with(|| {
            by_source.push((Source::of(registered), Vec::new()));
            by_source.len() - 1
        });
        by_source[at].1.push(registered.room.room);
    }
    let taken = |share: usize| -> usize {
        (by_source.iter())
            .map(|(_, ids)| ids.len().min(share))
            .sum()
    };
    let largest = by_source
        .iter()
        .map(|(_, ids)| ids.len())
        .max()
        .unwrap_or(0);
    // The largest share that fits: `taken` grows with it, and 0 always fits.
    let (mut share, mut too_large) = (0, largest + 1);
    while too_large - share > 1 {
        let middle = (share + too_large) / 2;
        if taken(middle) <= places {
            share = middle;
        } else {
            too_large = middle;
        }
    }
    let mut spare = places - taken(share);
    let mut kept = HashSet::new();
    for (_, ids) in &by_source {
        let mut allowance = ids.len().min(share);
        if ids.len() > share && spare > 0 {
            allowance += 1;
            spare -= 1;
        }
        kept.extend(&ids[..allowance]);
    }
    kept
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

    /// Rooms of no known address, as rooms stored before addresses were kept.
    fn anonymous(rooms: Vec<RoomSummary>) -> Vec<Registered> {
        let unknown = |room| Registered::here(room, None);
        rooms.into_iter().map(unknown).collect()
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
        let shown = listed(anonymous(rooms));
        assert_eq!(shown.len(), MAX_LISTED_ROOMS);
        assert_eq!(shown[0].room, 0, "the waiting room stays");
        assert_eq!(shown[1].room, 42, "the 41 oldest finished ones went");
        assert_eq!(shown.last().map(|room| room.room), Some(cap + 40));

        // With only unfinished rooms past the cap, the oldest go.
        let shown = listed(anonymous((0..cap + 3).map(|id| room(id, false)).collect()));
        assert_eq!(ids(&shown), (3..cap + 3).collect::<Vec<_>>());

        // A few finished among many unfinished: those go first, then the oldest.
        let mut rooms: Vec<RoomSummary> = (0..cap + 5).map(|id| room(id, false)).collect();
        rooms[10].outcome = Some(Outcome::Tie);
        rooms[20].outcome = Some(Outcome::Tie);
        let shown = ids(&listed(anonymous(rooms)));
        assert_eq!(shown.len(), MAX_LISTED_ROOMS);
        assert!(!shown.contains(&10) && !shown.contains(&20));
        assert_eq!(&shown[..2], &[3, 4]);

        // Under the cap nothing goes.
        assert_eq!(
            ids(&listed(anonymous(vec![room(1, true), room(2, false)]))),
            [1, 2]
        );
    }

    #[test]
    fn a_few_sources_that_fill_their_quotas_hide_nobody_elses_rooms() {
        let from = |host: u8| Some(IpAddr::from([10, 0, 0, host]));
        // Five people's rooms, the oldest; then four hosts make 64 rooms each.
        let mut rooms: Vec<Registered> = (0..5)
            .map(|id| Registered::here(room(id, false), from(100 + id as u8)))
            .collect();
        for made in 0..256u64 {
            let host = (made % 4) as u8;
            rooms.push(Registered::here(room(5 + made, false), from(host)));
        }
        let shown = ids(&listed(rooms));
        assert_eq!(shown.len(), MAX_LISTED_ROOMS);
        assert_eq!(&shown[..5], &[0, 1, 2, 3, 4], "everybody else's rooms stay");
        for host in 0..4u64 {
            let theirs: Vec<u64> = (shown.iter().copied())
                .filter(|&id| id >= 5 && (id - 5) % 4 == host)
                .collect();
            // 195 places for four: 48 each, and the 3 left over one each.
            assert!(
                (48..=49).contains(&theirs.len()),
                "host {host}: {}",
                theirs.len()
            );
            let newest = 5 + 252 + host;
            assert_eq!(theirs.last(), Some(&newest), "a source keeps its newest");
        }
        assert!(
            shown.windows(2).all(|pair| pair[0] < pair[1]),
            "oldest first"
        );
    }

    /// A room as wide as a summary gets: the longest names, the largest numbers.
    fn widest(id: u64, finished: bool) -> RoomSummary {
        use parlor_shared::identity::widest_player;
        use parlor_shared::protocol::{RematchRoom, SeatState};
        let someone = widest_player();
        RoomSummary {
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
        }
    }

    /// Whether `rooms` fit one frame, in both formats.
    fn fit_a_frame(rooms: &[RoomSummary]) -> bool {
        use parlor_shared::codec::{self, Format};
        use parlor_shared::protocol::ServerMsg;
        let message = ServerMsg::Rooms {
            rooms: rooms.to_vec(),
            partial: true,
        };
        [Format::Json, Format::Binary]
            .into_iter()
            .all(|format| codec::encode(&message, format).is_ok())
    }

    #[test]
    fn the_widest_rooms_are_cut_to_a_frame_finished_first_then_the_oldest() {
        let mut rooms: Vec<RoomSummary> = (0..MAX_LISTED_ROOMS as u64)
            .map(|id| widest(id, false))
            .collect();
        rooms[150] = RoomSummary {
            rematch: None,
            ..widest(150, true)
        };
        assert!(!fit_a_frame(&rooms), "too wide to send whole");
        let shown = listed(anonymous(rooms));
        assert!(fit_a_frame(&shown));
        let ids = ids(&shown);
        assert!(!ids.contains(&150), "the finished room went first");
        assert_eq!(
            ids.last(),
            Some(&(MAX_LISTED_ROOMS as u64 - 1)),
            "then the oldest"
        );
        assert!(ids.windows(2).all(|pair| pair[0] < pair[1]), "in order");
    }

    #[test]
    fn hosts_whose_wide_rooms_fill_the_frame_hide_nobody_elses_rooms() {
        let from = |host: u8| Some(IpAddr::from([10, 0, 0, host]));
        // Three people's rooms, the oldest; then two hosts make 64 of the widest rooms each:
        // fewer than the list's places, more than a frame holds.
        let mut rooms: Vec<Registered> = (0..3)
            .map(|id| Registered::here(widest(id, false), from(100 + id as u8)))
            .collect();
        for made in 0..128u64 {
            let host = (made % 2) as u8;
            rooms.push(Registered::here(widest(3 + made, false), from(host)));
        }
        assert!(rooms.len() < MAX_LISTED_ROOMS);
        let every = rooms.iter().map(|r| r.room.clone()).collect::<Vec<_>>();
        assert!(!fit_a_frame(&every), "too wide to send whole");
        let shown = ids(&listed(rooms));
        assert!(shown.len() > 3, "{shown:?}");
        assert_eq!(&shown[..3], &[0, 1, 2], "everybody else's rooms stay");
        let of_host = |host: u64| {
            let theirs = shown.iter().filter(|&&id| id >= 3 && (id - 3) % 2 == host);
            theirs.copied().collect::<Vec<u64>>()
        };
        let (first, second) = (of_host(0), of_host(1));
        assert!(first.len().abs_diff(second.len()) <= 1, "{shown:?}");
        assert_eq!(first.last(), Some(&(3 + 126)), "a source keeps its newest");
        assert_eq!(second.last(), Some(&(3 + 127)));
    }

    #[test]
    fn hosts_with_long_names_lose_their_rooms_before_others_lose_rooms_or_rematch_marks() {
        let from = |host: u8| Some(IpAddr::from([10, 0, 0, host]));
        // A room that waits, a finished one naming its rematch and a finished one that does
        // not; then a host of short names and two of the longest, 64 rooms each.
        let mut rooms = vec![
            Registered::here(widest(0, false), from(100)),
            Registered::here(widest(1, true), from(101)),
            Registered::here(
                RoomSummary {
                    rematch: None,
                    ..widest(2, true)
                },
                from(102),
            ),
        ];
        for made in 0..192u64 {
            let (id, host) = (3 + made, (made % 3) as u8);
            let summary = match host {
                0 => room(id, false),
                _ => widest(id, false),
            };
            rooms.push(Registered::here(summary, from(host)));
        }
        assert!(rooms.len() <= MAX_LISTED_ROOMS);
        let every = rooms.iter().map(|r| r.room.clone()).collect::<Vec<_>>();
        assert!(!fit_a_frame(&every), "too wide to send whole");
        let shown = listed(rooms);
        assert!(fit_a_frame(&shown));
        let shown = ids(&shown);
        assert_eq!(
            &shown[..2],
            &[0, 1],
            "the waiting room and the rematch mark stay"
        );
        assert!(
            !shown.contains(&2),
            "a finished room that marks nothing goes"
        );
        let of_host = |host: u64| {
            (shown.iter())
                .filter(|&&id| id >= 3 && (id - 3) % 3 == host)
                .count()
        };
        assert_eq!(of_host(0), 64, "short names keep every room");
        assert!(
            of_host(1).abs_diff(of_host(2)) <= 1 && of_host(1) < 64,
            "{shown:?}"
        );
    }
}
