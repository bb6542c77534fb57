use std::io::Cursor;

use super::*;

fn setup(height: u64, drops: u64, bricks: u32) -> Setup {
    Setup::new(height, drops, bricks).unwrap()
}

fn run_play(options: PlayOptions, typed: &str) -> (String, ExitCode) {
    let mut out = Vec::new();
    let code = play(&mut Cursor::new(typed), &mut out, options).unwrap();
    (String::from_utf8(out).unwrap(), code)
}

fn options(setup: Setup, agent: AgentKind, answer: AnswerKind) -> PlayOptions {
    PlayOptions {
        setup,
        agent,
        answer,
        strength: None,
        seed: 7,
    }
}

fn solve_text(setup: Setup, json: bool) -> String {
    let mut out = Vec::new();
    solve(&mut out, setup, json).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn a_person_answers_and_bad_input_is_refused() {
    // H = 3 with 2 drops and 2 bricks: the winning agent drops from 2, then from 3 after Safe.
    let playing = options(setup(3, 2, 2), AgentKind::Winning, AnswerKind::Human);
    let (text, code) = run_play(playing, "maybe\n\nS\nbroken\n");
    assert_eq!(code, ExitCode::SUCCESS);
    assert!(
        text.contains("This game can be won whatever the answers"),
        "{text}"
    );
    assert!(
        text.contains("Drop 1: the winning agent drops from height 2."),
        "{text}"
    );
    assert!(
        text.contains("Not accepted: \"maybe\". Type s (safe) or b (broken)."),
        "{text}"
    );
    assert!(text.contains("Not accepted: \"\"."), "{text}");
    assert!(
        text.contains("Drop 2: the winning agent drops from height 3."),
        "{text}"
    );
    assert!(
        text.contains("The winning agent says: The strength is 2, for certain."),
        "{text}"
    );
    assert!(text.ends_with("The agent wins.\n"), "{text}");
    // No randomness was used, so no seed is shown.
    assert!(!text.contains("Seed"), "{text}");
}

#[test]
fn end_of_input_abandons_the_game() {
    let playing = options(setup(10, 4, 2), AgentKind::Winning, AnswerKind::Human);
    let (text, code) = run_play(playing, "s\n");
    assert_eq!(code, ExitCode::FAILURE);
    assert!(
        text.ends_with("Input ended; the game is abandoned.\n"),
        "{text}"
    );
}

#[test]
fn the_oracle_answers_truthfully_and_reveals_its_strength() {
    let playing = PlayOptions {
        strength: Some(6),
        ..options(setup(10, 4, 2), AgentKind::Winning, AnswerKind::Oracle)
    };
    let (text, code) = run_play(playing, "");
    assert_eq!(code, ExitCode::SUCCESS);
    assert!(text.contains("The answer: safe."), "{text}");
    assert!(text.contains("The strength is 6, for certain."), "{text}");
    assert!(
        text.ends_with("The oracle's secret strength was 6.\n"),
        "{text}"
    );
}

#[test]
fn the_adversary_makes_the_random_agent_guess_when_the_game_cannot_be_won() {
    let playing = options(setup(100, 5, 2), AgentKind::Random, AnswerKind::Adversary);
    let (text, _) = run_play(playing, "");
    assert!(
        text.contains("cannot be won against an adversary"),
        "{text}"
    );
    assert!(text.contains("Seed 7 (replay with --seed 7)."), "{text}");
    assert!(text.contains("with doubts: it is somewhere from"), "{text}");
    assert!(
        text.ends_with("The agent loses: it had to guess.\n"),
        "{text}"
    );
}

#[test]
fn solve_reports_the_verdict_the_fewest_drops_and_the_first_drop() {
    let text = solve_text(setup(100, 14, 2), false);
    assert_eq!(
        text,
        "H = 100, D = 14, B = 2\n\
         The agent can win: 14 drops and 2 bricks resolve f(D, B) = 105 heights, which covers H = 100.\n\
         Fewest drops for H = 100 with 2 bricks: 14.\n\
         First drop: from height 14.\n"
    );
    let huge = solve_text(setup(1_000_000_000_000_000_000, 60, 2), false);
    assert!(huge.contains("cannot win against an adversary"), "{huge}");
    assert!(huge.contains("f(D, B) = 1830 heights"), "{huge}");
    assert!(huge.contains("Fewest drops for H = 1000000000000000000 with 2 bricks: 1414213562."));
}

#[test]
fn solve_speaks_json_and_says_when_it_saturates() {
    let json: serde_json::Value = serde_json::from_str(&solve_text(
        setup(1_000_000_000_000_000_000, 1_000_000_000_000_000_000, 64),
        true,
    ))
    .unwrap();
    assert_eq!(json["winnable"], true);
    assert_eq!(json["fewest_drops"], 60);
    assert_eq!(json["first_drop"], 1u64 << 59);
    assert_eq!(json["distinguishable_heights"], u64::MAX);
    assert_eq!(json["distinguishable_heights_capped"], true, "{json}");
    let stuck: serde_json::Value = serde_json::from_str(&solve_text(setup(5, 3, 0), true)).unwrap();
    assert_eq!(stuck["distinguishable_heights"], 0);
    assert_eq!(stuck["distinguishable_heights_capped"], false, "{stuck}");
    assert_eq!(stuck["fewest_drops"], serde_json::Value::Null);
    assert_eq!(stuck["first_drop"], serde_json::Value::Null);
    let text = solve_text(setup(5, 3, 0), false);
    assert!(
        text.contains("Without bricks no number of drops finds S."),
        "{text}"
    );
    assert!(solve_text(setup(10, 100, 64), false).contains("at least 18446744073709551615"));
}

#[test]
fn show_reads_drops_and_answers_and_names_a_bad_move() {
    let moves = parse_moves("drop 50, broken; D 20 , s,b").unwrap();
    assert_eq!(
        moves,
        [
            BricksMove::Drop(50),
            BricksMove::Answer(Answer::Broken),
            BricksMove::Drop(20),
            BricksMove::Answer(Answer::Safe),
            BricksMove::Answer(Answer::Broken),
        ]
    );
    assert!(parse_moves("  ").unwrap().is_empty());
    for (text, bad) in [
        ("drop 50, maybe", "move 2 (\"maybe\")"),
        ("drop", "move 1 (\"drop\")"),
        ("drop -5", "move 1"),
        ("drop 5 6", "move 1"),
        ("drop 99999999999999999999", "move 1"),
    ] {
        let error = parse_moves(text).unwrap_err().to_string();
        assert!(error.starts_with(bad), "{text}: {error}");
    }
}

#[test]
fn the_tree_takes_heights_up_to_64_and_its_help_says_so() {
    use clap::{CommandFactory, Parser};
    #[derive(Parser, Debug)]
    struct Cli {
        #[command(subcommand)]
        command: BricksCommand,
    }
    let tree = |height: &str| {
        let line = format!("bricks tree --height {height} --drops 3 --bricks 2");
        Cli::try_parse_from(line.split(' '))
    };
    for refused in ["0", "65", "1000000000000000000"] {
        let error = tree(refused).unwrap_err().to_string();
        assert!(error.contains("is not in 1..=64"), "{refused}: {error}");
    }
    assert!(tree("64").is_ok());
    let help = Cli::command()
        .find_subcommand_mut("tree")
        .unwrap()
        .render_help()
        .to_string();
    let height = help
        .lines()
        .find(|l| l.trim_start().starts_with("--height <HEIGHT>"))
        .unwrap();
    assert!(height.contains("H (1..=64)"), "{height:?}");
}

#[test]
fn a_game_answered_by_itself_stops_when_it_would_print_for_ever() {
    let endless = setup(1_000_000_000_000_000_000, 1_000_000_000_000_000_000, 1);
    let playing = options(endless, AgentKind::Winning, AnswerKind::Adversary);
    let (text, code) = run_play(playing, "");
    assert_eq!(code, ExitCode::FAILURE);
    assert!(
        text.contains(" drops, 1 brick."),
        "one brick, not one bricks"
    );
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("Stopped after 100000 drops"), "{last}");
    // A game that ends sooner is played to its end.
    let playing = options(
        setup(1000, 1000, 1),
        AgentKind::Winning,
        AnswerKind::Adversary,
    );
    assert_eq!(run_play(playing, "").1, ExitCode::SUCCESS);
}
