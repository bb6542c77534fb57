//! `cave prove`: what is proved, what the book keeps, and what is refused before any proving.

use super::*;
use clap::Parser;

/// A small search of the empty cave alone, nothing written: what each test changes.
fn small() -> ProveArgs {
    ProveArgs {
        nodes: 10_000,
        plies: 0,
        position: String::new(),
        positions: None,
        start_bricks: None,
        table_bits: 12,
        json: false,
        write: None,
    }
}

/// `cave prove` with `words`, as its command line parses them.
fn parse(words: &[&str]) -> Result<ProveArgs, clap::Error> {
    #[derive(Parser)]
    struct Prove {
        #[command(flatten)]
        args: ProveArgs,
    }
    let words = ["prove"].iter().chain(words);
    Prove::try_parse_from(words).map(|prove| prove.args)
}

#[test]
fn first_moves_are_one_per_mirror_image() {
    let all = positions_below(&[], 1);
    // The empty cave, then a1..a4 up to mirrors: 16 wall cells fall into 4 classes.
    assert_eq!(all.len(), 5);
    assert!(all[0].is_empty());
    // Each of those has 16 replies (15 wall cells and the cell beside the brick), and no
    // two of the 64 mirror each other.
    assert_eq!(positions_below(&[], 2).len(), 5 + 4 * 16);
}

#[test]
fn a_won_puzzle_is_written_to_the_book_and_replaces_its_mirror_image() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("proven.txt");
    // The left-right mirror image of the tactics puzzle proved below, with a weaker value.
    let mirror = "h5 h8 h2 a4 b4 h6 g8 a6 h7 a5 f8";
    std::fs::write(&path, format!("{mirror} | tie-or-better | - | 1\n")).unwrap();
    let args = ProveArgs {
        position: "a5 a8 a2 h4 g4 a6 b8 h6 a7 h5 c8".into(),
        json: true,
        write: Some(path.clone()),
        ..small()
    };
    let mut out = Vec::new();
    run(&args, &mut out).unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(report[0]["value"], "win");
    let stored = book::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(stored.len(), 1, "the mirror image's line was replaced");
    assert_eq!(stored[0].value, Value::Win);
    assert_eq!(game_text(&stored[0].moves), args.position);
}

/// Standard output after its reader has gone (`cave prove --write B | head`).
struct ClosedPipe;

impl Write for ClosedPipe {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(ErrorKind::BrokenPipe.into())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_proof_is_in_the_book_before_it_is_printed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("proven.txt");
    let args = ProveArgs {
        position: "a5 a8 a2 h4 g4 a6 b8 h6 a7 h5 c8".into(),
        write: Some(path.clone()),
        ..small()
    };
    assert!(run(&args, &mut ClosedPipe).is_err());
    let stored = book::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(stored.len(), 1, "the win was kept");
}

/// A result for `moves`, as a run that proved it a "tie or better" would hold it.
fn tie_or_better(moves: &str) -> Proved {
    Proved {
        moves: crate::cli::cave::parse_game(moves).unwrap(),
        solution: Solution {
            value: Value::TieOrBetter,
            best: None,
            nodes: 1,
        },
        time: Duration::ZERO,
    }
}

#[test]
fn a_write_waits_for_another_runs_write_and_keeps_its_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("proven.txt");
    // Another run is writing: it holds the lock between reading the book and replacing it.
    let other_run = lock_book(&path).unwrap();
    let this_run = std::thread::spawn({
        let path = path.clone();
        move || write_book(&path, &tie_or_better("a1")).unwrap()
    });
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        !path.exists(),
        "this run wrote while the other held the lock"
    );
    write_one_line_book(&path, "a2");
    drop(other_run);
    assert!(this_run.join().unwrap(), "this run's line was added");
    let stored = book::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let names: Vec<String> = stored.iter().map(|l| game_text(&l.moves)).collect();
    assert_eq!(names, ["a1", "a2"], "neither run's line was dropped");
}

/// What the other run writes while it holds the lock: a book of one line.
fn write_one_line_book(path: &Path, moves: &str) {
    let line = Line::new(
        crate::cli::cave::parse_game(moves).unwrap(),
        &tie_or_better(moves).solution,
    );
    std::fs::write(path, format!("{}{}\n", book::HEADER, line.text())).unwrap();
}

#[test]
fn a_book_that_cannot_be_read_or_written_is_refused_before_any_proving() {
    let dir = tempfile::tempdir().unwrap();
    let not_a_book =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/cave/dfpn_bench.txt");
    let nowhere = dir.path().join("no-such-folder").join("proven.txt");
    for (book, reason) in [(not_a_book, "dfpn_bench.txt: line"), (nowhere, "folder")] {
        let args = ProveArgs {
            // Hours of work if it were done first.
            nodes: u64::MAX,
            plies: 3,
            write: Some(book),
            ..small()
        };
        let refused = run(&args, &mut Vec::new()).expect_err("refused");
        assert!(format!("{refused:#}").contains(reason), "{refused:#}");
    }
}

#[test]
fn a_book_that_cannot_be_written_is_refused_before_any_proving_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let book_text = "a1 | tie-or-better | - | 1\n";
    let read_only = dir.path().join("read-only.txt");
    std::fs::write(&read_only, book_text).unwrap();
    let mut permissions = std::fs::metadata(&read_only).unwrap().permissions();
    permissions.set_readonly(true);
    std::fs::set_permissions(&read_only, permissions).unwrap();
    // Root writes read-only files: there only a folder nothing can be made in (Linux's
    // /proc) is tested.
    let mut books = Vec::new();
    if cfg!(target_os = "linux") {
        books.push(PathBuf::from("/proc/parlor-proven.txt"));
    }
    if std::fs::OpenOptions::new()
        .append(true)
        .open(&read_only)
        .is_err()
    {
        books.push(read_only.clone());
    }
    for book in books {
        let args = ProveArgs {
            write: Some(book.clone()),
            ..small()
        };
        let mut out = Vec::new();
        let refused = run(&args, &mut out).expect_err("refused");
        let expected = format!("cannot write {}", book.display());
        assert!(format!("{refused:#}").contains(&expected), "{refused:#}");
        assert!(out.is_empty(), "nothing is proved first");
    }
    assert_eq!(std::fs::read_to_string(&read_only).unwrap(), book_text);
}

#[test]
fn the_benchmark_file_holds_its_four_unfinished_positions() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/cave/dfpn_bench.txt");
    let starts = crate::cli::cave::games::load_starts(&path, None).unwrap();
    let bricks: Vec<usize> = starts.iter().map(Vec::len).collect();
    assert_eq!(bricks, [38, 30, 40, 27]);
}

/// What proving each start of the positions file at `path` prints, with small budgets.
fn prove_file(path: &Path) -> String {
    let args = ProveArgs {
        positions: Some(path.to_path_buf()),
        ..small()
    };
    let mut out = Vec::new();
    run(&args, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn every_start_of_a_positions_file_is_proved_in_order() {
    // The tactics puzzle (a win in two moves) and a won game's line before its last move.
    let path = crate::cli::cave::temp_file(
        "prove-starts",
        "# two starts\na5 a8 a2 h4 g4 a6 b8 h6 a7 h5 c8\n\n\
         game   1: A as Black: Win(Black): a1 h8 b1 h7 c1 h6 d1 h5\n",
    );
    let text = prove_file(&path);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("a5 a8 a2 h4 g4 a6 b8 h6 a7 h5 c8: win, best"));
    assert!(lines[1].starts_with("a1 h8 b1 h7 c1 h6 d1 h5: win, best e1"));
}

#[test]
fn a_positions_file_with_a_byte_order_mark_reads_as_without() {
    let path = crate::cli::cave::temp_file("prove-bom", "\u{feff}a1 h8 b1 h7\n");
    let text = prove_file(&path);
    assert!(text.starts_with("a1 h8 b1 h7: "), "{text}");
}

#[test]
fn a_games_out_file_is_proved_from_its_first_start_bricks() {
    // A whole game as `cave arena --games-out` writes it: Black's five ends it.
    let path = crate::cli::cave::temp_file(
        "prove-games-out",
        "game   1: A as Black: Win(Black): a1 h8 b1 h7 c1 h6 d1 h5 e1\n",
    );
    let file = path.to_str().unwrap();
    let small = ["--nodes", "10000", "--plies", "0", "--table-bits", "12"];
    let whole = parse(&[&["--positions", file][..], &small].concat()).unwrap();
    let refused = run(&whole, &mut Vec::new()).expect_err("a finished game");
    let refused = format!("{refused:#}");
    assert!(
        refused.contains("the game is over; --start-bricks"),
        "{refused}"
    );

    let cut = [&["--positions", file, "--start-bricks", "8"][..], &small].concat();
    let mut out = Vec::new();
    run(&parse(&cut).unwrap(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.starts_with("a1 h8 b1 h7 c1 h6 d1 h5: win, best e1"),
        "{text}"
    );

    let cut_too_late = [&["--positions", file, "--start-bricks", "9"][..], &small].concat();
    let refused = run(&parse(&cut_too_late).unwrap(), &mut Vec::new()).expect_err("over");
    assert!(
        format!("{refused:#}").contains("over within 9 bricks"),
        "{refused:#}"
    );
    // Without a file there is nothing to cut, and a --position is not cut either.
    assert!(parse(&["--start-bricks", "8"]).is_err());
    let with_position = parse(&["--position", "a1 h1", "--start-bricks", "1"]);
    let refused = with_position.expect_err("--start-bricks with --position");
    assert!(refused.to_string().contains("--start-bricks"), "{refused}");
}
