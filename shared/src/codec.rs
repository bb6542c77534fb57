//! The one place that turns protocol messages into frames and back, so the binary codec can be
//! swapped without touching anything else. Binary frames are bincode 2 (standard config);
//! text frames are JSON. Decoding is size-limited and rejects trailing bytes.

use serde::Serialize;
use serde::de::DeserializeOwned;

/// Largest frame either side accepts or produces.
pub const MAX_FRAME_BYTES: usize = 64 * 1024;

/// The memory a binary frame may decode into. bincode counts a collection's claimed memory
/// (its length times its elements' size in memory), which is several times its bytes on the
/// wire (a one-byte varint becomes a `u64`): a legitimate full frame must fit, and a length
/// prefix claiming gigabytes must not be believed.
const MAX_DECODED_BYTES: usize = 16 * MAX_FRAME_BYTES;

/// How a peer speaks; the server answers each client in its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Binary,
    Json,
}

/// An encoded message, ready to become a WebSocket frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    Binary(Vec<u8>),
    Text(String),
}

impl Frame {
    pub fn format(&self) -> Format {
        match self {
            Frame::Binary(_) => Format::Binary,
            Frame::Text(_) => Format::Json,
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Frame::Binary(bytes) => bytes.len(),
            Frame::Text(text) => text.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CodecError {
    #[error("frame of {0} bytes is over the {MAX_FRAME_BYTES}-byte limit")]
    TooLarge(usize),
    #[error("message between nodes of {0} bytes is over the {MAX_NODE_MESSAGE_BYTES}-byte limit")]
    NodeMessageTooLarge(usize),
    #[error("bad binary frame: {0}")]
    Binary(String),
    #[error("bad JSON frame: {0}")]
    Json(#[from] serde_json::Error),
    #[error("{0} unread bytes after the message")]
    TrailingBytes(usize),
}

fn bincode_config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<MAX_DECODED_BYTES>()
}

pub fn encode<T: Serialize>(message: &T, format: Format) -> Result<Frame, CodecError> {
    let frame = match format {
        Format::Binary => Frame::Binary(
            bincode::serde::encode_to_vec(message, bincode_config())
                .map_err(|error| CodecError::Binary(error.to_string()))?,
        ),
        Format::Json => Frame::Text(serde_json::to_string(message)?),
    };
    if frame.len() > MAX_FRAME_BYTES {
        return Err(CodecError::TooLarge(frame.len()));
    }
    Ok(frame)
}

pub fn decode<T: DeserializeOwned>(frame: &Frame) -> Result<T, CodecError> {
    if frame.len() > MAX_FRAME_BYTES {
        return Err(CodecError::TooLarge(frame.len()));
    }
    match frame {
        Frame::Binary(bytes) => {
            let (message, read) = bincode::serde::decode_from_slice(bytes, bincode_config())
                .map_err(|error| CodecError::Binary(error.to_string()))?;
            match bytes.len() - read {
                0 => Ok(message),
                extra => Err(CodecError::TrailingBytes(extra)),
            }
        }
        Frame::Text(text) => Ok(serde_json::from_str(text)?),
    }
}

/// Largest message between a hall's nodes (NATS's default payload limit): a client's frame
/// with its envelope, or a node's list of rooms.
pub const MAX_NODE_MESSAGE_BYTES: usize = 1024 * 1024;

fn node_config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<{ 4 * MAX_NODE_MESSAGE_BYTES }>()
}

/// A message between a hall's nodes, in the binary format.
pub fn encode_for_node<T: Serialize>(message: &T) -> Result<Vec<u8>, CodecError> {
    let bytes = bincode::serde::encode_to_vec(message, node_config())
        .map_err(|error| CodecError::Binary(error.to_string()))?;
    match bytes.len() > MAX_NODE_MESSAGE_BYTES {
        true => Err(CodecError::NodeMessageTooLarge(bytes.len())),
        false => Ok(bytes),
    }
}

/// A message from another node (size-limited, no trailing bytes, like a client's frame).
pub fn decode_from_node<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
    if bytes.len() > MAX_NODE_MESSAGE_BYTES {
        return Err(CodecError::NodeMessageTooLarge(bytes.len()));
    }
    let (message, read) = bincode::serde::decode_from_slice(bytes, node_config())
        .map_err(|error| CodecError::Binary(error.to_string()))?;
    match bytes.len() - read {
        0 => Ok(message),
        extra => Err(CodecError::TrailingBytes(extra)),
    }
}

/// Asserts that the widest state a room of `state`'s game can send, after `moves`, fits one
/// frame in both formats: every number at its largest, every name the widest, and a rematch
/// of `ai_seats` AI seats named. For the tests of each game's longest game.
#[cfg(test)]
pub(crate) fn assert_widest_state_fits(
    state: crate::game::GameState,
    moves: Vec<crate::game::GameMove>,
    ai_seats: usize,
) {
    use crate::identity::widest_player;
    use crate::protocol::{Rematch, RematchRoom, RoomSnapshot, SeatSpec, ServerMsg};
    let again = Some(Box::new(Rematch {
        setup: state.setup(),
        seats: vec![SeatSpec::ai(u32::MAX); ai_seats],
        made: Some(RematchRoom {
            room: u64::MAX,
            by: widest_player(),
        }),
    }));
    let message = ServerMsg::State(RoomSnapshot {
        room: u64::MAX,
        version: u64::MAX,
        seats: vec![],
        spectators: u32::MAX,
        creator: Some(widest_player()),
        watchers: vec![widest_player(); crate::protocol::WATCHERS_SHOWN],
        state,
        moves,
        plan_ahead: vec![],
        outcome: None,
        record: Some(u64::MAX),
        again,
    });
    for format in [Format::Binary, Format::Json] {
        let frame = encode(&message, format);
        assert!(frame.is_ok(), "{format:?}: {frame:?}");
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::game::{GameMove, GameSetup, GameState};
    use crate::hexapawn::{Dims, HexMove, HexSetup, MatchSetup, Pace, PlayMode};
    use crate::klotski::{KlotskiBoard, KlotskiMove, Shape};
    use crate::protocol::{
        AiKind, BrainSummary, ClientMsg, PROTOCOL_VERSION, SeatSpec, SeatToken, ServerMsg,
    };

    fn samples() -> Vec<ClientMsg> {
        vec![
            ClientMsg::Hello {
                protocol: PROTOCOL_VERSION,
                client: "test".into(),
                player: crate::identity::PlayerSecret::random(),
                name: "Ada".into(),
            },
            ClientMsg::ListRooms,
            ClientMsg::CreateRoom {
                setup: GameSetup::Bricks {
                    height: 100,
                    drops: 14,
                    bricks: 2,
                },
                seats: vec![
                    SeatSpec::Human,
                    SeatSpec::Ai {
                        move_ms: 500,
                        kind: AiKind::Adversary,
                    },
                ],
            },
            ClientMsg::Move {
                room: 7,
                token: SeatToken("abc".into()),
                version: 3,
                mv: GameMove::Cave("d4".parse().unwrap()),
            },
            ClientMsg::CreateRoom {
                setup: GameSetup::Klotski(klotski_board()),
                seats: vec![SeatSpec::ai(100)],
            },
            ClientMsg::CreateRoom {
                setup: GameSetup::HerMatch(MatchSetup {
                    dims: Dims::HEXAPAWN,
                    mirrors: true,
                    rounds: 500,
                    pace: Pace::PerPly { ms: 200 },
                    brains: ["A".into(), "B".into()],
                }),
                seats: vec![],
            },
            ClientMsg::PlayAgain {
                room: 5,
                setup: GameSetup::Cave,
                seats: vec![SeatSpec::Human, SeatSpec::Human],
            },
            ClientMsg::Move {
                room: 8,
                token: SeatToken("abc".into()),
                version: 0,
                mv: GameMove::Hexapawn(HexMove::Play("b1-b2".parse().unwrap())),
            },
            ClientMsg::ImportBrain {
                name: "HER".into(),
                part: 0,
                parts: 1,
                json: "{}".into(),
            },
        ]
    }

    fn klotski_board() -> KlotskiBoard {
        KlotskiBoard {
            rows: 2,
            cols: 3,
            grid: vec![1, 2, 3, 4, 0, 5],
            blocks: vec![(1, Shape::Wide)],
        }
    }

    /// The states whose wire form goes through a checked conversion, in both formats.
    #[test]
    fn klotski_and_hexapawn_states_round_trip() {
        let setups = [
            GameSetup::Klotski(klotski_board()),
            GameSetup::Hexapawn(HexSetup {
                dims: Dims::OCTAPAWN,
                mirrors: false,
                mode: PlayMode::Slow,
                brain: "HER".into(),
            }),
        ];
        for setup in setups {
            let start = setup.start().unwrap();
            let mv = match &start {
                GameState::Klotski(_) => {
                    GameMove::Klotski(KlotskiMove::Slide("5 L".parse().unwrap()))
                }
                _ => GameMove::Hexapawn(HexMove::Play("a1-a2".parse().unwrap())),
            };
            let state = start.apply(mv).unwrap();
            for format in [Format::Binary, Format::Json] {
                let frame = encode(&state, format).unwrap();
                assert_eq!(decode::<GameState>(&frame).unwrap(), state);
            }
        }
    }

    #[test]
    fn both_formats_round_trip() {
        for message in samples() {
            for format in [Format::Binary, Format::Json] {
                let frame = encode(&message, format).unwrap();
                assert_eq!(frame.format(), format);
                assert_eq!(decode::<ClientMsg>(&frame).unwrap(), message);
            }
        }
    }

    #[test]
    fn json_is_what_a_person_would_type() {
        let frame = encode(&samples()[3], Format::Json).unwrap();
        assert_eq!(
            frame,
            Frame::Text(
                r#"{"Move":{"room":7,"token":"abc","version":3,"mv":{"Cave":"d4"}}}"#.into()
            )
        );
        let typed = Frame::Text(r#""ListRooms""#.into());
        assert_eq!(decode::<ClientMsg>(&typed).unwrap(), ClientMsg::ListRooms);
    }

    #[test]
    fn trailing_bytes_and_oversized_frames_are_refused() {
        let Frame::Binary(mut bytes) = encode(&ClientMsg::ListRooms, Format::Binary).unwrap()
        else {
            unreachable!()
        };
        bytes.push(0);
        assert!(matches!(
            decode::<ClientMsg>(&Frame::Binary(bytes)),
            Err(CodecError::TrailingBytes(1))
        ));
        let huge = Frame::Text(" ".repeat(MAX_FRAME_BYTES + 1));
        assert!(matches!(
            decode::<ClientMsg>(&huge),
            Err(CodecError::TooLarge(_))
        ));
    }

    #[test]
    fn a_frame_under_the_limit_decodes_however_many_small_items_it_lists() {
        // 1,600 brains' summaries: 62 KB on the wire, more than 64 KiB in memory.
        let summary = |i: u32| BrainSummary {
            name: format!("brain {i:>20}"),
            dims: Dims::HEXAPAWN,
            mirrors: false,
            boxes: 0,
            beads: 0,
            games: 0,
            updated_at: 1_700_000_000,
        };
        let brains = ServerMsg::Brains((0..1600).map(summary).collect());
        let frame = encode(&brains, Format::Binary).unwrap();
        assert!(
            (60_000..MAX_FRAME_BYTES).contains(&frame.len()),
            "{}",
            frame.len()
        );
        assert_eq!(decode::<ServerMsg>(&frame).unwrap(), brains);
    }

    #[test]
    fn a_length_prefix_claiming_gigabytes_is_refused_without_allocating() {
        // CreateRoom's seat list with a varint length of about 2^32.
        let bytes = vec![2, 0, 252, 0, 0, 0, 255];
        assert!(decode::<ClientMsg>(&Frame::Binary(bytes)).is_err());
        let text = Frame::Text(r#"{"CreateRoom":{"setup":"Cave","seats":"#.into());
        assert!(decode::<ServerMsg>(&text).is_err());
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
            let _ = decode::<ClientMsg>(&Frame::Binary(bytes.clone()));
            let _ = decode::<ServerMsg>(&Frame::Binary(bytes.clone()));
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let _ = decode::<ClientMsg>(&Frame::Text(text));
        }
    }
}
