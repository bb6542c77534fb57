//! Play again over loopback: a finished room's state names the room that plays it again (its
//! setup and seats), and never an oracle's secret strength; the first of two players to ask
//! for it makes the room, and the other is shown that room to join (in the room, and in the
//! lobby's summary of it).

mod common;

use common::{BLACK_WINS, Peer, start_server, start_server_with};
use parlor_shared::bricks::BricksMove;
use parlor_shared::codec::Format;
use parlor_shared::game::{GameMove, GameSetup, GameState};
use parlor_shared::identity::PlayerSecret;
use parlor_shared::protocol::{AiKind, ErrorCode, HeldSeat, Rematch, SeatSpec};
use parlor_shared::protocol::{ClientMsg, RoomId, RoomSnapshot, SeatState, ServerMsg};

#[tokio::test]
async fn a_finished_room_offers_itself_again_keeping_the_oracle_secret() {
    let (server, _dir) = start_server("rematch");
    let mut person = Peer::connect(&server.url(), Format::Json).await;
    let setup = GameSetup::Bricks {
        height: 10,
        drops: 4,
        bricks: 1,
    };
    let oracle = |strength| SeatSpec::Ai {
        move_ms: 1,
        kind: AiKind::Oracle { strength },
    };
    let room = person
        .create(setup.clone(), vec![SeatSpec::Human, oracle(Some(5))])
        .await;
    let token = person.join(room, 0).await;
    let mut state = person.state_where(room, |_| true).await;
    while state.outcome.is_none() {
        assert_eq!(state.again, None, "only a finished game is offered again");
        let GameState::Bricks(game) = &state.state else {
            unreachable!("a Bricks room")
        };
        let mv = GameMove::Bricks(BricksMove::Drop(game.state().min_safe() + 1));
        person.send_move(room, &token, state.version, mv).await;
        let version = state.version;
        state = person
            .state_where(room, |s| s.version == version + 2 || s.outcome.is_some())
            .await;
    }
    let again = *state.again.expect("a finished room names its rematch");
    assert_eq!(
        again,
        Rematch {
            setup: setup.clone(),
            seats: vec![SeatSpec::Human, oracle(None)],
            made: None,
        },
        "the same room, the oracle's strength secret again"
    );
    // And the server takes it as it is.
    let next = person.create(again.setup, again.seats).await;
    assert_ne!(next, room);
}

/// Ada and Bob play a Magnetic Cave game to its end; its last state as each of them saw it.
async fn play_to_the_end(ada: &mut Peer, bob: &mut Peer) -> (RoomId, RoomSnapshot) {
    let humans = vec![SeatSpec::Human; 2];
    let room = ada.create(GameSetup::Cave, humans).await;
    (room, play_out(ada, bob, room).await)
}

/// Ada (Black) and Bob play the Magnetic Cave game of `room` to its end: its last state.
async fn play_out(ada: &mut Peer, bob: &mut Peer, room: RoomId) -> RoomSnapshot {
    let ada_token = ada.join(room, 0).await;
    let bob_token = bob.join(room, 1).await;
    let mut last_seen = None;
    for (version, cell) in (0u64..).zip(BLACK_WINS) {
        let (mover, token) = match version % 2 {
            0 => (&mut *ada, &ada_token),
            _ => (&mut *bob, &bob_token),
        };
        mover.play(room, token, version, cell).await;
        last_seen = Some(mover.state_where(room, |s| s.version > version).await);
    }
    // Ada, Black, made the winning move: the state she read after it is the end (waiting for
    // another would wait for the record's, which may have come in that same state).
    let end = last_seen.expect("moves were made");
    assert!(end.outcome.is_some(), "Black won");
    bob.state_where(room, |s| s.outcome.is_some()).await;
    end
}

/// Asks to play `room` again with `setup` and `seats`; the room made.
async fn play_again(
    peer: &mut Peer,
    room: RoomId,
    setup: GameSetup,
    seats: Vec<SeatSpec>,
) -> RoomId {
    peer.send(ClientMsg::PlayAgain { room, setup, seats }).await;
    peer.recv_until(|m| match m {
        ServerMsg::RoomCreated { room } => Some(room),
        ServerMsg::RoomRefused { message, .. } => panic!("refused: {message}"),
        ServerMsg::Error { message, .. } => panic!("an error: {message}"),
        _ => None,
    })
    .await
}

#[tokio::test]
async fn the_first_player_to_play_again_makes_the_room_the_other_is_shown() {
    let (server, _dir) = start_server("play-again");
    let url = server.url();
    let mut ada = Peer::connect(&url, Format::Json).await;
    let mut bob = Peer::connect(&url, Format::Binary).await;
    let mut stranger = Peer::connect(&url, Format::Json).await;
    let (room, end) = play_to_the_end(&mut ada, &mut bob).await;
    let again = end.again.expect("a finished room offers itself again");
    assert_eq!(again.made, None, "nobody asked yet");

    // Neither a stranger nor a player asking for another game names the rematch: each just
    // gets a room of their own.
    let strangers = play_again(
        &mut stranger,
        room,
        again.setup.clone(),
        again.seats.clone(),
    )
    .await;
    let other_seats = vec![SeatSpec::Human, SeatSpec::ai(10)];
    let adas_other = play_again(&mut ada, room, again.setup.clone(), other_seats).await;
    // Ada's real Play again: Bob, still looking at the old room, is shown the new one.
    let rematch = play_again(&mut ada, room, again.setup.clone(), again.seats.clone()).await;
    let shown = bob
        .state_where(room, |s| s.again.as_ref().is_some_and(|a| a.made.is_some()))
        .await;
    let made = shown.again.unwrap().made.unwrap();
    assert_eq!(made.room, rematch, "not {strangers} or {adas_other}");
    assert_eq!(Some(made.by.clone()), ada.player.clone(), "Ada made it");
    assert_eq!(shown.version, end.version, "no move was made");
    // The lobby's summary of the finished room names it too, for a player who left for it.
    let listed = bob.list_rooms().await;
    let summary = listed.iter().find(|summary| summary.room == room);
    let named = summary.and_then(|summary| summary.rematch.clone());
    assert_eq!(named, Some(made.clone()), "{listed:?}");

    // Bob's own Play again, pressed before he saw Ada's, makes a room but names nothing new.
    let bobs = play_again(&mut bob, room, again.setup.clone(), again.seats.clone()).await;
    let watched = bob.watch(room).await;
    assert_eq!(
        watched.again.and_then(|a| a.made).map(|made| made.room),
        Some(rematch),
        "not {bobs}"
    );

    // The rematch keeps its seats for the two: a stranger takes neither, and the lobby shows
    // them as Ada's and Bob's.
    for seat in 0..2 {
        let refused = stranger
            .join_refused(rematch, seat, ErrorCode::SeatTaken)
            .await;
        assert!(refused.contains("kept for"), "{refused}");
    }
    let listed = stranger.list_rooms().await;
    let kept_for = (listed.iter().find(|summary| summary.room == rematch))
        .map(|summary| summary.seats.clone());
    let kept = |peer: &Peer| SeatState::Kept {
        player: peer.player.clone().expect("greeted"),
    };
    assert_eq!(kept_for, Some(vec![kept(&ada), kept(&bob)]));
    // Bob's games in progress name the seat kept for him, whatever becomes of the old room.
    let bobs = |held: &[HeldSeat]| {
        let in_rematch = held.iter().filter(|held| held.room == rematch);
        in_rematch
            .map(|held| (held.seat, held.kept))
            .collect::<Vec<_>>()
    };
    assert_eq!(bobs(&bob.my_seats().await), [(1, true)]);

    // Ada sits in the rematch, and Bob takes the seat left for him.
    ada.join(rematch, 0).await;
    bob.join(rematch, 1).await;
    assert_eq!(bobs(&bob.my_seats().await), [(1, false)]);
    let state = ada
        .state_where(rematch, |s| {
            s.seats
                .iter()
                .all(|seat| matches!(seat, SeatState::Taken { .. }))
        })
        .await;
    assert_eq!(state.moves, vec![], "a new game");
}

/// Ada's rematch closes before Bob comes (she gave up waiting): the finished room names it no
/// more, and the next room a player makes to play again takes its place, so Bob's Play again
/// does not end in a room nobody is told of.
#[tokio::test]
async fn a_rematch_closed_by_its_maker_gives_its_place_to_the_next() {
    let (server, _dir) = start_server("play-again-closed");
    let url = server.url();
    let mut ada = Peer::connect(&url, Format::Json).await;
    let mut bob = Peer::connect(&url, Format::Json).await;
    let (room, end) = play_to_the_end(&mut ada, &mut bob).await;
    let again = *end.again.expect("a finished room offers itself again");
    let named = |s: &RoomSnapshot| s.again.as_ref().and_then(|a| a.made.clone());

    let adas = play_again(&mut ada, room, again.setup.clone(), again.seats.clone()).await;
    bob.state_where(room, |s| named(s).is_some()).await;
    // While Ada's room stands, another names nothing.
    let bobs_first = play_again(&mut bob, room, again.setup.clone(), again.seats.clone()).await;
    let watched = bob.watch(room).await;
    assert_eq!(named(&watched).map(|made| made.room), Some(adas));

    ada.send(ClientMsg::CloseRoom { room: adas }).await;
    ada.recv_until(|m| {
        matches!(m, ServerMsg::RoomClosed { room, .. } if room == adas).then_some(())
    })
    .await;
    // Bob, watching the finished room, is told that nobody waits in Ada's room any more, and
    // so is the lobby.
    let told = bob.state_where(room, |s| named(s).is_none()).await;
    assert_eq!(told.version, end.version, "no move was made");
    let listed = bob.list_rooms().await;
    let summary = listed.iter().find(|summary| summary.room == room);
    assert_eq!(summary.map(|s| s.rematch.clone()), Some(None), "{listed:?}");
    let bobs = play_again(&mut bob, room, again.setup.clone(), again.seats.clone()).await;
    let shown = ada
        .state_where(room, |s| named(s).is_some_and(|made| made.room != adas))
        .await;
    let made = named(&shown).unwrap();
    assert_eq!(
        made.room, bobs,
        "not {bobs_first}, which Bob made while Ada's stood"
    );
    assert_eq!(Some(made.by), bob.player.clone());
}

#[tokio::test]
async fn the_rematch_a_finished_room_names_shows_its_makers_new_name() {
    let (server, _dir) = start_server("play-again-renamed");
    let url = server.url();
    let ada_secret = PlayerSecret::random();
    let mut ada = Peer::connect_as(&url, Format::Json, &ada_secret).await;
    let mut bob = Peer::connect(&url, Format::Binary).await;
    let (room, end) = play_to_the_end(&mut ada, &mut bob).await;
    let again = end.again.expect("a finished room offers itself again");
    let rematch = play_again(&mut ada, room, again.setup, again.seats).await;
    // Ada comes back under another name: Bob, still on the old room, is told it.
    let _ada_l = Peer::greet_as(Peer::raw(&url, Format::Binary).await, &ada_secret, "Ada L").await;
    let made_by_ada_l = |s: &RoomSnapshot| {
        let made = s.again.as_ref().and_then(|again| again.made.as_ref());
        made.is_some_and(|made| made.by.name == "Ada L")
    };
    let shown = bob.state_where(room, made_by_ada_l).await;
    assert_eq!(
        shown.again.and_then(|a| a.made).map(|m| m.room),
        Some(rematch)
    );
}

/// Bob, for whom Ada's rematch keeps a seat, comes back under another name before he sits:
/// the seat kept for him shows it, as a seat he took would.
#[tokio::test]
async fn a_seat_kept_for_a_player_shows_their_new_name() {
    let (server, _dir) = start_server("play-again-kept-renamed");
    let url = server.url();
    let bob_secret = PlayerSecret::random();
    let mut ada = Peer::connect(&url, Format::Json).await;
    let mut bob = Peer::connect_as(&url, Format::Json, &bob_secret).await;
    let (room, end) = play_to_the_end(&mut ada, &mut bob).await;
    let again = end.again.expect("a finished room offers itself again");
    let rematch = play_again(&mut ada, room, again.setup, again.seats).await;
    let mut bob_l =
        Peer::greet_as(Peer::raw(&url, Format::Binary).await, &bob_secret, "Bob L").await;
    let kept_for_bob_l = |rooms: &[parlor_shared::protocol::RoomSummary]| {
        let summary = rooms.iter().find(|summary| summary.room == rematch);
        summary.is_some_and(|summary| {
            matches!(&summary.seats[1], SeatState::Kept { player } if player.name == "Bob L")
        })
    };
    let renamed = async {
        while !kept_for_bob_l(&bob_l.list_rooms().await) {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(10), renamed)
        .await
        .expect("the kept seat shows Bob's new name");
}

/// Whether the lobby `peer` sees lists `room`, and the rematch it names.
async fn listed(peer: &mut Peer, room: RoomId) -> Option<Option<RoomId>> {
    let rooms = peer.list_rooms().await;
    let summary = rooms.into_iter().find(|summary| summary.room == room)?;
    Some(summary.rematch.map(|made| made.room))
}

#[tokio::test]
async fn a_finished_room_stays_listed_while_the_rematch_it_names_waits_however_late_it_came() {
    let limits = parlor_server::limits::Limits {
        finished_room_linger: std::time::Duration::from_millis(200),
        ..Default::default()
    };
    let (server, _dir) = start_server_with("play-again-late", limits);
    let url = server.url();
    let mut ada = Peer::connect(&url, Format::Json).await;
    let mut bob = Peer::connect(&url, Format::Json).await;
    let (room, end) = play_to_the_end(&mut ada, &mut bob).await;
    let again = *end.again.expect("a finished room offers itself again");
    // Bob goes back to the lobby; Ada, still in the room, plays again long after the game.
    bob.send(ClientMsg::Leave { room }).await;
    bob.recv_until(|m| matches!(m, ServerMsg::Left { .. }).then_some(()))
        .await;
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    assert_eq!(listed(&mut bob, room).await, Some(None), "Ada follows it");
    let rematch = play_again(&mut ada, room, again.setup.clone(), again.seats.clone()).await;
    ada.send(ClientMsg::Leave { room }).await;
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    // Nobody follows it, its linger is long past: it stays for Bob's lobby to mark the rematch.
    assert_eq!(listed(&mut bob, room).await, Some(Some(rematch)));
    // They play the rematch out: the finished room names a rematch that waits no more, and
    // closes (so a chain of rematches keeps no more than the last game's room).
    play_out(&mut ada, &mut bob, rematch).await;
    let gone = async {
        while listed(&mut bob, room).await.is_some() {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(10), gone)
        .await
        .expect("the finished room closes once its rematch is over");
}
