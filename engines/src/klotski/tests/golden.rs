//! The course inputs (levels/klotski/, copied from the course data): their answers, found by
//! the solver and confirmed by the brute-force reference.

use super::*;

/// (name, input, shortest solution length or `None` for `No`). The seed's 5x6 sample is not
/// here: too large for exact answers in a test.
const COURSE: &[(&str, &str, Option<usize>)] = &[
    (
        "lunaqu4kez_extra_01",
        include_str!("../../../../levels/klotski/lunaqu4kez_extra_01.in"),
        Some(1),
    ),
    (
        "lunaqu4kez_extra_02",
        include_str!("../../../../levels/klotski/lunaqu4kez_extra_02.in"),
        Some(15),
    ),
    (
        "lunaqu4kez_extra_03",
        include_str!("../../../../levels/klotski/lunaqu4kez_extra_03.in"),
        Some(10),
    ),
    (
        "lunaqu4kez_extra_04",
        include_str!("../../../../levels/klotski/lunaqu4kez_extra_04.in"),
        Some(17),
    ),
    (
        "lunaqu4kez_extra_05",
        include_str!("../../../../levels/klotski/lunaqu4kez_extra_05.in"),
        Some(22),
    ),
    (
        "lunaqu4kez_extra_06",
        include_str!("../../../../levels/klotski/lunaqu4kez_extra_06.in"),
        Some(38),
    ),
    (
        "lunaqu4kez_test_1",
        include_str!("../../../../levels/klotski/lunaqu4kez_test_1.in"),
        Some(1),
    ),
    (
        "lunaqu4kez_test_2",
        include_str!("../../../../levels/klotski/lunaqu4kez_test_2.in"),
        None,
    ),
    (
        "lunaqu4kez_test_3",
        include_str!("../../../../levels/klotski/lunaqu4kez_test_3.in"),
        Some(1),
    ),
    (
        "lunaqu4kez_test_4",
        include_str!("../../../../levels/klotski/lunaqu4kez_test_4.in"),
        Some(16),
    ),
    (
        "mahynotch_test_1",
        include_str!("../../../../levels/klotski/mahynotch_test_1.in"),
        Some(16),
    ),
    (
        "phalaraluve_data_01",
        include_str!("../../../../levels/klotski/phalaraluve_data_01.in"),
        Some(2),
    ),
    (
        "phalaraluve_data_02",
        include_str!("../../../../levels/klotski/phalaraluve_data_02.in"),
        Some(0),
    ),
    (
        "phalaraluve_data_03",
        include_str!("../../../../levels/klotski/phalaraluve_data_03.in"),
        Some(13),
    ),
    (
        "phalaraluve_data_04",
        include_str!("../../../../levels/klotski/phalaraluve_data_04.in"),
        Some(2),
    ),
    (
        "phalaraluve_data_05",
        include_str!("../../../../levels/klotski/phalaraluve_data_05.in"),
        Some(15),
    ),
    (
        "phalaraluve_data_06",
        include_str!("../../../../levels/klotski/phalaraluve_data_06.in"),
        Some(17),
    ),
    (
        "phalaraluve_data_07",
        include_str!("../../../../levels/klotski/phalaraluve_data_07.in"),
        Some(8),
    ),
    (
        "phalaraluve_data_08",
        include_str!("../../../../levels/klotski/phalaraluve_data_08.in"),
        Some(2),
    ),
    (
        "phalaraluve_data_09",
        include_str!("../../../../levels/klotski/phalaraluve_data_09.in"),
        Some(14),
    ),
    (
        "phalaraluve_data_10",
        include_str!("../../../../levels/klotski/phalaraluve_data_10.in"),
        Some(12),
    ),
    (
        "phalaraluve_data_11",
        include_str!("../../../../levels/klotski/phalaraluve_data_11.in"),
        None,
    ),
    (
        "phalaraluve_data_12",
        include_str!("../../../../levels/klotski/phalaraluve_data_12.in"),
        Some(4),
    ),
    (
        "phalaraluve_data_13",
        include_str!("../../../../levels/klotski/phalaraluve_data_13.in"),
        Some(20),
    ),
    (
        "phalaraluve_data_14",
        include_str!("../../../../levels/klotski/phalaraluve_data_14.in"),
        Some(25),
    ),
    (
        "phalaraluve_data_15",
        include_str!("../../../../levels/klotski/phalaraluve_data_15.in"),
        Some(0),
    ),
    (
        "phalaraluve_data_16",
        include_str!("../../../../levels/klotski/phalaraluve_data_16.in"),
        None,
    ),
    (
        "phalaraluve_data_17",
        include_str!("../../../../levels/klotski/phalaraluve_data_17.in"),
        Some(21),
    ),
    (
        "phalaraluve_data_18",
        include_str!("../../../../levels/klotski/phalaraluve_data_18.in"),
        Some(14),
    ),
    (
        "phalaraluve_data_19",
        include_str!("../../../../levels/klotski/phalaraluve_data_19.in"),
        Some(0),
    ),
    (
        "phalaraluve_data_20",
        include_str!("../../../../levels/klotski/phalaraluve_data_20.in"),
        Some(13),
    ),
];

fn cells(text: &str) -> usize {
    let mut words = text
        .split_whitespace()
        .map(|word| word.parse::<usize>().unwrap());
    words.next().unwrap() * words.next().unwrap()
}

#[test]
fn every_course_input_gets_its_answer() {
    for &(name, text, expected) in COURSE {
        assert_eq!(
            solved_length(&puzzle(text), Method::Auto),
            expected,
            "{name}"
        );
    }
}

#[test]
fn every_method_agrees_on_the_small_course_inputs() {
    for &(name, text, expected) in COURSE.iter().filter(|(_, text, _)| cells(text) <= 9) {
        for method in Method::SEARCHES {
            assert_eq!(
                solved_length(&puzzle(text), method),
                expected,
                "{name} by {method}"
            );
        }
    }
}

#[test]
fn every_heuristic_gives_the_same_shortest_lengths() {
    let heuristics = [
        HeuristicKind::Manhattan,
        HeuristicKind::Conflicts,
        HeuristicKind::PatternDatabases,
    ];
    for &(name, text, expected) in COURSE.iter().filter(|(_, text, _)| cells(text) <= 9) {
        for heuristic in heuristics {
            for method in [Method::Astar, Method::Idastar] {
                let options = SolveOptions {
                    heuristic,
                    ..unlimited(method)
                };
                let length = solved_length_with(&puzzle(text), &options);
                assert_eq!(length, expected, "{name} by {method} with {heuristic:?}");
            }
        }
    }
}

#[test]
fn the_reference_confirms_the_small_course_answers() {
    for &(name, text, expected) in COURSE.iter().filter(|(_, text, _)| cells(text) <= 9) {
        assert_eq!(brute::shortest(text), expected, "{name}");
    }
}

/// Every course answer against the reference, boards of up to 20 cells included: minutes in the
/// dev profile, so run it on purpose with
/// `cargo test --release -p parlor-shared klotski -- --ignored`.
#[test]
#[ignore]
fn the_reference_confirms_every_course_answer() {
    for &(name, text, expected) in COURSE {
        assert_eq!(brute::shortest(text), expected, "{name}");
    }
}
