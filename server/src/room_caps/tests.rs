use super::*;

/// Player `id` at address 10.0.0.`at`.
fn owner(id: u64, at: u8) -> RoomOwner {
    RoomOwner {
        player: PlayerId(id),
        address: Some([10, 0, 0, at].into()),
    }
}

/// A reservation for one of many players, each at an address of their own, so only the
/// server's caps count.
fn try_reserve(caps: &RoomCaps, kind: RoomKind, limits: &Limits) -> Result<Reservation, Refusal> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let owner = RoomOwner {
        player: PlayerId(id),
        address: Some(IpAddr::from((id as u32).to_be_bytes())),
    };
    caps.reserve(kind, owner, limits, Vec::new)
}

#[test]
fn creations_under_way_count_against_every_cap_until_dropped() {
    let limits = Limits {
        max_rooms: 3,
        max_ai_rooms: 1,
        max_matches: 1,
        ..Limits::default()
    };
    let caps = RoomCaps::default();
    let ai = RoomKind {
        ai: true,
        auto_match: false,
    };
    let auto_match = RoomKind {
        ai: false,
        auto_match: true,
    };
    let first_ai = try_reserve(&caps, ai, &limits).unwrap();
    let refused = try_reserve(&caps, ai, &limits).err().unwrap();
    assert_eq!(refused.0, ErrorCode::ServerBusy);
    assert!(refused.1.contains("AI"), "{}", refused.1);
    let first_match = try_reserve(&caps, auto_match, &limits).unwrap();
    assert!(try_reserve(&caps, auto_match, &limits).is_err());
    let plain = try_reserve(&caps, RoomKind::default(), &limits).unwrap();
    let full = try_reserve(&caps, RoomKind::default(), &limits)
        .err()
        .unwrap();
    assert!(full.1.contains("3 unfinished rooms"), "{}", full.1);
    drop((first_ai, plain));
    // The refusals took nothing: two places are free again, one of them for AI.
    let second_ai = try_reserve(&caps, ai, &limits).unwrap();
    assert!(try_reserve(&caps, RoomKind::default(), &limits).is_ok());
    drop((second_ai, first_match));
    let counted = caps.lock();
    assert_eq!(counted.all, Tally::default());
    assert!(counted.players.is_empty() && counted.addresses.is_empty());
}

#[test]
fn open_rooms_count_until_their_game_is_over() {
    let limits = Limits {
        max_rooms: 2,
        max_ai_rooms: 1,
        ..Limits::default()
    };
    let summary = |seats: Vec<SeatState>, outcome| RoomSummary {
        seats,
        outcome,
        ..crate::room::placeholder_summary(1, GameKind::Cave)
    };
    let ai = SeatState::Ai {
        name: "strong".into(),
        move_ms: 100,
    };
    let caps = RoomCaps::default();
    let ai_room = RoomKind {
        ai: true,
        auto_match: false,
    };
    let someone = owner(1, 1);
    let open_ai = || {
        let room = summary(vec![SeatState::Open, ai.clone()], None);
        vec![Registered::here(room, None)]
    };
    let refused = caps
        .reserve(ai_room, someone, &limits, open_ai)
        .err()
        .unwrap();
    assert!(refused.1.contains("AI"), "{}", refused.1);
    let over = Some(parlor_shared::game::Outcome::Tie);
    let finished_ai = || {
        let room = summary(vec![SeatState::Open, ai.clone()], over);
        vec![Registered::here(room, None)]
    };
    let reserved = caps
        .reserve(ai_room, someone, &limits, finished_ai)
        .unwrap();
    // With that creation under way, one open room fills the cap of two.
    let one_open = || vec![Registered::here(summary(vec![], None), None)];
    let plain = RoomKind::default();
    assert!(caps.reserve(plain, owner(2, 2), &limits, one_open).is_err());
    drop(reserved);
    assert!(caps.reserve(plain, owner(2, 2), &limits, one_open).is_ok());
}

#[test]
fn a_player_and_an_address_keep_their_quota_while_others_go_on() {
    let limits = Limits {
        per_player: RoomQuota {
            rooms: 2,
            ai_rooms: 1,
            matches: 1,
        },
        per_address: RoomQuota {
            rooms: 3,
            ai_rooms: 3,
            matches: 3,
        },
        ..Limits::default()
    };
    let caps = RoomCaps::default();
    let ai = RoomKind {
        ai: true,
        auto_match: false,
    };
    let plain = RoomKind::default();
    let (ada, ada_elsewhere) = (owner(1, 1), owner(1, 9));
    let first = caps.reserve(ai, ada, &limits, Vec::new).unwrap();
    let second_ai = caps
        .reserve(ai, ada_elsewhere, &limits, Vec::new)
        .err()
        .unwrap();
    assert_eq!(second_ai.0, ErrorCode::LimitReached);
    assert!(
        second_ai.1.contains("a player may keep 1 rooms with AI"),
        "{}",
        second_ai.1
    );
    let second = caps
        .reserve(plain, ada_elsewhere, &limits, Vec::new)
        .unwrap();
    assert!(
        caps.reserve(plain, ada, &limits, Vec::new).is_err(),
        "2 rooms a player"
    );
    // New identities at Ada's first address share its quota of 3.
    let bob = caps.reserve(plain, owner(2, 1), &limits, Vec::new).unwrap();
    let carol = caps.reserve(plain, owner(3, 1), &limits, Vec::new).unwrap();
    let dave = caps
        .reserve(plain, owner(5, 1), &limits, Vec::new)
        .err()
        .unwrap();
    assert!(dave.1.contains("one address may keep 3"), "{}", dave.1);
    // Somebody elsewhere is not held up.
    assert!(caps.reserve(ai, owner(4, 4), &limits, Vec::new).is_ok());
    // Open rooms count for their creator and their address, as reservations do.
    drop((first, second, bob, carol));
    let summary = |creator: u64| RoomSummary {
        creator: Some(crate::audience::test_player(creator)),
        ..crate::room::placeholder_summary(creator, GameKind::Cave)
    };
    let from_here = Some(IpAddr::from([10, 0, 0, 1]));
    let open = || {
        vec![
            Registered::here(summary(1), None),
            Registered::here(summary(1), None),
            Registered::here(summary(2), from_here),
        ]
    };
    assert!(
        caps.reserve(plain, owner(1, 5), &limits, open).is_err(),
        "Ada's two"
    );
    assert!(
        caps.reserve(plain, owner(2, 5), &limits, open).is_ok(),
        "Bob's one"
    );
    let crowded = || {
        vec![
            Registered::here(summary(5), from_here),
            Registered::here(summary(6), from_here),
            Registered::here(summary(7), from_here),
        ]
    };
    assert!(caps.reserve(plain, owner(8, 1), &limits, crowded).is_err());

    // Another node's rooms count for their creator and address, not for this server.
    let elsewhere = |creator: u64| Registered {
        room: summary(creator),
        address: from_here,
        here: false,
    };
    let on_other_nodes = || vec![elsewhere(1), elsewhere(1)];
    assert!(
        caps.reserve(plain, owner(1, 5), &limits, on_other_nodes)
            .is_err(),
        "Ada's two, on other nodes"
    );
    let server_cap = Limits {
        max_rooms: 2,
        ..limits.clone()
    };
    let many_elsewhere = || vec![elsewhere(9), elsewhere(10), elsewhere(11)];
    assert!(
        caps.reserve(plain, owner(12, 6), &server_cap, many_elsewhere)
            .is_ok(),
        "the server's cap counts its own rooms"
    );
}

#[test]
fn a_room_taken_over_takes_the_places_of_its_kind() {
    let free = RoomQuota {
        rooms: 2,
        ai_rooms: 1,
        matches: 0,
    };
    let (ai, plain, auto_match) = (
        RoomKind {
            ai: true,
            auto_match: false,
        },
        RoomKind::default(),
        RoomKind {
            ai: false,
            auto_match: true,
        },
    );
    assert!(!auto_match.fits(&free), "no place for a match");
    let left = ai.taken_from(free);
    assert_eq!(
        left,
        RoomQuota {
            rooms: 1,
            ai_rooms: 0,
            matches: 0
        }
    );
    assert!(!ai.fits(&left), "the AI places are taken");
    assert!(plain.fits(&left));
    let none = plain.taken_from(left);
    assert!(!plain.fits(&none));
    assert_eq!(plain.taken_from(none), none, "never below nothing");
}
