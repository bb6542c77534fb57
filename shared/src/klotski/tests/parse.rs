//! The parser: what it accepts, and the line and reason of everything it refuses.

use super::*;

fn error(text: &str) -> (usize, Problem) {
    let error = parse_puzzle(text).expect_err("the input should be refused");
    (error.line, error.problem)
}

fn layout(text: &str) -> (usize, LayoutError) {
    match error(text) {
        (line, Problem::Layout(layout)) => (line, layout),
        (line, other) => panic!("line {line}: expected a layout error, got {other}"),
    }
}

#[test]
fn the_seeds_sample_is_read_with_its_blocks() {
    let sample = puzzle(include_str!(
        "../../../../levels/klotski/mahynotch_test_2_spec_sample.in"
    ));
    assert_eq!(
        (
            sample.rows(),
            sample.cols(),
            sample.number_count(),
            sample.blank_count()
        ),
        (5, 6, 27, 3)
    );
    let blocks: Vec<(u16, Shape, &[u16])> = sample
        .pieces()
        .iter()
        .filter(|piece| piece.shape != Shape::Single)
        .map(|piece| (piece.label, piece.shape, piece.numbers()))
        .collect();
    assert_eq!(
        blocks,
        vec![
            (8, Shape::Tall, &[8, 14][..]),
            (16, Shape::Square, &[16, 17, 22, 23][..])
        ]
    );
    assert_eq!(parse_puzzle(&sample.to_text()), Ok(sample));
}

#[test]
fn crlf_spaces_and_blank_lines_are_accepted() {
    let plain = puzzle("2 2\n1 2\n3 0\n0\n");
    assert_eq!(puzzle("\r\n 2  2 \r\n1 2\r\n\r\n3 0 \r\n0\r\n\r\n"), plain);
    assert_eq!(puzzle("2 2\n1 2\n3 0\n0"), plain);
}

#[test]
fn an_input_cut_short_after_its_rows_is_refused_not_read_without_blocks() {
    let missing = (
        4,
        Problem::Missing("the block count w (0 for no blocks)".into()),
    );
    assert_eq!(error("2 2\n1 2\n3 0"), missing);
    assert_eq!(error("2 2\n1 2\n3 0\n\n"), missing);
}

#[test]
fn the_first_lines_errors_name_line_1() {
    assert_eq!(
        error(""),
        (1, Problem::Missing("the size line \"n m\"".into()))
    );
    assert_eq!(error("2 x\n"), (1, Problem::NotANumber("x".into())));
    assert_eq!(error("-2 2\n"), (1, Problem::NotANumber("-2".into())));
    assert!(matches!(
        error("2 2 2\n"),
        (1, Problem::Count { found: 3, .. })
    ));
    assert_eq!(layout("0 3\n"), (1, LayoutError::Size { rows: 0, cols: 3 }));
    assert_eq!(layout("9 8\n"), (1, LayoutError::Size { rows: 9, cols: 8 }));
    // Refused from the size alone, before anything that size is allocated.
    let huge = layout("100000 100000000000\n1\n");
    assert_eq!(huge.0, 1);
    assert_eq!(
        huge.1,
        LayoutError::Size {
            rows: 100000,
            cols: 100000000000
        },
        "the refusal names the size as it was typed"
    );
}

#[test]
fn wrong_rows_are_refused_at_their_line() {
    assert!(matches!(
        error("2 2\n1 2\n3\n0\n"),
        (3, Problem::Count { found: 1, .. })
    ));
    assert_eq!(
        error("2 2\n1 2\n"),
        (3, Problem::Missing("row 2 of 2".into()))
    );
    assert_eq!(
        error("2 2\n1 2\n3 z\n0\n"),
        (3, Problem::NotANumber("z".into()))
    );
    assert_eq!(
        layout("2 2\n1 5\n3 0\n0\n"),
        (
            2,
            LayoutError::OutOfRange {
                cell: 1,
                number: 5,
                count: 3
            }
        )
    );
    let repeated = parse_puzzle("2 2\n1 2\n2 0\n0\n").unwrap_err();
    assert_eq!(repeated.line, 3);
    assert_eq!(
        repeated.to_string(),
        "line 3: number 2 is repeated (it is also in row 1, column 2)"
    );
}

const BOARD: &str = "3 3\n1 2 3\n4 5 6\n7 8 0\n";

#[test]
fn wrong_blocks_are_refused_at_their_line() {
    let with = |blocks: &str| format!("{BOARD}{blocks}");
    assert_eq!(
        error(&with("1\n1 3*1\n")),
        (6, Problem::BadShape("3*1".into()))
    );
    assert_eq!(
        error(&with("1\n1 1*1\n")),
        (6, Problem::BadShape("1*1".into()))
    );
    assert_eq!(
        error(&with("1\n1 big\n")),
        (6, Problem::BadShape("big".into()))
    );
    assert!(matches!(
        error(&with("1\n1\n")),
        (6, Problem::Count { found: 1, .. })
    ));
    assert_eq!(
        layout(&with("1\n9 2*1\n")),
        (6, LayoutError::UnknownLabel { block: 0, label: 9 })
    );
    assert_eq!(
        layout(&with("1\n0 2*1\n")),
        (6, LayoutError::UnknownLabel { block: 0, label: 0 })
    );
    let square = Shape::Square;
    assert_eq!(
        layout(&with("1\n3 2*2\n")),
        (
            6,
            LayoutError::Outside {
                block: 0,
                label: 3,
                shape: square
            }
        )
    );
    assert_eq!(
        layout(&with("1\n5 2*2\n")),
        (
            6,
            LayoutError::CoversBlank {
                block: 0,
                label: 5,
                shape: square
            }
        )
    );
    assert_eq!(
        layout(&with("2\n1 2*2\n2 2*1\n")),
        (
            7,
            LayoutError::Overlap {
                block: 1,
                label: 2,
                shape: Shape::Tall,
                other: 1
            }
        )
    );
    assert_eq!(
        layout(&with("2\n1 1*2\n1 1*2\n")),
        (7, LayoutError::RepeatedBlock { block: 1, label: 1 })
    );
}

#[test]
fn wrong_block_counts_are_refused() {
    assert_eq!(
        error(&format!("{BOARD}2\n1 1*2\n")),
        (7, Problem::Missing("block line 2 of 2".into()))
    );
    // A huge count costs nothing: it fails on the first missing line.
    assert_eq!(
        error(&format!("{BOARD}99999999999\n")),
        (6, Problem::Missing("block line 1 of 99999999999".into()))
    );
    assert_eq!(
        error(&format!("{BOARD}1\n1 1*2\n4 1*2\n")),
        (7, Problem::Unexpected(1, "4 1*2".into()))
    );
    assert!(matches!(
        error(&format!("{BOARD}one\n")),
        (5, Problem::NotANumber(_))
    ));
}

#[test]
fn moves_read_and_print_in_the_seeds_form() {
    let mv: Move = "16 U".parse().unwrap();
    assert_eq!(
        mv,
        Move {
            label: 16,
            dir: Dir::Up
        }
    );
    assert_eq!(mv.to_string(), "16 U");
    assert_eq!("8 l".parse::<Move>().unwrap().dir, Dir::Left);
    let too_large = "99999999999 L".parse::<Move>().unwrap_err();
    assert_eq!(
        too_large.to_string(),
        "\"99999999999 L\" is not a move: no piece has a number above 65535"
    );
    for bad in ["", "16", "U 16", "16 X", "16 UP", "16 U 1", "-1 L", "1.5 L"] {
        assert!(
            matches!(bad.parse::<Move>(), Err(MoveSyntaxError::Form(_))),
            "{bad:?}"
        );
    }
}

#[test]
fn a_board_from_a_client_of_more_than_64_cells_is_refused_even_with_a_full_grid() {
    // 9 x 8 = 72 cells, each rows and columns alone allowed, and a grid of exactly 72 numbers
    // (1..=71 and one blank): only the limit on cells refuses it.
    let mut grid: Vec<u16> = (1..=71).collect();
    grid.push(0);
    assert_eq!(grid.len(), 9 * 8);
    let board = KlotskiBoard {
        rows: 9,
        cols: 8,
        grid,
        blocks: vec![],
    };
    let refused = board.puzzle().expect_err("a 72-cell board is refused");
    assert_eq!(refused, LayoutError::Size { rows: 9, cols: 8 });
    assert!(
        refused.to_string().contains("at most 64 cells"),
        "{refused}"
    );
}
