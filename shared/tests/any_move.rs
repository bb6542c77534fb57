//! Any move a peer can send, in any game: the rules take it or refuse it, and neither the move
//! nor the refusal panics when written out (a Hexapawn square sent as column 255 once
//! overflowed while its refusal was written, and ended the room's task).

use parlor_shared::bricks::{Answer, BricksMove};
use parlor_shared::cave::Square;
use parlor_shared::ewn::{EwnMove, LevelSpec, Rules, parse_level};
use parlor_shared::game::{GameMove, GameSetup, GameState};
use parlor_shared::hexapawn::{self, Dims, HexMove, HexSetup, PlayMode};
use parlor_shared::klotski::{self, Dir, GiveUpReason, KlotskiBoard, KlotskiMove, parse_puzzle};
use proptest::prelude::*;

/// A start of every game, Hexapawn on its smallest and largest boards.
fn starts() -> Vec<GameState> {
    let ewn = parse_level(
        include_str!("../../levels/ewn/level1.txt"),
        Rules::default(),
    )
    .unwrap();
    let klotski = parse_puzzle(include_str!(
        "../../levels/klotski/mahynotch_test_2_spec_sample.in"
    ))
    .unwrap();
    let hexapawn = |dims| {
        GameSetup::Hexapawn(HexSetup {
            dims,
            mirrors: false,
            mode: PlayMode::Slow,
            brain: "HER".into(),
        })
    };
    let setups = [
        GameSetup::Cave,
        GameSetup::Bricks {
            height: 100,
            drops: 14,
            bricks: 2,
        },
        GameSetup::Ewn(LevelSpec::of(&ewn)),
        GameSetup::Klotski(KlotskiBoard::of(&klotski)),
        hexapawn(Dims::HEXAPAWN),
        hexapawn(Dims::new(8, 8).unwrap()),
    ];
    setups.iter().map(|setup| setup.start().unwrap()).collect()
}

/// Moves of every game, mostly near the boards (so some are taken and games go on) and some
/// with any numbers at all.
fn any_move() -> impl Strategy<Value = GameMove> {
    let hex_square = prop_oneof![
        (0u8..10, 0u8..10).prop_map(|(col, row)| hexapawn::Square::new(col, row)),
        any::<(u8, u8)>().prop_map(|(col, row)| hexapawn::Square::new(col, row)),
    ];
    let dir = prop_oneof![
        Just(Dir::Left),
        Just(Dir::Right),
        Just(Dir::Up),
        Just(Dir::Down)
    ];
    prop_oneof![
        (0u8..64).prop_map(|index| GameMove::Cave(Square::from_index(index).unwrap())),
        (0u64..110).prop_map(|height| GameMove::Bricks(BricksMove::Drop(height))),
        any::<u64>().prop_map(|height| GameMove::Bricks(BricksMove::Drop(height))),
        prop_oneof![Just(Answer::Safe), Just(Answer::Broken)]
            .prop_map(|answer| GameMove::Bricks(BricksMove::Answer(answer))),
        (0u8..8, 0u8..60).prop_map(|(piece, to)| GameMove::Ewn(EwnMove { piece, to })),
        any::<(u8, u8)>().prop_map(|(piece, to)| GameMove::Ewn(EwnMove { piece, to })),
        (0u16..20, dir.clone()).prop_map(|(label, dir)| {
            GameMove::Klotski(KlotskiMove::Slide(klotski::Move { label, dir }))
        }),
        (any::<u16>(), dir).prop_map(|(label, dir)| {
            GameMove::Klotski(KlotskiMove::Slide(klotski::Move { label, dir }))
        }),
        Just(GameMove::Klotski(KlotskiMove::GiveUp(GiveUpReason::Player))),
        (hex_square.clone(), hex_square).prop_map(|(from, to)| {
            GameMove::Hexapawn(HexMove::Play(hexapawn::Move::new(from, to)))
        }),
        Just(GameMove::Hexapawn(HexMove::HerPicks)),
        Just(GameMove::Hexapawn(HexMove::HerResigns)),
    ]
}

proptest! {
    #[test]
    fn any_move_is_taken_or_refused_in_words(moves in prop::collection::vec(any_move(), 1..60)) {
        for start in starts() {
            let mut state = start;
            for &mv in &moves {
                let written = mv.to_string();
                prop_assert!(!written.is_empty());
                match state.apply(mv) {
                    Ok(next) => state = next,
                    Err(refusal) => {
                        let why = refusal.to_string();
                        prop_assert!(!why.is_empty(), "{written} refused without words");
                    }
                }
            }
        }
    }
}
