//! `client ewn generate`: repeatable, within its range, saying how far it got, and refusing
//! what it cannot do before it searches.

use super::*;

fn request() -> GenerateRequest {
    GenerateRequest {
        wanted: Wanted::Moves {
            at_least: 8,
            at_most: 10,
        },
        seed: 3,
        tries: 500,
        rules: Rules::default(),
    }
}

/// The course's rules with fewer moves allowed, where levels without a solution are common.
fn within(max_moves: usize) -> Rules {
    Rules {
        max_moves,
        ..Rules::default()
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
            wanted: Wanted::Moves { at_least, at_most },
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

#[test]
fn generate_can_ask_for_a_level_without_a_solution() {
    // Within 5 moves most random levels have none, so one is found at once.
    let within_five = within(5);
    let request = GenerateRequest {
        wanted: Wanted::NoSolution,
        seed: 3,
        tries: 100,
        rules: within_five,
    };
    let mut log = Vec::new();
    let (text, code) = text(|out| generate_level(out, &mut log, request, None));
    assert_eq!(code, ExitCode::SUCCESS);
    let level = parse_level(&text, within_five).unwrap();
    assert_eq!(solve(&level), None);
    let log = String::from_utf8(log).unwrap();
    assert!(
        log.starts_with("No solution within 5 moves (seed 3, candidate "),
        "{log}"
    );
}

#[test]
fn the_bench_times_generated_boards_of_each_kind_with_the_mean_and_the_worst() {
    let request = GeneratedBench {
        boards: 1,
        unsolvable: 0,
        seed: 2,
        rules: Rules::default(),
    };
    let (shown, code) = text(|out| bench_generated(out, &mut Vec::new(), &request));
    assert_eq!(code, ExitCode::SUCCESS, "{shown}");
    let lines: Vec<&str> = shown.lines().collect();
    let command = "client ewn generate --moves-at-least 23 --moves-at-most 25 --seed S";
    assert_eq!(lines[1], format!("23-25 moves: `{command}`"));
    let moves: usize = lines[3].split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!(
        lines[3].starts_with("2 ") && (23..=25).contains(&moves),
        "{shown}"
    );
    assert!(
        lines[4].starts_with("23-25 moves: 1 boards, mean "),
        "{shown}"
    );
    // No solution within 6 moves, where such boards are common; no hard boards asked for.
    let request = GeneratedBench {
        boards: 0,
        unsolvable: 2,
        seed: 0,
        rules: within(6),
    };
    let (shown, code) = text(|out| bench_generated(out, &mut Vec::new(), &request));
    assert_eq!(code, ExitCode::SUCCESS, "{shown}");
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(lines.len(), 6, "{shown}");
    assert_eq!(
        lines[1],
        "no solution within 6 moves: `client ewn generate --no-solution --max-moves 6 --seed S`"
    );
    assert!(
        lines[4].starts_with("1 ") && lines[4].contains("   >6 "),
        "{shown}"
    );
    assert!(
        lines[5].starts_with("no solution within 6 moves: 2 boards, mean "),
        "{shown}"
    );
}
