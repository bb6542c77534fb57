//! Properties of the closed form over the whole input range.

use proptest::prelude::*;

use super::*;

/// Drops from the whole range, or few: f saturates at `u64::MAX` early (with 64 bricks at 64
/// drops, with 3 at a few million), so draws from the whole range almost never land below it.
fn drops_from(low: u64) -> impl Strategy<Value = u64> {
    prop_oneof![low..200u64, low..=MAX_DROPS]
}

proptest! {
    #[test]
    fn distinguishable_heights_grows_with_drops_and_bricks(
        drops in drops_from(0),
        bricks in 0..MAX_BRICKS,
    ) {
        let here = distinguishable_heights(drops, bricks);
        prop_assert!(distinguishable_heights(drops + 1, bricks) >= here);
        prop_assert!(distinguishable_heights(drops, bricks + 1) >= here);
    }

    #[test]
    fn pascals_rule_holds_below_saturation(drops in drops_from(1), bricks in 1..=MAX_BRICKS) {
        // f(d, b) = f(d-1, b-1) + 1 + f(d-1, b): the split the winning agent relies on.
        let whole = distinguishable_heights(drops, bricks);
        let parts = distinguishable_heights(drops - 1, bricks - 1)
            .saturating_add(1)
            .saturating_add(distinguishable_heights(drops - 1, bricks));
        prop_assert_eq!(whole, parts);
    }

    #[test]
    fn fewest_drops_is_the_smallest_that_suffices(
        height in 1..=MAX_HEIGHT,
        bricks in 1..=MAX_BRICKS,
    ) {
        let drops = fewest_drops(height, bricks).unwrap();
        prop_assert!(distinguishable_heights(drops, bricks) >= height);
        prop_assert!(distinguishable_heights(drops - 1, bricks) < height);
    }

    #[test]
    fn the_first_winning_drop_keeps_both_answers_winnable(
        height in 1..=MAX_HEIGHT,
        drops in 1..=MAX_DROPS,
        bricks in 1..=MAX_BRICKS,
    ) {
        let start = State::start(setup(height, drops, bricks));
        let drop = best_drop(&start).unwrap();
        prop_assert!(start.drop_range().unwrap().contains(&drop));
        let broken = start.after(drop, Answer::Broken).unwrap();
        prop_assert!(is_winnable(&broken));
        if is_winnable(&start) {
            let safe = start.after(drop, Answer::Safe).unwrap();
            prop_assert!(is_winnable(&safe));
            let needed = fewest_drops(height, bricks).unwrap();
            for child in [safe, broken] {
                let child_needs = fewest_drops(child.open_heights(), child.bricks_left());
                prop_assert!(child_needs.is_some_and(|drops| drops < needed));
            }
        }
    }
}
