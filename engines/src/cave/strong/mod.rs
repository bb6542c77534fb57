//! The strong Magnetic Cave engine: iterative deepening with principal-variation search, a
//! transposition table keyed by Zobrist hashes under the board's mirror symmetries, move
//! ordering (win now, forced blocks, table move, threat-making moves, killers, history),
//! mate-distance scores, late move reductions for quiet moves (searched a ply shallower first,
//! again at full depth when they beat the best so far), and forced-block extensions that act
//! as a threat search: a four is only a threat when its missing cell is a legal placement, and
//! a side facing one must block.
//! The static evaluation (`eval.rs`) weighs windows, upright threes, latent fours and who wins
//! the end-of-game zugzwang they make, colour by colour, with weights fitted to proven
//! positions, and same-colour pairs across the two middle rows, weighed by hand. Iterative
//! deepening runs until the time is up (an unfinished iteration's best move so far is kept)
//! or the result is proven. In a proven tie the engine picks the tying move that leaves the
//! opponent the most replies that lose, and not at a glance.
//!
//! It plays every opponent alike and is never told whom it faces. Until commit 2064cfcc it
//! was: against classic it kept apart from classic's bricks in the opening and foresaw each
//! of classic's replies by running classic's own search (`git show 2064cfcc^:engines/src/
//! cave/strong/foresight.rs`, and `opening.rs` beside it, with what each scored). Those were
//! models of one known opponent's habits, not strength, and went for that reason.

pub mod eval;
mod ordering;
mod proofs;
mod releases;
mod swindle;
mod table;
mod zobrist;

use std::time::{Duration, Instant};

use parlor_shared::cave::{Position, Square, squares_of};

use self::eval::evaluate;
use self::proofs::{Proofs, Schedule};
use self::table::{Bound, NO_MOVE, Table};
use self::zobrist::Hashes;
pub(crate) use self::zobrist::transform;
use super::lines::five_completions;

pub type Score = i32;
/// A win `n` plies below the root scores `WIN - n`: quick wins and slow losses are preferred.
pub const WIN: Score = 1_000_000;
/// Scores beyond this are proven wins or losses.
pub const WIN_THRESHOLD: Score = WIN - 1000;
const MAX_PLY: usize = 96;
const CLOCK_EVERY: u64 = 2048;
/// 2^18 entries, about 6 MB.
const TABLE_BITS: u32 = 18;
/// Late move reductions: from this move on, a quiet move is first searched a ply shallower.
const REDUCE_FROM_MOVE: usize = 3;
/// Nor are moves reduced with less depth than this left.
const REDUCE_FROM_DEPTH: i32 = 3;

/// What the last search did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchReport {
    pub depth: i32,
    pub nodes: u64,
    pub score: Score,
    pub elapsed: Duration,
    /// The part of `elapsed` spent in the alpha-beta search (the rest went to df-pn).
    pub search_time: Duration,
}

pub struct Strong {
    table: Table,
    killers: [[u8; 2]; MAX_PLY],
    history: [[u32; 64]; 2],
    /// Stop deepening after this depth (tests and fixed-depth play).
    max_depth: Option<i32>,
    nodes: u64,
    deadline: Instant,
    out_of_time: bool,
    root_best: Option<Square>,
    proofs: Proofs,
    pub last: SearchReport,
}

impl Default for Strong {
    fn default() -> Self {
        Strong::new(None)
    }
}

/// Whether a search of `position` to `depth` that scored `score` proved a tie: a score of 0 from
/// a search this deep is exact, as no line ran out of depth before the board was full (a ply
/// costs at most two of depth, with a reduction).
fn proves_tie(score: Score, depth: i32, position: &Position) -> bool {
    let empty_cells = 64 - position.brick_count() as i32;
    score == 0 && depth >= 2 * empty_cells + 2
}

impl Strong {
    pub fn new(max_depth: Option<i32>) -> Strong {
        Strong {
            table: Table::new(TABLE_BITS),
            killers: [[NO_MOVE; 2]; MAX_PLY],
            history: [[0; 64]; 2],
            max_depth,
            nodes: 0,
            deadline: Instant::now(),
            out_of_time: false,
            root_best: None,
            proofs: Proofs::default(),
            last: SearchReport::default(),
        }
    }

    /// The best move found within `budget`; `None` only when the game is over.
    ///
    /// A position in the book of proven wins is answered from it. From `LATE_BRICKS` on, df-pn
    /// runs beside the search (see [`Schedule`]): unless the search proved a result, df-pn
    /// looks for a forced win, then checks that the chosen move does not lose by force, else
    /// takes the next move that does not. The forced results the search misses there are deep:
    /// hundreds of thousands of df-pn nodes.
    pub fn search(&mut self, position: &Position, budget: Duration) -> Option<Square> {
        let started = Instant::now();
        let legal = position.legal_moves();
        let fallback = squares_of(legal).next()?;
        self.nodes = 0;
        if let Some(square) = Proofs::book_move(position) {
            self.last = SearchReport {
                score: WIN_THRESHOLD,
                elapsed: started.elapsed(),
                ..SearchReport::default()
            };
            return Some(square);
        }
        let end = started + budget.mul_f32(0.9);
        // A fixed-depth search (tests, fixed-depth play) stays deterministic: no timed proofs.
        let schedule = if self.max_depth.is_some() {
            Schedule::SEARCH_ONLY
        } else {
            Schedule::of(position.brick_count())
        };
        let search_time = budget.mul_f32(schedule.search);
        self.deadline = started + search_time;
        self.out_of_time = false;
        self.table.next_generation();
        self.killers = [[NO_MOVE; 2]; MAX_PLY];
        self.history.iter_mut().flatten().for_each(|h| *h /= 8);
        let hashes = Hashes::of(position);
        let mut best = self.deepen(position, hashes, fallback);
        let proven_tie = proves_tie(best.1, best.2, position) && self.max_depth.is_none();
        if proven_tie {
            self.deadline = end;
            self.out_of_time = false;
            best.0 = self.swindle(position, hashes, best.2, best.0);
        }
        let searched = started.elapsed();
        if !proven_tie && schedule != Schedule::SEARCH_ONLY && best.1.abs() < WIN_THRESHOLD {
            let proof_deadline = started + budget.mul_f32(schedule.forced_win);
            if let Some(square) = self.proofs.forced_win(position, proof_deadline) {
                best.0 = square;
            } else {
                let candidates = self.root_candidates(position, best.0);
                if let Some(square) = self.proofs.first_safe(position, &candidates, end) {
                    best.0 = square;
                }
            }
        }
        self.last = SearchReport {
            depth: best.2,
            nodes: self.nodes,
            score: best.1,
            elapsed: started.elapsed(),
            search_time: searched,
        };
        Some(best.0)
    }

    /// Iterative deepening until `self.deadline` or a proven result: the move, its score and
    /// the depth it was searched to (0 if no iteration finished: then `fallback`, unless an
    /// unfinished iteration found a move).
    fn deepen(
        &mut self,
        position: &Position,
        hashes: Hashes,
        fallback: Square,
    ) -> (Square, Score, i32) {
        let mut best = (fallback, 0, 0);
        for depth in 1..=self.max_depth.unwrap_or(MAX_PLY as i32 - 16) {
            self.root_best = None;
            let Some(score) = self.pvs(position, hashes, depth, 0, -WIN - 1, WIN + 1) else {
                // An unfinished iteration's best move so far was searched to the full window
                // (PVS re-searches a move that beats the first): it is the better choice.
                if let Some(square) = self.root_best {
                    best.0 = square;
                }
                break;
            };
            if let Some(square) = self.root_best {
                best = (square, score, depth);
            }
            // A proven result will not change with depth. Otherwise deepen until the time is up:
            // an unfinished iteration still counts.
            if score.abs() >= WIN_THRESHOLD || proves_tie(score, depth, position) {
                break;
            }
        }
        best
    }

    /// The root's moves worth playing, `first` first and the rest in search order: the blocks
    /// of a four when there is one, else every legal move.
    fn root_candidates(&self, position: &Position, first: Square) -> Vec<Square> {
        let me = position.to_move();
        let (mine, theirs) = (position.bricks(me), position.bricks(me.other()));
        let legal = position.legal_moves();
        let their_fours = five_completions(theirs, mine);
        let must_block = their_fours & legal;
        let candidates = if must_block != 0 { must_block } else { legal };
        let rest = self.ordered(
            candidates & !first.bit(),
            None,
            0,
            me,
            mine,
            theirs,
            legal,
            their_fours,
        );
        [
            vec![first],
            rest.into_iter().map(|(square, _)| square).collect(),
        ]
        .concat()
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CLOCK_EVERY) && Instant::now() >= self.deadline {
            self.out_of_time = true;
        }
        self.out_of_time
    }

    /// Negamax value of `position` (no five on the board yet) from the side to move.
    fn pvs(
        &mut self,
        position: &Position,
        hashes: Hashes,
        depth: i32,
        ply: i32,
        mut alpha: Score,
        mut beta: Score,
    ) -> Option<Score> {
        if self.tick() {
            return None;
        }
        let me = position.to_move();
        let (mine, theirs) = (position.bricks(me), position.bricks(me.other()));
        let legal = position.anchored_empty_cells();
        if legal == 0 {
            return Some(0); // full board: a tie
        }
        let my_wins = five_completions(mine, theirs) & legal;
        if my_wins != 0 {
            if ply == 0 {
                self.root_best = squares_of(my_wins).next();
            }
            return Some(WIN - ply - 1);
        }
        // Mate-distance pruning: nothing here beats a win next move or loses faster than now.
        alpha = alpha.max(-(WIN - ply));
        beta = beta.min(WIN - ply - 1);
        if alpha >= beta {
            return Some(alpha);
        }
        let their_fours = five_completions(theirs, mine);
        let must_block = their_fours & legal;
        if must_block.count_ones() >= 2 {
            if ply == 0 {
                self.root_best = squares_of(must_block).next();
            }
            return Some(-(WIN - ply - 2)); // two open fours: one block is not enough
        }
        let forced = must_block != 0;
        if depth <= 0 && !forced {
            return Some(evaluate(me, mine, theirs, legal));
        }
        let (key, symmetry) = hashes.canonical();
        let entry = self.table.probe(key, ply);
        if let Some(entry) = entry
            && ply > 0
            && i32::from(entry.depth) >= depth
        {
            let usable = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => entry.score >= beta,
                Bound::Upper => entry.score <= alpha,
            };
            if usable {
                return Some(entry.score);
            }
        }
        let table_move = entry
            .filter(|e| e.best != NO_MOVE)
            .map(|e| transform(symmetry, e.best));
        let candidates = if forced { must_block } else { legal };
        let moves = self.ordered(
            candidates,
            table_move,
            ply,
            me,
            mine,
            theirs,
            legal,
            their_fours,
        );
        // A forced block costs no depth: the threat search follows forcing lines to the end.
        let child_depth = if forced { depth } else { depth - 1 };
        let (alpha_at_start, mut best, mut best_move) = (alpha, -WIN - 1, NO_MOVE);
        for (index, &(square, quiet)) in moves.iter().enumerate() {
            let child = position.play_unchecked(square);
            let child_hashes = hashes.with(me, square);
            let score = if index == 0 {
                -self.pvs(&child, child_hashes, child_depth, ply + 1, -beta, -alpha)?
            } else {
                // A late, quiet move is unlikely to be best: it is first searched a ply
                // shallower, and again at full depth only if it beats the best so far.
                let reduction = i32::from(
                    quiet && !forced && depth >= REDUCE_FROM_DEPTH && index >= REDUCE_FROM_MOVE,
                );
                let mut probe = -self.pvs(
                    &child,
                    child_hashes,
                    child_depth - reduction,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                )?;
                if reduction > 0 && probe > alpha {
                    probe = -self.pvs(
                        &child,
                        child_hashes,
                        child_depth,
                        ply + 1,
                        -alpha - 1,
                        -alpha,
                    )?;
                }
                if probe > alpha && probe < beta {
                    -self.pvs(&child, child_hashes, child_depth, ply + 1, -beta, -alpha)?
                } else {
                    probe
                }
            };
            if score > best {
                best = score;
                best_move = square.index();
                if ply == 0 {
                    self.root_best = Some(square);
                }
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                self.remember_cutoff(ply, me, square, depth);
                break;
            }
        }
        let bound = if best <= alpha_at_start {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let stored_move = if best_move == NO_MOVE {
            NO_MOVE
        } else {
            transform(symmetry, best_move)
        };
        self.table.store(
            key,
            ply,
            depth.clamp(0, 127) as i8,
            best,
            bound,
            stored_move,
        );
        Some(best)
    }
}

impl super::CaveEngine for Strong {
    fn name(&self) -> String {
        "strong".into()
    }

    fn choose_move(&mut self, position: &Position, budget: Duration) -> Option<Square> {
        self.search(position, budget)
    }

    fn last_search(&self) -> super::SearchSummary {
        super::SearchSummary {
            depth: self.last.depth.max(0) as u32,
            nodes: self.last.nodes,
            search_time: Some(self.last.search_time),
        }
    }
}

#[cfg(test)]
mod tests;
