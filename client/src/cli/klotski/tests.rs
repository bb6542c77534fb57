use std::time::Duration;

use super::input::read_input_from;
use super::*;

const SAMPLE_3X3: &str = "3 3\n1 2 3\n4 0 0\n7 5 6\n1\n5 1*2\n";

fn run_answer(input: &str, method: Method) -> (anyhow::Result<ExitCode>, String, String) {
    // Small boards only, so the (generous) budget never decides anything.
    let options = SolveOptions {
        method,
        budget: Duration::from_secs(3600),
        ..SolveOptions::default()
    };
    let (mut out, mut notes) = (Vec::new(), Vec::new());
    let code = answer(input, &options, true, &mut out, &mut notes);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(notes).unwrap(),
    )
}

#[test]
fn a_solution_is_printed_exactly_in_the_seeds_form() {
    let (code, out, notes) = run_answer(SAMPLE_3X3, Method::Auto);
    assert_eq!(code.unwrap(), ExitCode::SUCCESS);
    assert_eq!(out, "Yes\n1\n5 U\n");
    assert!(notes.starts_with("auto with "), "{notes}");
}

#[test]
fn every_method_prints_a_shortest_solution_of_the_same_length() {
    let input = include_str!("../../../../levels/klotski/lunaqu4kez_extra_04.in");
    for method in Method::SEARCHES {
        let (code, out, _) = run_answer(input, method);
        assert_eq!(code.unwrap(), ExitCode::SUCCESS);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[..2], ["Yes", "17"], "{method}");
        assert_eq!(lines.len(), 19, "{method}");
        assert!(
            lines[2..]
                .iter()
                .all(|line| line.parse::<parlor_shared::klotski::Move>().is_ok())
        );
    }
}

#[test]
fn no_is_printed_alone_and_explained_on_the_side() {
    let (code, out, notes) = run_answer("2 2\n2 1\n0 3\n0\n", Method::Auto);
    assert_eq!(code.unwrap(), ExitCode::SUCCESS);
    assert_eq!(out, "No\n");
    assert!(notes.contains("no solution: one blank"), "{notes}");
}

#[test]
fn a_search_stopped_by_the_position_cap_names_the_cap_not_the_time() {
    // Breadth-first search may store one position: it stops at once, long before its hour.
    let options = SolveOptions {
        method: Method::Bfs,
        budget: Duration::from_secs(3600),
        max_positions: 1,
        ..SolveOptions::default()
    };
    let (mut out, mut notes) = (Vec::new(), Vec::new());
    let code = answer(SAMPLE_3X3, &options, true, &mut out, &mut notes).unwrap();
    assert_eq!(code, ExitCode::from(UNDECIDED_EXIT));
    assert!(out.is_empty());
    let notes = String::from_utf8(notes).unwrap();
    assert!(
        notes.contains("within the cap of 1 stored positions")
            && notes.contains("try a larger --max-positions"),
        "{notes}"
    );
    assert!(!notes.contains("--budget-ms"), "{notes}");
    let report = solve(&parse_puzzle(SAMPLE_3X3).unwrap(), &options);
    let line = summary(&report, &options);
    assert!(line.contains("within 1 stored positions"), "{line}");
}

#[test]
fn bad_input_is_an_error_naming_the_line() {
    let (code, out, _) = run_answer("2 2\n1 2\n2 0\n0\n", Method::Auto);
    let error = format!("{:#}", code.unwrap_err());
    assert_eq!(out, "");
    assert!(error.contains("line 3: number 2 is repeated"), "{error}");
}

#[test]
fn block_shapes_are_read_from_the_command_line() {
    assert_eq!(parse_shape("2*2"), Ok(Shape::Square));
    assert_eq!(parse_shape("1x2"), Ok(Shape::Wide));
    assert_eq!(parse_shape("2*1"), Ok(Shape::Tall));
    assert!(parse_shape("1*1").is_err());
    assert!(parse_shape("3*1").is_err());
    assert!(parse_shape("wide").is_err());
}

/// The `klotski` command as clap reads it, for the tests of its options.
#[derive(clap::Parser, Debug)]
struct Cli {
    #[command(subcommand)]
    command: KlotskiCommand,
}

/// A `klotski` command line (words split at spaces) as clap reads it.
fn parsed(line: &str) -> Result<KlotskiCommand, clap::Error> {
    use clap::Parser;
    Ok(Cli::try_parse_from(line.split(' '))?.command)
}

#[test]
fn a_scrambling_walk_takes_one_to_a_million_steps() {
    let generate = |walk: &str| {
        let line = format!("klotski generate --rows 3 --cols 3 --blanks 2 --walk {walk}");
        parsed(&line)
    };
    // 0 printed the solved board as a puzzle; 4294967295 ran for most of an hour.
    for refused in ["0", "1000001", "4294967295"] {
        let error = generate(refused).unwrap_err().to_string();
        assert!(
            error.contains("is not in 1..=1000000"),
            "{refused}: {error}"
        );
    }
    assert!(generate("1000000").is_ok());
}

#[test]
fn a_search_is_given_room_for_at_least_1024_positions() {
    let cap = |typed: &str| {
        let line = format!("klotski solve --max-positions {typed}");
        match parsed(&line)? {
            KlotskiCommand::Solve { max_positions, .. } => Ok::<_, clap::Error>(max_positions),
            other => panic!("not a solve: {other:?}"),
        }
    };
    // 0 and 1 were taken, and the searches kept 1024 positions all the same.
    for refused in ["0", "1", "1023"] {
        let error = cap(refused).unwrap_err().to_string();
        assert!(error.contains("at least 1024"), "{refused}: {error}");
    }
    assert!(
        cap("x")
            .unwrap_err()
            .to_string()
            .contains("not a whole number")
    );
    assert_eq!(cap("1024").unwrap(), 1024);
    let default = parsed("klotski solve").unwrap();
    let usual = SolveOptions::default().max_positions;
    assert!(matches!(
        default,
        KlotskiCommand::Solve { max_positions, .. } if max_positions == usual
    ));
}

#[test]
fn the_bench_suite_has_every_course_input_and_small_boards() {
    let instances = bench::suite(2, 1).unwrap();
    let count = |suite| {
        instances
            .iter()
            .filter(|instance| instance.suite == suite)
            .count()
    };
    assert_eq!(count(bench::Suite::Course), 31);
    assert_eq!(count(bench::Suite::Fifteen), 2);
    assert_eq!(count(bench::Suite::TwentyFour), 1);
    assert_eq!(count(bench::Suite::Sample), 1);
    assert!(
        instances
            .iter()
            .filter(|instance| instance.suite == bench::Suite::Small)
            .all(|instance| usize::from(instance.puzzle.rows())
                * usize::from(instance.puzzle.cols())
                <= 12)
    );
}

#[test]
fn the_windows_summary_says_whether_the_solution_is_proved_shortest_or_why_there_is_none() {
    let options = auto(3_600_000);
    let line = |input: &str| summary(&solve(&parse_puzzle(input).unwrap(), &options), &options);
    assert_eq!(line(SAMPLE_3X3), "Yes: 1 step, proved shortest");
    let no = line("2 2\n2 1\n0 3\n0\n");
    assert!(no.starts_with("No solution: one blank"), "{no}");
    let mut report = solve(&parse_puzzle(SAMPLE_3X3).unwrap(), &options);
    report.verdict = Verdict::Undecided;
    let undecided = summary(&report, &auto(250));
    assert!(undecided.contains("found in 250 ms"), "{undecided}");
}

#[test]
fn a_chart_that_cannot_be_written_is_refused_before_the_bench() {
    let dir = tempfile::tempdir().unwrap();
    let chart = dir.path().join("no-such-folder").join("chart.png");
    let line = format!("klotski bench --chart {}", chart.display());
    let KlotskiCommand::Bench(args) = parsed(&line).unwrap() else {
        panic!("not a bench");
    };
    let (mut out, mut notes) = (Vec::new(), Vec::new());
    let refused = bench::run(&args, &mut out, &mut notes).expect_err("refused");
    assert!(
        format!("{refused:#}").contains("cannot write the chart"),
        "{refused:#}"
    );
    assert!(out.is_empty() && notes.is_empty(), "no table was built");
}

#[test]
fn a_byte_order_mark_before_the_puzzle_or_the_moves_is_skipped() {
    let input = include_str!("../../../../levels/klotski/lunaqu4kez_extra_04.in");
    let read = read_input_from(format!("\u{feff}{input}").as_bytes()).unwrap();
    assert_eq!(read, input);
    let (mut out, mut notes) = (Vec::new(), Vec::new());
    let code = answer(&read, &auto(3_600_000), false, &mut out, &mut notes).unwrap();
    assert_eq!(code, ExitCode::SUCCESS);
    assert!(String::from_utf8(out).unwrap().starts_with("Yes\n17\n"));

    let dir = tempfile::tempdir().unwrap();
    let moves = dir.path().join("moves.txt");
    std::fs::write(&moves, "\u{feff}Yes\n1\n5 U\n").unwrap();
    let slides = show::parse_moves_file(&read_text_file(&moves).unwrap()).unwrap();
    assert_eq!(slides.len(), 1);
}

#[test]
fn terminal_and_solve_say_in_their_help_that_no_answer_is_exit_code_2() {
    use clap::CommandFactory;
    for name in ["terminal", "solve"] {
        let mut command = Cli::command();
        let sub = command.find_subcommand_mut(name).unwrap();
        for help in [sub.render_help(), sub.render_long_help()] {
            let help = help.to_string().replace('\n', " ");
            assert!(help.contains("exit code 2"), "{name}: {help}");
            assert!(help.contains("2 when there is no answer"), "{name}: {help}");
        }
    }
}

#[test]
fn a_puzzle_comes_from_a_file_or_a_built_in_board_named_with_level() {
    let named = PuzzleInput {
        level: Some("lunaqu4kez_extra_04".into()),
    };
    let text = named.read().unwrap();
    assert_eq!(
        text,
        crate::builtin_levels::named("klotski", "lunaqu4kez_extra_04")
            .unwrap()
            .text
    );
    let (result, out, _) = run_answer(&text, Method::Auto);
    assert_eq!(result.unwrap(), ExitCode::SUCCESS);
    assert!(out.starts_with("Yes\n17\n"), "{out}");
    let missing = PuzzleInput {
        level: Some("no_such_board".into()),
    };
    let error = format!("{:#}", missing.read().unwrap_err());
    assert!(error.contains("client levels"), "{error}");
}
