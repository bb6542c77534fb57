use super::*;
use crate::cli::cave::games::moves_of_game_line;
use crate::cli::cave::temp_file;

#[test]
fn openings_are_distinct_legal_pairs() {
    let openings = all_openings();
    assert!(openings.len() > 200);
    for opening in &openings {
        assert!(Position::from_moves(opening).is_ok());
    }
    let mut unique = openings.clone();
    unique.dedup();
    assert_eq!(unique.len(), openings.len());
}

#[test]
fn offsets_below_the_spacing_take_disjoint_sets_of_openings() {
    let count = all_openings().len();
    let taken = |offset| -> std::collections::BTreeSet<usize> {
        (0..100)
            .map(|pair| opening_index(pair, 100, count, offset))
            .collect()
    };
    let sets = [taken(0), taken(1)];
    assert!(
        sets.iter().all(|set| set.len() == 100),
        "100 distinct openings each"
    );
    assert!(sets[0].is_disjoint(&sets[1]));
    // 256 openings over 100 are 2.56 apart, but some neighbours only 2: offset 2 meets 0's.
    assert_eq!(count, 256);
    assert!(
        !taken(2).is_disjoint(&sets[0]),
        "the spacing counts rounded down"
    );
    assert!(
        taken(count - 1).iter().all(|&index| index < count),
        "wraps around"
    );
    assert_eq!(
        opening_index(7, 4, 16, 0),
        opening_index(3, 4, 16, 0),
        "pairs cycle"
    );
    // Offsets count around the list, however large.
    assert_eq!(opening_index(1, 4, 16, 16 + 3), opening_index(1, 4, 16, 3));
    assert_eq!(
        opening_index(1, 4, 16, usize::MAX),
        (4 + usize::MAX % 16) % 16
    );
}

#[test]
fn lines_of_games_finished_out_of_order_come_out_in_game_order() {
    let mut in_order = InGameOrder::default();
    let mut finish = |game: usize| in_order.finished(game, format!("game {}", game + 1));
    assert!(finish(1).is_empty(), "game 1 is still being played");
    assert!(finish(2).is_empty());
    assert_eq!(finish(0), ["game 1", "game 2", "game 3"]);
    assert!(finish(4).is_empty());
    assert_eq!(finish(3), ["game 4", "game 5"]);
    assert_eq!(finish(5), ["game 6"]);
}

#[test]
fn a_short_arena_counts_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.txt");
    let args = ArenaArgs {
        a: EngineLevel::Easy,
        b: EngineLevel::Classic,
        games: Some(3),
        openings: Some(2),
        a_move_ms: 5,
        b_move_ms: 5,
        json: true,
        games_out: Some(games.clone()),
        jobs: 2,
        starts: None,
        start_bricks: None,
        opening_offset: 0,
        classic_plies: SEED_PLIES,
    };
    let mut out = Vec::new();
    run_with_log(&args, &mut out, &mut std::io::sink()).unwrap();
    let written = std::fs::read_to_string(&games).unwrap();
    assert_eq!(written.lines().count(), 4, "a line per game");
    for (number, line) in (1..).zip(written.lines()) {
        assert!(line.starts_with(&format!("game {number:>3}: ")), "{line}");
        let moves = moves_of_game_line(line);
        assert!(parlor_shared::cave::parse_moves(moves).is_ok(), "{line}");
    }
    let report: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        report["games"], 4,
        "rounded up to both sides of two openings"
    );
    let total = report["a_wins"].as_u64().unwrap()
        + report["b_wins"].as_u64().unwrap()
        + report["ties"].as_u64().unwrap();
    assert_eq!(total, 4);
    for colour in ["a_as_black", "a_as_white"] {
        let record = &report[colour];
        let games: u64 = ["wins", "losses", "ties"]
            .iter()
            .map(|key| record[key].as_u64().unwrap())
            .sum();
        assert_eq!(
            games, 2,
            "each opening once with A as each colour: {record}"
        );
    }
}

#[test]
fn starts_are_read_from_move_lists_and_games_out_lines_and_cut() {
    let path = temp_file(
        "starts",
        "# a comment\n\na1 h8 b1\ngame   4: A as White: Tie: h1 a1 h2 a2 h3 a3\n",
    );
    let starts = load_starts(&path, None).unwrap();
    let text = |moves: &[Square]| moves.iter().map(Square::to_string).collect::<Vec<_>>();
    assert_eq!(text(&starts[0]), ["a1", "h8", "b1"]);
    assert_eq!(text(&starts[1]), ["h1", "a1", "h2", "a2", "h3", "a3"]);
    let cut = load_starts(&path, Some(2)).unwrap();
    assert_eq!(text(&cut[1]), ["h1", "a1"]);
}

#[test]
fn a_bad_start_is_named_by_its_line() {
    let cases = [
        ("a1 h8\nz9\n", "line 2"),
        ("a1 a1\n", "line 1: move 2"),
        ("a1 h8 b1 h7 c1 h6 d1 h5 e1\n", "line 1: the game is over"),
        ("# nothing\n", "holds no start"),
    ];
    for (text, expected) in cases {
        let path = temp_file("bad-starts", text);
        let error = load_starts(&path, None).unwrap_err().to_string();
        assert!(error.contains(expected), "{error} for {text:?}");
    }
}

#[test]
fn games_from_starts_continue_their_moves() {
    let starts = temp_file("arena-starts", "a1 h8 b1 h7 c1 h6 d1\n");
    let games = temp_file("arena-starts-games", "");
    let args = ArenaArgs {
        a: EngineLevel::Easy,
        b: EngineLevel::Classic,
        games: None,
        openings: None,
        // Both finish their fixed-depth searches in a few milliseconds; the room to spare
        // keeps a loaded machine from cutting classic's search before it sees the five
        // (at 5 ms it once answered d1 with g8 during CI).
        a_move_ms: 500,
        b_move_ms: 500,
        json: true,
        games_out: Some(games.to_path_buf()),
        jobs: 1,
        starts: Some(starts.to_path_buf()),
        start_bricks: None,
        opening_offset: 0,
        classic_plies: SEED_PLIES,
    };
    run_with_log(&args, &mut Vec::new(), &mut std::io::sink()).unwrap();
    let written = std::fs::read_to_string(&games).unwrap();
    assert_eq!(written.lines().count(), 2);
    for line in written.lines() {
        let moves = moves_of_game_line(line);
        // White must block e1 at once: every game goes on from the start.
        assert!(moves.starts_with("a1 h8 b1 h7 c1 h6 d1 e1"), "{line}");
    }
}

#[test]
fn games_out_refuses_the_starts_file_and_an_unwritable_path_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let starts = dir.path().join("pos.txt");
    let text = "a1 h8 b1 h7 c1 h6 d1\n";
    std::fs::write(&starts, text).unwrap();
    let args = |games_out: std::path::PathBuf| ArenaArgs {
        a: EngineLevel::Easy,
        b: EngineLevel::Classic,
        games: Some(2),
        openings: None,
        a_move_ms: 500,
        b_move_ms: 500,
        json: false,
        games_out: Some(games_out),
        jobs: 1,
        starts: Some(starts.clone()),
        start_bricks: Some(0),
        opening_offset: 0,
        classic_plies: SEED_PLIES,
    };
    // The starts by another name: the run stops before its first game, and the file is kept.
    let mut out = Vec::new();
    let same = dir.path().join(".").join("pos.txt");
    let refused = format!("{:#}", run(&args(same), &mut out).unwrap_err());
    assert!(
        refused.contains("--games-out") && refused.contains("input file"),
        "{refused}"
    );
    assert_eq!(std::fs::read_to_string(&starts).unwrap(), text);
    assert!(out.is_empty(), "no game played");
    let in_no_folder = dir.path().join("no-such-folder").join("games.txt");
    let refused = format!("{:#}", run(&args(in_no_folder), &mut out).unwrap_err());
    assert!(refused.contains("its folder does not exist"), "{refused}");
    assert!(out.is_empty(), "no game played");
}

#[test]
fn each_game_line_counts_the_games_and_a_s_score_so_far() {
    use Player::{Black, White};
    let mut progress = Progress::new(10);
    let game = |a_plays, outcome, moves: &str| Finished {
        a_plays,
        outcome,
        moves: moves.into(),
    };
    let won = game(Black, Outcome::Win(Black), "a1 h8");
    assert_eq!(
        progress.line(&won),
        "game  1 of 10, A's score 1/1: A as Black: Win(Black): a1 h8"
    );
    let tied = game(White, Outcome::Tie, "h1 a1");
    let line = progress.line(&tied);
    assert_eq!(
        line,
        "game  2 of 10, A's score 1.5/2: A as White: Tie: h1 a1"
    );
    assert_eq!(
        moves_of_game_line(&line),
        "h1 a1",
        "a line still serves as a start"
    );
    let lost = game(White, Outcome::Win(Black), "a1");
    assert!(
        progress
            .line(&lost)
            .starts_with("game  3 of 10, A's score 1.5/3: ")
    );
    assert_eq!(
        tied.file_line(2),
        "game   2: A as White: Tie: h1 a1",
        "--games-out keeps its lines"
    );
}

/// More openings than there are, or than the games can play, are not played silently.
#[test]
fn openings_asked_beyond_those_played_are_told() {
    let args = ArenaArgs {
        a: EngineLevel::Easy,
        b: EngineLevel::Classic,
        games: Some(2),
        openings: Some(100_000),
        a_move_ms: 5,
        b_move_ms: 5,
        json: true,
        games_out: None,
        jobs: 2,
        starts: None,
        start_bricks: None,
        opening_offset: 0,
        classic_plies: SEED_PLIES,
    };
    let (mut out, mut log) = (Vec::new(), Vec::new());
    run_with_log(&args, &mut out, &mut log).unwrap();
    let log = String::from_utf8(log).unwrap();
    assert!(
        log.starts_with(
            "--openings 100000: 2 games play 1 openings, each from both sides (there are 256)"
        ),
        "{log}"
    );
}

#[test]
fn game_lines_go_to_stdout_or_with_json_to_the_log() {
    let starts = temp_file("arena-progress-starts", "a1 h8 b1 h7 c1 h6 d1\n");
    let mut args = ArenaArgs {
        a: EngineLevel::Easy,
        b: EngineLevel::Classic,
        games: None,
        openings: None,
        a_move_ms: 500,
        b_move_ms: 500,
        json: true,
        games_out: None,
        jobs: 2,
        starts: Some(starts.to_path_buf()),
        start_bricks: None,
        opening_offset: 0,
        classic_plies: SEED_PLIES,
    };
    let (mut out, mut log) = (Vec::new(), Vec::new());
    run_with_log(&args, &mut out, &mut log).unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out).expect("stdout is JSON alone");
    assert_eq!(report["games"], 2);
    let log = String::from_utf8(log).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 2, "{log}");
    assert!(lines[0].starts_with("game 1 of 2, A's score "), "{log}");
    assert!(lines[1].starts_with("game 2 of 2, A's score "), "{log}");
    assert!(!log.contains('\r'), "plain lines for a file: {log:?}");

    args.json = false;
    let (mut out, mut log) = (Vec::new(), Vec::new());
    run_with_log(&args, &mut out, &mut log).unwrap();
    assert!(log.is_empty());
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("game 1 of 2, A's score "), "{out}");
    assert!(lines[1].starts_with("game 2 of 2, A's score "), "{out}");
    assert!(lines[2].starts_with("A = Easy"), "then the report: {out}");
}

#[test]
fn a_classic_side_searches_the_plies_asked_and_other_levels_are_untouched() {
    use clap::Parser;
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        arena: ArenaArgs,
    }
    let parse = |line: &str| Cli::try_parse_from(line.split(' ')).map(|cli| cli.arena);
    let args = parse("arena --a strong --b classic").unwrap();
    assert_eq!(
        args.classic_plies, SEED_PLIES,
        "the classic level by default"
    );
    assert!(parse("arena --a strong --b classic --classic-plies 7").is_err());
    assert!(parse("arena --a strong --b classic --classic-plies 0").is_err());
    let args = parse("arena --a strong --b classic --classic-plies 5").unwrap();
    let moves = parlor_shared::cave::parse_moves("a1 h8 b1").unwrap();
    let position = Position::from_moves(&moves).unwrap();
    let mut deeper = args.engine(EngineLevel::Classic);
    deeper
        .choose_move(&position, Duration::from_secs(3))
        .unwrap();
    let mut plain = Classic::default();
    plain
        .choose_move(&position, Duration::from_secs(3))
        .unwrap();
    assert_eq!(deeper.last_search().depth, 5);
    assert_eq!(plain.last_search().depth, SEED_PLIES);
    assert!(deeper.last_search().nodes > plain.last_search().nodes);
    assert_eq!(args.engine(EngineLevel::Normal).name(), "alpha-beta");
    assert_eq!(
        args.side_name(EngineLevel::Classic),
        "Classic searching 5 plies",
        "the report says whom A played"
    );
    let usual = parse("arena --a strong --b classic").unwrap();
    assert_eq!(usual.side_name(EngineLevel::Classic), "Classic");
}
