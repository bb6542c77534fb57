//! The seed's method: backward induction over the game tree, children before parents. It is
//! exponentially slower than the closed form and only runs on small towers, as the tests'
//! cross-check and to draw the game tree for `client bricks tree`.
//!
//! A position is (open heights n, drops d, bricks b); where the open heights sit in the tower
//! does not matter. Won positions are n = 0; a position with n > 0 is winning when some drop h
//! in 1..=n leads to winning positions on both answers: Broken gives (h-1, d-1, b-1) and Safe
//! gives (n-h, d-1, b). Filling the table in order of d visits every child before its parent,
//! which is the seed's post-order traversal without building the tree.

use std::fmt::Write;

use parlor_shared::bricks::{Answer, BricksError, INDUCTION_MAX_HEIGHT, Setup, State, Status};

/// Which positions are winning, for open heights, drops and bricks up to the given maxima.
pub struct BackwardInduction {
    max_open: u64,
    max_drops: u64,
    max_bricks: u32,
    /// Bricks in the table: more than this cannot help (see `new`).
    table_bricks: usize,
    /// `winning[(d * (table_bricks + 1) + b) * (max_open + 1) + n]`.
    winning: Vec<bool>,
}

impl BackwardInduction {
    pub fn new(
        max_open: u64,
        max_drops: u64,
        max_bricks: u32,
    ) -> Result<BackwardInduction, BricksError> {
        if max_open > INDUCTION_MAX_HEIGHT {
            return Err(BricksError::TooLargeForInduction(max_open));
        }
        // At most n drops happen (each one closes at least one open height) and at most d
        // bricks break, so larger tables would only repeat their last row.
        let table_drops = max_drops.min(max_open) as usize;
        let table_bricks = (max_bricks as usize).min(table_drops);
        let mut induction = BackwardInduction {
            max_open,
            max_drops,
            max_bricks,
            table_bricks,
            winning: vec![false; (table_drops + 1) * (table_bricks + 1) * (max_open as usize + 1)],
        };
        for d in 0..=table_drops {
            for b in 0..=table_bricks {
                for n in 0..=max_open as usize {
                    let winning = n == 0
                        || (d > 0
                            && b > 0
                            && (1..=n).any(|h| {
                                induction.winning[induction.index(d - 1, b - 1, h - 1)]
                                    && induction.winning[induction.index(d - 1, b, n - h)]
                            }));
                    let index = induction.index(d, b, n);
                    induction.winning[index] = winning;
                }
            }
        }
        Ok(induction)
    }

    fn index(&self, drops: usize, bricks: usize, open: usize) -> usize {
        (drops * (self.table_bricks + 1) + bricks) * (self.max_open as usize + 1) + open
    }

    /// Whether the agent can force a win with `open` open heights, `drops` drops and `bricks`
    /// bricks; `None` outside the maxima the table was built for.
    pub fn is_winning(&self, open: u64, drops: u64, bricks: u32) -> Option<bool> {
        if open > self.max_open || drops > self.max_drops || bricks > self.max_bricks {
            return None;
        }
        let drops = drops.min(open) as usize;
        let bricks = (bricks as usize).min(drops);
        Some(self.winning[self.index(drops, bricks, open as usize)])
    }

    fn is_winning_state(&self, state: &State) -> Option<bool> {
        self.is_winning(
            state.open_heights(),
            state.drops_left(),
            state.bricks_left(),
        )
    }

    /// The drops from `state` after which both answers leave winning states (empty when the
    /// game is over, or outside the table).
    pub fn winning_drops(&self, state: &State) -> Vec<u64> {
        let Ok(range) = state.drop_range() else {
            return Vec::new();
        };
        range
            .filter(|&height| {
                Answer::BOTH.iter().all(|&answer| {
                    state
                        .after(height, answer)
                        .is_ok_and(|child| self.is_winning_state(&child) == Some(true))
                })
            })
            .collect()
    }

    /// The drop the game tree follows, found the winning agent's way but from the table: plan
    /// with the fewest drops that win (all drops left when none do), then take the highest drop
    /// after which Broken still wins with one planned drop fewer. `None` when the game is over.
    pub fn drop_choice(&self, state: &State) -> Option<u64> {
        let range = state.drop_range().ok()?;
        let (open, bricks) = (state.open_heights(), state.bricks_left());
        let planned_drops = (1..=state.drops_left().min(open))
            .find(|&drops| self.is_winning(open, drops, bricks) == Some(true))
            .unwrap_or(state.drops_left());
        range.rev().find(|&height| {
            let broken_open = height - 1 - state.min_safe();
            self.is_winning(broken_open, planned_drops - 1, bricks - 1) == Some(true)
        })
    }

    fn label(&self, state: &State) -> String {
        match state.status() {
            Status::Won { strength } => format!("{state} won: the strength is {strength}"),
            Status::Lost { low, high } => {
                format!("{state} lost: must guess between {low} and {high}")
            }
            Status::Playing => {
                let winning = self.winning_drops(state);
                let verdict = if winning.is_empty() {
                    "losing: every drop has an answer that loses".to_string()
                } else {
                    format!("winning drops {}", ranges_text(&winning))
                };
                format!("{state} {verdict}")
            }
        }
    }

    fn write_subtree(&self, out: &mut String, state: &State, prefix: &str) {
        out.push_str(&self.label(state));
        out.push('\n');
        let Some(height) = self.drop_choice(state) else {
            return;
        };
        for (answer, last) in [(Answer::Safe, false), (Answer::Broken, true)] {
            let Ok(child) = state.after(height, answer) else {
                continue;
            };
            let (branch, indent) = if last {
                ("└─", "   ")
            } else {
                ("├─", "│  ")
            };
            // Writing to a String cannot fail.
            let _ = write!(out, "{prefix}{branch} drop {height}, {answer:<6} → ");
            self.write_subtree(out, &child, &format!("{prefix}{indent}"));
        }
    }
}

/// `3..=5, 8` for [3, 4, 5, 8].
fn ranges_text(heights: &[u64]) -> String {
    let mut runs: Vec<(u64, u64)> = Vec::new();
    for &height in heights {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == height => *end = height,
            _ => runs.push((height, height)),
        }
    }
    runs.iter()
        .map(|&(start, end)| {
            if start == end {
                start.to_string()
            } else {
                format!("{start}..={end}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The game tree from the start of `setup` as text, one position per line: each position says
/// whether it is winning and which drops win, then the tree follows `drop_choice` into both
/// answers. Refuses towers over `INDUCTION_MAX_HEIGHT`.
pub fn game_tree(setup: Setup) -> Result<String, BricksError> {
    let induction = BackwardInduction::new(setup.height, setup.drops, setup.bricks)?;
    let mut out = String::new();
    induction.write_subtree(&mut out, &State::start(setup), "");
    Ok(out)
}
