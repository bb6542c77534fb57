//! Klotski's rules tests: the parser's errors (`parse`), and that it never panics.

mod parse;

use proptest::prelude::*;

use super::*;

fn puzzle(text: &str) -> Puzzle {
    parse_puzzle(text).unwrap_or_else(|error| panic!("{error}\n{text}"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn the_parser_never_panics(text in "[0-9 *x\n-]{0,60}") {
        let _ = parse_puzzle(&text);
    }

    #[test]
    fn the_parser_survives_any_edit_of_a_valid_input(at in 0usize..200, byte in any::<u8>()) {
        let mut text = include_str!("../../../../levels/klotski/mahynotch_test_2_spec_sample.in").as_bytes().to_vec();
        let at = at % text.len();
        text[at] = byte;
        if let Ok(text) = String::from_utf8(text) {
            let _ = parse_puzzle(&text);
        }
    }
}
