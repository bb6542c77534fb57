//! Any move a peer can send, in any game: the rules take it or refuse it in words, and take only
//! moves the game lists as legal, through the same check the `client_msg` fuzz target makes on
//! decoded moves (`checks::take_or_refuse`, from the sample starts of every game), here on moves
//! built to reach far into the games.

/// The fuzz targets' checks, shared as `shared/tests/fuzz_corpus.rs` shares them; only the
/// move check and the sample starts are used here.
#[allow(dead_code)]
#[path = "../../fuzz/src/lib.rs"]
mod checks;

use parlor_shared::bricks::{Answer, BricksMove};
use parlor_shared::cave::Square;
use parlor_shared::ewn::EwnMove;
use parlor_shared::game::GameMove;
use parlor_shared::hexapawn::{self, HexMove};
use parlor_shared::klotski::{self, Dir, GiveUpReason, KlotskiMove};
use proptest::prelude::*;

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
        // A step to a neighbouring square, as pawns move (forward, diagonally or not) and do
        // not (sideways, backwards), so that Hexapawn games go on.
        ((0u8..8, 0u8..8), (-1i8..=1, -1i8..=1)).prop_map(|((col, row), (right, up))| {
            let from = hexapawn::Square::new(col, row);
            let to =
                hexapawn::Square::new(col.wrapping_add_signed(right), row.wrapping_add_signed(up));
            GameMove::Hexapawn(HexMove::Play(hexapawn::Move::new(from, to)))
        }),
        Just(GameMove::Hexapawn(HexMove::HerPicks)),
        Just(GameMove::Hexapawn(HexMove::HerResigns)),
    ]
}

proptest! {
    #[test]
    fn any_move_is_taken_or_refused_in_words(moves in prop::collection::vec(any_move(), 1..60)) {
        for mut state in checks::sample_starts() {
            for &mv in &moves {
                if let Some(next) = checks::take_or_refuse(&state, mv) {
                    state = next;
                }
            }
        }
    }
}
