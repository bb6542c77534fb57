use std::io::Cursor;

use super::*;

mod generate;

const LEVEL1_SOLVED: &str = "\
3 3 5 4 1 3 2 3 1 6 6 6 1 4 3 3 6 4 2 5 6 2 4 3 2 6 3 2 6 2
2
21 32 43 34 23 12
21 32 34 -1 23 12
21 32 23 -1 -1 12
21 32 -1 -1 -1 23
-1 21 -1 -1 -1 23
-1 10 -1 -1 -1 23
-1 0 -1 -1 -1 23
";

fn levels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/ewn")
}

/// A fresh folder for one test's files, removed when dropped.
fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn options(level: Option<&str>, player: Option<PlayerKind>, out: &Path) -> PlayOptions {
    PlayOptions {
        level: level.map(|name| levels_dir().join(name)),
        player,
        name: None,
        out: out.to_path_buf(),
        rules: Rules::default(),
        levels_dir: Some(levels_dir()),
        seed: Some(7),
    }
}

fn run_play(typed: &str, options: PlayOptions) -> (String, ExitCode) {
    let mut out = Vec::new();
    let code = play(&mut Cursor::new(typed), &mut out, options).unwrap();
    (String::from_utf8(out).unwrap(), code)
}

fn text(write: impl FnOnce(&mut Vec<u8>) -> anyhow::Result<ExitCode>) -> (String, ExitCode) {
    let mut out = Vec::new();
    let code = write(&mut out).unwrap();
    (String::from_utf8(out).unwrap(), code)
}

#[test]
fn the_ai_solves_level1_and_writes_the_seeds_format() {
    let dir = scratch();
    let moves = dir.path().join("moves.txt");
    let (shown, code) = run_play(
        "",
        options(Some("level1.txt"), Some(PlayerKind::Ai), &moves),
    );
    assert_eq!(code, ExitCode::SUCCESS);
    assert!(
        shown.contains("AI Player found a 6-move solution."),
        "{shown}"
    );
    assert!(shown.ends_with(&format!(
        "Puzzle solved in 6 moves!\nMoves written to {}.\n",
        moves.display()
    )));
    let written = std::fs::read_to_string(&moves).unwrap();
    assert_eq!(written, format!("AI Player\n{LEVEL1_SOLVED}"));
}

#[test]
fn a_human_is_asked_everything_and_bad_answers_are_refused() {
    let dir = scratch();
    let moves = dir.path().join("moves.txt");
    let typed =
        "4\n1\n\nAda\n99\n1\nx\n-1\n-3 34\n3 45\n2 31\n3 34\n3 23\n6 23\n2 21\n10\n0\n2 0\n";
    let (shown, code) = run_play(typed, options(None, None, &moves));
    assert_eq!(code, ExitCode::SUCCESS);
    for refusal in [
        "Not accepted: answer 1, 2 or 3.",
        "Not accepted: the name may not be empty.",
        "level99.txt",
        "Not accepted: \"x\" is not a square (0 to 99).",
        "Not accepted: \"-1\" is not a square (0 to 99).",
        "Not accepted: \"-3\" is not a piece (1 to 6).",
        "Not accepted: piece 3 cannot go from 43 to 45: that is not a king step.",
        "Not accepted: piece 2 may not move on die 3: the movable pieces are 3.",
        "Not accepted: two pieces may move: type the piece, then the square.",
    ] {
        assert!(
            shown.contains(refusal),
            "{refusal:?} missing from:\n{shown}"
        );
    }
    assert!(
        shown.contains("Movable: piece 3 to 32 33 34 42 44 52 53 54"),
        "{shown}"
    );
    assert!(
        shown.contains("Move 5, die 1: Ada moves piece 2 to 10."),
        "{shown}"
    );
    assert!(shown.contains("Puzzle solved in 6 moves!"), "{shown}");
    let written = std::fs::read_to_string(&moves).unwrap();
    assert_eq!(written, format!("Ada\n{LEVEL1_SOLVED}"));
}

#[test]
fn end_of_input_abandons_the_game_without_a_panic() {
    let dir = scratch();
    let moves = dir.path().join("moves.txt");
    for typed in ["", "1\n", "1\nAda\n", "1\nAda\n1\n3 34\n"] {
        let (shown, code) = run_play(typed, options(None, None, &moves));
        assert_eq!(code, ExitCode::FAILURE, "{typed:?}");
        assert!(
            shown.ends_with("Input ended; the game is abandoned.\n"),
            "{shown}"
        );
    }
    assert!(!moves.exists(), "an abandoned game writes no moves file");
}

#[test]
fn the_ai_plays_a_level_it_cannot_win_to_its_end() {
    // Level 4 needs 15 moves; with 5 allowed the AI has no solution, and plays on until the
    // game is lost so that the moves file runs to the end (SPEC §1).
    let dir = scratch();
    let moves = dir.path().join("moves.txt");
    let rules = Rules {
        max_moves: 5,
        ..Rules::default()
    };
    let short = PlayOptions {
        rules,
        ..options(Some("level4.txt"), Some(PlayerKind::Ai), &moves)
    };
    let (shown, _) = run_play("", short);
    assert!(
        shown.contains("AI Player: no solution within 5 moves"),
        "{shown}"
    );
    assert!(shown.contains("Move 5, die "), "{shown}");
    let written = std::fs::read_to_string(&moves).unwrap();
    assert_eq!(written.lines().count(), 4 + 5, "{written}");
    let level = Some(levels_dir().join("level4.txt"));
    let (viewed, _) = text(|out| view(out, &moves, level.as_deref(), rules));
    assert!(
        viewed.starts_with("File loaded successfully with no errors."),
        "{viewed}"
    );
    assert!(!viewed.contains("unfinished"), "{viewed}");
}

#[test]
fn the_random_player_plays_to_an_end_that_the_viewer_accepts() {
    let dir = scratch();
    let moves = dir.path().join("moves.txt");
    let (shown, code) = run_play(
        "",
        options(Some("level4.txt"), Some(PlayerKind::Random), &moves),
    );
    assert_eq!(code, ExitCode::SUCCESS);
    assert!(shown.contains("Random Player's seed: 7"), "{shown}");
    assert!(shown.contains("Puzzle "), "{shown}");
    let level = Some(levels_dir().join("level4.txt"));
    let (viewed, code) = text(|out| view(out, &moves, level.as_deref(), Rules::default()));
    assert_eq!(code, ExitCode::SUCCESS, "{viewed}");
    assert!(viewed.starts_with("File loaded successfully with no errors.\nRandom Player: "));
}

#[test]
fn the_viewer_names_the_first_error_and_fails() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/tests/data/ewn");
    let sample = data.join("good-seed-sample.txt");
    let (viewed, code) = text(|out| view(out, &sample, None, Rules::default()));
    assert_eq!(code, ExitCode::SUCCESS);
    assert_eq!(
        viewed,
        "File loaded successfully with no errors.\nAI Player: unfinished after 2 moves.\n"
    );
    let bad = data.join("bad-line-after-the-win.txt");
    let (viewed, code) = text(|out| view(out, &bad, None, Rules::default()));
    assert_eq!(code, ExitCode::FAILURE);
    assert!(
        viewed.ends_with(
            "line 11: nothing may follow the end of the game (the target reached square 0)\n"
        ),
        "{viewed}"
    );
    let level1 = levels_dir().join("level1.txt");
    let (viewed, code) = text(|out| view(out, &sample, Some(&level1), Rules::default()));
    assert_eq!(code, ExitCode::FAILURE);
    assert!(
        viewed.ends_with("line 2: the dice sequence differs from the level's\n"),
        "{viewed}"
    );
}

#[test]
fn solve_prints_each_move_and_writes_a_file_the_viewer_accepts() {
    let dir = scratch();
    let moves = dir.path().join("moves.txt");
    let level = levels_dir().join("level1.txt");
    let (shown, code) = text(|out| solve_level(out, &level, Some(&moves), Rules::default()));
    assert_eq!(code, ExitCode::SUCCESS);
    assert!(
        shown.starts_with(" 1. die 3: piece 3 43 -> 34, capturing piece 4\n"),
        "{shown}"
    );
    assert!(shown.contains("6 moves (fewest possible)."), "{shown}");
    assert_eq!(
        std::fs::read_to_string(&moves).unwrap(),
        format!("AI Player\n{LEVEL1_SOLVED}")
    );
    let short = Rules {
        max_moves: 5,
        ..Rules::default()
    };
    let (shown, code) = text(|out| solve_level(out, &level, None, short));
    assert_eq!(
        (shown.as_str(), code),
        ("No solution within 5 moves.\n", ExitCode::FAILURE)
    );
}

#[test]
fn a_built_in_levels_name_stands_where_its_file_goes_from_any_folder() {
    let dir = scratch();
    let moves = dir.path().join("moves.txt");
    // No such file here: the name is the built-in level's.
    let by_name = Path::new("level1");
    assert!(!by_name.exists());
    let (shown, code) = text(|out| solve_level(out, by_name, Some(&moves), Rules::default()));
    assert_eq!(code, ExitCode::SUCCESS, "{shown}");
    assert!(shown.contains("6 moves (fewest possible)."), "{shown}");
    // A number typed at the prompt is the built-in levelN when no folder is given.
    let options = PlayOptions {
        levels_dir: None,
        ..options(None, Some(PlayerKind::Ai), &moves)
    };
    let (shown, code) = run_play("1\n", options);
    assert_eq!(code, ExitCode::SUCCESS, "{shown}");
    assert!(shown.contains("the built-in levelN"), "{shown}");
    let missing = read_level(Path::new("level99"), Rules::default()).unwrap_err();
    assert!(
        format!("{missing:#}").contains("client levels"),
        "{missing:#}"
    );
}

#[test]
fn a_byte_order_mark_before_a_level_or_a_moves_file_is_skipped() {
    let dir = scratch();
    let level1 = levels_dir().join("level1.txt");
    let (level, moves) = (dir.path().join("level1.txt"), dir.path().join("moves.txt"));
    let original = std::fs::read_to_string(&level1).unwrap();
    std::fs::write(&level, format!("\u{feff}{original}")).unwrap();
    std::fs::write(&moves, format!("\u{feff}AI Player\n{LEVEL1_SOLVED}")).unwrap();
    let rules = Rules::default();
    assert_eq!(
        read_level(&level, rules).unwrap(),
        read_level(&level1, rules).unwrap()
    );
    let (shown, code) = text(|out| view(out, &moves, Some(&level), rules));
    assert_eq!(code, ExitCode::SUCCESS, "{shown}");
    assert!(
        shown.ends_with("\nAI Player: solved in 6 moves.\n"),
        "{shown:?}"
    );
}

#[test]
fn bench_lists_the_levels_in_natural_order() {
    let dir = scratch();
    for name in ["level10.txt", "level2.txt", "notes.md"] {
        std::fs::copy(levels_dir().join("level1.txt"), dir.path().join(name)).unwrap();
    }
    let (shown, code) = text(|out| bench(out, Some(dir.path()), Rules::default(), false));
    assert_eq!(code, ExitCode::SUCCESS);
    let rows: Vec<&str> = shown.lines().collect();
    assert_eq!(rows.len(), 4, "{shown}");
    assert!(
        rows[1].starts_with("level2.txt") && rows[2].starts_with("level10.txt"),
        "{shown}"
    );
    assert!(rows[1].contains("     6 "), "{shown}");
}

#[test]
fn a_bad_level_is_reported_on_its_row_and_the_bench_goes_on() {
    let dir = scratch();
    std::fs::copy(
        levels_dir().join("level1.txt"),
        dir.path().join("level1.txt"),
    )
    .unwrap();
    std::fs::write(dir.path().join("level2.txt"), "junk\n").unwrap();
    std::fs::copy(
        levels_dir().join("level1.txt"),
        dir.path().join("level3.txt"),
    )
    .unwrap();
    let (shown, code) = text(|out| bench(out, Some(dir.path()), Rules::default(), false));
    assert_eq!(code, ExitCode::FAILURE, "{shown}");
    let rows: Vec<&str> = shown.lines().collect();
    assert_eq!(rows.len(), 6, "{shown}");
    assert!(rows[1].starts_with("level1.txt") && rows[1].contains("     6 "));
    assert!(
        rows[2].starts_with("level2.txt") && rows[2].contains("error: line 1: \"junk\""),
        "{shown}"
    );
    assert!(rows[3].starts_with("level3.txt") && rows[3].contains("     6 "));
    assert_eq!(rows[5], "1 of 3 files are not levels (see their rows)");
}

#[test]
fn a_folder_without_levels_is_an_error() {
    let dir = scratch();
    std::fs::write(dir.path().join("notes.md"), "no levels here").unwrap();
    let mut out = Vec::new();
    let refused =
        bench(&mut out, Some(dir.path()), Rules::default(), false).expect_err("no levels");
    let expected = format!("no levels (.txt files) in {}", dir.path().display());
    assert_eq!(refused.to_string(), expected);
    assert!(out.is_empty());
    // With generated boards to follow, the empty folder just leaves them alone.
    let (shown, code) = text(|out| bench(out, Some(dir.path()), Rules::default(), true));
    assert_eq!(code, ExitCode::SUCCESS);
    assert_eq!(
        shown.trim_end(),
        format!("{expected}: only the generated boards")
    );
}

/// A level of 8 to 10 moves from seed 3.
#[test]
fn moves_that_cannot_be_written_are_shown_instead_of_lost() {
    let dir = scratch();
    let nowhere = dir.path().join("no-such-folder").join("moves.txt");
    let mut shown = Vec::new();
    let options = options(Some("level1.txt"), Some(PlayerKind::Ai), &nowhere);
    let refused = play(&mut Cursor::new(""), &mut shown, options);
    let error = format!("{:#}", refused.expect_err("the file cannot be written"));
    assert!(error.contains("no-such-folder"), "{error}");
    let shown = String::from_utf8(shown).unwrap();
    let (_, record) = shown.split_once("could not be written:\n").expect(&shown);
    assert_eq!(record, format!("AI Player\n{LEVEL1_SOLVED}"));
}

#[test]
fn the_board_marks_the_target_and_the_removed_square() {
    let rules = Rules {
        blocked: 33,
        ..Rules::default()
    };
    let level = read_level(&levels_dir().join("level1.txt"), rules).unwrap();
    let picture = board_picture(&level, &level.start());
    let rows: Vec<&str> = picture.lines().collect();
    assert_eq!(rows[2], " 20  .  1  .  5  .  .  .  .  .  .");
    assert_eq!(rows[3], " 30  .  . [2] X  4  .  .  .  .  .");
}

#[derive(clap::Parser, Debug)]
struct Cli {
    #[command(subcommand)]
    command: EwnCommand,
}

#[test]
fn the_command_line_takes_the_removed_square_and_refuses_one_off_the_board() {
    use clap::Parser;
    let parsed = Cli::try_parse_from(["ewn", "play", "--player", "ai", "--blocked", "33"]).unwrap();
    let EwnCommand::Play {
        player,
        rules,
        level,
        ..
    } = parsed.command
    else {
        panic!("not play: {parsed:?}");
    };
    assert_eq!((player, level), (Some(PlayerKind::Ai), None));
    assert_eq!(
        rules.rules(),
        Rules {
            blocked: 33,
            max_moves: 30
        }
    );
    assert!(Cli::try_parse_from(["ewn", "view", "moves.txt", "--blocked", "100"]).is_err());
    assert!(Cli::try_parse_from(["ewn", "solve", "level1.txt", "--max-moves", "31"]).is_err());
    let generate = ["ewn", "generate", "--moves-at-least", "20", "--seed", "4"];
    assert!(matches!(
        Cli::try_parse_from(generate).unwrap().command,
        EwnCommand::Generate {
            moves_at_least: Some(20),
            moves_at_most: 25,
            no_solution: false,
            seed: 4,
            ..
        }
    ));
    let unsolvable = ["ewn", "generate", "--no-solution", "--seed", "4"];
    assert!(matches!(
        Cli::try_parse_from(unsolvable).unwrap().command,
        EwnCommand::Generate {
            moves_at_least: None,
            no_solution: true,
            ..
        }
    ));
    assert!(Cli::try_parse_from(["ewn", "generate", "--seed", "4"]).is_err());
    let both = ["ewn", "generate", "--no-solution", "--moves-at-least", "20"];
    assert!(Cli::try_parse_from(both).is_err());
    // Above the default most, the refusal names the default it ran into.
    let above = ["ewn", "generate", "--moves-at-least", "29", "--seed", "3"];
    let refused = run(Cli::try_parse_from(above).unwrap().command).unwrap_err();
    let refused = refused.to_string();
    assert!(
        refused.contains("--moves-at-most 25 (its default"),
        "{refused}"
    );
}

#[test]
fn a_name_the_moves_file_cannot_carry_is_refused_before_the_game() {
    let dir = scratch();
    let moves = dir.path().join("moves.txt");
    for name in ["", "   ", "Bob\nEvil"] {
        let options = PlayOptions {
            name: Some(name.into()),
            ..options(Some("level1.txt"), Some(PlayerKind::Ai), &moves)
        };
        let refused = play(&mut Cursor::new(""), &mut Vec::new(), options).unwrap_err();
        assert!(
            format!("{refused:#}").starts_with("--name: the name"),
            "{refused:#}"
        );
        assert!(!moves.exists());
    }
    let options = PlayOptions {
        name: Some("  Ada Lovelace ".into()),
        ..options(Some("level1.txt"), Some(PlayerKind::Ai), &moves)
    };
    run_play("", options);
    let written = std::fs::read_to_string(&moves).unwrap();
    assert!(written.starts_with("Ada Lovelace\n"), "{written}");
}

#[test]
fn the_moves_are_never_written_over_the_level_they_play() {
    let dir = scratch();
    let level = dir.path().join("level1.txt");
    std::fs::copy(levels_dir().join("level1.txt"), &level).unwrap();
    let before = std::fs::read_to_string(&level).unwrap();
    let options = PlayOptions {
        level: Some(level.clone()),
        ..options(None, Some(PlayerKind::Ai), &level)
    };
    let refused = play(&mut Cursor::new(""), &mut Vec::new(), options).unwrap_err();
    assert!(
        format!("{refused:#}").contains("is the input file"),
        "{refused:#}"
    );
    let refused = solve_level(&mut Vec::new(), &level, Some(&level), Rules::default());
    assert!(format!("{:#}", refused.unwrap_err()).contains("is the input file"));
    assert_eq!(std::fs::read_to_string(&level).unwrap(), before);
}
