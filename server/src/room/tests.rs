use std::time::Duration;

use parlor_shared::game::GameSetup;
use parlor_shared::protocol::SeatState;
use tokio::time::Instant;

use super::*;
use crate::audience::{TestFollower, test_player};
use crate::hall::Hall;
use crate::store::{RoomRow, StoredRoom, unix_now};

#[tokio::test]
async fn followers_of_a_room_whose_task_panics_are_told_it_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    let start = GameSetup::Cave.start().unwrap();
    let init = RoomInit {
        id: 9,
        start: start.clone(),
        seats: vec![SeatSpec::Human; 2],
        seed: 1,
        store: Store::open(dir.path()).unwrap(),
        her: None,
        state: start,
        moves: Vec::new(),
        keys: vec![None; 2],
        players: vec![],
        creator: None,
        creator_address: None,
        unfollowed_since: None,
    };
    let room = spawn_room(init, crate::Limits::default().room_lifetimes());
    let follower = TestFollower::new(1);
    room.inbox.send(follower.watch()).await.unwrap();
    room.inbox.send(RoomCommand::Panic).await.unwrap();
    let told = follower.next_reply().await;
    assert!(
        matches!(&told, ServerMsg::RoomClosed { room: 9, message } if message.contains("room 9 failed")),
        "{told:?}"
    );
    assert!(room.inbox.is_closed(), "the hall sees the room gone");
}

/// A follower's join of `seat`, answered: the token on `Seated`, else the error's code.
async fn join(
    room: &RoomHandle,
    follower: &TestFollower,
    seat: u8,
) -> Result<SeatToken, ErrorCode> {
    let join = RoomCommand::Join {
        seat,
        token: None,
        who: follower.who.clone(),
        spectator_cap: 10,
    };
    room.inbox.send(join).await.unwrap();
    match follower.next_reply().await {
        ServerMsg::Seated { token, .. } => Ok(token),
        ServerMsg::Error { code, .. } => Err(code),
        other => panic!("{other:?}"),
    }
}

/// A move by the holder of `token` on `version`, and the error it got, if any (an accepted
/// move gets no reply, only states: the room's summary shows it).
async fn play(room: &RoomHandle, follower: &TestFollower, token: &SeatToken, version: u64) {
    let mv = RoomCommand::Move {
        token: token.clone(),
        version,
        mv: GameMove::Cave("a1".parse().unwrap()),
        who: follower.who.clone(),
    };
    room.inbox.send(mv).await.unwrap();
}

fn version_of(room: &RoomHandle) -> u64 {
    room.summary.borrow().version
}

#[tokio::test]
async fn a_seat_or_a_move_the_store_refuses_is_refused_changes_nothing_and_works_once_it_is_back() {
    let store = Store::in_memory().unwrap();
    let hall = Hall::new(store.clone(), crate::Limits::default().room_lifetimes());
    let id = people_room(&hall).await;
    let room = hall.room(id).unwrap();
    let person = TestFollower::new(1);

    store.rename_table("rooms", "rooms_away");
    assert_eq!(join(&room, &person, 0).await, Err(ErrorCode::Internal));
    assert_eq!(room.summary.borrow().seats[0], SeatState::Open);
    store.rename_table("rooms_away", "rooms");
    let token = join(&room, &person, 0)
        .await
        .expect("seated once the store is back");

    store.rename_table("room_moves", "room_moves_away");
    play(&room, &person, &token, 0).await;
    let refused = person.next_reply().await;
    assert!(
        matches!(&refused, ServerMsg::Error { code: ErrorCode::Internal, message } if message.contains("could not store the move")),
        "{refused:?}"
    );
    assert_eq!(version_of(&room), 0, "nothing changed");
    store.rename_table("room_moves_away", "room_moves");
    play(&room, &person, &token, 0).await;
    let mut summary = room.summary.clone();
    tokio::time::timeout(
        std::time::Duration::from_secs(10),
        summary.wait_for(|s| s.version == 1),
    )
    .await
    .expect("the same move is taken once the store is back")
    .unwrap();
    let stored = store.load_rooms().unwrap();
    let crate::store::StoredRoom::Game(row) = &stored.rooms[0] else {
        panic!("a game room")
    };
    assert_eq!(row.moves.len(), 1, "stored once");
    assert!(row.keys[0].is_some(), "the seat's token is stored");
}

/// Tells room `id` that its creator, test player 1, goes by "Ada L" now, and waits (10 s at
/// most) until the store holds the room's creator under that name, as a restart would read
/// it: the creator stored.
pub(crate) async fn creator_stored_after_a_rename(
    hall: &Hall,
    store: &Store,
    id: RoomId,
) -> parlor_shared::identity::Player {
    let mut renamed = TestFollower::new(1);
    renamed.who.player.name = "Ada L".into();
    let room = hall.room(id).unwrap();
    room.inbox
        .send(RoomCommand::Renamed { who: renamed.who })
        .await
        .unwrap();
    let stored = async {
        loop {
            let rooms = store.load_rooms().unwrap().rooms;
            let creator = match rooms.first() {
                Some(crate::store::StoredRoom::Game(row)) => row.creator.clone(),
                Some(crate::store::StoredRoom::Match(row)) => row.creator.clone(),
                None => None,
            };
            if let Some(creator) = creator.filter(|creator| creator.name == "Ada L") {
                return creator;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(10), stored)
        .await
        .expect("stored in time")
}

#[tokio::test]
async fn a_creator_back_under_a_new_name_is_stored_by_it() {
    let store = Store::in_memory().unwrap();
    let hall = Hall::new(store.clone(), crate::Limits::default().room_lifetimes());
    let creator = crate::audience::test_player(1);
    let id = hall
        .create_room(GameSetup::Cave, vec![SeatSpec::Human; 2], &creator)
        .await
        .unwrap();
    let stored = creator_stored_after_a_rename(&hall, &store, id).await;
    assert_eq!(stored.id, creator.id);
}

#[tokio::test]
async fn players_see_spectators_come_and_go_within_a_second_with_one_state_for_many() {
    let hall = Hall::new(
        Store::in_memory().unwrap(),
        crate::Limits::default().room_lifetimes(),
    );
    let creator = crate::audience::test_player(1);
    let seats = vec![SeatSpec::Human; 2];
    let id = hall
        .create_room(GameSetup::Cave, seats, &creator)
        .await
        .unwrap();
    let room = hall.room(id).unwrap();
    let person = TestFollower::new(1);
    join(&room, &person, 0).await.unwrap();
    let settle = views::SPECTATORS_SHOWN_WITHIN + Duration::from_millis(500);
    assert_eq!(
        person.spectator_counts(settle).await,
        [0],
        "the seat's own state"
    );

    // Five spectators in a burst: the person sees them all, in one state, not five.
    let spectators: Vec<TestFollower> = (2..7).map(TestFollower::new).collect();
    for spectator in &spectators {
        room.inbox.send(spectator.watch()).await.unwrap();
    }
    assert_eq!(person.spectator_counts(settle).await, [5]);

    // One leaves: shown too, though nothing else changed.
    let leave = RoomCommand::Leave {
        who: spectators[0].who.clone(),
    };
    room.inbox.send(leave).await.unwrap();
    assert_eq!(person.spectator_counts(settle).await, [4]);
    // And nothing more while nothing changes.
    assert_eq!(person.spectator_counts(settle).await, Vec::<u32>::new());
}

/// Lifetimes whose abandoned time is `abandoned_after`.
fn abandoned_after(abandoned_after: Duration) -> RoomLifetimes {
    RoomLifetimes {
        abandoned_after,
        ..crate::Limits::default().room_lifetimes()
    }
}

/// A Magnetic Cave room for two people, created by test player 1.
pub(crate) async fn people_room(hall: &Hall) -> RoomId {
    let player = crate::audience::test_player(1);
    let created = hall.create_room(GameSetup::Cave, vec![SeatSpec::Human; 2], &player);
    created.await.unwrap()
}

/// A room of Magnetic Cave's standard AIs against each other, 100 ms a move: some 30 moves and
/// more, each a command in the room.
async fn ais_room(hall: &Hall) -> RoomId {
    let player = crate::audience::test_player(1);
    let ai = SeatSpec::ai(100);
    let created = hall.create_room(GameSetup::Cave, vec![ai; 2], &player);
    created.await.unwrap()
}

/// Waits until room `id` has closed, which must not be sooner than `after` past `since`.
async fn closes_in_its_time(hall: &Hall, id: RoomId, since: Instant, after: Duration) {
    crate::eventually("the room never closed", || hall.room(id).is_none()).await;
    assert!(since.elapsed() >= after, "room {id} closed before its time");
}

/// The rooms the store would bring back.
fn stored_ids(store: &Store) -> Vec<RoomId> {
    let unfinished = store.load_rooms().unwrap();
    (unfinished.rooms.iter())
        .map(|room| match room {
            StoredRoom::Game(row) => row.id,
            StoredRoom::Match(row) => row.id,
        })
        .collect()
}

#[tokio::test]
async fn a_room_of_ais_nobody_follows_closes_after_the_abandoned_time_though_its_ais_play_on() {
    let store = Store::in_memory().unwrap();
    let lifetimes = abandoned_after(Duration::from_millis(800));
    let hall = Hall::new(store.clone(), lifetimes);
    let created = Instant::now();
    let (unfollowed, watched) = (ais_room(&hall).await, ais_room(&hall).await);
    let watcher = TestFollower::new(1);
    let watch = watcher.watch();
    hall.room(watched).unwrap().inbox.send(watch).await.unwrap();
    let summary = hall.room(unfollowed).unwrap().summary;

    closes_in_its_time(&hall, unfollowed, created, lifetimes.abandoned_after).await;
    let last = summary.borrow().clone();
    assert!(last.moves >= 3 && last.outcome.is_none(), "{last:?}");
    crate::eventually("the store still has the room", || {
        stored_ids(&store) == [watched]
    })
    .await;
    let followed = hall.room(watched).expect("a followed room stays open");
    assert!(followed.summary.borrow().moves >= 3);
}

#[tokio::test]
async fn a_room_closes_the_abandoned_time_after_its_last_follower_left() {
    let store = Store::in_memory().unwrap();
    let lifetimes = abandoned_after(Duration::from_millis(600));
    let hall = Hall::new(store, lifetimes);
    let (player, follower) = (crate::audience::test_player(1), TestFollower::new(1));
    let created = hall.create_room(GameSetup::Cave, vec![SeatSpec::Human; 2], &player);
    let id = created.await.unwrap();
    let room = hall.room(id).unwrap();
    room.inbox.send(follower.watch()).await.unwrap();
    // Longer than the abandoned time from the room's creation.
    tokio::time::sleep(lifetimes.abandoned_after + Duration::from_millis(300)).await;
    assert!(hall.room(id).is_some(), "a followed room stays open");

    let left = Instant::now();
    let leave = RoomCommand::Leave {
        who: follower.who.clone(),
    };
    room.inbox.send(leave).await.unwrap();
    closes_in_its_time(&hall, id, left, lifetimes.abandoned_after).await;
}

/// A room of Magnetic Cave with two open seats and no move, as stored with `since` (unix
/// seconds) as the time since when nobody follows it.
pub(crate) fn cave_row(id: RoomId, since: Option<u64>) -> RoomRow {
    RoomRow {
        id,
        start: GameSetup::Cave.start().unwrap(),
        seats: vec![SeatSpec::Human; 2],
        keys: vec![None; 2],
        players: vec![],
        creator: None,
        address: None,
        seed: id,
        her: None,
        moves: vec![],
        unfollowed_since: since,
    }
}

#[tokio::test]
async fn a_restart_goes_on_with_the_time_a_room_had_gone_unfollowed() {
    let store = Store::in_memory().unwrap();
    let now = unix_now();
    // Unfollowed for 2 minutes when the server stopped; for 10 s; followed.
    let rows = [
        cave_row(1, Some(now - 120)),
        cave_row(2, Some(now - 10)),
        cave_row(3, None),
    ];
    for row in &rows {
        store.insert_room(row).done().await.unwrap();
    }
    let lifetimes = abandoned_after(Duration::from_secs(60));
    let hall = Hall::restore(store.clone(), lifetimes).unwrap();
    crate::eventually("a room past its abandoned time was kept", || {
        hall.room(1).is_none() && stored_ids(&store) == [2, 3]
    })
    .await;
    assert!(hall.room(2).is_some() && hall.room(3).is_some());
    // A room followed when the server stopped lost its followers then: its time starts now,
    // and a later restart goes on from there.
    crate::eventually("the restart was not stored as room 3's start", || {
        let unfinished = store.load_rooms().unwrap();
        matches!(&unfinished.rooms[1], StoredRoom::Game(row)
            if row.id == 3 && row.unfollowed_since.is_some_and(|since| since >= now))
    })
    .await;
}

#[tokio::test]
async fn a_move_sent_as_its_room_was_closed_hears_why_it_closed_first() {
    let store = Store::in_memory().unwrap();
    let hall = Hall::new(store, crate::Limits::default().room_lifetimes());
    let id = people_room(&hall).await;
    let room = hall.room(id).unwrap();
    let (creator, opponent) = (TestFollower::new(1), TestFollower::new(2));
    join(&room, &creator, 0).await.unwrap();
    let token = join(&room, &opponent, 1).await.unwrap();
    // Both are in the inbox before the room runs again: the move comes in behind the close.
    let close = RoomCommand::Close {
        who: creator.who.clone(),
    };
    room.inbox.send(close).await.unwrap();
    play(&room, &opponent, &token, 0).await;
    let told = opponent.next_reply().await;
    assert!(
        matches!(&told, ServerMsg::RoomClosed { message, .. } if message.contains("was closed by its creator")),
        "{told:?}"
    );
}

#[tokio::test]
async fn a_kept_seat_is_its_players_alone_and_stays_kept_after_a_restart() {
    let store = Store::in_memory().unwrap();
    let lifetimes = crate::Limits::default().room_lifetimes();
    let hall = Hall::new(store.clone(), lifetimes);
    let kept = [test_player(1), test_player(2)];
    let creation = crate::cluster::Creation {
        setup: GameSetup::Cave,
        seats: vec![SeatSpec::Human; 2],
        creator: test_player(1),
        address: None,
        kept: kept.iter().cloned().map(Some).collect(),
    };
    let id = hall.create_room_from(creation).await.unwrap();
    let restarted = Hall::restore(store, lifetimes).unwrap();
    let room = restarted.room(id).expect("restored");
    let shown = room.summary.borrow().seats.clone();
    let kept_for = |player: &Player| SeatState::Kept {
        player: player.clone(),
    };
    assert_eq!(shown, vec![kept_for(&kept[0]), kept_for(&kept[1])]);
    let stranger = TestFollower::new(3);
    for seat in 0..2 {
        assert_eq!(
            join(&room, &stranger, seat).await,
            Err(ErrorCode::SeatTaken)
        );
    }
    let (first, second) = (TestFollower::new(1), TestFollower::new(2));
    assert_eq!(join(&room, &second, 0).await, Err(ErrorCode::SeatTaken));
    join(&room, &second, 1).await.expect("kept for player 2");
    join(&room, &first, 0).await.expect("kept for player 1");
}

/// A seat a rematch keeps, its player not come within the abandoned time, is open to anybody,
/// and stays open after a restart.
#[tokio::test]
async fn a_seat_kept_past_the_abandoned_time_is_open_to_anybody() {
    let store = Store::in_memory().unwrap();
    let lifetimes = abandoned_after(Duration::from_millis(500));
    let hall = Hall::new(store.clone(), lifetimes);
    let creation = crate::cluster::Creation {
        setup: GameSetup::Cave,
        seats: vec![SeatSpec::Human; 2],
        creator: test_player(1),
        address: None,
        kept: vec![Some(test_player(1)), Some(test_player(2))],
    };
    let id = hall.create_room_from(creation).await.unwrap();
    let room = hall.room(id).unwrap();
    // The maker takes their seat and stays, so that the room stays open.
    let maker = TestFollower::new(1);
    join(&room, &maker, 0).await.expect("kept for the maker");
    let stranger = TestFollower::new(3);
    assert_eq!(join(&room, &stranger, 1).await, Err(ErrorCode::SeatTaken));
    let opened = || room.summary.borrow().seats[1] == SeatState::Open;
    assert!(!opened(), "kept at first");
    crate::eventually("the kept seat opened", opened).await;
    let restarted = Hall::restore(store, lifetimes).unwrap();
    let restored = restarted.room(id).unwrap();
    let shown = restored.summary.borrow().seats.clone();
    assert_eq!(shown[1], SeatState::Open, "stored open");
    join(&restored, &stranger, 1)
        .await
        .expect("open to anybody");
}

/// A Numeric Klotski room for one person, two slides from solved, made by test player 1: its
/// id and setup.
async fn puzzle_room(hall: &Hall) -> (RoomId, GameSetup) {
    use parlor_shared::klotski::{KlotskiBoard, parse_puzzle};
    let board = KlotskiBoard::of(&parse_puzzle("2 3\n1 2 3\n0 4 5\n0\n").unwrap());
    let setup = GameSetup::Klotski(board);
    let maker = test_player(1);
    let created = hall.create_room(setup.clone(), vec![SeatSpec::Human], &maker);
    (created.await.unwrap(), setup)
}

#[tokio::test]
async fn a_room_naming_a_rematch_closes_at_last_though_it_never_hears_the_rematch_closed() {
    use parlor_shared::game::GameMove;
    use parlor_shared::klotski::{GiveUpReason, KlotskiMove};
    let store = Store::in_memory().unwrap();
    let lifetimes = RoomLifetimes {
        linger: Duration::from_millis(100),
        ..abandoned_after(Duration::from_millis(800))
    };
    let hall = Hall::new(store, lifetimes);
    let (id, setup) = puzzle_room(&hall).await;
    let room = hall.room(id).unwrap();
    let player = TestFollower::new(1);
    let token = join(&room, &player, 0).await.unwrap();
    let give_up = RoomCommand::Move {
        token,
        version: version_of(&room),
        mv: GameMove::Klotski(KlotskiMove::GiveUp(GiveUpReason::Player)),
        who: player.who.clone(),
    };
    room.inbox.send(give_up).await.unwrap();
    let mut summary = room.summary.clone();
    summary.wait_for(|s| s.outcome.is_some()).await.unwrap();
    // Past the linger, the player plays again, then goes; the word that the rematch closed is
    // lost (room 999 is nowhere: its maker's node went with it).
    tokio::time::sleep(lifetimes.linger * 3).await;
    let made = PlayedAgain {
        rematch: 999,
        setup,
        seats: vec![SeatSpec::Human],
        replacing: None,
    };
    let named = Instant::now();
    let who = player.who.clone();
    room.inbox
        .send(RoomCommand::PlayedAgain { made, who })
        .await
        .unwrap();
    summary.wait_for(|s| s.rematch.is_some()).await.unwrap();
    let who = player.who.clone();
    room.inbox.send(RoomCommand::Leave { who }).await.unwrap();
    tokio::time::sleep(lifetimes.linger * 3).await;
    assert!(
        hall.room(id).is_some(),
        "it stays for the rematch, however late it came"
    );
    closes_in_its_time(&hall, id, named, lifetimes.abandoned_after).await;
}
