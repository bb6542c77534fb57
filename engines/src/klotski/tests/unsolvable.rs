//! Each kind of proved `No`, each confirmed by the brute-force reference.

use super::*;

fn proof(text: &str, method: Method) -> Unsolvable {
    match solve(&puzzle(text), &unlimited(method)).verdict {
        Verdict::Unsolvable(proof) => proof,
        other => panic!("{method}: expected No, got {other:?}\n{text}"),
    }
}

fn confirmed(text: &str) -> &str {
    assert_eq!(
        brute::shortest(text),
        None,
        "the reference finds a solution to\n{text}"
    );
    text
}

#[test]
fn a_block_whose_numbers_are_not_side_by_side_in_the_goal() {
    // 1 and 5 tied in a column, but the goal puts 4 under 1.
    let text = confirmed("2 3\n1 2 3\n5 4 0\n1\n1 2*1\n");
    assert_eq!(
        proof(text, Method::Auto),
        Unsolvable::BlockShape {
            label: 1,
            shape: Shape::Tall
        }
    );
    // 2 and 3 tied in a row, but on a 2-column board the goal puts 3 on the next row.
    let text = confirmed("2 2\n2 3\n1 0\n1\n2 1*2\n");
    assert_eq!(
        proof(text, Method::Auto),
        Unsolvable::BlockShape {
            label: 2,
            shape: Shape::Wide
        }
    );
}

#[test]
fn the_one_blank_parity_rule_with_and_without_blocks() {
    let text = confirmed("2 2\n2 1\n0 3\n0\n");
    assert_eq!(proof(text, Method::Auto), Unsolvable::Parity);
    // A 2x1 block moves as a 3-cycle, which keeps the parity: 1 and 2 swapped stays unsolvable.
    let text = confirmed("3 3\n2 1 3\n4 5 6\n7 8 0\n1\n3 2*1\n");
    assert_eq!(proof(text, Method::Auto), Unsolvable::Parity);
}

#[test]
fn pieces_that_can_never_move_where_they_must() {
    // A 2x2 block needs two blanks to move at all.
    let text = confirmed("3 3\n4 5 1\n7 8 2\n3 6 0\n1\n4 2*2\n");
    assert_eq!(
        proof(text, Method::Auto),
        Unsolvable::Immovable {
            label: 4,
            axis: Axis::Vertical
        }
    );
    // A 2x1 block needs two blanks beside it to move sideways.
    let text = confirmed("3 2\n2 1\n4 3\n5 0\n1\n2 2*1\n");
    assert_eq!(
        proof(text, Method::Auto),
        Unsolvable::Immovable {
            label: 2,
            axis: Axis::Horizontal
        }
    );
}

#[test]
fn exhausting_the_reachable_positions_by_every_method() {
    // Tiles in one row can never pass each other; two blanks leave no parity rule.
    let text = confirmed("1 4\n2 1 0 0\n0\n");
    for method in Method::SEARCHES.into_iter().chain([Method::Auto]) {
        assert!(
            matches!(proof(text, method), Unsolvable::Exhausted { .. }),
            "{method}"
        );
    }
    // The 2x2 block fills both rows, so 3 and 4 can never get past it to its right.
    let text = confirmed("2 4\n3 1 2 0\n4 5 6 0\n1\n1 2*2\n");
    assert!(matches!(
        proof(text, Method::Auto),
        Unsolvable::Exhausted { .. }
    ));
}
