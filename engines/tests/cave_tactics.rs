//! The tactics suite in `levels/cave/tactics.txt`: every puzzle is re-proved by the exhaustive
//! prover, and the strong engine must find the forced five at a small budget and keep it.

use std::time::Duration;

use parlor_engines::cave::prover::{fastest_win, wins_within};
use parlor_engines::cave::strong::{Strong, WIN, WIN_THRESHOLD};
use parlor_shared::cave::{Position, parse_moves};

struct Puzzle {
    line: usize,
    wins_in: u32,
    position: Position,
}

fn suite() -> Vec<Puzzle> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../levels/cave/tactics.txt");
    let text = std::fs::read_to_string(path).expect("the tactics suite is in levels/cave");
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(index, line)| {
            let (head, moves) = line.split_once(':').expect("`win-in N: moves`");
            let wins_in = head
                .trim()
                .strip_prefix("win-in ")
                .unwrap()
                .parse()
                .unwrap();
            let squares = parse_moves(moves).unwrap();
            let position = Position::from_moves(&squares).expect("a legal game");
            Puzzle {
                line: index + 1,
                wins_in,
                position,
            }
        })
        .collect()
}

#[test]
fn every_puzzle_is_a_proven_win_in_exactly_its_moves() {
    let puzzles = suite();
    assert!(puzzles.len() >= 10, "the suite is too small");
    for puzzle in &puzzles {
        assert_eq!(
            fastest_win(&puzzle.position, puzzle.wins_in),
            Some(puzzle.wins_in),
            "line {}",
            puzzle.line
        );
    }
}

#[test]
fn the_strong_engine_solves_the_suite_at_200_ms_and_keeps_the_win() {
    let mut engine = Strong::default();
    for puzzle in suite() {
        let p = &puzzle.position;
        let square = engine.search(p, Duration::from_millis(200)).unwrap();
        let distance = 2 * puzzle.wins_in as i32 - 1;
        assert!(
            engine.last.score >= WIN_THRESHOLD,
            "line {}: no win found\n{p}",
            puzzle.line
        );
        assert_eq!(
            WIN - engine.last.score,
            distance,
            "line {}: wrong distance",
            puzzle.line
        );
        let after = p.play(square).unwrap();
        if after.outcome().is_none() {
            for reply in after.legal_squares() {
                let answered = after.play(reply).unwrap();
                assert!(
                    answered.outcome().is_none() && wins_within(&answered, puzzle.wins_in - 1),
                    "line {}: {square} lets {reply} escape",
                    puzzle.line
                );
            }
        }
    }
}
