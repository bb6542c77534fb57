use std::io::Cursor;
use std::time::Duration;

use super::*;

fn run_console(mode: Option<Mode>, typed: &str) -> (String, ExitCode) {
    let mut out = Vec::new();
    let mut engine = EngineLevel::Strong.engine();
    let code = console(
        &mut Cursor::new(typed),
        &mut out,
        mode,
        engine.as_mut(),
        Duration::from_millis(20),
    )
    .unwrap();
    (String::from_utf8(out).unwrap(), code)
}

#[test]
fn human_game_refuses_bad_input_with_reasons_and_announces_the_winner() {
    let typed = "c3\na10\na1\na1\nh8\nB1\nh7\nc1\nh6\nd1\nh5\ne1\n";
    let (text, code) = run_console(Some(Mode::Hh), typed);
    assert_eq!(code, ExitCode::SUCCESS);
    assert!(
        text.contains("Not accepted: c3 is not against a side wall"),
        "{text}"
    );
    assert!(
        text.contains("Not accepted: a cell is a column letter"),
        "{text}"
    );
    assert!(text.contains("Not accepted: a1 is already taken"), "{text}");
    assert!(text.ends_with("Player ■ wins!\n"), "{text}");
    // The board is printed at the start and after each of the 9 moves.
    assert_eq!(text.matches("    a b c d e f g h\n8 |").count(), 10);
    assert!(text.contains("1 | ■ ■ ■ ■ ■ - - - | 1"), "{text}");
}

#[test]
fn mode_is_asked_when_not_given_and_end_of_input_abandons() {
    let (text, code) = run_console(None, "9\n1\na1\n");
    assert!(text.contains("Please answer 1, 2, 3 or 4."));
    assert!(text.contains("Input ended; the game is abandoned."));
    assert_eq!(code, ExitCode::FAILURE);
}

#[test]
fn ai_against_ai_plays_to_an_end() {
    let (text, code) = run_console(Some(Mode::Aa), "");
    assert_eq!(code, ExitCode::SUCCESS);
    assert!(text.contains("AI ■ plays"));
    assert!(text.contains("AI □ plays"));
    assert!(
        text.ends_with("wins!\n") || text.ends_with("It's a tie!\n"),
        "{text}"
    );
}

#[test]
fn in_human_vs_ai_the_ai_answers_only_for_white() {
    let (text, code) = run_console(
        Some(Mode::Ha),
        "a1
",
    );
    assert_eq!(text.matches("AI □ plays").count(), 1, "{text}");
    assert!(!text.contains("AI ■"), "{text}");
    assert_eq!(
        code,
        ExitCode::FAILURE,
        "input ends on the human's second turn"
    );
}

#[test]
fn engine_mode_prints_only_moves_and_opens_at_once_when_first() {
    let mut out = Vec::new();
    let code = engine(
        &mut Cursor::new(""),
        &mut out,
        true,
        EngineLevel::Strong.engine().as_mut(),
        Duration::from_millis(20),
    )
    .unwrap();
    assert_eq!(code, ExitCode::SUCCESS);
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1);
    assert!(Position::new().is_legal(lines[0].parse().unwrap()));
}

/// The strong engine in engine mode as the second player, fed `input`: its exit code and the
/// moves it wrote.
fn second_engine_on(input: &str) -> (ExitCode, Vec<Square>) {
    let mut out = Vec::new();
    let code = engine(
        &mut Cursor::new(input.to_string()),
        &mut out,
        false,
        EngineLevel::Strong.engine().as_mut(),
        Duration::from_millis(20),
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    (code, text.lines().map(|l| l.parse().unwrap()).collect())
}

#[test]
fn engine_mode_answers_each_opponent_move_legally() {
    let (code, replies) = second_engine_on("a1\n\nh2\n");
    assert_eq!(code, ExitCode::SUCCESS);
    assert_eq!(replies.len(), 2);
    let game = [
        "a1".parse().unwrap(),
        replies[0],
        "h2".parse().unwrap(),
        replies[1],
    ];
    assert!(Position::from_moves(&game).is_ok(), "{replies:?}");
}

#[test]
fn engine_mode_refuses_an_illegal_opponent_move() {
    assert_eq!(second_engine_on("d4\n"), (ExitCode::from(2), Vec::new()));
}

#[test]
fn engine_mode_waits_for_a_legal_move_after_a_refused_one() {
    let (code, replies) = second_engine_on("d4\nzz\na1\n");
    assert_eq!(code, ExitCode::SUCCESS);
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert!(Position::from_moves(&["a1".parse().unwrap(), replies[0]]).is_ok());
}

#[test]
fn shown_games_must_be_legal() {
    assert_eq!(parse_game("a1, h1 b1").unwrap().len(), 3);
    assert_eq!(parse_game("").unwrap().len(), 0);
    let error = parse_game("a1 h1 d5").unwrap_err().to_string();
    assert!(error.contains("move 3 (d5)"), "{error}");
    assert!(parse_game("a1 q9").is_err());
}

#[test]
fn bench_prints_its_table() {
    let mut out = Vec::new();
    bench(&mut out, 1, EngineLevel::Strong, Duration::from_millis(5)).unwrap();
    let text = String::from_utf8(out).unwrap();
    for label in [
        "median per move",
        "max per move",
        "nodes per second",
        "results",
    ] {
        assert!(text.contains(label), "{text}");
    }
    let game = text
        .lines()
        .find(|line| line.starts_with("game 1:"))
        .unwrap();
    assert!(
        game.ends_with(" wins") || game.ends_with("a tie"),
        "in words, not Rust's: {game}"
    );
    // "nodes per second N (in search time: P% of all time)": the strong engine's late moves
    // give df-pn part of their time, so the search has some of the time but not more than all.
    let rate_line = text
        .lines()
        .find(|line| line.starts_with("nodes per second"))
        .unwrap();
    let numbers: Vec<f64> = rate_line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|word| !word.is_empty())
        .map(|word| word.parse().unwrap())
        .collect();
    assert!(numbers[0] > 0.0, "{rate_line}");
    assert!(0.0 < numbers[1] && numbers[1] <= 100.0, "{rate_line}");
}

#[derive(clap::Parser, Debug)]
struct Cli {
    #[command(subcommand)]
    command: CaveCommand,
}

#[test]
fn counts_of_games_openings_and_puzzles_start_at_one() {
    use clap::Parser;
    // `bench --games 0` used to panic on its empty table; `--openings 0` was taken as 1.
    let refused = [
        "cave bench --games 0",
        "cave arena --a strong --b classic --games 0",
        "cave arena --a strong --b classic --openings 0",
        "cave tactics --count 0",
    ];
    for line in refused {
        let error = Cli::try_parse_from(line.split(' '))
            .unwrap_err()
            .to_string();
        assert!(error.contains("'0'"), "{line}: {error}");
        assert!(error.contains("must be at least 1"), "{line}: {error}");
        assert!(!error.contains("4294967295"), "the type's largest: {error}");
    }
    assert!(Cli::try_parse_from("cave bench --games 1".split(' ')).is_ok());
    assert!(Cli::try_parse_from("cave tactics --count 1".split(' ')).is_ok());
    let arena = "cave arena --a strong --b classic --games 2 --openings 1";
    assert!(Cli::try_parse_from(arena.split(' ')).is_ok());
}

#[test]
fn the_engine_needs_exactly_one_of_first_and_second() {
    use clap::Parser;
    let parse = |line: &str| Cli::try_parse_from(line.split(' '));
    let neither = parse("cave engine").unwrap_err().to_string();
    assert!(neither.contains("<--first|--second>"), "{neither}");
    let both = parse("cave engine --first --second")
        .unwrap_err()
        .to_string();
    assert!(both.contains("cannot be used with"), "{both}");
    assert!(parse("cave engine --first").is_ok());
    assert!(parse("cave engine --second").is_ok());
}

/// Notes how many lines it holds at each flush.
#[derive(Default)]
struct Flushes {
    text: Vec<u8>,
    lines_at_flush: Vec<usize>,
}

impl Write for Flushes {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.text.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let lines = self.text.iter().filter(|&&byte| byte == b'\n').count();
        self.lines_at_flush.push(lines);
        Ok(())
    }
}

#[test]
fn tactics_puzzles_go_out_one_by_one_as_they_are_found() {
    let mut out = Flushes::default();
    let code = tactics(&mut out, &mut Vec::new(), 1, 3, 5).unwrap();
    assert_eq!(code, ExitCode::SUCCESS);
    assert_eq!(out.lines_at_flush, [1, 2, 3]);
    let text = String::from_utf8(out.text).unwrap();
    assert!(
        text.lines().all(|line| line.starts_with("win-in 1: ")),
        "{text}"
    );
}

#[test]
fn bench_of_the_classic_engine_says_it_searches_a_fixed_depth() {
    // Classic searches to depth 4 whatever the budget (which only cuts a search that runs
    // over it): "at 20 ms per move" misled.
    let mut out = Vec::new();
    bench(&mut out, 1, EngineLevel::Classic, Duration::from_millis(20)).unwrap();
    let text = String::from_utf8(out).unwrap();
    let header = text.lines().next().unwrap();
    assert!(header.contains("fixed depth"), "{header}");
    assert!(!header.contains("at 20 ms per move"), "{header}");
    let mut out = Vec::new();
    bench(&mut out, 1, EngineLevel::Easy, Duration::from_millis(20)).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.starts_with("Easy AI self-play at 20 ms per move, 1 game(s)\n"),
        "{text}"
    );
}
