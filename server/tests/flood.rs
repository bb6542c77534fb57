//! One address floods the real `server` binary (stored on disk) with many players' rooms, AI
//! rooms, auto matches and a trickling brain import, while a person at another address plays:
//! the flood stops at its address's quotas, the trickle is cut, and the person's moves and AI
//! answers go on. Prints the figures (`cargo test -p parlor-server --release --test flood --
//! --nocapture`): the person's move latency and AI reply time (p50/p99/max), the server's
//! memory, and the store's growth per hour.

mod common;

use std::net::IpAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use common::{Peer, cave, start};
use parlor_shared::brain_parts;
use parlor_shared::codec::Format;
use parlor_shared::game::{GameMove, GameSetup, GameState};
use parlor_shared::hexapawn::{Dims, MatchSetup, Pace};
use parlor_shared::identity::PlayerSecret;
use parlor_shared::protocol::{ClientMsg, ErrorCode, SeatSpec, ServerMsg};

const FLOODER: [u8; 4] = [127, 0, 0, 1];
/// A second flooding address, whose matches fill the server's cap of 8 with the first's.
const SECOND_FLOODER: [u8; 4] = [127, 0, 0, 3];
const PERSON: [u8; 4] = [127, 0, 0, 2];
/// How many identities the flood makes: identities cost nothing.
const FLOOD_PLAYERS: usize = 24;
/// The person's games of 14 timed moves each (within their quota of rooms).
const PERSON_GAMES: usize = 6;
/// The person's AI answers timed.
const TIMED_AI_MOVES: u64 = 10;

/// What a server of the default limits lets one address keep (`Limits::per_address`).
const ADDRESS_ROOMS: usize = 64;
const ADDRESS_AI_ROOMS: usize = 16;
const ADDRESS_MATCHES: usize = 4;

async fn flooder(url: &str) -> Peer {
    flooder_at(url, FLOODER).await
}

async fn flooder_at(url: &str, address: [u8; 4]) -> Peer {
    let from = IpAddr::from(address);
    Peer::connect_from(url, Format::Binary, from, &PlayerSecret::random()).await
}

/// Creates `setup` rooms from fresh identities at the flooder's address until refused;
/// how many were made, and the refusal.
async fn flood_rooms(url: &str, setup: GameSetup, seats: Vec<SeatSpec>) -> (usize, String) {
    let mut made = 0;
    for _ in 0..FLOOD_PLAYERS {
        let mut peer = flooder(url).await;
        loop {
            peer.send(ClientMsg::CreateRoom {
                setup: setup.clone(),
                seats: seats.clone(),
            })
            .await;
            let answer = peer
                .recv_until(|m| match m {
                    ServerMsg::RoomCreated { .. } => Some(None),
                    ServerMsg::RoomRefused { code, message } => Some(Some((code, message))),
                    _ => None,
                })
                .await;
            match answer {
                None => made += 1,
                Some((ErrorCode::LimitReached, message)) if message.contains("a player") => break,
                Some((code, message)) => {
                    assert_eq!(code, ErrorCode::LimitReached, "{message}");
                    return (made, message);
                }
            }
        }
    }
    panic!("{FLOOD_PLAYERS} players made {made} rooms and were never refused as one address");
}

fn percentiles(mut samples: Vec<Duration>) -> String {
    samples.sort();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize].as_millis();
    format!(
        "p50 {} ms, p99 {} ms, max {} ms",
        at(0.5),
        at(0.99),
        at(1.0)
    )
}

/// The server's resident memory now and at its peak, in MiB.
fn memory_mib(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let field = |name: &str| {
        let line = status.lines().find(|l| l.starts_with(name)).unwrap();
        line.split_whitespace()
            .nth(1)
            .unwrap()
            .parse::<u64>()
            .unwrap()
            / 1024
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn store_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter_map(|entry| entry.metadata().ok())
        .map(|meta| meta.len())
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flooding_address_stops_at_its_quotas_while_a_person_elsewhere_plays_on() {
    let data = common::data_dir();
    let data_arg = data.path().to_str().unwrap();
    let server = start(&["--data", data_arg]);
    let url = server.url.clone();
    let pid = server.child.id();
    let before = store_bytes(data.path());
    let started = Instant::now();

    // Matches first (each at full speed on 8x8, a thread and two growing brains), then AI
    // rooms, then plain rooms: each kind stops at the address's quota.
    let auto = |n: usize| {
        GameSetup::HerMatch(MatchSetup {
            dims: Dims::new(8, 8).unwrap(),
            mirrors: false,
            rounds: 1_000_000,
            pace: Pace::FullSpeed,
            brains: [format!("flood {n} a"), format!("flood {n} b")],
        })
    };
    let mut matches = [0; 2];
    for (made, address) in matches.iter_mut().zip([FLOODER, SECOND_FLOODER]) {
        for n in 0..FLOOD_PLAYERS {
            let mut peer = flooder_at(&url, address).await;
            peer.send(ClientMsg::CreateRoom {
                setup: auto(n),
                seats: vec![],
            })
            .await;
            let created = peer
                .recv_until(|m| match m {
                    ServerMsg::RoomCreated { .. } => Some(true),
                    ServerMsg::RoomRefused { .. } => Some(false),
                    _ => None,
                })
                .await;
            if !created {
                break;
            }
            *made += 1;
        }
    }
    // Each address stops at its quota; together they fill the server's 8.
    let [matches, second_matches] = matches;
    assert_eq!(second_matches, ADDRESS_MATCHES);
    assert_eq!(matches, ADDRESS_MATCHES);
    let ai_seats = vec![SeatSpec::ai(3000), SeatSpec::ai(3000)];
    let (ai_rooms, refusal) = flood_rooms(&url, GameSetup::Cave, ai_seats).await;
    assert_eq!(ai_rooms, ADDRESS_AI_ROOMS, "{refusal}");
    assert!(refusal.contains("one address"), "{refusal}");
    let humans = vec![SeatSpec::Human, SeatSpec::Human];
    let (plain, refusal) = flood_rooms(&url, GameSetup::Cave, humans.clone()).await;
    assert_eq!(
        matches + ai_rooms + plain,
        ADDRESS_ROOMS,
        "every kind counts in the address's rooms: {refusal}"
    );

    // A trickling import: a tiny part every 12 s (well within the 30 s allowed between parts)
    // holds a transfer place until the rate rule cuts it.
    let mut trickler = flooder(&url).await;
    let trickle = tokio::spawn(async move {
        let begun = Instant::now();
        let part = |part| ClientMsg::ImportBrain {
            name: "trickle".into(),
            part,
            parts: 100,
            json: "x".into(),
        };
        trickler.send(part(0)).await;
        for n in 1..3 {
            tokio::time::sleep_until((begun + Duration::from_secs(12) * n).into()).await;
            if !trickler.try_send(part(n)).await {
                break;
            }
        }
        let cut = trickler
            .recv_until(|m| match m {
                ServerMsg::Error { message, .. } if message.contains("stalled") => Some(message),
                _ => None,
            })
            .await;
        (cut, begun.elapsed())
    });

    // Meanwhile a person at another address plays a game and an AI room.
    let me = PlayerSecret::random();
    let from = IpAddr::from(PERSON);
    let mut black = Peer::connect_from(&url, Format::Binary, from, &me).await;
    let mut white = Peer::connect_from(&url, Format::Binary, from, &me).await;
    let mut move_latency: Vec<Duration> = Vec::new();
    // Both walls filled in alternating colours: every move legal, no five.
    let cells = [
        "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "h2", "h1", "h4", "h3", "h6", "h5",
    ];
    for _ in 0..PERSON_GAMES {
        let room = black.create_room(humans.clone()).await;
        let black_token = black.join(room, 0).await;
        let white_token = white.join(room, 1).await;
        for (version, cell) in cells.into_iter().enumerate() {
            let (mover, token, other) = if version % 2 == 0 {
                (&mut black, &black_token, &mut white)
            } else {
                (&mut white, &white_token, &mut black)
            };
            let sent = Instant::now();
            mover
                .send_move(room, token, version as u64, cave(cell))
                .await;
            other
                .state_where(room, |s| s.version == version as u64 + 1)
                .await;
            move_latency.push(sent.elapsed());
        }
        // Closed, not left: a room that closed is followed no more, so the person's quota of
        // rooms followed does not fill up with games gone.
        black.send(ClientMsg::CloseRoom { room }).await;
    }

    let mut ai_replies: Vec<Duration> = Vec::new();
    let ai_room = black
        .create_room(vec![SeatSpec::Human, SeatSpec::ai(100)])
        .await;
    let token = black.join(ai_room, 0).await;
    let mut seen = GameSetup::Cave.start().unwrap();
    for version in (0..TIMED_AI_MOVES).map(|n| 2 * n) {
        let GameState::Cave(position) = &seen else {
            panic!("a Magnetic Cave room")
        };
        let square = position.legal_squares().next().unwrap();
        let sent = Instant::now();
        black
            .send_move(ai_room, &token, version, GameMove::Cave(square))
            .await;
        let answered = black
            .state_where(ai_room, |s| s.version == version + 2 || s.outcome.is_some())
            .await;
        ai_replies.push(sent.elapsed());
        if answered.outcome.is_some() {
            break;
        }
        seen = answered.state;
    }

    // The person's own import goes through while the flood holds its places.
    let file = flood_free_brain();
    for request in brain_parts::import_requests("mine", &file) {
        black.send(request).await;
    }
    let answer = black
        .recv_until(|m| matches!(m, ServerMsg::Brains(_) | ServerMsg::Error { .. }).then_some(m))
        .await;
    assert!(matches!(answer, ServerMsg::Brains(_)), "{answer:?}");

    // The trickle is cut at the server's first ping after its grace (pings every 20 s), its
    // parts never 30 s apart: by its rate.
    let (cut, after) = trickle.await.unwrap();
    assert!(cut.contains("KiB/s"), "{cut}");
    assert!(after < Duration::from_secs(36), "cut after {after:?}");

    // A move waits on nothing of the flood's; the AI answers after at most about one of the
    // flood's searches (3 s), whatever the number of its players.
    assert!(
        move_latency
            .iter()
            .all(|wait| *wait < Duration::from_secs(1)),
        "{move_latency:?}"
    );
    assert!(
        ai_replies
            .iter()
            .all(|wait| *wait < Duration::from_millis(4500)),
        "{ai_replies:?}"
    );
    let elapsed = started.elapsed();
    let (rss, peak) = memory_mib(pid);
    let grown = store_bytes(data.path()).saturating_sub(before);
    let per_hour = grown as f64 / elapsed.as_secs_f64() * 3600.0 / (1 << 30) as f64;
    eprintln!(
        "flood from one address: {matches} auto matches (8x8, full speed; {second_matches} more \
         from a second address), {ai_rooms} AI rooms (3 s a move), {plain} rooms, a trickling \
         import; another address's person:\n  \
         move latency {}\n  100 ms AI reply {}\n  server memory {rss} MiB (peak {peak} MiB)\n  \
         store grew {} MiB in {:.0} s: {per_hour:.1} GiB an hour",
        percentiles(move_latency.clone()),
        percentiles(ai_replies.clone()),
        grown >> 20,
        elapsed.as_secs_f64(),
    );
}

/// A small valid brain file.
fn flood_free_brain() -> String {
    parlor_shared::hexapawn::Brain::new(Dims::HEXAPAWN, false).to_json()
}
