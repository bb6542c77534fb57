//! The lobby's rows: their buttons, marks and hints, without a window.

use parlor_shared::identity::Player;

use super::*;

#[test]
fn our_games_give_up_lines_to_the_space_they_have_but_keep_one() {
    let rows = |n: f32| n * MY_SEAT_ROW;
    assert_eq!(my_seats_shown(2, rows(2.0)), 2, "all fit, no line for more");
    assert_eq!(
        my_seats_shown(5, rows(4.0)),
        3,
        "three and the line for more"
    );
    assert_eq!(
        my_seats_shown(5, rows(3.0)),
        2,
        "the line for more takes a row's room"
    );
    assert_eq!(my_seats_shown(3, rows(2.5)), 1);
    assert_eq!(my_seats_shown(4, 0.0), 1, "one at least");
}

#[test]
fn without_a_server_the_lists_say_not_connected() {
    assert_eq!(rooms_heading(0, false, false), "Rooms");
    assert_eq!(rooms_heading(3, true, false), "Rooms (3)");
    assert_eq!(rooms_heading(3, false, false), format!("Rooms {STALE}"));
    assert_eq!(rooms_heading(3, false, true), format!("Rooms {STALE}"));
    assert_eq!(empty_rooms_text(false), "(not connected)");
    assert_eq!(empty_records_text(false), "(not connected)");
    assert!(empty_rooms_text(true).contains("create one"));
    assert!(empty_records_text(true).contains("none yet"));
}

#[test]
fn a_partial_list_says_the_rooms_of_other_servers_are_missing() {
    assert_eq!(
        rooms_heading(3, true, true),
        "Rooms (3; other servers out of reach)"
    );
}

fn texts(buttons: &[(String, LobbyAction)]) -> Vec<&str> {
    buttons.iter().map(|(text, _)| text.as_str()).collect()
}

fn player(id: u64, name: &str) -> Player {
    Player {
        id: PlayerId(id),
        name: name.into(),
    }
}

fn ada() -> Player {
    player(0xada, "Ada")
}

/// Room `room`: a Cave game Ada made, in which she sits as Black (`connected` or not) and
/// waits for somebody to take White.
fn ada_waits(room: RoomId, connected: bool) -> RoomSummary {
    RoomSummary {
        room,
        game: GameKind::Cave,
        creator: Some(ada()),
        seats: vec![
            SeatState::Taken {
                connected,
                player: Some(ada()),
            },
            SeatState::Open,
        ],
        spectators: 0,
        version: 3,
        moves: 2,
        outcome: None,
        to_move: None,
        rematch: None,
    }
}

#[test]
fn only_the_creator_of_an_unfinished_room_may_close_it() {
    let ada = ada();
    let mut room = ada_waits(6, false);
    let mine = room_buttons(&room, &[], Some(ada.id), "Close");
    let seat = |seat| describe::game_seat_name(GameKind::Cave, seat);
    let expected = [
        format!("Resume {}", seat(0)),
        format!("Also play {}", seat(1)),
        "Close".into(),
        "Watch".into(),
    ];
    assert_eq!(texts(&mine), expected);
    assert_eq!(mine[2].1, LobbyAction::Close(6));
    let armed = room_buttons(&room, &[], Some(ada.id), "Sure? Close");
    assert!(texts(&armed).contains(&"Sure? Close"));

    let theirs = room_buttons(&room, &[], Some(PlayerId(0xb0b)), "Close");
    assert!(!texts(&theirs).contains(&"Close"), "{:?}", texts(&theirs));
    room.creator = None;
    assert!(!texts(&room_buttons(&room, &[], Some(ada.id), "Close")).contains(&"Close"));

    room.creator = Some(ada.clone());
    room.outcome = Some(parlor_shared::game::Outcome::Tie);
    // A finished room is opened by its player (Play again is hers, this window's token for
    // her seat gone or not), watched by anybody else.
    let over = room_buttons(&room, &[], Some(ada.id), "Close");
    assert_eq!(texts(&over), ["Open"]);
    assert_eq!(over[0].1, LobbyAction::Watch(6));
    let over = room_buttons(&room, &[], Some(PlayerId(0xb0b)), "Close");
    assert_eq!(texts(&over), ["Watch"]);
}

#[test]
fn a_rematch_is_marked_for_the_other_players_of_its_game_only() {
    let (ada, bob, cy) = (ada(), player(0xb0b, "Bob"), player(0xc1, "Cy"));
    let taken = |player: &Player| SeatState::Taken {
        connected: true,
        player: Some(player.clone()),
    };
    let finished = |room, rematch: Option<(RoomId, &Player)>| RoomSummary {
        room,
        game: GameKind::Cave,
        creator: Some(ada.clone()),
        seats: vec![taken(&ada), taken(&bob)],
        spectators: 0,
        version: 9,
        moves: 9,
        outcome: Some(parlor_shared::game::Outcome::Won { seat: 0 }),
        to_move: None,
        rematch: rematch.map(|(room, by)| parlor_shared::protocol::RematchRoom {
            room,
            by: by.clone(),
        }),
    };
    let rooms = [
        finished(4, Some((7, &bob))),
        finished(5, Some((8, &ada))),
        finished(6, None),
    ];
    assert_eq!(
        rematches_for(&rooms, ada.id),
        HashMap::from([(7, bob.clone())])
    );
    assert_eq!(
        rematches_for(&rooms, bob.id),
        HashMap::from([(8, ada.clone())])
    );
    assert!(rematches_for(&rooms, cy.id).is_empty(), "Cy played in none");

    // The rematch's row says so while its seat is open, and no longer once it is taken.
    let mut made = RoomSummary {
        room: 7,
        creator: Some(bob.clone()),
        seats: vec![taken(&bob), SeatState::Open],
        outcome: None,
        to_move: None,
        rematch: None,
        ..rooms[0].clone()
    };
    assert_eq!(room_status(&made, true, false).0, "waits to play you again");
    assert_eq!(room_status(&made, false, false).0, "open seat");
    made.seats[1] = taken(&cy);
    assert_eq!(room_status(&made, true, false).0, "in play");
    assert_eq!(room_status(&made, false, true).0, "your move");

    // Kept for Ada, the seat is hers to join, and nobody else's.
    made.seats[1] = SeatState::Kept {
        player: ada.clone(),
    };
    assert_eq!(room_status(&made, true, false).0, "waits to play you again");
    assert_eq!(room_status(&made, false, false).0, "waits for its players");
    let white = describe::game_seat_name(GameKind::Cave, 1);
    let adas = room_buttons(&made, &[], Some(ada.id), "Close");
    assert_eq!(texts(&adas), [format!("Join {white}").as_str(), "Watch"]);
    let cys = room_buttons(&made, &[], Some(cy.id), "Close");
    assert_eq!(texts(&cys), ["Watch"]);
}

#[test]
fn a_seat_held_in_this_window_is_resumed_like_one_held_elsewhere() {
    let room = RoomSummary {
        room: 4,
        game: GameKind::Cave,
        creator: None,
        seats: vec![SeatState::Open; 2],
        spectators: 0,
        version: 1,
        moves: 0,
        outcome: None,
        to_move: None,
        rematch: None,
    };
    let held = |seat| HeldSeat {
        seat,
        token: parlor_shared::protocol::SeatToken::random(),
    };
    let one = room_buttons(&room, &[held(1)], None, "Close");
    let [black, white] = [0, 1].map(|seat| describe::game_seat_name(GameKind::Cave, seat));
    assert_eq!(
        texts(&one).last(),
        Some(&format!("Resume {white}").as_str())
    );
    // The open seat is offered as what it is: the person would play both sides.
    assert_eq!(texts(&one)[0], format!("Also play {black}"));
    assert_eq!(one.last().unwrap().1, LobbyAction::ResumeHeld(4));
    let both = room_buttons(&room, &[held(0), held(1)], None, "Close");
    assert_eq!(texts(&both).last(), Some(&"Resume"));
    assert!(!texts(&both).contains(&"Watch"), "{:?}", texts(&both));
    let over = RoomSummary {
        outcome: Some(parlor_shared::game::Outcome::Tie),
        ..room
    };
    let open = room_buttons(&over, &[held(1)], None, "Close");
    assert_eq!(texts(&open), ["Open"]);
    assert_eq!(open[0].1, LobbyAction::ResumeHeld(4));
}

#[test]
fn a_game_of_ours_that_waits_for_our_move_says_so() {
    let mut mine = parlor_shared::protocol::HeldSeat {
        room: 3,
        seat: 1,
        game: GameKind::Cave,
        to_move: true,
        kept: false,
    };
    let white = describe::game_seat_name(GameKind::Cave, 1);
    let (line, color) = my_seat_line(&mine);
    assert_eq!(line, format!("#3 Magnetic Cave, {white}: your move"));
    assert_eq!(color, GOOD_TEXT);
    mine.to_move = false;
    assert_eq!(
        my_seat_line(&mine),
        (format!("#3 Magnetic Cave, {white}"), TEXT)
    );
    // A seat a rematch keeps for us, not taken yet.
    mine.kept = true;
    assert_eq!(
        my_seat_line(&mine),
        (
            format!("#3 Magnetic Cave, {white}: kept for you"),
            GOOD_TEXT
        )
    );
}

#[test]
fn games_that_wait_for_our_move_come_first_and_are_marked_in_the_rooms_too() {
    let held = |room, to_move| parlor_shared::protocol::HeldSeat {
        room,
        seat: 0,
        game: GameKind::Cave,
        to_move,
        kept: false,
    };
    let mut mine = [held(1, false), held(2, true), held(3, false), held(4, true)];
    let order: Vec<RoomId> = waiting_first(&mine).iter().map(|m| m.room).collect();
    assert_eq!(order, [2, 4, 1, 3]);
    // A seat kept for us comes after the games that wait for our move, before the others.
    mine[2].kept = true;
    let order: Vec<RoomId> = waiting_first(&mine).iter().map(|m| m.room).collect();
    assert_eq!(order, [2, 4, 3, 1]);

    let ada = ada();
    let mut room = RoomSummary {
        to_move: Some(0),
        ..ada_waits(5, true)
    };
    assert!(waits_for_me(&room, &[], Some(ada.id)));
    assert!(!waits_for_me(&room, &[], Some(PlayerId(0xb0b))));
    room.to_move = Some(1);
    assert!(
        !waits_for_me(&room, &[], Some(ada.id)),
        "the open seat's move"
    );
    room.to_move = Some(7);
    assert!(!waits_for_me(&room, &[], Some(ada.id)), "no such seat");
}

/// A stored Cave game of these seats and players.
fn stored(seats: &[String], players: Vec<Option<PlayerId>>) -> RecordSummary {
    RecordSummary {
        id: 9,
        game: GameKind::Cave,
        seats: seats.to_vec(),
        players,
        outcome: parlor_shared::game::Outcome::Tie,
        moves: 30,
        finished_at: 0,
    }
}

#[test]
fn a_stored_game_calls_our_seat_you() {
    let seats = [ada().label(), "AI 1 s (strong)".to_string()];
    let record = stored(&seats, vec![Some(ada().id), None]);
    assert_eq!(
        players_line(&record, Some(&ada())),
        "you vs AI 1 s (strong)"
    );
    assert_eq!(
        players_line(&record, Some(&player(0xb0b, "Bob"))),
        seats.join(" vs ")
    );
    assert_eq!(players_line(&record, None), seats.join(" vs "));
}

#[test]
fn a_stored_game_is_ours_by_id_after_a_rename_and_by_label_when_stored_without_ids() {
    let seats = [ada().label(), player(0xb0b, "Bob").label()];
    let renamed = Player {
        name: "Ada Lovelace".into(),
        ..ada()
    };
    let record = stored(&seats, vec![Some(ada().id), Some(PlayerId(0xb0b))]);
    assert_eq!(
        players_line(&record, Some(&renamed)),
        format!("you vs {}", seats[1])
    );
    // Another player who took the same name and whose id starts alike is not us.
    let namesake = Player {
        id: PlayerId(ada().id.0 ^ 1),
        ..ada()
    };
    assert_eq!(
        namesake.label(),
        ada().label(),
        "the labels alone cannot tell"
    );
    assert_eq!(players_line(&record, Some(&namesake)), seats.join(" vs "));
    // Stored before ids were kept: the label is all there is.
    let old = stored(&seats, vec![None, None]);
    assert_eq!(
        players_line(&old, Some(&ada())),
        format!("you vs {}", seats[1])
    );
    assert_eq!(players_line(&old, Some(&renamed)), seats.join(" vs "));
    // A list of players that does not fit the seats names nobody wrongly.
    let short = stored(&seats, vec![Some(PlayerId(0xb0b))]);
    assert_eq!(
        players_line(&short, Some(&ada())),
        format!("you vs {}", seats[1])
    );
}

#[test]
fn a_narrow_row_leaves_out_seat_names_no_other_button_needs() {
    let button = |text: &str| (text.to_string(), LobbyAction::Watch(1));
    let ours = vec![
        button("Also play White"),
        button("Close"),
        button("Resume Black"),
    ];
    let short = without_needless_seat_names(ours);
    assert_eq!(texts(&short), ["Also play", "Close", "Resume"]);
    // Two seats to join: each keeps its name, or the two would read alike.
    let open = vec![button("Join Black"), button("Join White"), button("Watch")];
    let kept = without_needless_seat_names(open);
    assert_eq!(texts(&kept), ["Join Black", "Join White", "Watch"]);
    let both = vec![button("Resume Agent"), button("Resume")];
    let kept = without_needless_seat_names(both);
    assert_eq!(texts(&kept), ["Resume Agent", "Resume"]);
}
