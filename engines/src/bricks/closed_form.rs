//! The closed form behind the winning agent.
//!
//! With d drops and b bricks an agent can resolve at most f(d, b) = sum over i = 1..=b of
//! C(d, i) open heights: the first drop splits them into the Broken side (f(d-1, b-1) heights)
//! plus the drop height itself plus the Safe side (f(d-1, b)), and Pascal's rule sums these to
//! f(d, b). So a state is winnable exactly when its open heights are at most f(d, b), and the
//! drop one above what f(d-1, b-1) resolves keeps both answers winnable. All of it is O(b) or
//! O(b log H) arithmetic, so H and D up to 10^18 are instant.

use parlor_shared::bricks::{BricksError, Setup, State};
use serde::Serialize;

/// f(drops, bricks) = sum over i = 1..=bricks of C(drops, i): how many open heights that many
/// drops and bricks can resolve. Saturates at `u64::MAX` (which every height is below).
pub fn distinguishable_heights(drops: u64, bricks: u32) -> u64 {
    let cap = u128::from(u64::MAX);
    let mut sum: u128 = 0;
    // C(drops, i), built up from C(drops, 0) = 1.
    let mut term: u128 = 1;
    for i in 1..=u64::from(bricks) {
        if i > drops {
            // C(drops, i) = 0 from here on.
            break;
        }
        // C(d, i) = C(d, i-1) * (d-i+1) / i, and the division is exact. The previous term is
        // below 2^64 (we stop once anything reaches the cap) and so is d-i+1, so the product
        // fits in u128 even for d = 10^18.
        term = term * u128::from(drops - i + 1) / u128::from(i);
        if term >= cap {
            return u64::MAX;
        }
        sum += term;
        if sum >= cap {
            return u64::MAX;
        }
    }
    sum as u64
}

/// Whether the agent can force a win from `state` whatever the answers: its open heights are
/// at most f(drops left, bricks left).
pub fn is_winnable(state: &State) -> bool {
    state.open_heights() <= distinguishable_heights(state.drops_left(), state.bricks_left())
}

/// The winning agent's drop: one above the heights that f(d-1, b-1) can resolve, so a Broken
/// answer leaves a winnable state, and from a winnable state a Safe answer does too (Pascal's
/// rule). It plans with d = the fewest drops that suffice rather than all the drops left, so
/// both answers stay winnable with one drop fewer and the agent never needs more drops than
/// [`fewest_drops`] says. From a lost state it plans with every drop left: Broken still stays
/// winnable and the Safe side shrinks the most, its best chance against an honest oracle.
pub fn best_drop(state: &State) -> Result<u64, BricksError> {
    let range = state.drop_range()?;
    let planned_drops = fewest_drops(state.open_heights(), state.bricks_left())
        .filter(|&needed| needed <= state.drops_left())
        .unwrap_or(state.drops_left());
    // Playing means at least one open height, drop and brick, so neither subtraction wraps.
    let broken_side = distinguishable_heights(planned_drops - 1, state.bricks_left() - 1);
    Ok(range.start().saturating_add(broken_side).min(*range.end()))
}

/// The fewest drops that resolve `open_heights` heights with `bricks` bricks (the smallest d
/// with f(d, bricks) >= open_heights), or `None` when no number of drops does (no bricks).
pub fn fewest_drops(open_heights: u64, bricks: u32) -> Option<u64> {
    if open_heights == 0 {
        return Some(0);
    }
    if bricks == 0 {
        return None;
    }
    // f is monotone in d and f(n, b) >= f(n, 1) = n, so the answer is in 1..=n.
    let (mut low, mut high) = (1, open_heights);
    while low < high {
        let middle = low + (high - low) / 2;
        if distinguishable_heights(middle, bricks) >= open_heights {
            high = middle;
        } else {
            low = middle + 1;
        }
    }
    Some(low)
}

/// What `client bricks solve` reports about a setup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Solution {
    pub height: u64,
    pub drops: u64,
    pub bricks: u32,
    /// Whether the winning agent wins against every answerer: H <= f(D, B).
    pub winnable: bool,
    /// f(D, B), saturating at 2^64 - 1.
    pub distinguishable_heights: u64,
    /// Whether f(D, B) reached 2^64 - 1, where it stops counting: `distinguishable_heights`
    /// is then a floor (the true f is at least that), not a count. Said beside it so that a
    /// reader of the JSON cannot take the cap for a count.
    pub distinguishable_heights_capped: bool,
    /// The fewest drops that suffice for H with B bricks; `None` with no bricks.
    pub fewest_drops: Option<u64>,
    /// The winning agent's first drop; `None` when it cannot drop at all (D or B is 0).
    pub first_drop: Option<u64>,
}

impl Solution {
    pub fn new(setup: Setup) -> Solution {
        let start = State::start(setup);
        let heights = distinguishable_heights(setup.drops, setup.bricks);
        Solution {
            height: setup.height,
            drops: setup.drops,
            bricks: setup.bricks,
            winnable: is_winnable(&start),
            distinguishable_heights: heights,
            distinguishable_heights_capped: heights == u64::MAX,
            fewest_drops: fewest_drops(setup.height, setup.bricks),
            first_drop: best_drop(&start).ok(),
        }
    }
}
