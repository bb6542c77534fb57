//! The region relaxation: a lower bound on the moves still needed that forgets where exactly
//! each piece stands, and keeps only the region of squares it may stand on.
//!
//! Pieces meet only by capturing (a move onto another piece takes it), so between captures
//! each piece wanders on its own: after a move its region is every king step from its region.
//! A capture ties two histories together at one square, which both regions must hold; the
//! captor's region becomes the squares it can reach inside the victim's, the victim's empty.
//! The turn, the dice and the live pieces are kept exactly, so which pieces may move is the
//! real puzzle's. A move that captures nothing cannot end on a square a piece surely holds (a
//! region of one square). The puzzle is won once the target's region holds square 0.
//!
//! Every real line of play is a line of this relaxed puzzle: by induction each piece's real
//! square stays in its region, a real capture is a relaxed one (the square is in both
//! regions), and a real move that captures nothing goes to an empty square, so not to a surely
//! held one. So the relaxed optimum never exceeds the real one. It falls short only when the
//! pieces' paths cannot all be kept apart (at the start of about one random board in 2,500,
//! and deeper down a few more); the real search (`super::solver`) settles those.
//!
//! The relaxed puzzle is searched depth first with the cheap table of [`super::relaxed`] and
//! a memory of what each region position was found to need ([`super::region_memory`]).

use std::time::Instant;

use super::clock::Clock;
use parlor_shared::ewn::{BOARD_SIZE, DICE_LEN, Level, PIECES, Pieces, SQUARES};

use super::region_memory::RegionMemory;
use super::relaxed::{MOVERS, RelaxedBound};

const N: usize = PIECES as usize;

/// A set of squares, bit `s` for square `s`.
pub type Squares = u128;

/// Each piece's region (index 0 is piece 1); empty once the piece is captured.
pub type Regions = [Squares; N];

const BOARD: Squares = (1 << SQUARES) - 1;

/// At most two movable pieces, each capturing nothing or one of five pieces.
const MAX_CHILDREN: usize = 12;

/// Region work between looks at the clock.
const CLOCK_CHECK: u64 = 1 << 10;

/// The region of each piece of `pieces`: its square, or nothing once it is captured.
pub fn regions_of(pieces: &Pieces) -> Regions {
    std::array::from_fn(|index| {
        pieces
            .square_of(index as u8 + 1)
            .map_or(0, |square| 1 << square)
    })
}

fn column(col: u8) -> Squares {
    (0..BOARD_SIZE).fold(0, |set, row| set | 1 << (row * BOARD_SIZE + col))
}

pub struct RegionBound {
    target: usize,
    dice: [u8; DICE_LEN],
    /// The board without its removed square.
    open: Squares,
    /// The board without its first and without its last column, for king steps sideways.
    not_first_column: Squares,
    not_last_column: Squares,
    /// `corner[d]`: the squares at most `d` king steps from square 0.
    corner: [Squares; BOARD_SIZE as usize],
    relaxed: RelaxedBound,
    memory: RegionMemory,
    /// Counts the region positions expanded (for the benches) against the deadline.
    clock: Clock,
}

impl RegionBound {
    pub fn new(level: &Level, deadline: Option<Instant>) -> RegionBound {
        let corner = std::array::from_fn(|distance| {
            (0..SQUARES)
                .filter(|&square| {
                    square / BOARD_SIZE <= distance as u8 && square % BOARD_SIZE <= distance as u8
                })
                .fold(0, |set, square| set | 1 << square)
        });
        RegionBound {
            target: usize::from(level.target() - 1),
            dice: *level.dice(),
            open: BOARD & !(1 << level.rules().blocked),
            not_first_column: BOARD & !column(0),
            not_last_column: BOARD & !column(BOARD_SIZE - 1),
            corner,
            relaxed: RelaxedBound::new(level),
            memory: RegionMemory::new(),
            clock: Clock::new(deadline, CLOCK_CHECK),
        }
    }

    /// The cheap table bound the region search prunes with, for the real search to ask first.
    pub fn relaxed(&self) -> &RelaxedBound {
        &self.relaxed
    }

    /// Region positions expanded.
    pub fn nodes(&self) -> u64 {
        self.clock.ticks()
    }

    /// Whether the deadline passed during a search; its answers since prove nothing.
    pub fn out_of_time(&self) -> bool {
        self.clock.out_of_time()
    }

    /// Every square one king step from a square of `set`.
    fn king_steps(&self, set: Squares) -> Squares {
        let sideways = (set << 1 & self.not_first_column) | (set >> 1 & self.not_last_column);
        let row = set | sideways;
        (sideways | row << BOARD_SIZE | row >> BOARD_SIZE) & self.open
    }

    /// King steps from the nearest square of `set` to square 0 (that of the board's far
    /// corner for an empty set, which the target's region never is).
    fn distance_to_corner(&self, set: Squares) -> u8 {
        // The corner squares grow with the distance: the first that meets `set`, by halving.
        self.corner.partition_point(|&near| set & near == 0) as u8
    }

    /// Whether the relaxed puzzle can be won within `allowed` moves from `regions` at `turn`.
    /// `false` also once the deadline has passed (see [`RegionBound::out_of_time`]).
    pub fn wins_within(&mut self, regions: &Regions, turn: usize, allowed: u8) -> bool {
        let distance = self.distance_to_corner(regions[self.target]);
        if distance == 0 {
            return true;
        }
        let live = regions
            .iter()
            .enumerate()
            .filter(|(_, region)| **region != 0)
            .fold(0u8, |mask, (index, _)| mask | 1 << index);
        // The table knows the move limit: past it, nothing is reachable.
        self.relaxed.moves_needed(turn, live, distance) <= allowed
            && self.wins_from(regions, live, turn, allowed)
    }

    /// [`RegionBound::wins_within`] for regions whose target is not on square 0, with `live`
    /// their live pieces, which the relaxed table lets win within `allowed` moves.
    fn wins_from(&mut self, regions: &Regions, live: u8, turn: usize, allowed: u8) -> bool {
        if self.clock.out_of_time() {
            return false;
        }
        let known = self.memory.recall(regions, turn);
        if allowed < known.at_least {
            return false;
        }
        if allowed >= known.at_most {
            return true;
        }
        if !self.clock.tick() {
            return false;
        }
        let won = self.some_move_wins(regions, live, turn, allowed);
        if !self.clock.out_of_time() {
            self.memory.learn(regions, turn, allowed, won);
        }
        won
    }

    /// Whether a move of the relaxed puzzle from `regions` at `turn` wins within `allowed`
    /// moves (counting itself): each movable piece either captures nothing or takes one
    /// piece other than the target whose region it reaches.
    fn some_move_wins(&mut self, regions: &Regions, live: u8, turn: usize, allowed: u8) -> bool {
        // Regions of one square (or none: `region & (region - 1)` is then 0 too, and adds
        // nothing), without branches.
        let surely_held = regions.iter().fold(0, |set, &region| {
            let one_square = region & region.wrapping_sub(1) == 0;
            set | region & 0u128.wrapping_sub(u128::from(one_square))
        });
        let target_distance = self.distance_to_corner(regions[self.target]);
        let movers = MOVERS[usize::from(live)][usize::from(self.dice[turn])];
        // The moves worth a search, as (moves the relaxed table says they still need, mover,
        // victim or `N` for none), to be tried the most promising first.
        let mut moves = [(0u8, 0u8, 0u8); MAX_CHILDREN];
        let mut len = 0;
        for &mover in movers.as_slice() {
            let mover = usize::from(mover - 1);
            let reach = self.king_steps(regions[mover]);
            // Each piece as the victim, then index `N` (past the pieces) for no capture.
            for (victim, region) in regions.iter().chain([&0]).enumerate() {
                let (landing, live_after) = match victim {
                    N => (reach & !surely_held, live),
                    _ if victim == mover || victim == self.target => continue,
                    _ => (reach & region, live & !(1 << victim)),
                };
                if landing == 0 {
                    continue;
                }
                let distance = match mover == self.target {
                    true => self.distance_to_corner(landing),
                    false => target_distance,
                };
                if distance == 0 {
                    return true;
                }
                let needed = self.relaxed.moves_needed(turn + 1, live_after, distance);
                if needed < allowed {
                    moves[len] = (needed, mover as u8, victim as u8);
                    len += 1;
                }
            }
        }
        moves[..len].sort_unstable_by_key(|&(needed, ..)| needed);
        for &(_, mover, victim) in &moves[..len] {
            let (mover, victim) = (usize::from(mover), usize::from(victim));
            let reach = self.king_steps(regions[mover]);
            let mut next = *regions;
            let mut live_after = live;
            if victim == N {
                next[mover] = reach & !surely_held;
            } else {
                next[mover] = reach & regions[victim];
                next[victim] = 0;
                live_after &= !(1 << victim);
            }
            if self.wins_from(&next, live_after, turn + 1, allowed - 1) {
                return true;
            }
        }
        false
    }
}
