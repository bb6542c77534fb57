//! Resigning over loopback: a player of Magnetic Cave or Dropping Bricks gives up for their
//! own seat only, on their turn or not; the other side wins, the game is stored with the
//! resignation, and its replay ends the same way.

mod common;

use common::{Peer, cave, start_server};
use parlor_shared::bricks::{AGENT_SEAT, ANSWERER_SEAT, BricksMove};
use parlor_shared::codec::Format;
use parlor_shared::game::{GameMove, GameSetup, Outcome};
use parlor_shared::klotski::{KlotskiBoard, parse_puzzle};
use parlor_shared::protocol::{ErrorCode, SeatSpec};

#[tokio::test]
async fn a_player_resigns_out_of_turn_and_the_other_side_wins_in_the_record_too() {
    let (server, _dir) = start_server("resign");
    let url = server.url();
    let mut ada = Peer::connect(&url, Format::Json).await;
    let mut bob = Peer::connect(&url, Format::Binary).await;
    let room = ada.create(GameSetup::Cave, vec![SeatSpec::Human; 2]).await;
    let ada_token = ada.join(room, 0).await;
    // Nobody sits opposite yet: there is nobody to give the game to.
    ada.send_move(room, &ada_token, 0, GameMove::Resign { seat: 0 })
        .await;
    let refusal = ada.expect_error(ErrorCode::IllegalMove).await;
    assert!(refusal.contains("close the room instead"), "{refusal}");
    let bob_token = bob.join(room, 1).await;
    ada.play_and_see(room, &ada_token, 0, cave("a1")).await;
    bob.play_and_see(room, &bob_token, 1, cave("h8")).await;

    // Black's turn. Bob may not resign for Ada, nor in a game he does not sit in.
    bob.send_move(room, &bob_token, 2, GameMove::Resign { seat: 0 })
        .await;
    let refusal = bob.expect_error(ErrorCode::NotYourTurn).await;
    assert!(refusal.contains("cannot resign for seat 0"), "{refusal}");
    // He resigns for himself, out of turn.
    let over = bob
        .play_and_see(room, &bob_token, 2, GameMove::Resign { seat: 1 })
        .await;
    assert_eq!(over.outcome, Some(Outcome::Won { seat: 0 }));
    assert_eq!(over.version, 3);

    // Nothing is played after it.
    ada.send_move(room, &ada_token, 3, cave("b1")).await;
    ada.expect_error(ErrorCode::GameOver).await;

    // Bob read the resignation's state, and nothing since.
    let end = bob.recorded(room, over.clone()).await;
    let record = bob.record(end.record.expect("stored")).await;
    assert_eq!(record.summary.outcome, Outcome::Won { seat: 0 });
    assert_eq!(record.summary.moves, 2, "resigning is no move");
    assert_eq!(record.moves.last(), Some(&GameMove::Resign { seat: 1 }));
    let replayed = record.start.replay(&record.moves).expect("legal moves");
    assert_eq!(replayed.last(), Some(&over.state));
}

#[tokio::test]
async fn a_dropping_bricks_answerer_resigns_while_a_drop_waits_and_a_puzzle_takes_none() {
    let (server, _dir) = start_server("resign-bricks");
    let url = server.url();
    let mut ada = Peer::connect(&url, Format::Json).await;
    let mut bob = Peer::connect(&url, Format::Binary).await;
    let setup = GameSetup::Bricks {
        height: 10,
        drops: 4,
        bricks: 1,
    };
    let room = ada.create(setup, vec![SeatSpec::Human; 2]).await;
    let agent = ada.join(room, AGENT_SEAT).await;
    let answerer = bob.join(room, ANSWERER_SEAT).await;
    ada.play_and_see(room, &agent, 0, GameMove::Bricks(BricksMove::Drop(3)))
        .await;
    // The drop waits for Bob's answer; he gives the game up instead.
    let resign = GameMove::Resign {
        seat: ANSWERER_SEAT,
    };
    let over = bob.play_and_see(room, &answerer, 1, resign).await;
    let agent_won = Outcome::Won { seat: AGENT_SEAT };
    assert_eq!(over.outcome, Some(agent_won));
    ada.send_move(room, &agent, 2, GameMove::Bricks(BricksMove::Drop(5)))
        .await;
    ada.expect_error(ErrorCode::GameOver).await;
    let end = bob.recorded(room, over.clone()).await;
    let record = bob.record(end.record.expect("stored")).await;
    assert_eq!(record.summary.outcome, agent_won);
    let replayed = record.start.replay(&record.moves).expect("legal moves");
    assert_eq!(replayed.last(), Some(&over.state));

    // A puzzle has nobody to give the game to.
    let puzzle = parse_puzzle("2 3\n1 2 3\n4 0 5\n0\n").unwrap();
    let klotski = GameSetup::Klotski(KlotskiBoard::of(&puzzle));
    let room = ada.create(klotski, vec![SeatSpec::Human]).await;
    let token = ada.join(room, 0).await;
    ada.send_move(room, &token, 0, GameMove::Resign { seat: 0 })
        .await;
    let refusal = ada.expect_error(ErrorCode::IllegalMove).await;
    assert!(refusal.contains("not Numeric Klotski's"), "{refusal}");
}
