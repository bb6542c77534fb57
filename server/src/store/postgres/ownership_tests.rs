//! Rooms owned by one node at a time: two or three stores on one database, each a node.

use std::time::Duration;

use super::PgStore;
use super::ownership::{Fenced, Node};
use super::test_database::TestDatabase;
use crate::store::Backend;
use crate::store::conformance::{block_on, cave, cave_room, game_rows};

fn node(database: &TestDatabase, id: &str, lease_ms: u64) -> PgStore {
    let node = Node {
        id: id.into(),
        lease: Duration::from_millis(lease_ms),
    };
    PgStore::connect_node(&database.url(), node).expect("the node's store opens")
}

fn is_fenced(error: &anyhow::Error) -> bool {
    error.downcast_ref::<Fenced>().is_some()
}

#[test]
fn another_node_takes_a_room_only_once_its_lease_has_run_out_and_the_old_owner_is_fenced() {
    let Some(database) = TestDatabase::create() else {
        return;
    };
    let (a, b) = (node(&database, "a", 300), node(&database, "b", 300));
    let room = a.allocate_room_id().unwrap();
    block_on(async {
        a.insert_room(&cave_room(room)).done().await.unwrap();
        a.append_move(room, 0, cave("a1")).done().await.unwrap();
    });
    assert_eq!(b.claim_room(room).unwrap(), None, "A's lease runs");
    let refused = block_on(b.append_move(room, 1, cave("h8")).done()).unwrap_err();
    assert!(is_fenced(&refused), "B holds no claim: {refused:#}");

    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(b.claim_room(room).unwrap(), Some(2), "A did not renew");
    let refused = block_on(a.append_move(room, 1, cave("b1")).done()).unwrap_err();
    assert!(is_fenced(&refused), "A was taken over: {refused:#}");
    block_on(b.append_move(room, 1, cave("h8")).done()).unwrap();
    assert_eq!(
        a.renew_claims().unwrap(),
        vec![room],
        "A learns it lost the room"
    );

    let rooms = b.load_rooms().unwrap();
    assert_eq!(game_rows(&rooms)[0].moves, vec![cave("a1"), cave("h8")]);
}

#[test]
fn renewed_leases_keep_a_room_and_a_released_one_is_claimable_at_once() {
    let Some(database) = TestDatabase::create() else {
        return;
    };
    let (a, b) = (node(&database, "a", 300), node(&database, "b", 300));
    let room = a.allocate_room_id().unwrap();
    block_on(a.insert_room(&cave_room(room)).done()).unwrap();
    for _ in 0..6 {
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(a.renew_claims().unwrap(), Vec::<u64>::new());
        assert_eq!(b.claim_room(room).unwrap(), None);
    }
    assert!(b.claimable_rooms().unwrap().is_empty());
    a.release_room(room).unwrap();
    assert_eq!(b.claimable_rooms().unwrap(), vec![room]);
    assert_eq!(b.claim_room(room).unwrap(), Some(2));
    let refused = block_on(a.append_move(room, 0, cave("a1")).done()).unwrap_err();
    assert!(is_fenced(&refused), "{refused:#}");
}

#[test]
fn of_nodes_racing_for_one_room_exactly_one_wins() {
    let Some(database) = TestDatabase::create() else {
        return;
    };
    let first = node(&database, "first", 60_000);
    let room = first.allocate_room_id().unwrap();
    block_on(first.insert_room(&cave_room(room)).done()).unwrap();
    first.release_room(room).unwrap();
    let racers: Vec<PgStore> = (0..3)
        .map(|i| node(&database, &format!("racer{i}"), 60_000))
        .collect();
    let won: Vec<bool> = std::thread::scope(|scope| {
        let claims: Vec<_> = racers
            .iter()
            .map(|racer| scope.spawn(move || racer.claim_room(room).unwrap().is_some()))
            .collect();
        claims
            .into_iter()
            .map(|claim| claim.join().unwrap())
            .collect()
    });
    assert_eq!(won.iter().filter(|&&won| won).count(), 1, "{won:?}");
}

#[test]
fn room_ids_given_out_by_several_nodes_never_collide() {
    let Some(database) = TestDatabase::create() else {
        return;
    };
    let nodes: Vec<PgStore> = (0..2)
        .map(|i| node(&database, &format!("n{i}"), 60_000))
        .collect();
    let mut ids: Vec<u64> = std::thread::scope(|scope| {
        let handles: Vec<_> = nodes
            .iter()
            .map(|node| {
                scope.spawn(move || {
                    (0..40)
                        .map(|_| node.allocate_room_id().unwrap())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| handle.join().unwrap())
            .collect()
    });
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 80);
}

#[test]
fn the_only_server_owns_every_room_and_is_not_a_node() {
    let Some(database) = TestDatabase::create() else {
        return;
    };
    let alone = PgStore::connect(&database.url()).unwrap();
    assert!(alone.node().is_none());
    assert!(alone.claim_room(1).is_err(), "claims are a node's");
    block_on(async {
        alone.insert_room(&cave_room(1)).done().await.unwrap();
        alone.append_move(1, 0, cave("a1")).done().await.unwrap();
    });
}

#[test]
fn a_restarted_node_claims_its_rooms_again_and_its_old_self_is_fenced() {
    let Some(database) = TestDatabase::create() else {
        return;
    };
    let old = node(&database, "a", 60_000);
    let room = old.allocate_room_id().unwrap();
    block_on(old.insert_room(&cave_room(room)).done()).unwrap();
    assert!(
        old.claimable_rooms().unwrap().is_empty(),
        "it holds its room"
    );
    // The same node id again, as after a restart, while the old process is only paused.
    let restarted = node(&database, "a", 60_000);
    let other = node(&database, "b", 60_000);
    assert!(
        other.claimable_rooms().unwrap().is_empty(),
        "a's lease runs"
    );
    assert_eq!(
        restarted.claimable_rooms().unwrap(),
        vec![room],
        "its own, not held"
    );
    assert_eq!(
        restarted.claim_room(room).unwrap(),
        Some(2),
        "its own room, lease or not"
    );
    let refused = block_on(old.append_move(room, 0, cave("a1")).done()).unwrap_err();
    assert!(is_fenced(&refused), "an older epoch: {refused:#}");
    block_on(restarted.append_move(room, 0, cave("h8")).done()).unwrap();
}

#[test]
fn a_new_rooms_claim_outlives_a_renewal_before_its_row_is_written_and_a_finished_one_goes() {
    let Some(database) = TestDatabase::create() else {
        return;
    };
    let a = node(&database, "a", 300);
    // A room whose insert is still queued when a renewal runs keeps its claim...
    let room = a.allocate_room_id().unwrap();
    a.fence_new(room);
    assert_eq!(a.renew_claims().unwrap(), Vec::<u64>::new());
    assert_eq!(a.epoch_of(room), Some(1), "kept while its row is to come");
    block_on(a.insert_room(&cave_room(room)).done()).unwrap();
    assert_eq!(a.renew_claims().unwrap(), Vec::<u64>::new());
    block_on(a.append_move(room, 0, cave("a1")).done()).unwrap();
    // ...and a room that finished (its row gone) is let go without being reported as taken.
    block_on(a.forget_room(room).done()).unwrap();
    assert_eq!(a.renew_claims().unwrap(), Vec::<u64>::new());
    assert_eq!(a.epoch_of(room), None);
}
