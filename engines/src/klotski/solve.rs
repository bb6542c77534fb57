//! The solver's front door: cheap proofs of `No` first, then the chosen search, each answer
//! replayed against the rules before it is returned.
//!
//! `Method::Auto` (what `terminal` uses) first tries IDA* with linear conflicts for a few
//! milliseconds (a nearly solved board needs no tables), then runs the exact search that suits
//! the board: IDA* with pattern databases on classic one-blank boards of up to 16 cells (the
//! 15-puzzle's own IDA*, `search/tiles.rs`, with the 7-8 tables when kept; 70% of the budget),
//! A* with linear conflicts elsewhere (half; it also proves `No` by exhausting the reachable
//! positions). If that runs out, the anytime weighted search spends the rest finding a
//! solution as short as it can, and the exact search's bound says how far from shortest it
//! may be.

use std::fmt;
use std::time::{Duration, Instant};

use super::heuristic::{Heuristic, HeuristicKind, databases_apply};
use super::key::KeyLayout;
use super::search::{
    Limits, Outcome, PieceMove, SearchStats, Space, Weight, beam, best_first, bfs, bidirectional,
    bytes_per_position, idastar, shorten, tiles_idastar, weighted_idastar,
};
use parlor_shared::klotski::{Move, Puzzle};
use parlor_shared::klotski::{Unsolvable, prove_unsolvable};

/// A search method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// The exact search that suits the board, then the weighted fallback.
    Auto,
    Bfs,
    /// Bidirectional breadth-first search.
    Bibfs,
    Astar,
    /// IDA* with a transposition table.
    Idastar,
    /// Anytime weighted A*: weights 10, 3, 2.5, 2, 1.7, 1.5, 1.2 and 1, each looking for a
    /// shorter solution than the last (by weighted IDA* where A* fills its cap of positions).
    Weighted,
}

impl Method {
    /// The methods a user picks from (everything but `Auto`).
    pub const SEARCHES: [Method; 5] = [
        Method::Bfs,
        Method::Bibfs,
        Method::Astar,
        Method::Idastar,
        Method::Weighted,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Bfs => "bfs",
            Method::Bibfs => "bibfs",
            Method::Astar => "astar",
            Method::Idastar => "idastar",
            Method::Weighted => "weighted",
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How to solve.
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    pub method: Method,
    /// Wall-clock time for the searches (building pattern databases comes on top, once).
    pub budget: Duration,
    /// Most positions a search may store, which bounds its memory ([`positions_within`] turns
    /// a byte cap into positions).
    pub max_positions: usize,
    /// The strongest heuristic the informed searches may use: pattern databases fall back to
    /// linear conflicts where they do not apply.
    pub heuristic: HeuristicKind,
    /// Threads the 15- and 24-puzzles' search may run on (1 where others share the cores, as
    /// in the server's solver seats).
    pub threads: usize,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            method: Method::Auto,
            budget: Duration::from_secs(4),
            max_positions: 12_000_000,
            heuristic: HeuristicKind::PatternDatabases,
            threads: 1,
        }
    }
}

/// The answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A solution, replayed and checked; `proved_shortest` when no shorter one exists.
    Solved {
        moves: Vec<Move>,
        proved_shortest: bool,
    },
    /// Proved to have no solution.
    Unsolvable(Unsolvable),
    /// Neither a solution nor a proof within the budget.
    Undecided,
}

/// The answer with what it took.
#[derive(Clone, Debug)]
pub struct Report {
    pub verdict: Verdict,
    pub method: Method,
    /// The heuristic the informed searches used, if any ran.
    pub heuristic: Option<HeuristicKind>,
    /// The pattern databases they used, "4x4 7-8", if any.
    pub tables: Option<String>,
    pub stats: SearchStats,
    /// Including building pattern databases, if this call built them.
    pub elapsed: Duration,
}

/// Loads or builds, once per process, the tables the informed searches use with `heuristic`
/// on `puzzle`'s board, so that later solves time only their search.
pub fn prepare(puzzle: &Puzzle, heuristic: HeuristicKind) {
    Heuristic::new(puzzle, heuristic);
}

/// The most positions a search of `puzzle` may store (for [`SolveOptions::max_positions`]) so
/// that its tables hold at most `bytes`: a position takes more memory on a board whose
/// positions take more words (about 120 bytes on a 15-puzzle, over 400 on an 8x8 board of
/// many pieces).
/// Pattern databases, built once per board size and kept, are not counted.
pub fn positions_within(puzzle: &Puzzle, bytes: usize) -> usize {
    let layout = KeyLayout::new(puzzle.geometry().cells(), puzzle.pieces().len());
    let per_position = match layout.words() {
        1 => bytes_per_position::<1>(),
        2 => bytes_per_position::<2>(),
        3 => bytes_per_position::<3>(),
        4 => bytes_per_position::<4>(),
        _ => bytes_per_position::<8>(),
    };
    bytes / per_position
}

/// Solves `puzzle` with `options.method`.
pub fn solve(puzzle: &Puzzle, options: &SolveOptions) -> Report {
    let started = Instant::now();
    let mut report = Report {
        verdict: Verdict::Undecided,
        method: options.method,
        heuristic: None,
        tables: None,
        stats: SearchStats::default(),
        elapsed: Duration::ZERO,
    };
    if let Some(proof) = prove_unsolvable(puzzle) {
        report.verdict = Verdict::Unsolvable(proof);
    } else {
        let layout = KeyLayout::new(puzzle.geometry().cells(), puzzle.pieces().len());
        // One monomorphised search per key width: one word holds a 15-puzzle, two the 5x6 sample.
        report = match layout.words() {
            1 => run(&Space::<1>::new(puzzle, layout), options, report),
            2 => run(&Space::<2>::new(puzzle, layout), options, report),
            3 => run(&Space::<3>::new(puzzle, layout), options, report),
            4 => run(&Space::<4>::new(puzzle, layout), options, report),
            _ => run(&Space::<8>::new(puzzle, layout), options, report),
        };
    }
    report.elapsed = started.elapsed();
    report
}

/// How long the automatic search tries a board with the cheap bound before it builds or loads
/// pattern databases (at most a tenth of the budget): a board a few slides from solved is
/// answered by then, and tables it does not need would cost seconds.
pub const QUICK_TRY: Duration = Duration::from_millis(3);

/// The most time the automatic search keeps for the anytime search after IDA* with pattern
/// databases on long budgets: it finds a 24-puzzle's first solution within seconds, and more
/// time mostly shortens it, where it could be the time IDA* needed to prove the optimum.
const ANYTIME_RESERVE: Duration = Duration::from_secs(20);

fn run<const W: usize>(space: &Space<W>, options: &SolveOptions, mut report: Report) -> Report {
    if let Some(answered) = quick_try(space, options, &mut report) {
        return answered;
    }
    let informed = !matches!(options.method, Method::Bfs | Method::Bibfs);
    let heuristic = informed.then(|| Heuristic::new(space.puzzle, options.heuristic));
    report.heuristic = heuristic.as_ref().map(Heuristic::kind);
    report.tables = heuristic.as_ref().and_then(Heuristic::tables_label);
    let started = Instant::now();
    let limits = |share: f64| Limits {
        deadline: started + options.budget.mul_f64(share),
        max_positions: options.max_positions,
    };
    let stats = &mut report.stats;
    let outcome = match (options.method, &heuristic) {
        (Method::Bfs, _) => bfs(space, &limits(1.0), stats),
        (Method::Bibfs, _) => bidirectional(space, &limits(1.0), stats),
        (Method::Astar, Some(heuristic)) => {
            best_first(space, heuristic, Weight::ONE, None, &limits(1.0), stats)
        }
        (Method::Idastar, Some(heuristic)) => {
            idastar(space, heuristic, &limits(1.0), options.threads, stats)
        }
        (Method::Weighted, Some(heuristic)) => {
            anytime(space, heuristic, &limits(1.0), options.threads, stats)
        }
        (_, Some(heuristic)) => {
            // On classic boards IDA* with databases nearly always finishes, and on a 24-puzzle
            // that it does not, the anytime search finds a solution in seconds: IDA* gets all
            // but a tenth of the time, or all but `ANYTIME_RESERVE`. IDA* suits the block
            // tables too (A* would fill memory long before their bound is reached); elsewhere
            // A* settles boards of up to about 20 cells and leaves the anytime search half the
            // time.
            let exact = if let Some(databases) = heuristic.databases() {
                let reserve = (options.budget / 10).min(ANYTIME_RESERVE);
                let limits = Limits {
                    deadline: started + options.budget - reserve,
                    ..limits(1.0)
                };
                tiles_idastar(space.puzzle, databases, &limits, options.threads, stats)
            } else if databases_apply(space.puzzle)
                || heuristic.kind() == HeuristicKind::BlockDatabases
            {
                idastar(space, heuristic, &limits(0.7), options.threads, stats)
            } else {
                best_first(space, heuristic, Weight::ONE, None, &limits(0.5), stats)
            };
            match exact {
                Outcome::OutOfBudget => {
                    let bound = stats.lower_bound;
                    let outcome = anytime(space, heuristic, &limits(1.0), options.threads, stats);
                    stats.lower_bound = stats.lower_bound.max(bound);
                    proved_by_bound(outcome, stats.lower_bound)
                }
                decided => decided,
            }
        }
        (_, None) => Outcome::OutOfBudget,
    };
    report.verdict = verdict(space.puzzle, outcome);
    report
}

/// The automatic search's first step on a board pattern databases would serve: IDA* with
/// linear conflicts for [`QUICK_TRY`], which is exact too. The report, decided, when it
/// finishes; `None` (its statistics kept) when the tables are needed.
fn quick_try<const W: usize>(
    space: &Space<W>,
    options: &SolveOptions,
    report: &mut Report,
) -> Option<Report> {
    let tables_wanted = options.method == Method::Auto
        && matches!(
            options.heuristic,
            HeuristicKind::PatternDatabases | HeuristicKind::SmallPatternDatabases
        )
        && databases_apply(space.puzzle);
    if !tables_wanted {
        return None;
    }
    let cheap = Heuristic::new(space.puzzle, HeuristicKind::Conflicts);
    let limits = Limits {
        deadline: Instant::now() + QUICK_TRY.min(options.budget / 10),
        max_positions: options.max_positions,
    };
    match idastar(space, &cheap, &limits, 1, &mut report.stats) {
        Outcome::OutOfBudget => None,
        decided => Some(Report {
            verdict: verdict(space.puzzle, decided),
            heuristic: Some(HeuristicKind::Conflicts),
            ..report.clone()
        }),
    }
}

/// Beam searches for a first answer, then weighted A* with falling weights, each round only
/// looking for something shorter than the best so far (its detours cut out first), by weighted
/// IDA* at the same weight if it fills its cap of positions; the last round (weight 1) is A*
/// (or IDA*) and proves its answer shortest.
fn anytime<const W: usize>(
    space: &Space<W>,
    heuristic: &Heuristic,
    limits: &Limits,
    threads: usize,
    stats: &mut SearchStats,
) -> Outcome {
    // Greedy first for a quick answer, then down in steps: on the 5x6 sample weight 10 answers
    // in a quarter second and 3 and 2.5 improve it within the default budget.
    const WEIGHTS: [u32; 8] = [100, 30, 25, 20, 17, 15, 12, 10];
    let mut best = beams(space, heuristic, limits, stats);
    for weight in WEIGHTS.map(Weight) {
        let bound = best.as_ref().map(|path| path.len() as u32);
        let mut round = SearchStats::default();
        let mut outcome = best_first(space, heuristic, weight, bound, limits, &mut round);
        if outcome == Outcome::OutOfBudget && !limits.expired() {
            // Weighted A* filled its cap of positions; weighted IDA* needs none.
            let shorter_than = bound.unwrap_or(u32::MAX);
            outcome = weighted_idastar(
                space,
                heuristic,
                weight,
                shorter_than,
                limits,
                threads,
                &mut round,
            );
        }
        stats.expanded += round.expanded;
        stats.stored = stats.stored.max(round.stored);
        stats.lower_bound = stats.lower_bound.max(round.lower_bound);
        match (outcome, best.take()) {
            (Outcome::Found { path, proved }, _) if proved => {
                return Outcome::Found { path, proved };
            }
            (Outcome::Found { path, .. }, _) => best = Some(shorten(space, &path, limits)),
            // Nothing shorter than the best exists: it is shortest.
            (Outcome::Exhausted { .. }, Some(path)) => {
                stats.lower_bound = stats.lower_bound.max(path.len() as u32);
                return Outcome::Found { path, proved: true };
            }
            (exhausted @ Outcome::Exhausted { .. }, None) => return exhausted,
            (Outcome::OutOfBudget, previous) => {
                best = previous;
                break;
            }
        }
    }
    match best {
        Some(path) => Outcome::Found {
            path,
            proved: false,
        },
        None => Outcome::OutOfBudget,
    }
}

/// `outcome` with a solution no longer than `lower_bound` (which every solution was proved to
/// need) marked shortest: an anytime search that meets the exact search's bound has the answer.
fn proved_by_bound(outcome: Outcome, lower_bound: u32) -> Outcome {
    match outcome {
        Outcome::Found { path, .. } if path.len() as u32 <= lower_bound => {
            Outcome::Found { path, proved: true }
        }
        other => other,
    }
}

/// The anytime search's first incumbent: the shortest answer of beam searches of 1024
/// positions a depth and four times as many each time, for a third of the time, while a beam
/// fits the cap of positions.
fn beams<const W: usize>(
    space: &Space<W>,
    heuristic: &Heuristic,
    limits: &Limits,
    stats: &mut SearchStats,
) -> Option<Vec<PieceMove>> {
    let now = Instant::now();
    let beam_limits = Limits {
        deadline: now + limits.deadline.saturating_duration_since(now) / 3,
        ..*limits
    };
    let mut best: Option<Vec<PieceMove>> = None;
    let mut width = 1 << 10;
    while !beam_limits.expired() && width <= limits.max_positions {
        let mut round = SearchStats::default();
        let outcome = beam(space, heuristic, width, &beam_limits, &mut round);
        stats.expanded += round.expanded;
        stats.stored = stats.stored.max(round.stored);
        if let Outcome::Found { path, .. } = outcome {
            let path = shorten(space, &path, limits);
            if best.as_ref().is_none_or(|best| path.len() < best.len()) {
                best = Some(path);
            }
        }
        width *= 4;
    }
    best
}

/// The verdict of an outcome, its path turned into labelled moves and replayed to the goal.
fn verdict(puzzle: &Puzzle, outcome: Outcome) -> Verdict {
    match outcome {
        Outcome::Found { path, proved } => {
            let moves: Vec<Move> = path
                .iter()
                .map(|mv| Move {
                    label: puzzle.pieces()[mv.piece()].label,
                    dir: mv.dir(),
                })
                .collect();
            // A search bug must never become a wrong `Yes`.
            match puzzle.replay(&moves) {
                Ok(end) if puzzle.is_goal(&end) => Verdict::Solved {
                    moves,
                    proved_shortest: proved,
                },
                _ => Verdict::Undecided,
            }
        }
        Outcome::Exhausted { positions } => {
            Verdict::Unsolvable(Unsolvable::Exhausted { positions })
        }
        Outcome::OutOfBudget => Verdict::Undecided,
    }
}

#[cfg(test)]
mod proof_tests {
    use super::*;
    use parlor_shared::klotski::Dir;

    #[test]
    fn a_solution_as_long_as_the_proved_bound_is_shortest_and_a_longer_one_is_not() {
        let found = |steps: usize| Outcome::Found {
            path: vec![PieceMove::new(0, Dir::Left); steps],
            proved: false,
        };
        let proved = |outcome: Outcome| matches!(outcome, Outcome::Found { proved: true, .. });
        assert!(proved(proved_by_bound(found(97), 97)));
        assert!(!proved(proved_by_bound(found(98), 97)));
        assert_eq!(
            proved_by_bound(Outcome::OutOfBudget, 97),
            Outcome::OutOfBudget
        );
    }
}
