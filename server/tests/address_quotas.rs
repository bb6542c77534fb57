//! The per-address quotas hold across a `kill -9` of the real `server` binary: the rooms and
//! brains of one address's many identities still count against it after a restart on the same
//! data directory, while another address goes on.

mod common;

use std::net::IpAddr;

use common::{Peer, data_dir, start};
use parlor_shared::codec::Format;
use parlor_shared::game::GameSetup;
use parlor_shared::hexapawn::{Brain, Dims, HexSetup, PlayMode};
use parlor_shared::identity::PlayerSecret;
use parlor_shared::protocol::{AiKind, ErrorCode, SeatSpec, ServerMsg};

const FLOODER: [u8; 4] = [127, 0, 0, 2];
const SOMEONE_ELSE: [u8; 4] = [127, 0, 0, 3];

/// A fresh identity at `address`: identities cost nothing to make.
async fn newcomer(url: &str, address: [u8; 4]) -> Peer {
    Peer::connect_from(
        url,
        Format::Json,
        IpAddr::from(address),
        &PlayerSecret::random(),
    )
    .await
}

async fn import(peer: &mut Peer, name: &str) -> Result<(), String> {
    peer.import(name, &Brain::new(Dims::HEXAPAWN, false).to_json())
        .await;
    peer.recv_until(|m| match m {
        ServerMsg::Brains(_) => Some(Ok(())),
        ServerMsg::Error { code, message } => {
            assert_eq!(code, ErrorCode::LimitReached, "{message}");
            Some(Err(message))
        }
        _ => None,
    })
    .await
}

fn game_on_new_brain() -> (GameSetup, Vec<SeatSpec>) {
    let setup = GameSetup::Hexapawn(HexSetup {
        dims: Dims::HEXAPAWN,
        mirrors: false,
        mode: PlayMode::Fast,
        brain: "fresh".into(),
    });
    let her = SeatSpec::Ai {
        move_ms: 5,
        kind: AiKind::Standard,
    };
    (setup, vec![SeatSpec::Human, her])
}

/// A fresh identity at `address` asks for a room and is refused for its address.
async fn assert_room_refused_to_a_newcomer_at(url: &str, address: [u8; 4]) {
    let mut peer = newcomer(url, address).await;
    let seats = vec![SeatSpec::Human; 2];
    let refusal = (peer.create_refused(GameSetup::Cave, seats, ErrorCode::LimitReached)).await;
    assert!(refusal.contains("one address"), "{refusal}");
}

#[tokio::test]
async fn an_addresss_rooms_still_count_against_it_after_a_restart() {
    let data = data_dir();
    let data_arg = data.path().to_str().unwrap();
    let args = ["--data", data_arg, "--rooms-per-address", "3"];
    let server = start(&args);
    let mut first = newcomer(&server.url, FLOODER).await;
    for _ in 0..3 {
        first.create_room(vec![SeatSpec::Human; 2]).await;
    }
    assert_room_refused_to_a_newcomer_at(&server.url, FLOODER).await;
    server.kill_9();

    // The restored rooms count for their address.
    let server = start(&args);
    assert_room_refused_to_a_newcomer_at(&server.url, FLOODER).await;
    let mut elsewhere = newcomer(&server.url, SOMEONE_ELSE).await;
    elsewhere.create_room(vec![SeatSpec::Human; 2]).await;
}

#[tokio::test]
async fn an_addresss_brains_stop_at_its_quota_however_many_identities_and_across_a_restart() {
    let data = data_dir();
    let data_arg = data.path().to_str().unwrap();
    let args = ["--data", data_arg, "--brains-per-address", "2"];
    let server = start(&args);
    for _ in 0..2 {
        import(&mut newcomer(&server.url, FLOODER).await, "HER")
            .await
            .unwrap();
    }
    let mut third = newcomer(&server.url, FLOODER).await;
    let refusal = import(&mut third, "HER").await.unwrap_err();
    assert!(
        refusal.contains("one address may keep 2 brains"),
        "{refusal}"
    );
    // A game on a new brain would make one too.
    let (setup, seats) = game_on_new_brain();
    let refusal = third
        .create_refused(setup, seats, ErrorCode::LimitReached)
        .await;
    assert!(refusal.contains("one address"), "{refusal}");
    // Another address keeps its own.
    import(&mut newcomer(&server.url, SOMEONE_ELSE).await, "HER")
        .await
        .unwrap();
    server.kill_9();

    let server = start(&args);
    let mut fourth = newcomer(&server.url, FLOODER).await;
    let refusal = import(&mut fourth, "HER").await.unwrap_err();
    assert!(refusal.contains("one address"), "{refusal}");
    let (setup, seats) = game_on_new_brain();
    newcomer(&server.url, SOMEONE_ELSE)
        .await
        .create(setup, seats)
        .await;
}

#[tokio::test]
async fn an_addresss_identities_share_one_rate_of_room_creations() {
    let data = data_dir();
    let data_arg = data.path().to_str().unwrap();
    let args = ["--data", data_arg, "--room-creations-per-address", "3"];
    let server = start(&args);
    // Each connection is far inside its own creation budget; together they spend the address's.
    let mut first = newcomer(&server.url, FLOODER).await;
    let mut second = newcomer(&server.url, FLOODER).await;
    first.create_room(vec![SeatSpec::Human; 2]).await;
    second.create_room(vec![SeatSpec::Human; 2]).await;
    first.create_room(vec![SeatSpec::Human; 2]).await;
    let mut third = newcomer(&server.url, FLOODER).await;
    let seats = vec![SeatSpec::Human; 2];
    let refusal = (third.create_refused(GameSetup::Cave, seats, ErrorCode::LimitReached)).await;
    assert!(refusal.contains("3 rooms a minute"), "{refusal}");
    // The refusal closed nothing: the same connection still lists the three rooms.
    assert_eq!(third.list_rooms().await.len(), 3);
    let mut elsewhere = newcomer(&server.url, SOMEONE_ELSE).await;
    elsewhere.create_room(vec![SeatSpec::Human; 2]).await;
}
