use parlor_shared::bricks::{Answer, BricksMove, Setup};

use super::*;

/// The game after dropping from each height of `drops` and answering as given.
fn game_after(height: u64, drops: &[(u64, Answer)]) -> BricksGame {
    let mut game = BricksGame::new(Setup::new(height, 64, 64).unwrap());
    for &(from, answer) in drops {
        game = game.play(BricksMove::Drop(from)).unwrap();
        game = game.play(BricksMove::Answer(answer)).unwrap();
    }
    game
}

fn window_layout(game: &BricksGame) -> TowerLayout {
    tower_layout(board_area(1024.0, 768.0), game)
}

#[test]
fn a_short_tower_is_one_column_of_single_floors_beside_the_panel() {
    let area = board_area(1024.0, 768.0);
    assert_eq!(area, Rect::new(0.0, 60.0, 694.0, 708.0));
    let layout = window_layout(&game_after(100, &[]));
    assert_eq!(layout.close_up, None);
    let whole = layout.whole;
    assert_eq!(whole.rect, Rect::new(60.0, 104.0, 100.0, 624.0));
    assert_eq!((whole.low, whole.high), (1, 100));
    assert!(whole.shows_single_floors());
    assert!(whole.rect.x + whole.rect.w + 200.0 <= area.x + TOWER_WIDTH);
    // Floor 1 sits on the ground, floor 100 under the title band.
    assert_eq!(whole.edge_y(0), 728.0);
    assert_eq!(whole.edge_y(100), 104.0);
    let (_, y1) = whole.floor_center(1);
    assert!((y1 - (728.0 - 3.12)).abs() < 0.01, "{y1}");
}

#[test]
fn every_floor_centre_and_top_edge_hits_its_own_floor() {
    for height in [1, 2, 7, 100, 124] {
        let column = window_layout(&game_after(height, &[])).whole;
        for floor in 1..=height {
            let (x, y) = column.floor_center(floor);
            assert_eq!(
                column.floor_at(x, y),
                Some(floor),
                "H {height}, floor {floor}"
            );
            let rect = column.floor_rect(floor);
            assert_eq!(column.floor_at(rect.x, rect.y), Some(floor));
            assert!(rect.h > 0.0);
        }
    }
}

#[test]
fn points_off_the_column_hit_no_floor() {
    let column = window_layout(&game_after(10, &[])).whole;
    let r = column.rect;
    for (x, y) in [
        (r.x - 0.5, r.y + 10.0),
        (r.x + r.w, r.y + 10.0),
        (r.x + 10.0, r.y - 0.5),
        (r.x + 10.0, r.y + r.h),
        (f32::NAN, r.y + 10.0),
        (r.x + 10.0, f32::INFINITY),
    ] {
        assert_eq!(column.floor_at(x, y), None, "({x}, {y})");
    }
}

#[test]
fn a_tall_tower_gets_a_close_up_of_the_open_floors_and_their_neighbours() {
    let game = game_after(
        1_000_000,
        &[(500_000, Answer::Broken), (1_000, Answer::Safe)],
    );
    let layout = window_layout(&game);
    assert!(!layout.whole.shows_single_floors());
    // The open heights 1001..=499999 are too many to zoom on.
    assert_eq!(layout.close_up, None);

    let game = game_after(1_000_000, &[(1_040, Answer::Broken), (1_000, Answer::Safe)]);
    let close_up = window_layout(&game).close_up.unwrap();
    assert_eq!((close_up.low, close_up.high), (1_000, 1_040));
    assert!(close_up.shows_single_floors());

    // At the ground, and with few open floors, the window grows to five floors.
    let game = game_after(1_000, &[(2, Answer::Broken)]);
    let close_up = window_layout(&game).close_up.unwrap();
    assert_eq!((close_up.low, close_up.high), (1, 5));
    let game = game_after(1_000, &[(1_000, Answer::Safe)]);
    let close_up = window_layout(&game).close_up.unwrap();
    assert_eq!((close_up.low, close_up.high), (996, 1_000));
}

#[test]
fn clicks_pick_floors_only_where_floors_are_drawn_singly() {
    let game = game_after(1_000_000, &[(1_040, Answer::Broken), (1_000, Answer::Safe)]);
    let layout = window_layout(&game);
    let close_up = layout.close_up.unwrap();
    let (x, y) = close_up.floor_center(1_020);
    assert_eq!(layout.floor_at(x, y), Some(1_020));
    let (x, y) = layout.whole.floor_center(600_000);
    assert_eq!(layout.floor_at(x, y), None);
    assert!(
        layout.too_fine_at(x, y),
        "a click there is refused in words"
    );
    assert!(!layout.too_fine_at(0.0, 0.0));
    let short = window_layout(&game_after(20, &[]));
    let (x, y) = short.whole.floor_center(13);
    assert_eq!(short.floor_at(x, y), Some(13));
    assert!(!short.too_fine_at(x, y));
}

#[test]
fn open_floors_are_clickable_once_a_column_shows_them_singly() {
    assert!(window_layout(&game_after(20, &[])).open_floors_clickable());
    let tall = game_after(100_000, &[]);
    assert!(
        !window_layout(&tall).open_floors_clickable(),
        "all 100,000 open"
    );
    let narrowed = game_after(1_000_000, &[(1_040, Answer::Broken), (1_000, Answer::Safe)]);
    assert!(window_layout(&narrowed).open_floors_clickable());
}

#[test]
fn scale_labels_are_every_floor_when_there_is_room_and_round_numbers_otherwise() {
    let short = window_layout(&game_after(10, &[])).whole;
    assert_eq!(scale_labels(&short, &[]), (0..=10).collect::<Vec<_>>());
    let marked = [short.label_y(4), short.label_y(7)];
    assert_eq!(scale_labels(&short, &marked), [0, 1, 2, 3, 5, 6, 8, 9, 10]);

    let tall = window_layout(&game_after(1_000_000_000_000_000_000, &[])).whole;
    let labels = scale_labels(&tall, &[]);
    assert_eq!(labels.first(), Some(&0));
    assert_eq!(labels.last(), Some(&1_000_000_000_000_000_000));
    assert!(labels.len() >= 10, "{labels:?}");
    assert!(labels.contains(&500_000_000_000_000_000), "{labels:?}");
    for pair in labels.windows(2) {
        let gap = tall.label_y(pair[0]) - tall.label_y(pair[1]);
        assert!(gap >= LABEL_GAP, "{pair:?}: {gap}");
    }
    // A marked height pushes away the round numbers next to it.
    let marked = tall.label_y(499_999_999_999_999_999);
    let labels = scale_labels(&tall, &[marked]);
    assert!(!labels.contains(&500_000_000_000_000_000), "{labels:?}");
}

#[test]
fn labels_of_neighbouring_floors_are_spread_apart_but_stay_above_the_bottom() {
    // Far apart: unchanged, in the given order.
    assert_eq!(spread_labels(&[300.0, 100.0], 700.0), [300.0, 100.0]);
    // Two labels 6 pixels apart: the lower one moves down.
    assert_eq!(
        spread_labels(&[600.0, 606.0], 700.0),
        [600.0, 600.0 + LABEL_GAP]
    );
    // At the bottom, they move up instead.
    let spread = spread_labels(&[700.0, 694.0, 690.0], 700.0);
    assert_eq!(spread, [700.0, 700.0 - LABEL_GAP, 700.0 - 2.0 * LABEL_GAP]);
    assert!(spread_labels(&[], 700.0).is_empty());
}

#[test]
fn round_steps_and_short_heights() {
    assert_eq!(round_step(0), 1);
    assert_eq!(round_step(3), 5);
    assert_eq!(round_step(11), 20);
    assert_eq!(round_step(50), 50);
    assert_eq!(round_step(u64::MAX), u64::MAX);
    // A column under a million: plain digits, even for a big label.
    assert_eq!(short_height(999_999, 999_999), "999999");
    assert_eq!(short_height(1039, 1040), "1039");
    // A taller column: every label in units, none in programmer notation.
    let tall = 1_000_000;
    assert_eq!(short_height(0, tall), "0");
    assert_eq!(short_height(50_000, tall), "50k");
    assert_eq!(short_height(950_000, tall), "950k");
    assert_eq!(short_height(1_000_000, tall), "1M");
    assert_eq!(short_height(2_500_000_000, u64::MAX), "2.5B");
    assert_eq!(short_height(123_456_789, u64::MAX), "~123M");
    assert_eq!(short_height(1_234_567, u64::MAX), "~1.2M");
    assert_eq!(short_height(1_000_000_000_000_000_000, u64::MAX), "1000Q");
    for height in [1, 999, 1000, 12_345, 10_u64.pow(18)] {
        assert!(!short_height(height, u64::MAX).contains('e'), "{height}");
    }
}
