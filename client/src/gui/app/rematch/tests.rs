//! Play again between two people, without a server: the requests the app sends for each thing
//! the server may say, in either order where the network allows both.

use parlor_shared::game::GameSetup;
use parlor_shared::identity::{Player, PlayerId};
use parlor_shared::protocol::{
    ClientMsg, ErrorCode, Rematch, RematchRoom, RoomId, RoomSnapshot, SeatSpec, SeatState,
    ServerMsg,
};

use crate::gui::app::App;
use crate::gui::app::tests::{app_in_room_reconnecting, connected, room_on_screen};
use crate::gui::cave::room::tests::snapshot_after;
use crate::gui::room_view::RoomAction;
use crate::net::NetEvent;

/// Black's five in a row: a finished Magnetic Cave game.
const FINISHED: &str = "a1 h8 b1 h7 c1 h6 d1 h5 e1";

/// The other player.
fn bob() -> Player {
    Player {
        id: PlayerId(0xb0b),
        name: "Bob".into(),
    }
}

/// The finished room `room` as a state, naming `rematch`, made by Bob, as the room that plays
/// it again.
fn finished(room: RoomId, rematch: Option<RoomId>) -> RoomSnapshot {
    let mut snapshot = snapshot_after(FINISHED);
    assert!(snapshot.outcome.is_some());
    snapshot.room = room;
    snapshot.again = Some(Box::new(Rematch {
        setup: GameSetup::Cave,
        seats: vec![SeatSpec::Human; 2],
        made: rematch.map(|room| RematchRoom { room, by: bob() }),
    }));
    snapshot
}

/// A new room `room`: its first seat taken, its second `second`.
fn new_room(room: RoomId, second: SeatState) -> RoomSnapshot {
    let mut snapshot = snapshot_after("");
    snapshot.room = room;
    snapshot.seats[1] = second;
    snapshot
}

/// An app whose player has just finished room 4 and is looking at it.
fn after_the_game() -> App {
    let mut app = app_in_room_reconnecting(4);
    app.handle_event(connected());
    app.screen = super::super::Screen::room(4);
    tell(&mut app, ServerMsg::State(finished(4, None)));
    app.sent.clear();
    app.notice = None;
    app
}

fn tell(app: &mut App, message: ServerMsg) {
    app.handle_event(NetEvent::Message(Box::new(message)));
}

/// Whether `sent` asks to sit in seat `seat` of `room`.
fn joins(sent: Option<&ClientMsg>, room: RoomId, seat: u8) -> bool {
    matches!(sent, Some(ClientMsg::JoinSeat { room: r, seat: s, .. }) if *r == room && *s == seat)
}

fn press_play_again(app: &mut App) {
    let again = *app.snapshots[&4].again.clone().unwrap();
    app.on_room_action(4, RoomAction::PlayAgain(again));
}

/// The rematch room 9 that Play again went to has closed: the server refuses to let us watch
/// it. What the app then says; it must have asked to play room 4 again itself.
fn rematch_found_closed(app: &mut App) -> Option<String> {
    let refusal = ServerMsg::Error {
        code: ErrorCode::NoSuchRoom,
        message: "no room 9".into(),
    };
    tell(app, refusal);
    let asked = |sent: &ClientMsg| matches!(sent, ClientMsg::PlayAgain { room: 4, .. });
    assert!(app.sent.iter().any(asked), "{:?}", app.sent);
    app.notice.as_ref().map(|n| n.text.clone())
}

/// The finished room 4 as a state naming rematch 9, made by `by`.
fn named_by(by: Player) -> RoomSnapshot {
    let mut named = finished(4, Some(9));
    if let Some(again) = named.again.as_mut() {
        again.made = Some(RematchRoom { room: 9, by });
    }
    named
}

#[test]
fn the_first_to_press_asks_for_a_room_and_sits_in_it() {
    let mut app = after_the_game();
    press_play_again(&mut app);
    assert!(
        matches!(&app.sent[..], [ClientMsg::PlayAgain { room: 4, setup: GameSetup::Cave, seats }] if seats.len() == 2),
        "{:?}",
        app.sent
    );
    tell(&mut app, ServerMsg::RoomCreated { room: 9 });
    assert!(matches!(app.sent[1], ClientMsg::Leave { room: 4 }));
    assert!(joins(app.sent.get(2), 9, 0));
    // The old room names our room: nothing more to do.
    tell(&mut app, ServerMsg::State(finished(4, Some(9))));
    assert_eq!(app.sent.len(), 3);
    assert_eq!(room_on_screen(&app), Some(9));
}

#[test]
fn the_other_player_is_shown_the_room_and_takes_the_seat_left_there() {
    let mut app = after_the_game();
    tell(&mut app, ServerMsg::State(finished(4, Some(9))));
    press_play_again(&mut app);
    assert!(
        matches!(
            &app.sent[..],
            [ClientMsg::Leave { room: 4 }, ClientMsg::Watch { room: 9 }]
        ),
        "no room of its own: {:?}",
        app.sent
    );
    assert_eq!(room_on_screen(&app), Some(9));
    tell(&mut app, ServerMsg::State(new_room(9, SeatState::Open)));
    assert!(joins(app.sent.get(2), 9, 1));
    // A later state does not ask again.
    tell(&mut app, ServerMsg::State(new_room(9, SeatState::Open)));
    assert_eq!(app.sent.len(), 3);
}

#[test]
fn a_rematch_whose_seats_are_gone_is_watched_and_said_so() {
    let mut app = after_the_game();
    tell(&mut app, ServerMsg::State(finished(4, Some(9))));
    press_play_again(&mut app);
    let taken = SeatState::Taken {
        connected: true,
        player: None,
    };
    tell(&mut app, ServerMsg::State(new_room(9, taken)));
    assert_eq!(app.sent.len(), 2, "no seat asked for: {:?}", app.sent);
    let notice = app.notice.as_ref().map(|n| n.text.as_str());
    assert_eq!(
        notice,
        Some("Room #9 has no seat left to play; you watch it")
    );
}

/// Both pressed at once; the other player's room, 7, was named first. Whichever way the
/// answers cross, ours (8) is closed and theirs joined, and its closing is not shown as news.
#[test]
fn of_two_pressed_at_once_the_one_not_named_closes_its_room_and_joins_the_other() {
    for named_first in [true, false] {
        let mut app = after_the_game();
        press_play_again(&mut app);
        if named_first {
            tell(&mut app, ServerMsg::State(finished(4, Some(7))));
            tell(&mut app, ServerMsg::RoomCreated { room: 8 });
        } else {
            tell(&mut app, ServerMsg::RoomCreated { room: 8 });
            tell(&mut app, ServerMsg::State(finished(4, Some(7))));
        }
        let closed = app.sent.contains(&ClientMsg::CloseRoom { room: 8 });
        assert!(closed, "named first {named_first}: {:?}", app.sent);
        assert!(matches!(
            app.sent.last(),
            Some(ClientMsg::Watch { room: 7 })
        ));
        assert_eq!(room_on_screen(&app), Some(7));
        tell(&mut app, ServerMsg::Left { room: 4 });
        let message = "room 8 was closed by its creator".to_string();
        tell(&mut app, ServerMsg::RoomClosed { room: 8, message });
        assert_eq!(
            room_on_screen(&app),
            Some(7),
            "the closing does not move us"
        );
        assert!(
            app.notice.is_none(),
            "{:?}",
            app.notice.as_ref().map(|n| &n.text)
        );
        tell(&mut app, ServerMsg::State(new_room(7, SeatState::Open)));
        assert!(joins(app.sent.last(), 7, 1));
    }
}

/// Bob's rematch closed before Ada's Play again reached it (he gave up waiting): she is told,
/// and a room of her own is made, where she waits.
#[test]
fn a_rematch_closed_before_it_was_reached_is_replaced_by_a_room_of_our_own() {
    let mut app = after_the_game();
    tell(&mut app, ServerMsg::State(finished(4, Some(9))));
    press_play_again(&mut app);
    assert_eq!(
        rematch_found_closed(&mut app).as_deref(),
        Some(
            "Room #9, where your opponent waited to play again, has closed; \
             a room of your own is on its way"
        )
    );
    // The finished room's state, naming room 9 (no `Left` for it has come here), does not
    // send us back there.
    tell(&mut app, ServerMsg::RoomCreated { room: 11 });
    assert!(joins(app.sent.last(), 11, 0), "{:?}", app.sent);
    assert!(!app.sent.contains(&ClientMsg::CloseRoom { room: 11 }));
}

/// Ada made the rematch, went back to the finished room (from the lobby, say) and presses Play
/// again there: she takes back her own seat in it, not the one left for Bob.
#[test]
fn the_maker_coming_back_takes_back_their_own_seat() {
    let mut app = after_the_game();
    let me = app.lobby.me.clone().expect("connected");
    tell(&mut app, ServerMsg::State(named_by(me.clone())));
    press_play_again(&mut app);
    let mut rematch = new_room(9, SeatState::Open);
    rematch.seats[0] = SeatState::Taken {
        connected: false,
        player: Some(me),
    };
    tell(&mut app, ServerMsg::State(rematch));
    assert!(joins(app.sent.last(), 9, 0), "{:?}", app.sent);
}

/// Bob's rematch keeps its seats for the two of us, his first: we take the one kept for us,
/// though no seat is open.
#[test]
fn the_other_player_takes_the_seat_the_rematch_keeps_for_them() {
    let mut app = after_the_game();
    let me = app.lobby.me.clone().expect("connected");
    tell(&mut app, ServerMsg::State(finished(4, Some(9))));
    press_play_again(&mut app);
    let mut rematch = new_room(9, SeatState::Kept { player: me });
    rematch.seats[0] = SeatState::Kept { player: bob() };
    tell(&mut app, ServerMsg::State(rematch));
    assert!(joins(app.sent.last(), 9, 1), "{:?}", app.sent);
}

/// Ada made the rematch and closed it, and presses Play again in the finished room: she is
/// told it was where she waited, and gets a room of her own again.
#[test]
fn the_maker_finding_their_own_rematch_closed_is_told_it_was_theirs() {
    let mut app = after_the_game();
    let me = app.lobby.me.clone().expect("connected");
    tell(&mut app, ServerMsg::State(named_by(me)));
    press_play_again(&mut app);
    assert_eq!(
        rematch_found_closed(&mut app).as_deref(),
        Some(
            "Room #9, where you waited to play again, has closed; \
             a room of your own is on its way"
        )
    );
}

#[test]
fn a_finished_room_gone_after_a_restart_is_named_gone_and_play_again_still_makes_a_room() {
    let mut app = after_the_game();
    // The server restarted: following room 4 again is refused.
    let refusal = ServerMsg::Error {
        code: ErrorCode::NoSuchRoom,
        message: "no room 4".into(),
    };
    tell(&mut app, refusal);
    let said = app
        .notice
        .as_ref()
        .map(|n| n.text.clone())
        .unwrap_or_default();
    assert!(
        said.starts_with("Room #4 is gone from the server"),
        "{said}"
    );
    press_play_again(&mut app);
    assert!(
        matches!(&app.sent[..], [ClientMsg::PlayAgain { room: 4, .. }]),
        "{:?}",
        app.sent
    );
    tell(&mut app, ServerMsg::RoomCreated { room: 9 });
    // Leaving a room the server no longer has is answered `Left`.
    tell(&mut app, ServerMsg::Left { room: 4 });
    assert!(joins(app.sent.get(2), 9, 0), "{:?}", app.sent);
    assert_eq!(room_on_screen(&app), Some(9));
}
