use std::sync::Arc;
use std::time::Duration;

use parlor_shared::game::GameSetup;

use super::*;
use crate::audience::Subscriber;
use crate::outbox::{Outbox, Outgoing};

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
    let outbox = Arc::new(Outbox::default());
    let who = Subscriber {
        id: 1,
        outbox: Arc::clone(&outbox),
    };
    let watch = RoomCommand::Watch {
        who,
        spectator_cap: 10,
    };
    room.inbox.send(watch).await.unwrap();
    room.inbox.send(RoomCommand::Panic).await.unwrap();
    let told = loop {
        let next = tokio::time::timeout(Duration::from_secs(10), outbox.next());
        if let Outgoing::Reply(message) = next.await.expect("told in time") {
            break *message;
        }
    };
    assert!(
        matches!(&told, ServerMsg::RoomClosed { room: 9, message } if message.contains("room 9 failed")),
        "{told:?}"
    );
    assert!(room.inbox.is_closed(), "the hall sees the room gone");
}
