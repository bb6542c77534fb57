use parlor_shared::game::GameSetup;

use super::*;
use crate::audience::TestFollower;

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
    let hall = crate::hall::Hall::new(store.clone(), crate::Limits::default().room_lifetimes());
    let id = hall
        .create_room(
            GameSetup::Cave,
            vec![SeatSpec::Human; 2],
            &crate::audience::test_player(1),
        )
        .await
        .unwrap();
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
