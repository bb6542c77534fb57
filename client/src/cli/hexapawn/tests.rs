use std::io::Cursor;

use parlor_shared::hexapawn::{Brain, BrainFile, HerStats};

use super::*;

fn run_play(mode: Mode, typed: &str) -> (String, ExitCode) {
    let options = PlayOptions {
        dims: Dims::HEXAPAWN,
        mode,
        seed: 5,
        mirrors: false,
    };
    let mut out = Vec::new();
    let code = play(&mut Cursor::new(typed), &mut out, options).unwrap();
    (String::from_utf8(out).unwrap(), code)
}

fn assert_has(text: &str, wanted: &str) {
    assert!(text.contains(wanted), "{wanted:?} missing from:\n{text}");
}

#[test]
fn slow_mode_shows_the_matchbox_and_obeys_forced_moves() {
    let typed = "a1-a3\nxyz\nmoves\nb1-b2\na3xb2\nc1xb2\nc3xb2\na1xb2\nn\n";
    let (text, code) = run_play(Mode::Slow, typed);
    assert_eq!(code, ExitCode::SUCCESS);
    assert_has(
        &text,
        "Refused: illegal move a1-a3: a pawn moves exactly one row forward.",
    );
    assert_has(&text, "Refused: \"xyz\" is not a move");
    assert_has(&text, "Your legal moves: a1-a2, b1-b2, c1-c2.");
    assert_has(&text, "HER's matchbox for this position holds 4 beads:");
    assert_has(&text, "  a3xb2  1 bead   25.0%");
    assert_has(&text, "HER plays a3xb2.");
    assert_has(
        &text,
        "White wins: Black is to move and has no legal move. You win!",
    );
    assert_has(
        &text,
        "HER is punished: the bead for its last move, c3xb2, is taken from its box.",
    );
    assert_has(
        &text,
        "Score: you 1, HER 0. HER has 2 matchboxes and 5 beads.",
    );
}

#[test]
fn a_confiscated_bead_cannot_be_forced_and_her_can_draw() {
    let first_game = "b1-b2\na3xb2\nc1xb2\nc3xb2\na1xb2\n";
    let typed = format!("{first_game}y\nb1-b2\na3xb2\nc1xb2\nc3xb2\nher\nquit\n");
    let (text, code) = run_play(Mode::Slow, &typed);
    assert_eq!(code, ExitCode::SUCCESS);
    assert_has(&text, "Game 2.");
    assert_has(&text, "  c3xb2  0 beads   0.0%");
    assert_has(&text, "Refused: HER's bead for c3xb2 has been taken away.");
    // The only bead left is c3-c2, so HER's draw is certain.
    assert_has(&text, "HER plays c3-c2.");
    assert_has(&text, "The game is abandoned");
}

#[test]
fn fast_mode_just_moves_and_input_ending_mid_game_fails() {
    let (text, code) = run_play(Mode::Fast, "b1-b2\n");
    assert_eq!(code, ExitCode::FAILURE);
    assert_has(&text, "HER plays ");
    assert!(!text.contains("matchbox for this position"), "{text}");
}

fn auto_config(rounds: u64) -> AutoConfig {
    AutoConfig {
        dims: Dims::HEXAPAWN,
        mirrors: true,
        rounds,
        seed: 11,
    }
}

fn auto_output(rounds: u64, json: bool, plot: Option<PathBuf>) -> String {
    let mut out = Vec::new();
    auto(&mut out, auto_config(rounds), json, plot).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn auto_mode_prints_wins_shares_and_the_curve() {
    let text = auto_output(400, false, None);
    assert_has(
        &text,
        "Auto mode, 3x3: 400 rounds, mirror images merged, seed 11",
    );
    // The same match played again: each HER's line carries its own numbers, and its share is
    // of its wins that came when it moved first (SPEC §5), not of the rounds.
    let report = AutoMatch::new(auto_config(400)).run();
    let [one, two] = report.stats;
    assert_eq!(one.wins + two.wins, 400);
    assert_ne!(one, two, "this seed cannot tell HER 1's line from HER 2's");
    let expected: Vec<String> = (0..2)
        .map(|her| {
            let HerStats {
                wins,
                wins_moving_first,
            } = report.stats[her];
            let share = format!("{:.1}%", 100.0 * wins_moving_first as f64 / wins as f64);
            let over_rounds = format!("{:.1}%", 100.0 * wins_moving_first as f64 / 400.0);
            assert_ne!(share, over_rounds, "this seed cannot tell the shares apart");
            let brain = &report.brains[her];
            format!(
                "HER {}: {wins} wins, {wins_moving_first} of them moving first ({share}); \
                 {} boxes, {} beads left.",
                her + 1,
                brain.boxes(),
                brain.beads()
            )
        })
        .collect();
    let printed: Vec<&str> = text
        .lines()
        .filter(|line| line.starts_with("HER "))
        .collect();
    assert_eq!(printed, expected, "in:\n{text}");
    assert_has(&text, "Learning curve");
    assert_has(&text, "321-400");
    assert_has(&text, "11-20");
}

#[test]
fn auto_mode_says_when_it_stopped_early_because_a_brain_is_full() {
    let config = AutoConfig {
        dims: "8x8".parse().unwrap(),
        mirrors: false,
        rounds: MAX_MATCH_ROUNDS,
        seed: 1,
    };
    let mut out = Vec::new();
    auto(&mut out, config, false, None).unwrap();
    let text = String::from_utf8(out).unwrap();
    let stopped = text
        .lines()
        .find_map(|line| line.strip_prefix("Stopped after "))
        .unwrap_or_else(|| panic!("no early stop in:\n{text}"));
    let rounds: u64 = stopped.split(' ').next().unwrap().parse().unwrap();
    assert!((1_000..100_000).contains(&rounds), "{stopped}");
    assert!(stopped.ends_with("a brain reached 200000 boxes, where a match stops."));
}

#[test]
fn auto_json_carries_the_statistics_and_both_brains() {
    let text = auto_output(200, true, None);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["rounds"], 200);
    assert_eq!(value["rounds_played"], 200);
    assert_eq!(value["curve"].as_array().unwrap().len(), 20);
    let hers = value["hers"].as_array().unwrap();
    let wins: u64 = hers.iter().map(|her| her["wins"].as_u64().unwrap()).sum();
    assert_eq!(wins, 200);
    for her in hers {
        let file: BrainFile = serde_json::from_value(her["brain"].clone()).unwrap();
        let brain = Brain::from_file(&file).unwrap();
        assert_eq!(serde_json::json!(brain.boxes()), her["boxes"]);
        assert!(brain.mirrors());
    }
}

#[test]
fn auto_plot_writes_a_png() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("curve.png");
    let text = auto_output(300, false, Some(path.clone()));
    assert_has(&text, "Learning curve drawn to");
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn a_plot_that_cannot_be_written_is_refused_before_the_match() {
    let dir = tempfile::tempdir().unwrap();
    let config = AutoConfig {
        dims: Dims::HEXAPAWN,
        mirrors: true,
        rounds: 300,
        seed: 11,
    };
    for (path, reason) in [
        (
            dir.path().join("no-such-folder/curve.png"),
            "cannot write the plot",
        ),
        (dir.path().join("curve.svg"), "must end in .png"),
    ] {
        let mut out = Vec::new();
        let refused = auto(&mut out, config, false, Some(path)).expect_err("refused");
        assert!(format!("{refused:#}").contains(reason), "{refused:#}");
        assert!(out.is_empty(), "the match was not played");
    }
}

#[test]
fn solve_gives_the_winner() {
    let text = |dims| {
        let mut out = Vec::new();
        solve(&mut out, dims).unwrap();
        String::from_utf8(out).unwrap()
    };
    let hexapawn = text(Dims::HEXAPAWN);
    assert_has(
        &hexapawn,
        "Hexapawn 3x3: Black, the second player, wins with perfect play.",
    );
    assert_has(&hexapawn, "Every first move of White loses.");
    let octapawn = text(Dims::OCTAPAWN);
    assert_has(
        &octapawn,
        "Hexapawn 4x4: White, the first player, wins with perfect play.",
    );
    assert_has(&octapawn, "White's winning first moves: ");
}

#[test]
fn her_resigns_at_an_empty_box_and_pays_with_its_previous_move() {
    let line = "a1-a2\nb3-b2\nc1xb2\nc3-c2\nb1xc2\n";
    let typed = format!("{line}her\na2-a3\ny\n{line}n\n");
    let (text, code) = run_play(Mode::Slow, &typed);
    assert_eq!(code, ExitCode::SUCCESS);
    assert_has(
        &text,
        "HER is punished: the bead for its last move, a3xb2, is taken from its box.",
    );
    assert_has(
        &text,
        "HER's matchbox for this position is empty: HER resigns. You win!",
    );
    assert_has(
        &text,
        "HER is punished: the bead for its previous move, c3-c2, is taken from its box.",
    );
    assert_has(&text, "Score: you 2, HER 0.");
}

#[test]
fn auto_mode_plays_one_to_a_million_rounds() {
    use clap::Parser;
    #[derive(clap::Parser, Debug)]
    struct Cli {
        #[command(subcommand)]
        command: HexapawnCommand,
    }
    // `--rounds 0` used to print an empty report; the largest number kept growing the learning
    // curve until the memory ran out.
    for rounds in ["0", "1000001", "18446744073709551615"] {
        let error = Cli::try_parse_from(["hexapawn", "auto", "--rounds", rounds])
            .unwrap_err()
            .to_string();
        assert!(error.contains("is not in 1..=1000000"), "{error}");
    }
    for rounds in ["1", "1000000"] {
        assert!(Cli::try_parse_from(["hexapawn", "auto", "--rounds", rounds]).is_ok());
    }
}

#[test]
fn a_bench_too_short_for_one_game_is_refused_not_printed_as_nan() {
    let mut out = Vec::new();
    let refused = bench(&mut out, 1e-10).expect_err("no game fits in 1e-10 s");
    let refused = format!("{refused:#}");
    assert!(
        refused.starts_with("--seconds 0.0000000001 is too short: no self-play game was played")
            && refused.ends_with("give a larger --seconds"),
        "{refused}"
    );
    let out = String::from_utf8(out).unwrap();
    assert!(!out.contains("NaN"), "{out}");
}

#[test]
fn a_bench_of_no_time_or_of_more_than_an_hour_is_refused_before_it_starts() {
    for seconds in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e30, 3600.5] {
        let mut out = Vec::new();
        let refused = bench(&mut out, seconds).expect_err("refused").to_string();
        assert!(refused.contains("at most 3600 (an hour)"), "{refused}");
        assert!(out.is_empty(), "nothing run");
    }
}

#[test]
fn the_bench_says_most_rounds_of_a_long_match_are_resignations_and_times_the_games_played() {
    let mut out = Vec::new();
    assert_eq!(bench(&mut out, 0.3).unwrap(), ExitCode::SUCCESS);
    let out = String::from_utf8(out).unwrap();
    assert_has(&out, "HER resigns when its matchbox is empty");
    let long = out
        .lines()
        .find(|line| line.starts_with("1,000,000-round matches: "))
        .expect(&out);
    // "... games/s, 99.99% resigned before a move; the others 4.35 plies each, ..."
    let figure = |before: &str, after: &str| -> f64 {
        let (_, rest) = long.split_once(before).expect(long);
        rest.split_once(after).expect(long).0.parse().expect(long)
    };
    assert!(
        figure("games/s, ", "% resigned before a move") > 99.0,
        "{long}"
    );
    // A 3x3 game that is played takes at least 3 plies.
    assert!(figure("the others ", " plies each") >= 3.0, "{long}");
}
