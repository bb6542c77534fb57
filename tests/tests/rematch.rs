//! Play again over loopback: a finished room's state names the room that plays it again (its
//! setup and seats), and never an oracle's secret strength.

mod common;

use common::{Peer, start_server};
use parlor_shared::bricks::BricksMove;
use parlor_shared::codec::Format;
use parlor_shared::game::{GameMove, GameSetup, GameState};
use parlor_shared::protocol::{AiKind, Rematch, SeatSpec};

#[tokio::test]
async fn a_finished_room_offers_itself_again_keeping_the_oracle_secret() {
    let (server, _dir) = start_server("rematch");
    let mut person = Peer::connect(&server.url(), Format::Json).await;
    let setup = GameSetup::Bricks {
        height: 10,
        drops: 4,
        bricks: 1,
    };
    let oracle = |strength| SeatSpec::Ai {
        move_ms: 1,
        kind: AiKind::Oracle { strength },
    };
    let room = person
        .create(setup.clone(), vec![SeatSpec::Human, oracle(Some(5))])
        .await;
    let token = person.join(room, 0).await;
    let mut state = person.state_where(room, |_| true).await;
    while state.outcome.is_none() {
        assert_eq!(state.again, None, "only a finished game is offered again");
        let GameState::Bricks(game) = &state.state else {
            unreachable!("a Bricks room")
        };
        let mv = GameMove::Bricks(BricksMove::Drop(game.state().min_safe() + 1));
        person.send_move(room, &token, state.version, mv).await;
        let version = state.version;
        state = person
            .state_where(room, |s| s.version == version + 2 || s.outcome.is_some())
            .await;
    }
    let again = state.again.expect("a finished room names its rematch");
    assert_eq!(
        again,
        Rematch {
            setup: setup.clone(),
            seats: vec![SeatSpec::Human, oracle(None)],
        },
        "the same room, the oracle's strength secret again"
    );
    // And the server takes it as it is.
    let next = person.create(again.setup, again.seats).await;
    assert_ne!(next, room);
}
