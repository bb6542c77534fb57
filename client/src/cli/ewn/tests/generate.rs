//! `client ewn generate`: repeatable, within its range, saying how far it got, and refusing
//! what it cannot do before it searches.

use super::*;

fn request() -> GenerateRequest {
    GenerateRequest {
        moves_at_least: 8,
        moves_at_most: 10,
        seed: 3,
        tries: 500,
        rules: Rules::default(),
    }
}

#[test]
fn generate_is_repeatable_and_keeps_to_the_range() {
    let mut log = Vec::new();
    let (first, code) = text(|out| generate_level(out, &mut log, request(), None));
    assert_eq!(code, ExitCode::SUCCESS);
    let (again, _) = text(|out| generate_level(out, &mut Vec::new(), request(), None));
    assert_eq!(first, again);
    let level = parse_level(&first, Rules::default()).unwrap();
    let optimum = solve(&level).unwrap().moves.len();
    assert!((8..=10).contains(&optimum), "{first}");
    let log = String::from_utf8(log).unwrap();
    assert!(
        log.starts_with(&format!("Needs {optimum} moves (seed 3")),
        "{log}"
    );
}

#[test]
fn generate_says_how_many_candidates_it_has_tried_as_it_goes() {
    let mut log = Vec::new();
    let every_time = Duration::ZERO;
    let code = generate_level_reporting(&mut Vec::new(), &mut log, request(), None, every_time);
    assert_eq!(code.unwrap(), ExitCode::SUCCESS);
    let log = String::from_utf8(log).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    let (needs, progress) = lines.split_last().unwrap();
    let kept: usize = needs
        .strip_suffix(").")
        .and_then(|line| line.rsplit_once("candidate "))
        .and_then(|(_, number)| number.parse().ok())
        .expect(&log);
    // A line after each refused candidate, then the one kept.
    assert_eq!(progress.len(), kept - 1, "{log}");
    assert!(
        progress[0].starts_with("1 of 500 candidates tried, "),
        "{log}"
    );
}

#[test]
fn generate_refuses_an_out_path_it_cannot_write_before_searching() {
    let dir = scratch();
    let nowhere = dir.path().join("no-such-folder").join("level.txt");
    let (mut log, every_time) = (Vec::new(), Duration::ZERO);
    let level_out = Some(nowhere.as_path());
    let refused =
        generate_level_reporting(&mut Vec::new(), &mut log, request(), level_out, every_time);
    let error = format!("{:#}", refused.expect_err("the folder does not exist"));
    assert!(
        error.contains("no-such-folder/level.txt: its folder does not exist"),
        "{error}"
    );
    // No candidate was tried: the search says so after each one.
    assert_eq!(String::from_utf8(log).unwrap(), "");
}

#[test]
fn a_range_that_no_level_can_meet_is_refused_with_the_reason() {
    for (at_least, at_most) in [(0, 0), (5, 4), (1, 31)] {
        let request = GenerateRequest {
            moves_at_least: at_least,
            moves_at_most: at_most,
            seed: 3,
            tries: 10,
            rules: Rules::default(),
        };
        let refused = generate_level(&mut Vec::new(), &mut Vec::new(), request, None);
        let error = refused.expect_err("refused").to_string();
        assert!(
            error.contains("the wanted range"),
            "{at_least}..={at_most}: {error}"
        );
    }
}
