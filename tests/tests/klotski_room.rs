//! Numeric Klotski rooms over loopback: a person sliding by hand with the server checking every
//! slide, the solver seat playing a shortest solution for a spectator (who then replays it from
//! the store), the solver giving up on a board proved unsolvable, and boards refused.

mod common;

use common::{Peer, start_server};
use parlor_engines::klotski::{SolveOptions, Verdict, solve};
use parlor_shared::codec::Format;
use parlor_shared::game::{GameMove, GameSetup, GameState, Outcome};
use parlor_shared::klotski::{
    Dir, GiveUpReason, KlotskiBoard, KlotskiMove, KlotskiStatus, Move, parse_puzzle,
};
use parlor_shared::protocol::{ClientMsg, ErrorCode, SeatSpec};

fn board(text: &str) -> KlotskiBoard {
    KlotskiBoard::of(&parse_puzzle(text).unwrap())
}

fn course_input(name: &str) -> String {
    let path = format!("{}/../levels/klotski/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap()
}

fn slide(label: u16, dir: Dir) -> GameMove {
    GameMove::Klotski(KlotskiMove::Slide(Move { label, dir }))
}

fn klotski_status(state: &GameState) -> KlotskiStatus {
    match state {
        GameState::Klotski(game) => game.status(),
        other => panic!("not a Klotski state: {other:?}"),
    }
}

#[tokio::test]
async fn a_person_slides_by_hand_and_the_server_refuses_what_the_rules_refuse() {
    let (server, _dir) = start_server("klotski-person");
    let mut person = Peer::connect(&server.url(), Format::Binary).await;
    let room = person
        .create(
            GameSetup::Klotski(board("2 3\n1 2 3\n4 0 5\n0\n")),
            vec![SeatSpec::Human],
        )
        .await;
    let token = person.join(room, 0).await;
    for mv in [
        slide(1, Dir::Down),
        slide(9, Dir::Up),
        GameMove::Cave("a1".parse().unwrap()),
        // The solver's words are not a person's to claim.
        GameMove::Klotski(KlotskiMove::GiveUp(GiveUpReason::NoSolution)),
        slide(5, Dir::Left),
    ] {
        person.send_move(room, &token, 0, mv).await;
    }
    for reason in [
        "blocked",
        "no piece has top-left number 9",
        "Magnetic Cave",
        "only the solver gives up",
    ] {
        let message = person.expect_error(ErrorCode::IllegalMove).await;
        assert!(message.contains(reason), "{message}");
    }
    let solved = person.state_where(room, |s| s.version == 1).await;
    assert_eq!(klotski_status(&solved.state), KlotskiStatus::Solved);
    assert_eq!(solved.outcome, Some(Outcome::Won { seat: 0 }));
    person
        .send_move(room, &token, 1, slide(5, Dir::Right))
        .await;
    person.expect_error(ErrorCode::GameOver).await;
}

#[tokio::test]
async fn the_solver_seat_plays_a_shortest_solution_that_replays_from_the_store() {
    let text = course_input("lunaqu4kez_extra_04.in");
    let puzzle = parse_puzzle(&text).unwrap();
    // Its shortest solution, as the brute-force reference confirms it (the course table in
    // shared/src/klotski/tests/golden.rs), not as the server's solver finds it.
    const SHORTEST: usize = 17;
    let (server, _dir) = start_server("klotski-solver");
    let mut watcher = Peer::connect(&server.url(), Format::Json).await;
    let room = watcher
        .create(
            GameSetup::Klotski(KlotskiBoard::of(&puzzle)),
            vec![SeatSpec::ai(1)],
        )
        .await;
    watcher.send(ClientMsg::Watch { room }).await;
    let end = watcher.state_where(room, |s| s.record.is_some()).await;
    assert_eq!(klotski_status(&end.state), KlotskiStatus::Solved);
    assert_eq!(end.moves.len(), SHORTEST);
    let record = watcher.record(end.record.unwrap()).await;
    let states = record.start.replay(&record.moves).unwrap();
    assert_eq!(states.last(), Some(&end.state));
}

#[tokio::test]
async fn a_spectator_has_the_whole_solution_at_once_while_the_room_plays_it_step_by_step() {
    let puzzle = parse_puzzle(&course_input("lunaqu4kez_extra_04.in")).unwrap();
    let (server, _dir) = start_server("klotski-plan-ahead");
    let mut watcher = Peer::connect(&server.url(), Format::Binary).await;
    let setup = GameSetup::Klotski(KlotskiBoard::of(&puzzle));
    // Slow enough that the room is still playing when the solution is seen.
    let room = watcher.create(setup.clone(), vec![SeatSpec::ai(300)]).await;
    watcher.send(ClientMsg::Watch { room }).await;
    let early = watcher.state_where(room, |s| !s.moves.is_empty()).await;
    assert!(early.outcome.is_none(), "the room still plays");
    assert!(
        !early.plan_ahead.is_empty(),
        "the rest of the solution is there"
    );
    let solution: Vec<GameMove> = early
        .moves
        .iter()
        .chain(&early.plan_ahead)
        .copied()
        .collect();
    assert_eq!(solution.len(), 17);
    let states = setup.start().unwrap().replay(&solution).unwrap();
    assert_eq!(
        klotski_status(states.last().unwrap()),
        KlotskiStatus::Solved
    );
    // The room then plays just that, and an ended room has nothing ahead.
    let end = watcher.state_where(room, |s| s.outcome.is_some()).await;
    assert_eq!(end.moves, solution);
    assert!(end.plan_ahead.is_empty());
}

#[tokio::test]
async fn the_solver_gives_up_on_a_board_proved_unsolvable() {
    // Two tiles swapped on a one-blank board: an odd permutation, which no slides undo.
    let text = "2 2\n2 1\n3 0\n0\n";
    let verdict = solve(&parse_puzzle(text).unwrap(), &SolveOptions::default()).verdict;
    assert!(matches!(verdict, Verdict::Unsolvable(_)), "{verdict:?}");
    let (server, _dir) = start_server("klotski-no");
    let mut watcher = Peer::connect(&server.url(), Format::Binary).await;
    let room = watcher
        .create(GameSetup::Klotski(board(text)), vec![SeatSpec::ai(1)])
        .await;
    watcher.send(ClientMsg::Watch { room }).await;
    let end = watcher.state_where(room, |s| s.outcome.is_some()).await;
    assert_eq!(
        klotski_status(&end.state),
        KlotskiStatus::GaveUp(GiveUpReason::NoSolution)
    );
    assert_eq!(end.outcome, Some(Outcome::Unsolved));
}

#[tokio::test]
async fn boards_that_are_not_puzzles_or_already_solved_are_refused_before_anything_is_made() {
    let (server, _dir) = start_server("klotski-bad");
    let mut person = Peer::connect(&server.url(), Format::Json).await;
    let too_large = KlotskiBoard {
        rows: 250,
        cols: 250,
        grid: vec![0; 4],
        blocks: vec![],
    };
    let repeated = KlotskiBoard {
        rows: 1,
        cols: 3,
        grid: vec![1, 1, 0],
        blocks: vec![],
    };
    let block_on_blank = KlotskiBoard {
        rows: 2,
        cols: 2,
        grid: vec![1, 0, 2, 0],
        blocks: vec![(1, parlor_shared::klotski::Shape::Wide)],
    };
    // Solved already: it would be stored at once, outside every quota on unfinished rooms.
    let solved = board("2 3\n1 2 3\n4 5 0\n0\n");
    for (bad, reason) in [
        (too_large, "at most 64 cells"),
        (repeated, "repeated"),
        (block_on_blank, "cover a blank"),
        (solved, "already solved"),
    ] {
        let message = person
            .create_refused(
                GameSetup::Klotski(bad),
                vec![SeatSpec::Human],
                ErrorCode::BadRequest,
            )
            .await;
        assert!(message.contains(reason), "{message}");
    }
    let rooms = person.list_rooms().await;
    assert!(rooms.is_empty());
}
