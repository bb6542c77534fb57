//! EWN puzzle rooms over loopback: a person solving a level move by move, the solver seat
//! solving it optimally for spectators, and what the server refuses.

mod common;

use common::{Peer, start_server};
use parlor_engines::ewn::solve;
use parlor_shared::codec::Format;
use parlor_shared::ewn::{EwnMove, Level, LevelSpec, Rules, parse_level};
use parlor_shared::game::{GameMove, GameSetup, Outcome};
use parlor_shared::protocol::{AiKind, ClientMsg, ErrorCode, SeatSpec, SeatState};

fn level(n: u32) -> Level {
    let path = format!("{}/../levels/ewn/level{n}.txt", env!("CARGO_MANIFEST_DIR"));
    parse_level(&std::fs::read_to_string(path).unwrap(), Rules::default()).unwrap()
}

fn ewn_move(piece: u8, to: u8) -> GameMove {
    GameMove::Ewn(EwnMove { piece, to })
}

#[tokio::test]
async fn a_person_solves_a_level_and_the_stored_game_replays_to_the_win() {
    let (server, _dir) = start_server("ewn-person");
    let mut person = Peer::connect(&server.url(), Format::Json).await;
    let level1 = level(1);
    let room = person
        .create(
            GameSetup::Ewn(LevelSpec::of(&level1)),
            vec![SeatSpec::Human],
        )
        .await;
    let token = person.join(room, 0).await;
    let solution = solve(&level1).unwrap().moves;
    assert_eq!(solution.len(), 6, "level 1 needs exactly 6 moves (SPEC §1)");
    let mut last = None;
    for (version, mv) in solution.iter().enumerate() {
        let version = version as u64;
        person
            .send(ClientMsg::Move {
                room,
                token: token.clone(),
                version,
                mv: ewn_move(mv.piece, mv.to),
            })
            .await;
        last = Some(person.state_where(room, |s| s.version == version + 1).await);
    }
    let end = person.recorded(room, last.unwrap()).await;
    assert_eq!(end.outcome, Some(Outcome::Won { seat: 0 }));
    let record = person.record(end.record.unwrap()).await;
    assert_eq!(
        record.start.replay(&record.moves).unwrap().last(),
        Some(&end.state)
    );
}

#[tokio::test]
async fn the_solver_seat_solves_for_spectators_in_the_fewest_moves() {
    let (server, _dir) = start_server("ewn-solver");
    let mut watcher = Peer::connect(&server.url(), Format::Binary).await;
    // The fewest moves, known apart from the server's solver: SPEC §1 and levels/ewn/README.md
    // (the golden solutions in shared/tests/golden/ewn/ have these lengths).
    for (n, optimum) in [(1, 6), (2, 10)] {
        let lvl = level(n);
        let room = watcher
            .create(GameSetup::Ewn(LevelSpec::of(&lvl)), vec![SeatSpec::ai(5)])
            .await;
        watcher.send(ClientMsg::Watch { room }).await;
        let end = watcher.state_where(room, |s| s.outcome.is_some()).await;
        assert_eq!(end.outcome, Some(Outcome::Won { seat: 0 }), "level {n}");
        assert_eq!(end.moves.len(), optimum, "level {n}");
        assert_eq!(
            end.seats[0],
            SeatState::Ai {
                move_ms: 5,
                name: "optimal solver".into()
            }
        );
    }
}

#[tokio::test]
async fn unmovable_pieces_bad_levels_and_unfit_ais_are_refused() {
    let (server, _dir) = start_server("ewn-refusals");
    let mut person = Peer::connect(&server.url(), Format::Json).await;
    let mut spec = LevelSpec::of(&level(1));
    let room = person
        .create(GameSetup::Ewn(spec), vec![SeatSpec::Human])
        .await;
    let token = person.join(room, 0).await;
    // Level 1's first die is 3 and piece 3 is on the board: piece 1 may not move.
    person
        .send(ClientMsg::Move {
            room,
            token: token.clone(),
            version: 0,
            mv: ewn_move(1, 22),
        })
        .await;
    let reason = person.expect_error(ErrorCode::IllegalMove).await;
    assert!(reason.contains("may not move on die 3"), "{reason}");
    person
        .send(ClientMsg::Move {
            room,
            token,
            version: 0,
            mv: GameMove::Cave("a1".parse().unwrap()),
        })
        .await;
    person.expect_error(ErrorCode::IllegalMove).await;
    spec.target = 9;
    person
        .create_refused(
            GameSetup::Ewn(spec),
            vec![SeatSpec::Human],
            ErrorCode::BadRequest,
        )
        .await;
    spec.target = 2;
    // No moves allowed: once a room whose puzzle was lost before it began.
    let no_moves = LevelSpec {
        max_moves: 0,
        ..spec
    };
    person
        .create_refused(
            GameSetup::Ewn(no_moves),
            vec![SeatSpec::Human],
            ErrorCode::BadRequest,
        )
        .await;
    // The target on square 0 already: won before it began, nothing to play.
    let mut home = spec;
    home.start[usize::from(spec.target) - 1] = 0;
    let message = person
        .create_refused(
            GameSetup::Ewn(home),
            vec![SeatSpec::Human],
            ErrorCode::BadRequest,
        )
        .await;
    assert!(message.contains("already stands on square 0"), "{message}");
    assert!(person.list_rooms().await.iter().all(|r| r.room == room));
    let wrong_ai = vec![SeatSpec::Ai {
        move_ms: 5,
        kind: AiKind::Adversary,
    }];
    person
        .create_refused(GameSetup::Ewn(spec), wrong_ai, ErrorCode::BadRequest)
        .await;
    person
        .create_refused(
            GameSetup::Ewn(spec),
            vec![SeatSpec::Human; 2],
            ErrorCode::BadRequest,
        )
        .await;
}
