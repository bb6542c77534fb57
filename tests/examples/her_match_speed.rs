//! Times an auto match (HER against HER) on a running server at full speed: rounds per second
//! with both brains stored as the match goes (see `WRITE_SPACING` in the server's `her_match`),
//! and how many states a watcher received.
//!
//! cargo run --release -p parlor-tests --example her_match_speed -- \
//!     --url ws://127.0.0.1:7878 --rounds 20000

use std::time::Instant;

use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use parlor_shared::codec::Format;
use parlor_shared::game::{GameSetup, GameState};
use parlor_shared::hexapawn::{Dims, MatchSetup, Pace};
use parlor_shared::protocol::{ClientMsg, PROTOCOL_VERSION, ServerMsg};
use parlor_wire::{self as wire, Incoming};

#[derive(Parser)]
struct Args {
    #[arg(long, default_value = "ws://127.0.0.1:7878")]
    url: String,
    #[arg(long, default_value_t = 20_000)]
    rounds: u64,
    /// The brains' names get this suffix, so runs do not train each other's brains.
    #[arg(long, default_value = "speed")]
    tag: String,
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let (mut socket, _) = tokio_tungstenite::connect_async(&args.url).await?;
    let setup = MatchSetup {
        dims: Dims::HEXAPAWN,
        mirrors: false,
        rounds: args.rounds,
        pace: Pace::FullSpeed,
        brains: [format!("A-{}", args.tag), format!("B-{}", args.tag)],
    };
    let requests = [
        ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            client: "her-match-speed".into(),
            player: parlor_shared::identity::PlayerSecret::random(),
            name: "her-match-speed".into(),
        },
        ClientMsg::CreateRoom {
            setup: GameSetup::HerMatch(setup),
            seats: vec![],
        },
    ];
    for request in requests {
        socket.send(wire::encode(&request, Format::Binary)?).await?;
    }
    let started = Instant::now();
    let mut states = 0u64;
    while let Some(frame) = socket.next().await {
        let Incoming::Message(message, _) = wire::decode::<ServerMsg>(frame?) else {
            continue;
        };
        match message {
            ServerMsg::RoomCreated { room } => {
                let watch = ClientMsg::Watch { room };
                socket.send(wire::encode(&watch, Format::Binary)?).await?;
            }
            ServerMsg::State(snapshot) => {
                states += 1;
                let GameState::HerMatch(view) = snapshot.state else {
                    continue;
                };
                if view.finished {
                    let seconds = started.elapsed().as_secs_f64();
                    println!(
                        "{} rounds in {seconds:.2} s: {:.0} rounds/s with both brains stored \
                         as it went; {states} states watched ({:.1} per second)",
                        view.rounds_played,
                        view.rounds_played as f64 / seconds,
                        states as f64 / seconds
                    );
                    return Ok(());
                }
            }
            ServerMsg::Error { message, .. } | ServerMsg::RoomRefused { message, .. } => {
                anyhow::bail!("refused: {message}")
            }
            _ => {}
        }
    }
    anyhow::bail!("the server closed the connection")
}
