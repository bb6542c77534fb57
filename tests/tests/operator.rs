//! The hall's operator (`server --operator ID`): ends any room or auto match, lists and deletes
//! any brain; everybody else only their own.

mod common;

use common::Peer;
use parlor_shared::codec::Format;
use parlor_shared::hexapawn::{Brain, Dims};
use parlor_shared::identity::{PlayerSecret, player_id};
use parlor_shared::protocol::{ClientMsg, ErrorCode, SeatSpec, ServerMsg};

#[tokio::test]
async fn the_operator_ends_any_room_and_deletes_any_brain_and_nobody_else_does() {
    let operator = PlayerSecret::random();
    let operator_id = player_id(&operator);
    let dir = tempfile::tempdir().unwrap();
    let mut config = parlor_server::ServerConfig::new(
        "127.0.0.1:0".parse().unwrap(),
        Some(dir.path().to_path_buf()),
    );
    config.operators = vec![operator_id];
    let server = parlor_server::start_in_background(config).unwrap();
    let url = server.url();

    let mut ada = Peer::connect(&url, Format::Json).await;
    let mut bob = Peer::connect(&url, Format::Json).await;
    let mut op = Peer::connect_as(&url, Format::Binary, &operator).await;
    let ada_id = ada.player.as_ref().unwrap().id;

    // A room of Ada's: Bob may not end it, the operator may.
    let room = ada
        .create_room(vec![SeatSpec::Human, SeatSpec::Human])
        .await;
    ada.join(room, 0).await;
    bob.send(ClientMsg::CloseRoom { room }).await;
    bob.expect_error(ErrorCode::NotYours).await;
    op.send(ClientMsg::CloseRoom { room }).await;
    let told = ada
        .recv_until(|m| match m {
            ServerMsg::RoomClosed { message, .. } => Some(message),
            _ => None,
        })
        .await;
    assert!(told.contains("the hall's operator"), "{told}");

    // Ada's brain: Bob may not delete it; the operator lists and deletes it.
    let file = Brain::new(Dims::HEXAPAWN, false).to_json();
    ada.import("HER", &file).await;
    ada.recv_until(|m| matches!(m, ServerMsg::Brains(_)).then_some(()))
        .await;
    let adas = format!("{ada_id}/HER");
    let refused = bob
        .brains_after(ClientMsg::DeleteBrain { name: adas.clone() })
        .await;
    assert_eq!(refused.map_err(|(code, _)| code), Err(ErrorCode::NotYours));
    let every = op.brains_after(ClientMsg::ListBrains).await.unwrap();
    assert_eq!(
        every.iter().map(|b| b.name.as_str()).collect::<Vec<_>>(),
        [adas.as_str()]
    );
    let left = op.brains_after(ClientMsg::DeleteBrain { name: adas }).await;
    assert_eq!(left, Ok(vec![]));
    // An owner deletes their own.
    bob.import("mine", &file).await;
    bob.recv_until(|m| matches!(m, ServerMsg::Brains(_)).then_some(()))
        .await;
    let gone = bob
        .brains_after(ClientMsg::DeleteBrain {
            name: "mine".into(),
        })
        .await;
    assert_eq!(gone, Ok(vec![]));
    let again = bob
        .brains_after(ClientMsg::DeleteBrain {
            name: "mine".into(),
        })
        .await;
    assert_eq!(again.map_err(|(code, _)| code), Err(ErrorCode::NoSuchBrain));
}
