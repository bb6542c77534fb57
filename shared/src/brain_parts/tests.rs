use proptest::prelude::*;

use super::*;
use crate::codec::{Format, encode};
use crate::protocol::{ClientMsg, ServerMsg};

fn escaped(text: &str) -> usize {
    text.chars().map(escaped_len).sum()
}

fn part<'a>(name: &'a str, part: u32, parts: u32, text: &'a str) -> Part<'a> {
    Part {
        name,
        part,
        parts,
        text,
    }
}

/// Sends `parts` in the order given into one slot, as a server or client receives them.
fn receive(parts: &[Part]) -> Result<Option<(String, String)>, String> {
    let mut slot = None;
    let mut last = Ok(None);
    for &p in parts {
        last = Assembly::take(&mut slot, p);
        if last.is_err() {
            assert!(slot.is_none(), "a refused part drops the file under way");
        }
    }
    last
}

#[test]
fn the_parts_of_a_file_join_back_into_it_and_each_fits_a_frame_in_both_formats() {
    // The worst case for a frame: text that all escapes, in characters of every width.
    let text = "\"\\\u{1}é€𝄞ab".repeat(40_000);
    let parts = split(&text);
    assert!(parts.len() > 10);
    assert_eq!(parts.concat(), text);
    for &text in &parts {
        assert!(escaped(text) <= PART_BYTES);
    }
    // The messages that carry them, with the longest name, fit a frame both ways.
    let name = "𝄞".repeat(crate::hexapawn::MAX_BRAIN_NAME);
    let answers: Vec<ServerMsg> = export_answers(&name, &text).collect();
    let requests: Vec<ClientMsg> = import_requests(&name, &text).collect();
    assert_eq!((answers.len(), requests.len()), (parts.len(), parts.len()));
    for format in [Format::Json, Format::Binary] {
        for (index, answer) in answers.iter().enumerate() {
            assert!(
                encode(answer, format).is_ok(),
                "answer {index} in {format:?}"
            );
        }
        for (index, request) in requests.iter().enumerate() {
            assert!(
                encode(request, format).is_ok(),
                "request {index} in {format:?}"
            );
        }
    }
    // And they join back into the file at the other end.
    let exported: Vec<Part> = answers.iter().filter_map(Part::of_export).collect();
    let imported: Vec<Part> = requests.iter().filter_map(Part::of_import).collect();
    for parts in [exported, imported] {
        assert_eq!(receive(&parts), Ok(Some((name.clone(), text.clone()))));
    }
}

#[test]
fn an_empty_file_is_one_empty_part() {
    assert_eq!(split(""), vec![""]);
    assert_eq!(
        receive(&[part("HER", 0, 1, "")]),
        Ok(Some(("HER".into(), String::new())))
    );
}

#[test]
fn parts_in_order_make_the_file_and_only_the_last_one_gives_it() {
    let mut slot = None;
    assert_eq!(Assembly::take(&mut slot, part("HER", 0, 3, "ab")), Ok(None));
    assert_eq!(Assembly::take(&mut slot, part("HER", 1, 3, "cd")), Ok(None));
    assert_eq!(
        Assembly::take(&mut slot, part("HER", 2, 3, "e")),
        Ok(Some(("HER".into(), "abcde".into())))
    );
    assert!(slot.is_none());
}

#[test]
fn a_part_out_of_place_is_refused_and_drops_the_file() {
    let refused = |parts: &[Part]| receive(parts).expect_err("refused");
    let first = part("HER", 0, 3, "ab");
    assert!(refused(&[first, part("HER", 2, 3, "x")]).contains("part 1 of 3"));
    assert!(refused(&[first, part("HIM", 1, 3, "x")]).contains("\"HER\""));
    assert!(refused(&[first, part("HER", 1, 4, "x")]).contains("was due"));
    assert!(refused(&[part("HER", 1, 3, "x")]).contains("no file was begun"));
    assert!(refused(&[part("HER", 3, 3, "x")]).contains("numbered from 0"));
    assert!(refused(&[part("HER", 0, 0, "")]).contains("1 to"));
    assert!(refused(&[part("HER", 0, MAX_PARTS + 1, "")]).contains("1 to"));
    // After a refusal the next file begins afresh.
    let mut slot = None;
    let _ = Assembly::take(&mut slot, part("HER", 1, 3, "x"));
    assert_eq!(
        Assembly::take(&mut slot, part("HER", 0, 1, "new")),
        Ok(Some(("HER".into(), "new".into())))
    );
}

#[test]
fn part_0_begins_a_new_file_in_place_of_an_unfinished_one() {
    assert_eq!(
        receive(&[
            part("OLD", 0, 3, "old"),
            part("HER", 0, 2, "a"),
            part("HER", 1, 2, "b")
        ]),
        Ok(Some(("HER".into(), "ab".into())))
    );
}

#[test]
fn a_file_over_the_size_limit_is_refused() {
    let big = "x".repeat(MAX_FILE_BYTES / 2 + 1);
    let refusal = receive(&[part("HER", 0, 2, &big), part("HER", 1, 2, &big)]).unwrap_err();
    assert!(refusal.contains("over 64 MiB"), "{refusal}");
}

proptest! {
    #[test]
    fn any_text_splits_into_parts_that_escape_within_the_limit_and_join_back(
        text in "(\\PC|[\"\\\\\\x00-\\x1f]){0,400}",
        repeat in 1usize..400,
    ) {
        let text = text.repeat(repeat);
        let parts = split(&text);
        prop_assert_eq!(parts.concat(), text.clone());
        for (index, &part) in parts.iter().enumerate() {
            // The escape model is serde_json's: its string of the part, less the quotes.
            prop_assert_eq!(serde_json::to_string(part).unwrap().len() - 2, escaped(part));
            prop_assert!(escaped(part) <= PART_BYTES);
            if index + 1 < parts.len() {
                prop_assert!(!part.is_empty(), "only an empty file has an empty part");
            }
        }
        let numbered: Vec<Part> = numbered(&text)
            .map(|(index, count, text)| part("HER", index, count, text))
            .collect();
        prop_assert_eq!(receive(&numbered), Ok(Some(("HER".into(), text))));
    }
}
