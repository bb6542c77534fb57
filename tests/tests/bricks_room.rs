//! Dropping Bricks rooms over loopback: AI agents against people answering, people dropping
//! against the adversary, and setups the server must refuse.

mod common;

use common::{Peer, start_server};
use parlor_shared::bricks::{Answer, BricksMove, Turn};
use parlor_shared::codec::Format;
use parlor_shared::game::{GameMove, GameSetup, GameState, Outcome};
use parlor_shared::protocol::{AiKind, ClientMsg, ErrorCode, RoomSnapshot, SeatSpec, SeatState};

fn turn(snapshot: &RoomSnapshot) -> Turn {
    match &snapshot.state {
        GameState::Bricks(game) => game.turn(),
        other => panic!("not a bricks room: {other:?}"),
    }
}

#[tokio::test]
async fn the_winning_agent_finds_the_strength_a_person_answers_truthfully() {
    let (server, _dir) = start_server("bricks-agent");
    let mut person = Peer::connect(&server.url(), Format::Json).await;
    let mut watcher = Peer::connect(&server.url(), Format::Binary).await;
    let setup = GameSetup::Bricks {
        height: 100,
        drops: 14,
        bricks: 2,
    };
    let seats = vec![
        SeatSpec::Ai {
            move_ms: 100,
            kind: AiKind::WinningAgent,
        },
        SeatSpec::Human,
    ];
    let room = person.create(setup, seats).await;
    let token = person.join(room, 1).await;
    watcher.send(ClientMsg::Watch { room }).await;
    let strength = 37;
    // The person's turn (or the end) after the state a wait started from: a reader that falls
    // behind gets only the newest state, so waiting for each state in turn could hang.
    let not_the_agents =
        |after: u64| move |s: &RoomSnapshot| s.version > after && !matches!(turn(s), Turn::Agent);
    let mut state = person.state_where(room, not_the_agents(0)).await;
    let end = loop {
        let Turn::Answerer { height } = turn(&state) else {
            break state;
        };
        let answer = if height <= strength {
            Answer::Safe
        } else {
            Answer::Broken
        };
        let mv = GameMove::Bricks(BricksMove::Answer(answer));
        person.send_move(room, &token, state.version, mv).await;
        state = person
            .state_where(room, not_the_agents(state.version))
            .await;
    };
    assert_eq!(end.outcome, Some(Outcome::Won { seat: 0 }));
    let GameState::Bricks(game) = &end.state else {
        unreachable!()
    };
    assert_eq!(
        (game.state().min_safe(), game.state().max_safe()),
        (strength, strength)
    );
    assert!(end.moves.len() <= 2 * 14);
    let seen = watcher.state_where(room, |s| s.record.is_some()).await;
    assert_eq!(seen.moves, end.moves);
    assert_eq!(
        seen.seats[0],
        SeatState::Ai {
            move_ms: 100,
            name: "winning agent".into()
        }
    );
}

#[tokio::test]
async fn the_adversary_beats_a_person_when_the_start_cannot_be_won() {
    let (server, _dir) = start_server("bricks-adversary");
    let mut person = Peer::connect(&server.url(), Format::Binary).await;
    // f(4, 1) = 4 < 10: with one brick and four drops, ten heights cannot all be told apart.
    let setup = GameSetup::Bricks {
        height: 10,
        drops: 4,
        bricks: 1,
    };
    let seats = vec![
        SeatSpec::Human,
        SeatSpec::Ai {
            move_ms: 100,
            kind: AiKind::Adversary,
        },
    ];
    let room = person.create(setup, seats).await;
    let token = person.join(room, 0).await;
    let mut state = person.state_where(room, |_| true).await;
    while state.outcome.is_none() {
        let GameState::Bricks(game) = &state.state else {
            unreachable!()
        };
        // The person climbs one height at a time, the only safe way with one brick.
        let mv = GameMove::Bricks(BricksMove::Drop(game.state().min_safe() + 1));
        person.send_move(room, &token, state.version, mv).await;
        state = person
            .state_where(room, |s| {
                s.version == state.version + 2 || s.outcome.is_some()
            })
            .await;
    }
    assert_eq!(state.outcome, Some(Outcome::Won { seat: 1 }));
}

#[tokio::test]
async fn moves_out_of_turn_or_range_and_unfit_setups_are_refused() {
    let (server, _dir) = start_server("bricks-refusals");
    let mut person = Peer::connect(&server.url(), Format::Json).await;
    let setup = GameSetup::Bricks {
        height: 20,
        drops: 5,
        bricks: 2,
    };
    for (seats, why) in [
        (
            vec![
                SeatSpec::Ai {
                    move_ms: 10,
                    kind: AiKind::Adversary,
                },
                SeatSpec::Human,
            ],
            "cannot play seat 0",
        ),
        (
            vec![
                SeatSpec::Human,
                SeatSpec::Ai {
                    move_ms: 10,
                    kind: AiKind::WinningAgent,
                },
            ],
            "cannot play seat 1",
        ),
        (
            vec![
                SeatSpec::Human,
                SeatSpec::Ai {
                    move_ms: 10,
                    kind: AiKind::Oracle { strength: Some(21) },
                },
            ],
            "outside 0..=20",
        ),
    ] {
        let reason = person
            .create_refused(setup.clone(), seats, ErrorCode::BadRequest)
            .await;
        assert!(reason.contains(why), "{reason}");
    }
    let zero = GameSetup::Bricks {
        height: 0,
        drops: 5,
        bricks: 2,
    };
    person
        .create_refused(zero, vec![SeatSpec::Human; 2], ErrorCode::BadRequest)
        .await;
    let cave_ai = vec![
        SeatSpec::Human,
        SeatSpec::Ai {
            move_ms: 10,
            kind: AiKind::Adversary,
        },
    ];
    person
        .create_refused(GameSetup::Cave, cave_ai, ErrorCode::BadRequest)
        .await;

    let room = person.create(setup.clone(), vec![SeatSpec::Human; 2]).await;
    let agent = person.join(room, 0).await;
    let answerer = person.join(room, 1).await;
    let answer = GameMove::Bricks(BricksMove::Answer(Answer::Safe));
    person
        .send(ClientMsg::Move {
            room,
            token: answerer.clone(),
            version: 0,
            mv: answer,
        })
        .await;
    person.expect_error(ErrorCode::NotYourTurn).await;
    let too_high = GameMove::Bricks(BricksMove::Drop(21));
    person
        .send(ClientMsg::Move {
            room,
            token: agent.clone(),
            version: 0,
            mv: too_high,
        })
        .await;
    let reason = person.expect_error(ErrorCode::IllegalMove).await;
    assert!(
        reason.contains("outside the open heights 1..=20"),
        "{reason}"
    );
    let cave_move = GameMove::Cave("a1".parse().unwrap());
    person
        .send(ClientMsg::Move {
            room,
            token: agent.clone(),
            version: 0,
            mv: cave_move,
        })
        .await;
    person.expect_error(ErrorCode::IllegalMove).await;
    // The oracle's secret strength is nowhere in what spectators see.
    let secret = person
        .create(
            setup,
            vec![
                SeatSpec::Human,
                SeatSpec::Ai {
                    move_ms: 10,
                    kind: AiKind::Oracle { strength: Some(13) },
                },
            ],
        )
        .await;
    person.send(ClientMsg::Watch { room: secret }).await;
    let seen = person.state_where(secret, |_| true).await;
    assert_eq!(
        seen.seats[1],
        SeatState::Ai {
            move_ms: 10,
            name: "honest oracle".into()
        }
    );
}

/// A 10-floor tower, 6 drops and 2 bricks, the winning agent against `answerer`, both AIs
/// taking `move_ms` a move.
fn winning_agent_against(answerer: AiKind, move_ms: u32) -> (GameSetup, Vec<SeatSpec>) {
    let setup = GameSetup::Bricks {
        height: 10,
        drops: 6,
        bricks: 2,
    };
    let ai = |kind| SeatSpec::Ai { move_ms, kind };
    (setup, vec![ai(AiKind::WinningAgent), ai(answerer)])
}

#[tokio::test]
async fn ai_against_ai_is_paced_by_the_budget_so_spectators_can_follow() {
    let (server, _dir) = start_server("bricks-paced");
    let mut watcher = Peer::connect(&server.url(), Format::Binary).await;
    let (setup, seats) = winning_agent_against(AiKind::Adversary, 40);
    let started = std::time::Instant::now();
    let room = watcher.create(setup, seats).await;
    watcher.send(ClientMsg::Watch { room }).await;
    let end = watcher.state_where(room, |s| s.outcome.is_some()).await;
    assert_eq!(
        end.outcome,
        Some(Outcome::Won { seat: 0 }),
        "f(6, 2) = 21 >= 10"
    );
    // Each move waits out its 40 ms budget: a lower bound, whatever the machine's speed.
    let paced = std::time::Duration::from_millis(40) * end.moves.len() as u32;
    assert!(
        started.elapsed() >= paced,
        "{:?} for {} moves",
        started.elapsed(),
        end.moves.len()
    );
}

#[tokio::test]
async fn an_oracles_secret_strength_is_told_once_the_game_is_over() {
    let (server, _dir) = start_server("bricks-oracle-told");
    let mut watcher = Peer::connect(&server.url(), Format::Binary).await;
    let (setup, seats) = winning_agent_against(AiKind::Oracle { strength: Some(3) }, 1);
    let room = watcher.create(setup, seats).await;
    watcher.send(ClientMsg::Watch { room }).await;
    let over = watcher.state_where(room, |s| s.outcome.is_some()).await;
    assert_eq!(
        over.seats[1],
        SeatState::Ai {
            move_ms: 1,
            name: "honest oracle, strength 3".into()
        }
    );
}
