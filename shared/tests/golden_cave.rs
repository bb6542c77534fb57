//! Golden games: each file in `tests/golden/cave/` holds a move list and, under it, the expected
//! end: the outcome and the board picture. Run with `PARLOR_BLESS=1` to write the expected part
//! of a new file (then read it and check it by eye before committing).

use std::path::Path;

use parlor_shared::cave::{Outcome, Position, parse_moves};

fn describe(outcome: Option<Outcome>) -> String {
    match outcome {
        Some(Outcome::Win(player)) => format!("{player:?} wins"),
        Some(Outcome::Tie) => "tie".into(),
        None => "unfinished".into(),
    }
}

/// The part of a golden file the test computes: outcome, winning line and final board.
fn expected_end(position: &Position) -> String {
    let line = position
        .winning_line()
        .map(|cells| cells.map(|c| c.to_string()).join(" "))
        .unwrap_or_else(|| "none".into());
    format!(
        "outcome: {}\nline: {line}\nboard:\n{position}\n",
        describe(position.outcome())
    )
}

#[test]
fn golden_games_end_as_recorded() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/cave");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let moves_line = text
            .lines()
            .find_map(|l| l.strip_prefix("moves: "))
            .expect("a moves line");
        let moves = parse_moves(moves_line).unwrap();
        let position = Position::from_moves(&moves)
            .unwrap_or_else(|(ply, e)| panic!("{}: move {} refused: {e}", path.display(), ply + 1));
        // Each golden game ends exactly on its last move.
        let before_last = Position::from_moves(&moves[..moves.len() - 1]).unwrap();
        assert_eq!(
            before_last.outcome(),
            None,
            "{}: over before the last move",
            path.display()
        );
        let head: String = text
            .split_inclusive('\n')
            .take_while(|l| !l.starts_with("outcome:"))
            .collect();
        let expected = format!("{head}{}", expected_end(&position));
        if std::env::var_os("PARLOR_BLESS").is_some() {
            std::fs::write(&path, &expected).unwrap();
        } else {
            assert_eq!(text, expected, "{}", path.display());
        }
        checked += 1;
    }
    assert!(checked >= 3, "golden files missing");
}
