//! The closed form against Pascal's triangle and the seed's backward induction, and on inputs
//! far too big for either.

use super::*;

#[test]
fn distinguishable_heights_is_the_binomial_sum_saturated() {
    // Pascal's triangle in u128 is exact up to row 120 (C(120, 60) < 2^127).
    let mut row = vec![1u128];
    for drops in 0..=120u64 {
        for bricks in 0..=MAX_BRICKS {
            let sum: u128 = row.iter().skip(1).take(bricks as usize).sum();
            let expected = u64::try_from(sum).unwrap_or(u64::MAX);
            assert_eq!(
                distinguishable_heights(drops, bricks),
                expected,
                "f({drops}, {bricks})"
            );
        }
        let mut next = vec![1u128; row.len() + 1];
        for i in 1..row.len() {
            next[i] = row[i - 1] + row[i];
        }
        row = next;
    }
}

#[test]
fn closed_form_agrees_with_backward_induction_for_small_towers() {
    let induction = BackwardInduction::new(60, 12, 4).unwrap();
    for height in 1..=60 {
        for drops in 0..=12 {
            for bricks in 0..=4 {
                let start = State::start(setup(height, drops, bricks));
                let context = format!("H {height}, D {drops}, B {bricks}");
                let winning = induction.is_winning(height, drops, bricks).unwrap();
                assert_eq!(is_winnable(&start), winning, "{context}");
                assert_eq!(
                    best_drop(&start).ok(),
                    induction.drop_choice(&start),
                    "{context}"
                );
                let winning_drops = induction.winning_drops(&start);
                assert_eq!(winning_drops.is_empty(), !winning, "{context}");
                if let Some(&lowest) = winning_drops.first() {
                    // Winning drops are one run of heights, and the agent's is among them.
                    let expected: Vec<u64> =
                        (lowest..lowest + winning_drops.len() as u64).collect();
                    assert_eq!(winning_drops, expected, "{context}");
                    assert!(
                        winning_drops.contains(&best_drop(&start).unwrap()),
                        "{context}"
                    );
                }
            }
        }
        for bricks in 0..=4 {
            let fewest_by_induction =
                (0..=12).find(|&drops| induction.is_winning(height, drops, bricks).unwrap());
            let fewest = fewest_drops(height, bricks);
            match fewest_by_induction {
                Some(drops) => assert_eq!(fewest, Some(drops), "H {height}, B {bricks}"),
                None => assert!(
                    fewest.is_none_or(|drops| drops > 12),
                    "H {height}, B {bricks}"
                ),
            }
        }
    }
}

#[test]
fn huge_towers_are_answered_exactly() {
    const E18: u64 = MAX_HEIGHT;
    // D and B at their limits: 60 halvings suffice, since 2^59 < 10^18 < 2^60.
    let solution = Solution::new(setup(E18, MAX_DROPS, MAX_BRICKS));
    assert!(solution.winnable);
    assert_eq!(solution.distinguishable_heights, u64::MAX);
    assert_eq!(solution.fewest_drops, Some(60));
    // Planned with 60 drops, Broken must leave f(59, 63) = 2^59 - 1 open heights.
    assert_eq!(solution.first_drop, Some(1 << 59));

    // Two bricks: f(60, 2) = 60 + C(60, 2) = 1830 is far below 10^18.
    let solution = Solution::new(setup(E18, 60, 2));
    assert!(!solution.winnable);
    assert_eq!(solution.distinguishable_heights, 1830);
    // d(d+1)/2 >= 10^18 first at d = 1_414_213_562.
    assert_eq!(solution.fewest_drops, Some(1_414_213_562));
    // Lost, so it plans with all 60 drops: Broken leaves f(59, 1) = 59 heights.
    assert_eq!(solution.first_drop, Some(60));

    let solution = Solution::new(setup(E18, E18, 2));
    assert!(solution.winnable);
    assert_eq!(solution.first_drop, Some(1_414_213_562));

    // One brick is a walk upwards: H drops, the first from height 1.
    let solution = Solution::new(setup(E18, E18, 1));
    assert_eq!(
        (solution.fewest_drops, solution.first_drop),
        (Some(E18), Some(1))
    );
    assert!(solution.winnable);
    assert!(!Solution::new(setup(E18, E18 - 1, 1)).winnable);

    // Values checked with Python's math.comb.
    assert_eq!(fewest_drops(E18, 3), Some(1_817_121));
    assert_eq!(fewest_drops(E18, 4), Some(69_994));
    assert_eq!(fewest_drops(E18, 10), Some(290));
    assert_eq!(
        distinguishable_heights(1 << 32, 2),
        9_223_372_039_002_259_456
    );
    assert_eq!(distinguishable_heights(1000, 6), 1_376_465_174_033_950);
    assert_eq!(distinguishable_heights(1_000_000_000, 3), u64::MAX);
    assert_eq!(distinguishable_heights(E18, 1), E18);
    assert_eq!(distinguishable_heights(63, 64), (1 << 63) - 1);
    assert_eq!(distinguishable_heights(u64::MAX, 64), u64::MAX);
    assert_eq!(fewest_drops(E18, 0), None);
}

#[test]
fn the_game_tree_marks_winning_drops_and_refuses_tall_towers() {
    let tree = game_tree(setup(3, 2, 2)).unwrap();
    let expected = "\
(minSafe 0, maxSafe 3, drops 2, bricks 2) winning drops 2
├─ drop 2, safe   → (minSafe 2, maxSafe 3, drops 1, bricks 2) winning drops 3
│  ├─ drop 3, safe   → (minSafe 3, maxSafe 3, drops 0, bricks 2) won: the strength is 3
│  └─ drop 3, broken → (minSafe 2, maxSafe 2, drops 0, bricks 1) won: the strength is 2
└─ drop 2, broken → (minSafe 0, maxSafe 1, drops 1, bricks 1) winning drops 1
   ├─ drop 1, safe   → (minSafe 1, maxSafe 1, drops 0, bricks 1) won: the strength is 1
   └─ drop 1, broken → (minSafe 0, maxSafe 0, drops 0, bricks 0) won: the strength is 0
";
    assert_eq!(tree, expected);
    let lost = game_tree(setup(4, 2, 1)).unwrap();
    assert!(
        lost.starts_with(
            "(minSafe 0, maxSafe 4, drops 2, bricks 1) losing: every drop has an answer that loses"
        ),
        "{lost}"
    );
    assert!(lost.contains("lost: must guess between 2 and 4"), "{lost}");
    assert_eq!(
        game_tree(setup(65, 10, 2)),
        Err(BricksError::TooLargeForInduction(65))
    );
}
