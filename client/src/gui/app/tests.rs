use parlor_shared::game::GameSetup;
use parlor_shared::protocol::{Rematch, SeatSpec, SeatToken, ServerMsg};

use super::*;

/// An app with no server behind it (its requests go nowhere), in room `room` as its link
/// drops.
pub(super) fn app_in_room_reconnecting(room: RoomId) -> App {
    let mut app = App::new(Startup::Failed(String::new()), Identity::fresh(), None);
    app.link = Link::Connected {
        url: "ws://test".into(),
        server: "test".into(),
        node: "ws://test".into(),
    };
    app.screen = Screen::room(room);
    app.handle_event(reconnecting(1));
    app
}

pub(super) fn connected() -> NetEvent {
    NetEvent::Connected {
        node: "ws://test".into(),
        server: "test".into(),
        player: parlor_shared::identity::Player {
            id: parlor_shared::identity::PlayerId(1),
            name: "tester".into(),
        },
    }
}

fn reconnecting(attempt: u32) -> NetEvent {
    NetEvent::Reconnecting {
        attempt,
        reason: "the server went away".into(),
    }
}

fn play_again() -> RoomAction {
    RoomAction::PlayAgain(Rematch {
        setup: GameSetup::Cave,
        seats: vec![SeatSpec::Human, SeatSpec::Human],
        made: None,
    })
}

pub(super) fn room_on_screen(app: &App) -> Option<RoomId> {
    match &app.screen {
        Screen::Room(view) => Some(view.room),
        _ => None,
    }
}

#[test]
fn a_room_asked_for_while_reconnecting_outlives_further_attempts_and_is_joined() {
    let mut app = app_in_room_reconnecting(4);
    app.on_room_action(4, play_again());
    app.handle_event(reconnecting(2));
    assert!(
        app.pending_room.is_some(),
        "the request waits in the network thread"
    );
    app.handle_event(connected());
    app.handle_event(NetEvent::Message(Box::new(ServerMsg::RoomCreated {
        room: 9,
    })));
    assert_eq!(room_on_screen(&app), Some(9));
    assert!(app.pending_room.is_none());
}

#[test]
fn a_room_asked_for_on_a_connection_that_drops_is_forgotten() {
    let mut app = app_in_room_reconnecting(4);
    app.handle_event(connected());
    app.on_room_action(4, play_again());
    app.handle_event(reconnecting(1));
    assert!(
        app.pending_room.is_none(),
        "its answer went with the connection"
    );

    // Queued, then sent once the link was back, then lost with that link.
    let mut app = app_in_room_reconnecting(4);
    app.on_room_action(4, play_again());
    app.handle_event(connected());
    app.handle_event(reconnecting(1));
    assert!(app.pending_room.is_none());
}

#[test]
fn a_refused_play_again_keeps_the_player_in_their_room_told_why() {
    let mut app = app_in_room_reconnecting(4);
    app.handle_event(connected());
    let mut snapshot = crate::gui::cave::room::tests::snapshot_after("a1 h1");
    snapshot.room = 4;
    app.snapshots.insert(4, snapshot);
    app.on_room_action(4, play_again());
    assert_eq!(
        room_on_screen(&app),
        Some(4),
        "not left before the new room exists"
    );
    let refused = ServerMsg::RoomRefused {
        code: parlor_shared::protocol::ErrorCode::LimitReached,
        message: "you have 16 unfinished rooms".into(),
    };
    app.handle_event(NetEvent::Message(Box::new(refused)));
    assert_eq!(room_on_screen(&app), Some(4));
    let Screen::Room(view) = &app.screen else {
        unreachable!("the room is on screen")
    };
    let hint = view.hint_text().unwrap_or_default();
    assert_eq!(
        hint, "No new room: you have 16 unfinished rooms",
        "in words only"
    );
    assert!(app.snapshots.contains_key(&4), "the room is still followed");
    assert!(app.pending_room.is_none(), "a new click may ask again");
}

#[test]
fn a_room_request_the_network_thread_could_not_hold_is_forgotten() {
    let mut app = app_in_room_reconnecting(4);
    app.on_room_action(4, play_again());
    let Some(request) = app.sent.pop() else {
        unreachable!("play_again asks for a new room")
    };
    assert!(matches!(request, ClientMsg::PlayAgain { room: 4, .. }));
    app.handle_event(NetEvent::NotSent(Box::new(request)));
    assert!(app.pending_room.is_none(), "a new click may ask again");
}

#[test]
fn the_loading_notice_goes_when_the_stored_game_arrives() {
    use parlor_shared::game::{GameKind, Outcome};
    use parlor_shared::protocol::{GameRecord, RecordSummary};

    let mut app = App::new(Startup::Failed(String::new()), Identity::fresh(), None);
    app.load_record(3, None);
    assert!(app.notice.is_some());
    let record = GameRecord {
        summary: RecordSummary {
            id: 3,
            game: GameKind::Cave,
            seats: vec!["human".into(), "human".into()],
            players: vec![None, None],
            outcome: Outcome::Tie,
            moves: 0,
            finished_at: 0,
        },
        start: GameSetup::Cave.start().unwrap(),
        moves: Vec::new(),
    };
    app.handle_event(NetEvent::Message(Box::new(ServerMsg::Record(record))));
    assert!(matches!(app.screen, Screen::Replay { .. }));
    assert!(
        app.notice.is_none(),
        "the replay is there: nothing is loading"
    );
}

#[test]
fn a_solvers_plan_opens_as_a_replay_that_goes_back_to_its_room() {
    use parlor_shared::game::{GameMove, GameState};
    use parlor_shared::klotski::{Dir, KlotskiBoard, KlotskiMove, Move, parse_puzzle};
    use parlor_shared::protocol::SeatState;

    let puzzle = parse_puzzle("2 3\n1 0 2\n4 5 3\n0\n").unwrap();
    let start = GameSetup::Klotski(KlotskiBoard::of(&puzzle))
        .start()
        .unwrap();
    let slide = |label, dir| GameMove::Klotski(KlotskiMove::Slide(Move { label, dir }));
    let snapshot = |state: GameState, moves: Vec<GameMove>, plan_ahead| RoomSnapshot {
        room: 7,
        version: 1,
        seats: vec![SeatState::Ai {
            move_ms: 300,
            name: "solver".into(),
        }],
        spectators: 1,
        watchers: vec![],
        creator: None,
        state,
        moves,
        plan_ahead,
        outcome: None,
        record: None,
        again: None,
    };
    let replayed = |app: &App| {
        matches!(
            app.screen,
            Screen::Replay {
                back_to: Some(7),
                ..
            }
        )
    };
    let mut app = app_in_room_reconnecting(7);
    let plan = vec![slide(2, Dir::Left), slide(3, Dir::Up)];
    app.snapshots
        .insert(7, snapshot(start.clone(), vec![], plan.clone()));
    app.on_room_action(7, RoomAction::ReplaySolution);
    assert!(
        replayed(&app),
        "the solution is replayed, the room still followed"
    );
    assert!(app.snapshots.contains_key(&7));
    // Half way through: the state is where the pieces stand, and the replay still starts at
    // the start.
    app.screen = Screen::room(7);
    let (played, ahead) = plan.split_at(1);
    let now = start.replay(played).unwrap().pop().unwrap();
    app.snapshots
        .insert(7, snapshot(now, played.to_vec(), ahead.to_vec()));
    app.on_room_action(7, RoomAction::ReplaySolution);
    assert!(
        replayed(&app),
        "{:?}",
        app.notice.as_ref().map(|notice| &notice.text)
    );
    // A plan that does not replay is refused in words, and the room stays.
    app.screen = Screen::room(7);
    app.snapshots
        .insert(7, snapshot(start.clone(), vec![], vec![slide(1, Dir::Up)]));
    app.on_room_action(7, RoomAction::ReplaySolution);
    assert_eq!(room_on_screen(&app), Some(7));
    let notice = app.notice.as_ref().map(|notice| notice.text.as_str());
    assert!(
        notice.is_some_and(|text| text.contains("Cannot replay the solution")),
        "{notice:?}"
    );
}

/// In the lobby, a game of ours that comes to wait for our move is news; one that already
/// did when the lobby was shown is not (the person saw it, or just left it).
#[test]
fn the_lobby_tells_of_a_game_that_comes_to_wait_for_our_move() {
    let mut app = app_in_room_reconnecting(4);
    app.handle_event(connected());
    let seats = |waiting: &[(RoomId, bool)]| {
        let held = waiting
            .iter()
            .map(|&(room, to_move)| parlor_shared::protocol::HeldSeat {
                room,
                seat: 0,
                game: parlor_shared::game::GameKind::Cave,
                to_move,
                kept: false,
            });
        NetEvent::Message(Box::new(ServerMsg::MySeats(held.collect())))
    };
    let notice = |app: &mut App| app.notice.take().map(|notice| notice.text);
    app.on_room_action(4, RoomAction::Leave);
    app.notice = None;
    app.handle_event(seats(&[(4, true), (6, false), (7, false)]));
    assert_eq!(
        notice(&mut app),
        None,
        "the first list since the lobby was shown"
    );
    app.handle_event(seats(&[(4, true), (6, true), (7, false)]));
    assert_eq!(
        notice(&mut app).as_deref(),
        Some("Room #6 waits for your move")
    );
    app.handle_event(seats(&[(4, true), (6, true), (7, true), (9, true)]));
    assert_eq!(
        notice(&mut app).as_deref(),
        Some("Rooms #7 and #9 wait for your move")
    );
    app.handle_event(seats(&[(4, true), (6, true), (7, true), (9, true)]));
    assert_eq!(notice(&mut app), None, "nothing new");

    // Away in a room and back: what waited then is not news.
    app.screen = Screen::room(6);
    app.handle_event(seats(&[(4, false), (6, false)]));
    app.enter_lobby();
    app.handle_event(seats(&[(4, true), (6, true)]));
    assert_eq!(notice(&mut app), None);
}

/// In the lobby, a room another player made to play again a game of ours is news.
#[test]
fn the_lobby_tells_of_a_rematch_made_for_us() {
    use parlor_shared::identity::{Player, PlayerId};
    use parlor_shared::protocol::{RematchRoom, RoomSummary, SeatState};
    let mut app = app_in_room_reconnecting(4);
    app.handle_event(connected());
    app.on_room_action(4, RoomAction::Leave);
    app.notice = None;
    let me = app.lobby.me.clone().expect("connected");
    let bob = Player {
        id: PlayerId(0xb0b),
        name: "Bob".into(),
    };
    let finished = |rematch: Option<RematchRoom>| {
        let seats = [&me, &bob].map(|player| SeatState::Taken {
            connected: true,
            player: Some(player.clone()),
        });
        let summary = RoomSummary {
            room: 4,
            game: parlor_shared::game::GameKind::Cave,
            creator: Some(me.clone()),
            seats: seats.to_vec(),
            spectators: 0,
            version: 9,
            moves: 9,
            outcome: Some(parlor_shared::game::Outcome::Won { seat: 1 }),
            to_move: None,
            rematch,
        };
        NetEvent::Message(Box::new(ServerMsg::Rooms {
            rooms: vec![summary],
            partial: false,
        }))
    };
    app.handle_event(finished(None));
    assert!(app.notice.is_none());
    let by = bob.clone();
    app.handle_event(finished(Some(RematchRoom { room: 9, by })));
    let text = app.notice.take().map(|notice| notice.text);
    let expected = format!("{} waits in room #9 to play you again", bob.label());
    assert_eq!(text, Some(expected));
}

/// A spectator's Watch on a finished room's rematch leaves the room for that one.
#[test]
fn a_spectator_goes_from_the_finished_room_to_its_rematch() {
    let mut app = app_in_room_reconnecting(4);
    app.handle_event(connected());
    app.on_room_action(4, RoomAction::WatchRematch(8));
    assert_eq!(room_on_screen(&app), Some(8));
}

/// A refusal shown before is gone once a room is made: it no longer holds.
#[test]
fn a_room_made_clears_the_refusal_said_before() {
    let mut app = app_in_room_reconnecting(4);
    app.handle_event(connected());
    app.enter_lobby();
    let refused = ServerMsg::RoomRefused {
        code: parlor_shared::protocol::ErrorCode::BadRequest,
        message: "a brain name may not hold '/'".into(),
    };
    app.create_room(GameSetup::Cave, vec![SeatSpec::Human; 2], None);
    app.handle_event(NetEvent::Message(Box::new(refused)));
    assert!(app.notice.as_ref().is_some_and(|notice| notice.is_error));
    app.create_room(GameSetup::Cave, vec![SeatSpec::Human; 2], None);
    app.handle_event(NetEvent::Message(Box::new(ServerMsg::RoomCreated {
        room: 9,
    })));
    assert!(
        app.notice.is_none(),
        "{:?}",
        app.notice.as_ref().map(|n| &n.text)
    );
    assert_eq!(room_on_screen(&app), Some(9));
}

/// A seat the person's other window took back is no longer played from here: the window
/// says so, and the room offers Resume (the seat is the person's, held elsewhere).
#[test]
fn a_seat_taken_back_in_another_window_is_let_go_here_and_said() {
    let mut app = app_in_room_reconnecting(4);
    app.handle_event(connected());
    let message = |message| NetEvent::Message(Box::new(message));
    let token = SeatToken::random();
    app.handle_event(message(ServerMsg::Seated {
        room: 4,
        seat: 1,
        token,
    }));
    assert_eq!(app.held[&4].len(), 1);
    app.handle_event(message(ServerMsg::SeatTakenBack { room: 4, seat: 1 }));
    assert!(app.held.get(&4).is_none_or(Vec::is_empty));
    assert_eq!(
        app.sent.last(),
        Some(&ClientMsg::Watch { room: 4 }),
        "watched on"
    );
    let said = app.notice.as_ref().map(|notice| notice.text.as_str());
    assert!(
        said.is_some_and(|text| text.contains("room #4") && text.contains("Resume")),
        "{said:?}"
    );
}
