//! The book of proven positions in `levels/cave/proven.txt`: every line is a legal game with a
//! legal best move, df-pn proves the same value again within the stored node count (with the
//! default table, as `client cave prove --write` counts them), and the strong engine plays the
//! stored winning move in the position and in its mirror images.

use std::time::Duration;

use parlor_engines::cave::dfpn::book::{self, Line, PROVEN};
use parlor_engines::cave::dfpn::{Dfpn, Value};
use parlor_engines::cave::strong::Strong;
use parlor_shared::cave::{Position, Square};

fn lines() -> Vec<Line> {
    book::parse(PROVEN).expect("levels/cave/proven.txt parses")
}

/// The square mirrored left-right (`flip_cols`) and/or top-bottom (`flip_rows`).
fn mirrored(square: Square, flip_cols: bool, flip_rows: bool) -> Square {
    let col = if flip_cols {
        7 - square.col()
    } else {
        square.col()
    };
    let row = if flip_rows {
        7 - square.row()
    } else {
        square.row()
    };
    Square::new(col, row).unwrap()
}

#[test]
fn every_stored_line_is_a_legal_game_with_a_legal_best_move() {
    let lines = lines();
    assert!(!lines.is_empty(), "the book is empty");
    for line in &lines {
        let position = line.position();
        assert!(position.outcome().is_none(), "{}", line.text());
        if let Some(best) = line.best {
            assert!(position.is_legal(best), "{}", line.text());
        }
        assert!(
            line.value != Value::Win || line.best.is_some(),
            "a win names its move: {}",
            line.text()
        );
    }
}

#[test]
fn df_pn_proves_every_stored_value_again_within_its_nodes() {
    let mut solver = Dfpn::default();
    for line in lines() {
        let solution = solver.solve(&line.position(), line.nodes);
        assert_eq!(solution.value, line.value, "{}", line.text());
        assert_eq!(solution.best, line.best, "{}", line.text());
        assert!(solution.nodes <= line.nodes, "{}", line.text());
    }
}

#[test]
fn the_strong_engine_plays_each_stored_win_in_every_mirror_image() {
    let mut engine = Strong::default();
    for line in lines().iter().filter(|l| l.value == Value::Win) {
        let best = line.best.unwrap();
        for (flip_cols, flip_rows) in [(false, false), (true, false), (false, true), (true, true)] {
            let moves: Vec<Square> = line
                .moves
                .iter()
                .map(|&s| mirrored(s, flip_cols, flip_rows))
                .collect();
            let position = Position::from_moves(&moves).unwrap();
            let played = engine.search(&position, Duration::from_millis(5));
            assert_eq!(
                played,
                Some(mirrored(best, flip_cols, flip_rows)),
                "{} mirrored ({flip_cols}, {flip_rows})",
                line.text()
            );
        }
    }
}
