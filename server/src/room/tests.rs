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
