//! Rooms in progress outlive `kill -9`: the real `server` binary, rooms of every game played by
//! real WebSocket clients (players and a spectator), SIGKILL right after the last state is
//! seen, and a restart on the same data directory (or PostgreSQL database). Every room is back at its last move, its
//! players reclaim their seats with their tokens and play on, a spectator sees the same state,
//! finished games and HER's brains are intact, room ids are not reused, and the auto match goes
//! on from its round.

mod common;

use common::{Peer, Running, data_dir, paced_auto_match, start};
use parlor_engines::ewn::solve;
use parlor_server::store::postgres::test_database::TestDatabase;
use parlor_shared::bricks::BricksMove;
use parlor_shared::codec::Format;
use parlor_shared::ewn::{EwnMove, LevelSpec, Rules, parse_level};
use parlor_shared::game::{GameMove, GameSetup, GameState};
use parlor_shared::hexapawn::{Dims, HexMove, HexSetup, MatchView, PlayMode};
use parlor_shared::identity::PlayerSecret;
use parlor_shared::klotski::{Dir, KlotskiBoard, KlotskiMove, Move, parse_puzzle};
use parlor_shared::protocol::{
    AiKind, ClientMsg, ErrorCode, RoomId, RoomSnapshot, SeatSpec, SeatState, SeatToken, ServerMsg,
};

fn cave(square: &str) -> GameMove {
    GameMove::Cave(square.parse().unwrap())
}

fn slide(label: u16, dir: Dir) -> GameMove {
    GameMove::Klotski(KlotskiMove::Slide(Move { label, dir }))
}

fn ewn_solution() -> (GameSetup, Vec<GameMove>) {
    let path = format!("{}/../levels/ewn/level1.txt", env!("CARGO_MANIFEST_DIR"));
    let level = parse_level(&std::fs::read_to_string(path).unwrap(), Rules::default()).unwrap();
    let moves = solve(&level)
        .unwrap()
        .moves
        .iter()
        .map(|mv| {
            GameMove::Ewn(EwnMove {
                piece: mv.piece,
                to: mv.to,
            })
        })
        .collect();
    (GameSetup::Ewn(LevelSpec::of(&level)), moves)
}

/// A legal Magnetic Cave move in `state`.
fn some_cave_move(state: &RoomSnapshot) -> GameMove {
    let GameState::Cave(position) = &state.state else {
        panic!("not a Cave room")
    };
    GameMove::Cave(position.legal_squares().next().unwrap())
}

/// A legal pawn move for the person in a game against HER.
fn some_pawn_move(state: &RoomSnapshot) -> GameMove {
    let GameState::Hexapawn(game) = &state.state else {
        panic!("not a Hexapawn room")
    };
    GameMove::Hexapawn(HexMove::Play(game.position.legal_moves()[0]))
}

/// A drop one above the highest height known safe.
fn some_drop(state: &RoomSnapshot) -> GameMove {
    let GameState::Bricks(game) = &state.state else {
        panic!("not a Bricks room")
    };
    GameMove::Bricks(BricksMove::Drop(game.state().min_safe() + 1))
}

fn match_view(state: &RoomSnapshot) -> &MatchView {
    let GameState::HerMatch(view) = &state.state else {
        panic!("not an auto match")
    };
    view
}

/// A room played before the kill: its last state as seen and the tokens of its human seats.
struct Played {
    room: RoomId,
    last: RoomSnapshot,
    tokens: Vec<(u8, SeatToken)>,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_in_progress_are_back_at_their_last_move_after_kill_9() {
    let dir = data_dir();
    let data = dir.path().to_str().unwrap();
    rooms_survive_kill_9(&["--data", data]).await;
}

/// The same with the hall kept in PostgreSQL (`server --store`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_kept_in_postgres_are_back_at_their_last_move_after_kill_9() {
    let Some(database) = TestDatabase::create() else {
        return;
    };
    let url = database.url();
    rooms_survive_kill_9(&["--store", &url]).await;
}

/// Plays rooms of every game on a server started with `store` (where it keeps the hall),
/// kills it with SIGKILL, starts it again on the same store and checks what came back.
async fn rooms_survive_kill_9(store: &[&str]) {
    let server = start(store);
    let url = server.url.clone();

    // A finished game, stored before the kill.
    let mut host = Peer::connect(&url, Format::Json).await;
    let finished = host
        .create(GameSetup::Cave, vec![SeatSpec::ai(5), SeatSpec::ai(5)])
        .await;
    let end = host.watch(finished).await;
    let end = if end.record.is_some() {
        end
    } else {
        host.state_where(finished, |s| s.record.is_some()).await
    };
    let record = end.record.unwrap();

    // Magnetic Cave, person against person, with a spectator.
    let mut alice = Peer::connect(&url, Format::Json).await;
    let mut bob = Peer::connect(&url, Format::Json).await;
    let mut spectator = Peer::connect(&url, Format::Json).await;
    let cave_pvp = alice
        .create(GameSetup::Cave, vec![SeatSpec::Human, SeatSpec::Human])
        .await;
    let alice_token = alice.join(cave_pvp, 0).await;
    let bob_token = bob.join(cave_pvp, 1).await;
    spectator.watch(cave_pvp).await;
    alice
        .play_and_see(cave_pvp, &alice_token, 0, cave("a1"))
        .await;
    bob.play_and_see(cave_pvp, &bob_token, 1, cave("h8")).await;
    alice
        .play_and_see(cave_pvp, &alice_token, 2, cave("b1"))
        .await;

    // Magnetic Cave against the AI: the person's move and the AI's answer.
    let mut carol = Peer::connect(&url, Format::Json).await;
    let easy = SeatSpec::Ai {
        move_ms: 20,
        kind: AiKind::Easy,
    };
    let cave_ai = carol
        .create(GameSetup::Cave, vec![SeatSpec::Human, easy])
        .await;
    let carol_token = carol.join(cave_ai, 0).await;
    carol.send_move(cave_ai, &carol_token, 0, cave("a1")).await;
    let cave_ai_last = carol.state_where(cave_ai, |s| s.version == 2).await;

    // The EWN puzzle: two moves of level 1's solution.
    let (ewn_setup, ewn_moves) = ewn_solution();
    let mut dave = Peer::connect(&url, Format::Json).await;
    let ewn = dave.create(ewn_setup, vec![SeatSpec::Human]).await;
    let dave_token = dave.join(ewn, 0).await;
    dave.play_and_see(ewn, &dave_token, 0, ewn_moves[0]).await;
    let ewn_last = dave.play_and_see(ewn, &dave_token, 1, ewn_moves[1]).await;

    // Numeric Klotski: one slide of two.
    let mut erin = Peer::connect(&url, Format::Json).await;
    let board = KlotskiBoard::of(&parse_puzzle("3 3\n1 2 3\n4 0 5\n7 8 6\n0\n").unwrap());
    let klotski = erin
        .create(GameSetup::Klotski(board), vec![SeatSpec::Human])
        .await;
    let erin_token = erin.join(klotski, 0).await;
    let klotski_last = erin
        .play_and_see(klotski, &erin_token, 0, slide(5, Dir::Left))
        .await;

    // Hexapawn against HER in slow mode: the person's pawn, then HER's own draw.
    let mut frank = Peer::connect(&url, Format::Json).await;
    let hexapawn = frank
        .create(
            GameSetup::Hexapawn(HexSetup {
                dims: Dims::HEXAPAWN,
                mirrors: false,
                mode: PlayMode::Slow,
                brain: "HER".into(),
            }),
            vec![SeatSpec::Human, SeatSpec::ai(100)],
        )
        .await;
    let frank_token = frank.join(hexapawn, 0).await;
    let first = frank.state_where(hexapawn, |_| true).await;
    frank
        .play_and_see(hexapawn, &frank_token, 0, some_pawn_move(&first))
        .await;
    let hexapawn_last = frank
        .play_and_see(
            hexapawn,
            &frank_token,
            1,
            GameMove::Hexapawn(HexMove::HerPicks),
        )
        .await;

    // Dropping Bricks: the person drops, an oracle with a secret strength answers.
    let mut grace = Peer::connect(&url, Format::Json).await;
    let oracle = SeatSpec::Ai {
        move_ms: 20,
        kind: AiKind::Oracle { strength: None },
    };
    let bricks = grace
        .create(
            GameSetup::Bricks {
                height: 100,
                drops: 14,
                bricks: 2,
            },
            vec![SeatSpec::Human, oracle],
        )
        .await;
    let grace_token = grace.join(bricks, 0).await;
    grace
        .send_move(
            bricks,
            &grace_token,
            0,
            GameMove::Bricks(BricksMove::Drop(50)),
        )
        .await;
    let bricks_last = grace.state_where(bricks, |s| s.version == 2).await;

    // Dropping Bricks between two AIs, paced so that the game is going on at the kill.
    let mut ivy = Peer::connect(&url, Format::Json).await;
    let paced = |kind| SeatSpec::Ai { move_ms: 150, kind };
    let bricks_ai = ivy
        .create(
            GameSetup::Bricks {
                height: 1000,
                drops: 30,
                bricks: 3,
            },
            vec![paced(AiKind::WinningAgent), paced(AiKind::Adversary)],
        )
        .await;
    ivy.send(ClientMsg::Watch { room: bricks_ai }).await;
    let bricks_ai_seen = ivy.state_where(bricks_ai, |s| s.version >= 2).await;

    // An auto match, seen past round 200. It is paced (on 4x4, so that its rounds last some
    // plies) to be still going on at the kill: at full speed a match ends within seconds.
    let henry_is = PlayerSecret::random();
    let mut henry = Peer::connect_as(&url, Format::Json, &henry_is).await;
    let auto = henry.create(paced_auto_match(), vec![]).await;
    henry.send(ClientMsg::Watch { room: auto }).await;
    let auto_seen = henry
        .state_where(auto, |s| match_view(s).rounds_played >= 200)
        .await;

    // The last state of the person-against-person room, as its spectator sees it; then kill.
    let cave_pvp_last = spectator.state_where(cave_pvp, |s| s.version == 3).await;
    Running::kill_9(server);

    let played = [
        Played {
            room: cave_pvp,
            last: cave_pvp_last,
            // Bob, seat 1, is to move.
            tokens: vec![(1, bob_token.clone()), (0, alice_token.clone())],
        },
        Played {
            room: cave_ai,
            last: cave_ai_last,
            tokens: vec![(0, carol_token)],
        },
        Played {
            room: ewn,
            last: ewn_last,
            tokens: vec![(0, dave_token)],
        },
        Played {
            room: klotski,
            last: klotski_last,
            tokens: vec![(0, erin_token)],
        },
        Played {
            room: hexapawn,
            last: hexapawn_last,
            tokens: vec![(0, frank_token)],
        },
        Played {
            room: bricks,
            last: bricks_last,
            tokens: vec![(0, grace_token)],
        },
    ];

    let server = start(store);
    let url = server.url.clone();
    // Henry again: the match's brains are his (the list shows a player's own brains).
    let mut lobby = Peer::connect_as(&url, Format::Json, &henry_is).await;

    // Every room is listed at its last version, with its players away.
    let rooms = lobby.list_rooms().await;
    for game in &played {
        let summary = rooms
            .iter()
            .find(|summary| summary.room == game.room)
            .unwrap_or_else(|| panic!("room {} is not listed: {rooms:?}", game.room));
        assert_eq!(summary.version, game.last.version, "{summary:?}");
        assert_eq!(summary.moves, parlor_shared::game::turns(&game.last.moves));
        assert_eq!(summary.outcome, None);
        for &(seat, _) in &game.tokens {
            // Away, and still the player's who took it: a new window of theirs takes it back.
            assert!(
                matches!(
                    &summary.seats[seat as usize],
                    SeatState::Taken {
                        connected: false,
                        player: Some(_)
                    }
                ),
                "{summary:?}"
            );
        }
    }
    assert!(rooms.iter().any(|summary| summary.room == auto));
    assert!(!rooms.iter().any(|summary| summary.room == finished));

    // A spectator watching again gets the same state, every move of it.
    let mut watcher = Peer::connect(&url, Format::Json).await;
    for game in &played {
        let again = watcher.watch(game.room).await;
        assert_eq!(again.version, game.last.version, "room {}", game.room);
        assert_eq!(again.moves, game.last.moves, "room {}", game.room);
        assert_eq!(again.state, game.last.state, "room {}", game.room);
        assert_eq!(again.outcome, None);
    }

    // Seats stay taken: nobody joins them, and a token of another room or seat is refused.
    let mut stranger = Peer::connect(&url, Format::Json).await;
    stranger.send(ClientMsg::join_seat(cave_pvp, 1)).await;
    stranger.expect_error(ErrorCode::SeatTaken).await;
    stranger
        .send(ClientMsg::Reclaim {
            room: ewn,
            token: alice_token.clone(),
        })
        .await;
    stranger.expect_error(ErrorCode::BadToken).await;
    // Alice's token is seat 0's: it cannot make seat 1's move.
    let mut alice = Peer::connect(&url, Format::Json).await;
    assert_eq!(alice.reclaim(cave_pvp, &alice_token).await, 0);
    alice.send_move(cave_pvp, &alice_token, 3, cave("a2")).await;
    alice.expect_error(ErrorCode::NotYourTurn).await;

    // Every player reclaims the seat with the token and the next move is accepted.
    for game in &played {
        let mut player = Peer::connect(&url, Format::Json).await;
        let (seat, token) = &game.tokens[0];
        assert_eq!(player.reclaim(game.room, token).await, *seat);
        let now = player.state_where(game.room, |_| true).await;
        assert_eq!(now.version, game.last.version);
        let version = now.version;
        let mv = if game.room == cave_pvp || game.room == cave_ai {
            some_cave_move(&now)
        } else if game.room == ewn {
            ewn_moves[2]
        } else if game.room == klotski {
            slide(6, Dir::Up)
        } else if game.room == hexapawn {
            some_pawn_move(&now)
        } else {
            some_drop(&now)
        };
        let next = player.play_and_see(game.room, token, version, mv).await;
        assert_eq!(next.moves[..game.last.moves.len()], game.last.moves[..]);
        assert_eq!(next.moves[game.last.moves.len()], mv);
        if game.room == klotski {
            // The last slide solves the puzzle: the game is stored.
            assert!(next.outcome.is_some());
            if next.record.is_none() {
                player.state_where(klotski, |s| s.record.is_some()).await;
            }
        }
        // The AI seat answers after the restart too (maybe already in `next`: a reader that
        // falls behind gets only the newest state).
        if (game.room == cave_ai || game.room == bricks) && next.version < version + 2 {
            player
                .state_where(game.room, |s| s.version >= version + 2)
                .await;
        }
    }

    // The finished game from before is intact.
    lobby.send(ClientMsg::ListRecords).await;
    let records = lobby
        .recv_until(|m| match m {
            ServerMsg::Records(records) => Some(records),
            _ => None,
        })
        .await;
    assert!(records.iter().any(|summary| summary.id == record));
    let stored = lobby.record(record).await;
    assert_eq!(stored.moves, end.moves);
    assert_eq!(Some(stored.summary.outcome), end.outcome);

    // A new room gets a new id.
    let newest = [
        finished, cave_pvp, cave_ai, ewn, klotski, hexapawn, bricks, bricks_ai, auto,
    ];
    let fresh = lobby
        .create(GameSetup::Cave, vec![SeatSpec::Human, SeatSpec::Human])
        .await;
    assert!(newest.iter().all(|&old| fresh > old), "room {fresh} reused");

    // The AIs play on from where they were.
    let mut fan = Peer::connect(&url, Format::Json).await;
    let back = fan.watch(bricks_ai).await;
    assert!(back.version >= bricks_ai_seen.version, "{back:?}");
    assert_eq!(
        back.moves[..bricks_ai_seen.moves.len()],
        bricks_ai_seen.moves[..]
    );
    let on = fan
        .state_where(bricks_ai, |s| s.version > back.version)
        .await;
    assert_eq!(on.moves[..back.moves.len()], back.moves[..]);

    // The auto match goes on from its round, with its brains as stored.
    let resumed = fan.watch(auto).await;
    let seen = match_view(&auto_seen);
    let view = match_view(&resumed);
    assert!(view.rounds_played >= seen.rounds_played, "{view:?}");
    assert_eq!(view.stats[0].wins + view.stats[1].wins, view.rounds_played);
    assert!(view.stats[0].wins >= seen.stats[0].wins);
    assert!(view.stats[1].wins >= seen.stats[1].wins);
    if view.rounds_per_point == seen.rounds_per_point {
        assert_eq!(view.curve[..seen.curve.len()], seen.curve[..]);
    }
    let later = fan
        .state_where(auto, |s| {
            match_view(s).rounds_played > view.rounds_played + 100
        })
        .await;
    assert!(!match_view(&later).finished);
    lobby.send(ClientMsg::ListBrains).await;
    let brains = lobby
        .recv_until(|m| match m {
            ServerMsg::Brains(brains) => Some(brains),
            _ => None,
        })
        .await;
    for name in ["left", "right"] {
        let brain = brains.iter().find(|brain| brain.name == name).unwrap();
        assert!(brain.games >= view.rounds_played, "{brain:?}");
    }
}
