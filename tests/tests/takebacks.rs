//! A puzzle's Undo and Restart over loopback: moves of the game that the server checks, plays
//! for everyone watching and stores, so the stored game replays through them to the same end;
//! refused where there is nothing to take back, and in games that are not puzzles.

mod common;

use common::{Peer, cave, start_server};
use parlor_shared::codec::Format;
use parlor_shared::ewn::{EwnMove, LevelSpec, Rules, parse_level};
use parlor_shared::game::{GameMove, GameSetup, GameState, Outcome};
use parlor_shared::klotski::{Dir, KlotskiBoard, KlotskiMove, Move, parse_puzzle};
use parlor_shared::protocol::{ErrorCode, SeatSpec};

fn slide(label: u16, dir: Dir) -> GameMove {
    GameMove::Klotski(KlotskiMove::Slide(Move { label, dir }))
}

fn steps(state: &GameState) -> u32 {
    match state {
        GameState::Klotski(game) => game.steps(),
        other => panic!("not a Klotski state: {other:?}"),
    }
}

#[tokio::test]
async fn a_klotski_player_undoes_and_restarts_and_the_stored_game_replays_through_them() {
    let (server, _dir) = start_server("takebacks-klotski");
    let mut person = Peer::connect(&server.url(), Format::Binary).await;
    let puzzle = parse_puzzle("2 3\n1 2 3\n4 0 5\n0\n").unwrap();
    let setup = GameSetup::Klotski(KlotskiBoard::of(&puzzle));
    let room = person.create(setup.clone(), vec![SeatSpec::Human]).await;
    let token = person.join(room, 0).await;
    let start = person.state_where(room, |s| s.version == 0).await;

    // Nothing to take back yet: refused, nothing changes.
    person.send_move(room, &token, 0, GameMove::Undo).await;
    let refused = person.expect_error(ErrorCode::IllegalMove).await;
    assert!(refused.contains("no slide to take back"), "{refused}");

    person.send_move(room, &token, 0, slide(2, Dir::Down)).await;
    person
        .send_move(room, &token, 1, slide(1, Dir::Right))
        .await;
    let two = person.state_where(room, |s| s.version == 2).await;
    assert_eq!(steps(&two.state), 2);
    person.send_move(room, &token, 2, GameMove::Undo).await;
    let undone = person.state_where(room, |s| s.version == 3).await;
    assert_eq!(steps(&undone.state), 1, "one slide taken back");
    person.send_move(room, &token, 3, GameMove::Restart).await;
    let restarted = person.state_where(room, |s| s.version == 4).await;
    assert_eq!(restarted.state, start.state, "back at the start");

    person.send_move(room, &token, 4, slide(5, Dir::Left)).await;
    let solved = person.state_where(room, |s| s.version == 5).await;
    assert_eq!(solved.outcome, Some(Outcome::Won { seat: 0 }));
    let recorded = person.recorded(room, solved).await;
    let record = person.record(recorded.record.unwrap()).await;
    assert_eq!(
        record.moves,
        [
            slide(2, Dir::Down),
            slide(1, Dir::Right),
            GameMove::Undo,
            GameMove::Restart,
            slide(5, Dir::Left),
        ]
    );
    assert_eq!(
        record.summary.moves, 1,
        "the slides in effect, as the room counts its steps: none undone or restarted"
    );
    let replayed = record.start.replay(&record.moves).unwrap();
    assert_eq!(replayed.last(), Some(&recorded.state));
}

#[tokio::test]
async fn an_ewn_player_takes_back_a_move_and_the_same_die_comes_again() {
    let (server, _dir) = start_server("takebacks-ewn");
    let mut person = Peer::connect(&server.url(), Format::Json).await;
    let text = include_str!("../../levels/ewn/level1.txt");
    let level = parse_level(text, Rules::default()).unwrap();
    let setup = GameSetup::Ewn(LevelSpec::of(&level));
    let room = person.create(setup, vec![SeatSpec::Human]).await;
    let token = person.join(room, 0).await;
    let start = person.state_where(room, |s| s.version == 0).await;
    // Level 1: die 3, piece 3 on 43 moves.
    let step = GameMove::Ewn(EwnMove { piece: 3, to: 33 });
    person.send_move(room, &token, 0, step).await;
    person.send_move(room, &token, 1, GameMove::Undo).await;
    let undone = person.state_where(room, |s| s.version == 2).await;
    assert_eq!(undone.state, start.state);
    // The same move again: the same die.
    person.send_move(room, &token, 2, step).await;
    person.state_where(room, |s| s.version == 3).await;
}

#[tokio::test]
async fn a_game_that_is_not_a_puzzle_takes_no_undo() {
    let (server, _dir) = start_server("takebacks-cave");
    let mut person = Peer::connect(&server.url(), Format::Binary).await;
    let room = person
        .create(GameSetup::Cave, vec![SeatSpec::Human; 2])
        .await;
    let token = person.join(room, 0).await;
    person.send_move(room, &token, 0, cave("a1")).await;
    person.state_where(room, |s| s.version == 1).await;
    let other = person.join(room, 1).await;
    person.send_move(room, &other, 1, GameMove::Undo).await;
    let refused = person.expect_error(ErrorCode::IllegalMove).await;
    assert!(refused.contains("only the puzzles"), "{refused}");
}
