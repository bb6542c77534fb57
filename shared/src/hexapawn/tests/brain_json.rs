//! HER's brain as JSON: the documented form, round trips, and malformed files refused.

use proptest::prelude::*;

use crate::hexapawn::{
    AutoConfig, AutoMatch, Brain, Dims, Her, HerResult, HexapawnError, Move, Pick, Position,
};

fn brain_after_one_lost_game() -> Brain {
    let mut her = Her::new(Brain::new(Dims::HEXAPAWN, false), 1);
    let position = Position::start(Dims::HEXAPAWN)
        .play("a1-a2".parse().unwrap())
        .unwrap();
    her.choose(&position, Pick::Forced("b3xa2".parse().unwrap()))
        .unwrap();
    her.finish(HerResult::Lost);
    her.into_brain()
}

fn trained_brain(mirrors: bool) -> Brain {
    let config = AutoConfig {
        dims: Dims::HEXAPAWN,
        mirrors,
        rounds: 500,
        seed: 4,
    };
    let [brain, _] = AutoMatch::new(config).run().brains;
    brain
}

#[test]
fn a_box_is_written_as_her_sees_it() {
    let expected = r#"{
  "format": "parlor-hexapawn-brain",
  "version": 1,
  "size": "3x3",
  "mirrors": false,
  "boxes": {
    ".OO/O../HHH": {
      "b1-b2": 1,
      "b1xa2": 0,
      "c1-c2": 1
    }
  }
}"#;
    let brain = brain_after_one_lost_game();
    assert_eq!(brain.to_json(), expected);
    assert_eq!(Brain::from_json(expected).unwrap(), brain);
}

#[test]
fn trained_brains_survive_a_round_trip() {
    for mirrors in [false, true] {
        let brain = trained_brain(mirrors);
        assert!(brain.boxes() > 10);
        let json = brain.to_json();
        let back = Brain::from_json(&json).unwrap();
        assert_eq!(back, brain);
        assert_eq!(back.beads(), brain.beads());
        assert_eq!(back.to_json(), json);
    }
}

#[test]
fn with_mirrors_a_box_may_be_written_either_way_but_only_once() {
    let brain = {
        let mut her = Her::new(Brain::new(Dims::HEXAPAWN, true), 1);
        let position = Position::start(Dims::HEXAPAWN)
            .play("c1-c2".parse().unwrap())
            .unwrap();
        her.choose(&position, Pick::Random).unwrap();
        her.into_brain()
    };
    let file = brain.to_file();
    let (text, beads) = file.boxes.iter().next().unwrap();
    let rows: Vec<String> = text
        .split('/')
        .map(|row| row.chars().rev().collect())
        .collect();
    let mirror_text = rows.join("/");
    assert_ne!(&mirror_text, text);
    let mirror_beads = beads
        .iter()
        .map(|(mv, &count)| {
            let mv: Move = mv.parse().unwrap();
            (mv.mirrored(Dims::HEXAPAWN).to_string(), count)
        })
        .collect();
    let mut as_mirror = file.clone();
    as_mirror.boxes.clear();
    as_mirror.boxes.insert(mirror_text.clone(), mirror_beads);
    assert_eq!(Brain::from_file(&as_mirror).unwrap(), brain);
    let mut both = file.clone();
    both.boxes
        .insert(mirror_text, as_mirror.boxes.into_values().next().unwrap());
    let error = Brain::from_file(&both).unwrap_err().to_string();
    assert!(error.contains("listed twice"), "{error}");
}

#[test]
fn malformed_brains_are_refused_with_a_reason() {
    let good = brain_after_one_lost_game().to_json();
    let cases = [
        ("not json", "not a Hexapawn brain file"),
        (
            &good.replace("parlor-hexapawn-brain", "menace"),
            "the format is",
        ),
        (
            &good.replace("\"version\": 1", "\"version\": 2"),
            "version 2",
        ),
        (&good.replace("3x3", "9x9"), "size"),
        (
            &good.replace("\"mirrors\": false", "\"mirrors\": false, \"x\": 1"),
            "unknown field",
        ),
        (
            &good.replace(".OO/O../HHH", ".OO/O?./HHH"),
            "'?' is not a square",
        ),
        (
            &good.replace(".OO/O../HHH", ".OOO/O.../HHHH"),
            "a 3x4 board in a 3x3 brain",
        ),
        (
            &good.replace(".OO/O../HHH", "H../.../..O"),
            "not a position HER moves in",
        ),
        (&good.replace("b1-b2", "b1-b3"), "illegal move b1-b3"),
        (&good.replace("b1-b2", "a1-a2"), "illegal move a1-a2"),
        (&good.replace("\"b1-b2\": 1,", ""), "b1-b2 missing"),
        (
            &good.replace("\"b1-b2\": 1", "\"b1-b2\": 2"),
            "2 beads for b1-b2",
        ),
        (
            &good.replace("\"b1-b2\": 1", "\"b1-b2\": -1"),
            "not a Hexapawn brain file",
        ),
        (
            &good.replace("\"b1-b2\": 1", "\"b1b2\": 1, \"b1-b2\": 1"),
            "listed twice",
        ),
        (&good.replace("b1-b2", "her"), "not a move"),
    ];
    for (json, reason) in cases {
        match Brain::from_json(json) {
            Err(error @ HexapawnError::BadBrain(_)) => {
                assert!(
                    error.to_string().contains(reason),
                    "{error} lacks {reason:?}"
                );
            }
            other => panic!("{json}\n was not refused: {other:?}"),
        }
    }
}

#[test]
fn boxes_are_checked_as_they_are_read_in_the_files_order_wherever_the_header_stands() {
    // Many bogus boxes: the first is refused before the next is read (a 64 MiB import of
    // them once took gigabytes as a map of strings before any was checked).
    let bogus: String = (0..10_000).map(|i| format!("\"k{i}\":{{}},")).collect();
    let file = format!(
        r#"{{"boxes":{{"H../.../..O":{{}},{bogus}"z":{{}}}},"format":"parlor-hexapawn-brain","version":1,"size":"3x3","mirrors":false}}"#
    );
    let error = Brain::from_json(&file).unwrap_err().to_string();
    assert!(
        error.contains("box \"H../.../..O\": not a position HER moves in"),
        "{error}"
    );
    // A wrong move is the box's reason even with more moves after it; a move given twice
    // in one box (which a map of strings kept only once) is refused.
    let good = brain_after_one_lost_game().to_json();
    let wrong_first = good.replace("\"b1-b2\": 1", "\"b1-b3\": 1, \"b1-b2\": 1");
    let error = Brain::from_json(&wrong_first).unwrap_err().to_string();
    assert!(error.contains("illegal move b1-b3"), "{error}");
    let twice = good.replace("\"b1-b2\": 1", "\"b1-b2\": 1, \"b1-b2\": 0");
    let error = Brain::from_json(&twice).unwrap_err().to_string();
    assert!(error.contains("b1-b2 is listed twice"), "{error}");
    // Trailing text after the file is refused as before.
    assert!(Brain::from_json(&format!("{good} x")).is_err());
}

#[test]
fn the_compact_file_of_an_empty_brain_is_serdes() {
    let brain = Brain::new(Dims::HEXAPAWN, true);
    let expected = serde_json::to_string(&brain.to_file()).unwrap();
    assert_eq!(brain.to_compact_json(), expected);
}

proptest! {
    /// The compact file written straight from the boxes is the one serde writes from the
    /// brain's [`BrainFile`], byte for byte, on boards of every shape HER plays here.
    #[test]
    fn the_compact_file_is_the_one_serde_writes(
        rows in 3u8..=6,
        cols in 3u8..=6,
        mirrors: bool,
        rounds in 1u64..200,
        seed: u64,
    ) {
        let config = AutoConfig { dims: Dims::new(rows, cols).unwrap(), mirrors, rounds, seed };
        for brain in AutoMatch::new(config).run().brains {
            let expected = serde_json::to_string(&brain.to_file()).unwrap();
            prop_assert_eq!(brain.to_compact_json(), expected);
        }
    }

    /// Whatever a file's bytes, reading it gives a brain or an error, never a panic.
    #[test]
    fn reading_mangled_brains_never_panics(
        cut in 0usize..400,
        insert in "[ -~]{0,8}",
    ) {
        let json = brain_after_one_lost_game().to_json();
        let cut = json.char_indices().map(|(at, _)| at).nth(cut).unwrap_or(json.len());
        let mangled = format!("{}{insert}{}", &json[..cut], &json[cut..]);
        let _ = Brain::from_json(&mangled);
    }
}
