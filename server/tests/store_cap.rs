//! `server --max-store-bytes`: a full store refuses new rooms and brain imports, clearly, while
//! a game under way goes on and is stored; freeing space makes room again.

mod common;

use common::{Peer, SERVER, cave, data_dir, start};
use parlor_server::byte_size::ByteSize;
use parlor_server::store::Store;
use parlor_shared::brain_parts;
use parlor_shared::codec::Format;
use parlor_shared::game::{GameSetup, Outcome};
use parlor_shared::hexapawn::{AutoConfig, AutoMatch};
use parlor_shared::identity::PlayerSecret;
use parlor_shared::protocol::{ClientMsg, ErrorCode, SeatSpec, ServerMsg};

const HUMANS: [SeatSpec; 2] = [SeatSpec::Human, SeatSpec::Human];
const BLACK_WINS: [&str; 9] = ["a1", "h8", "b1", "h7", "c1", "h6", "d1", "h5", "e1"];

/// A brain file of some thousands of boxes: over 100 KB stored.
fn big_brain_file() -> String {
    let config = AutoConfig {
        dims: "6x6".parse().unwrap(),
        mirrors: false,
        rounds: 300,
        seed: 7,
    };
    let [brain, _] = AutoMatch::new(config).run().brains;
    brain.to_json()
}

async fn import(peer: &mut Peer, name: &str, json: &str) {
    for request in brain_parts::import_requests(name, json) {
        peer.send(request).await;
    }
}

async fn brains_listed(peer: &mut Peer) {
    peer.recv_until(|m| match m {
        ServerMsg::Brains(_) => Some(()),
        ServerMsg::Error { code, message } => panic!("{code:?}: {message}"),
        _ => None,
    })
    .await
}

#[test]
fn the_cap_is_a_flag_with_units_and_its_default_shown() {
    let help = std::process::Command::new(SERVER)
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(help.contains("--max-store-bytes"), "{help}");
    assert!(help.contains("[default: \"4 GiB\"]"), "{help}");
    let with_cap = |cap: &str| {
        let args = [
            "--memory",
            "--addr",
            "127.0.0.1:0",
            "--max-store-bytes",
            cap,
        ];
        let output = std::process::Command::new(SERVER).args(args).output();
        let output = output.unwrap();
        (
            output.status.code(),
            String::from_utf8(output.stderr).unwrap(),
        )
    };
    let (code, stderr) = with_cap("4GB");
    assert_eq!(code, Some(2));
    assert!(stderr.contains("--max-store-bytes"), "{stderr}");
    // A cap no empty store fits in is refused at the start, not run with.
    let (code, stderr) = with_cap("1K");
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("less than an empty store takes"),
        "{stderr}"
    );
}

#[tokio::test]
async fn the_store_cap_refuses_new_rooms_and_imports_and_recovers_while_games_go_on() {
    let dir = data_dir();
    let data = dir.path().to_str().unwrap();
    let empty = Store::open(dir.path()).unwrap().size_bytes();
    // Room for a game's rows, not for a brain.
    let cap = (empty + 16 * 1024).to_string();
    let args = ["--data", data, "--max-store-bytes", &cap];
    let server = start(&args);
    let player = PlayerSecret::random();
    let mut black = Peer::connect_as(&server.url, Format::Json, &player).await;
    let mut white = Peer::connect(&server.url, Format::Binary).await;
    let room = black.create(GameSetup::Cave, HUMANS.to_vec()).await;
    let black_token = black.join(room, 0).await;
    black
        .play_and_see(room, &black_token, 0, cave(BLACK_WINS[0]))
        .await;

    let json = big_brain_file();
    import(&mut black, "big", &json).await;
    brains_listed(&mut black).await;

    // Full: refused, naming the cap.
    let refusal = black
        .create_refused(GameSetup::Cave, HUMANS.to_vec(), ErrorCode::ServerBusy)
        .await;
    let cap_shown = ByteSize(cap.parse().unwrap()).to_string();
    assert!(refusal.contains("store is full"), "{refusal}");
    assert!(refusal.contains(&cap_shown), "{refusal}");
    import(&mut black, "another", &json).await;
    let refusal = black.expect_error(ErrorCode::ServerBusy).await;
    assert!(refusal.contains("store is full"), "{refusal}");

    // The game under way is not harmed: a seat is taken, the moves go on, the end is stored.
    let white_token = white.join(room, 1).await;
    let mut last = None;
    for (ply, cell) in BLACK_WINS.iter().enumerate().skip(1) {
        let (mover, token) = match ply % 2 {
            0 => (&mut black, &black_token),
            _ => (&mut white, &white_token),
        };
        last = Some(
            mover
                .play_and_see(room, token, ply as u64, cave(cell))
                .await,
        );
    }
    // Black made the last move, and saw it.
    let end = black.recorded(room, last.unwrap()).await;
    assert_eq!(end.outcome, Some(Outcome::Won { seat: 0 }));
    let record = black.record(end.record.unwrap()).await;
    assert_eq!(record.moves.len(), BLACK_WINS.len());

    // Still full after a restart: the store is measured as it opens.
    server.kill_9();
    let server = start(&args);
    let mut black = Peer::connect_as(&server.url, Format::Json, &player).await;
    black
        .create_refused(GameSetup::Cave, HUMANS.to_vec(), ErrorCode::ServerBusy)
        .await;
    // An emptied brain frees its pages: room again.
    black
        .send(ClientMsg::ResetBrain { name: "big".into() })
        .await;
    brains_listed(&mut black).await;
    black.create(GameSetup::Cave, HUMANS.to_vec()).await;
}
