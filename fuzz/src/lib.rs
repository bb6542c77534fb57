//! The properties the fuzz targets check, one function per target. Each takes the fuzzer's raw
//! bytes and panics only when a property fails (a parser panicked, or what it accepted does not
//! survive being written out and read back).
//!
//! This file depends on nothing but `parlor_shared` and std, so that stable CI can run every
//! committed corpus file through the same checks: `shared/tests/fuzz_corpus.rs` includes it.

use std::fmt::Debug;

use parlor_shared::bricks::{BricksMove, Turn};
use parlor_shared::codec::{CodecError, Format, Frame, decode, encode};
use parlor_shared::ewn::{
    Checked, EwnMove, Level, LevelSpec, MovesFile, Rules, Status, check_moves, parse_level,
    parse_moves,
};
use parlor_shared::game::{GameMove, GameSetup, GameState};
use parlor_shared::hexapawn::{Brain, Dims, HexMove, HexSetup, PERSON_SIDE, PlayMode};
use parlor_shared::klotski::{
    KlotskiBoard, KlotskiMove as KlotskiGameMove, KlotskiStatus, Move as KlotskiMove, parse_puzzle,
    prove_unsolvable,
};
use parlor_shared::protocol::{ClientMsg, ServerMsg};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The rules every EWN text is read under: the course's (square 22 removed, 30 moves) and
/// another course's (square 33 removed, 10 moves).
const EWN_RULES: [Rules; 2] = [
    Rules {
        blocked: 22,
        max_moves: 30,
    },
    Rules {
        blocked: 33,
        max_moves: 10,
    },
];

/// The level the moves files in `shared/tests/data/ewn/` were played on.
const LEVEL4: &str = include_str!("../../levels/ewn/level4.txt");

/// The spec's sample Klotski input.
const KLOTSKI: &str = include_str!("../../levels/klotski/mahynotch_test_2_spec_sample.in");

/// `data` as a binary frame and, decoded lossily as UTF-8, as a text frame.
fn frames(data: &[u8]) -> [Frame; 2] {
    [
        Frame::Binary(data.to_vec()),
        Frame::Text(String::from_utf8_lossy(data).into_owned()),
    ]
}

/// A decoded message encodes in `format`, decodes back to itself, and encodes to the same frame
/// again. A frame over the size limit is an acceptable refusal only when `may_grow` (a message
/// read in the compact binary form may not fit the limit as JSON).
fn round_trip<T>(message: &T, format: Format, may_grow: bool)
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let frame = match encode(message, format) {
        Ok(frame) => frame,
        Err(CodecError::TooLarge(_)) if may_grow => return,
        Err(error) => panic!("{message:?} does not encode as {format:?}: {error}"),
    };
    let again: T = decode(&frame)
        .unwrap_or_else(|error| panic!("{message:?} as {format:?} does not decode: {error}"));
    assert_eq!(&again, message, "{format:?} round trip changed the message");
    let frame_again = encode(&again, format).expect("it encoded once");
    assert_eq!(
        frame_again, frame,
        "{format:?} encoding is not deterministic"
    );
}

/// Decodes `data` as a `T` in both codecs; whatever decodes must round-trip in both.
fn messages<T>(data: &[u8]) -> Vec<T>
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let mut decoded = Vec::new();
    for frame in frames(data) {
        match decode::<T>(&frame) {
            Ok(message) => {
                let same = frame.format();
                let other = match same {
                    Format::Binary => Format::Json,
                    Format::Json => Format::Binary,
                };
                round_trip(&message, same, false);
                round_trip(&message, other, same == Format::Binary);
                decoded.push(message);
            }
            Err(error) => {
                let _ = error.to_string();
            }
        }
    }
    decoded
}

/// What the server does with a client's bytes: decode them, set up a new room's game, and apply
/// a move to the start of every game.
pub fn client_msg(data: &[u8]) {
    for message in messages::<ClientMsg>(data) {
        match message {
            ClientMsg::CreateRoom { setup, .. } | ClientMsg::PlayAgain { setup, .. } => {
                start(&setup)
            }
            ClientMsg::Move { mv, .. } => {
                for state in sample_starts() {
                    take_or_refuse(&state, mv);
                }
            }
            _ => {}
        }
    }
}

/// The state after `mv`, if the rules take it; a refusal must say why in words. A move taken
/// must be one of the state's legal moves as the game lists them apart from taking a move
/// ([`is_listed_legal`]). Writing the move or the refusal out must not panic either (a
/// Hexapawn square sent as column 255 once overflowed while its refusal was written, and ended
/// the room's task).
pub fn take_or_refuse(state: &GameState, mv: GameMove) -> Option<GameState> {
    let written = mv.to_string();
    assert!(!written.is_empty(), "{mv:?} writes as nothing");
    match state.apply(mv) {
        Ok(next) => {
            assert!(
                is_listed_legal(state, mv),
                "{written} was taken but is not a legal move of {state:?}"
            );
            let _ = next.outcome();
            let _ = next.seat_to_move();
            Some(next)
        }
        Err(refusal) => {
            assert!(
                !refusal.to_string().is_empty(),
                "{written} refused without words"
            );
            None
        }
    }
}

/// Whether `mv` is among `state`'s legal moves as each game lists them, not through the move
/// check `apply` makes: Cave's legal cells, the moves EWN's level and Klotski's puzzle
/// generate, Hexapawn's legal moves (and HER resigning on its own turn), and for Bricks a drop
/// above the last safe height up to the highest the strength may be, or an answer to the drop
/// waiting for one (SPEC §2). A Klotski game still being played may always be given up; a
/// puzzle under way takes Undo and Restart once a step is in effect.
fn is_listed_legal(state: &GameState, mv: GameMove) -> bool {
    match (state, mv) {
        (GameState::Cave(position), GameMove::Cave(square)) => {
            position.legal_squares().any(|legal| legal == square)
        }
        (GameState::Bricks(game), GameMove::Bricks(mv)) => match (game.turn(), mv) {
            (Turn::Agent, BricksMove::Drop(height)) => {
                (game.state().min_safe() + 1..=game.state().max_safe()).contains(&height)
            }
            (Turn::Answerer { .. }, BricksMove::Answer(_)) => true,
            _ => false,
        },
        (GameState::Ewn(game), GameMove::Ewn(EwnMove { piece, to })) => game
            .level()
            .legal_moves(game.state())
            .contains(&parlor_shared::ewn::Move { piece, to }),
        (GameState::Klotski(game), GameMove::Klotski(mv)) => {
            game.status() == KlotskiStatus::Playing
                && match mv {
                    KlotskiGameMove::Slide(slide) => {
                        game.puzzle().legal_moves(game.position()).contains(&slide)
                    }
                    KlotskiGameMove::GiveUp(_) => true,
                }
        }
        // A takeback needs a puzzle under way with a step in effect and moves left to make.
        (GameState::Ewn(game), GameMove::Undo | GameMove::Restart) => {
            game.status() == parlor_shared::ewn::Status::Playing
                && game.state().turn > 0
                && game.moves_made() < parlor_shared::ewn::MAX_MOVES_MADE
        }
        (GameState::Klotski(game), GameMove::Undo | GameMove::Restart) => {
            game.status() == KlotskiStatus::Playing
                && game.steps() > 0
                && game.moves_made() < parlor_shared::klotski::MAX_STEPS
        }
        (GameState::Hexapawn(game), GameMove::Hexapawn(mv)) => {
            let position = &game.position;
            !game.her_resigned
                && match mv {
                    HexMove::Play(mv) => position.legal_moves().contains(&mv),
                    HexMove::HerResigns => {
                        !position.legal_moves().is_empty() && position.to_move() != PERSON_SIDE
                    }
                    HexMove::HerPicks => false,
                }
        }
        _ => false,
    }
}

/// The start of each sample game.
pub fn sample_starts() -> Vec<GameState> {
    sample_setups()
        .iter()
        .map(|setup| setup.start().expect("the sample setups start"))
        .collect()
}

/// A start for each game, to apply decoded moves to; Hexapawn on its smallest and largest
/// boards.
fn sample_setups() -> Vec<GameSetup> {
    let level = parse_level(LEVEL4, Rules::default()).expect("level 4 is valid");
    let puzzle = parse_puzzle(KLOTSKI).expect("the spec's sample is valid");
    vec![
        GameSetup::Cave,
        GameSetup::Bricks {
            height: 100,
            drops: 14,
            bricks: 2,
        },
        GameSetup::Ewn(LevelSpec::of(&level)),
        GameSetup::Klotski(KlotskiBoard::of(&puzzle)),
        GameSetup::Hexapawn(HexSetup {
            dims: Dims::HEXAPAWN,
            mirrors: true,
            mode: PlayMode::Slow,
            brain: "HER".into(),
        }),
        GameSetup::Hexapawn(HexSetup {
            dims: Dims::new(8, 8).expect("8x8 is the largest board"),
            mirrors: false,
            mode: PlayMode::Slow,
            brain: "HER".into(),
        }),
    ]
}

/// A setup from the wire starts its game or is refused, and the game's state round-trips.
fn start(setup: &GameSetup) {
    match setup.start() {
        Ok(state) => {
            let _ = state.outcome();
            let _ = state.seat_to_move();
            round_trip(&state, Format::Binary, false);
            round_trip(&state, Format::Json, true);
        }
        Err(error) => {
            let _ = error.to_string();
        }
    }
}

/// What a client does with the server's bytes: decode them, ask a room's state who moves and
/// how it ended, and replay a stored game's moves from its start.
pub fn server_msg(data: &[u8]) {
    for message in messages::<ServerMsg>(data) {
        match message {
            ServerMsg::State(snapshot) => {
                let _ = snapshot.state.outcome();
                let _ = snapshot.state.seat_to_move();
            }
            ServerMsg::Record(record) => {
                if let Ok(states) = record.start.replay(&record.moves) {
                    for state in states {
                        let _ = state.outcome();
                        let _ = state.seat_to_move();
                    }
                }
            }
            _ => {}
        }
    }
}

/// A level file: if it is read, writing it out reads back the same level, and a game played on
/// it (moves chosen by `data`) is recorded as a moves.txt that reads back and passes the
/// checker with the game's own result.
pub fn ewn_level(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for rules in EWN_RULES {
        match parse_level(text, rules) {
            Ok(level) => {
                assert_eq!(
                    parse_level(&level.to_string(), rules).as_ref(),
                    Ok(&level),
                    "a written level reads back differently"
                );
                play_and_check(&level, data);
            }
            Err(error) => {
                let _ = error.to_string();
            }
        }
    }
}

/// Plays `level` to its end with legal moves picked by `choices`, then checks the record.
fn play_and_check(level: &Level, choices: &[u8]) {
    let mut state = level.start_state();
    let mut positions = vec![state.pieces];
    let mut picks = choices.iter().cycle();
    while level.status(&state) == Status::Playing {
        let moves = level.legal_moves(&state);
        if moves.is_empty() {
            // Every die names some live piece while the target is alive.
            panic!("no legal move in a game still being played: {state:?}");
        }
        let pick = picks.next().map_or(0, |&byte| usize::from(byte)) % moves.len();
        state = level
            .play(&state, moves[pick])
            .expect("a listed move is legal");
        positions.push(state.pieces);
        assert!(
            state.turn <= level.rules().max_moves,
            "played past the limit"
        );
    }
    let record = MovesFile::record("fuzz", level, positions);
    let read = parse_moves(&record.to_string()).expect("a written record reads back");
    assert_eq!(read, record, "a written record reads back differently");
    assert_eq!(
        check_moves(&read, level),
        Ok(Checked {
            status: level.status(&state),
            moves: state.turn,
        }),
        "the checker disagrees with the game that was played"
    );
}

/// A moves.txt: if it is read, writing it out reads back the same file; it is then checked
/// against its own header and against level 4, and a file that passes was a game of its length.
pub fn ewn_moves(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let file = match parse_moves(text) {
        Ok(file) => file,
        Err(error) => {
            let _ = error.to_string();
            return;
        }
    };
    assert_eq!(
        parse_moves(&file.to_string()).as_ref(),
        Ok(&file),
        "a written moves file reads back differently"
    );
    let level4 = parse_level(LEVEL4, Rules::default()).expect("level 4 is valid");
    let own = EWN_RULES.iter().filter_map(|&rules| file.level(rules).ok());
    for level in own.chain([level4]) {
        match check_moves(&file, &level) {
            Ok(checked) => {
                assert_eq!(checked.moves, file.positions.len() - 1);
                assert!(checked.moves <= level.rules().max_moves);
            }
            Err(error) => {
                let _ = error.to_string();
            }
        }
    }
}

/// A Klotski input: if it is read, writing it out reads back the same puzzle; the cheap proofs
/// of unsolvability run, and every legal first move applies and reads back from its text.
pub fn klotski_input(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let puzzle = match parse_puzzle(text) {
        Ok(puzzle) => puzzle,
        Err(error) => {
            let _ = error.to_string();
            return;
        }
    };
    assert_eq!(
        parse_puzzle(&puzzle.to_text()).as_ref(),
        Ok(&puzzle),
        "a written puzzle reads back differently"
    );
    if let Some(proof) = prove_unsolvable(&puzzle) {
        let _ = proof.to_string();
    }
    let start = puzzle.start();
    let _ = puzzle.is_goal(start);
    let _ = puzzle.goal_tops();
    assert_eq!(puzzle.grid(start).len(), puzzle.geometry().cells());
    for mv in puzzle.legal_moves(start) {
        let after = puzzle.apply(start, mv).expect("a legal move applies");
        assert_ne!(&after, start, "a move left the position unchanged");
        assert_eq!(mv.to_string().parse::<KlotskiMove>(), Ok(mv));
    }
}

/// A brain file (what `ImportBrain` hands the server): if it is read, writing it out reads back
/// the same brain, and the written form is stable.
pub fn brain_json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Brain::from_json(text) {
        Ok(brain) => {
            let written = brain.to_json();
            let again = Brain::from_json(&written).expect("a written brain reads back");
            assert_eq!(again, brain, "a written brain reads back differently");
            assert_eq!(again.to_json(), written, "writing a brain is not stable");
        }
        Err(error) => {
            let _ = error.to_string();
        }
    }
}
