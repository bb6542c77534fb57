//! HER, the Hexapawn Educable Robot (SPEC §5 and the seed): a brain of matchboxes, one per
//! position HER has faced, each holding one bead per legal move at first.
//!
//! A turn: find the box for the position (making it on first sight) and draw a bead uniformly
//! at random; the bead's move is HER's move. In the seed the drawn bead is set on top of its box
//! until the game ends. Then:
//! - HER lost: the bead of its last move is removed (confiscated); every other drawn bead goes
//!   back into the box it came from.
//! - HER faced an empty box: it resigns, which is a loss, and the bead of its previous move is
//!   removed. Its "previous move" is the last bead it drew, so this is the same rule as a loss:
//!   remove the last drawn bead. (Resigning on its first turn removes nothing.)
//! - HER won: "all beads go back", meaning the beads drawn during this game go back into their
//!   boxes and nothing is removed. It does not mean refilling beads confiscated in earlier games,
//!   which would undo all learning.
//!
//! A position never comes twice in one game (pawns only go forward and captures only remove
//! pawns), nor does its mirror image, so each box gives at most one bead per game and "a bead
//! set on top of its box" never needs storing: a box's contents change only when a bead is
//! confiscated, and the draws of the game in progress are kept only to know which one that is.
//!
//! Boxes are kept from HER's point of view ([`Position::mover_view`]): HER's pawns move up the
//! board, whichever colour it plays, so a HER that plays both colours (auto mode) uses one box
//! for a situation whether it met it as White or as Black. With `mirrors` a position and its
//! left-right mirror image share one box, as in Gardner's article; the box is kept for whichever
//! of the two has the smaller bitboard key, and its moves are mirrored on the way in and out.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde::{Deserialize, Serialize};

use super::bits::KeyMap;
use super::board::{Move, MoveList, Position, Status};
use super::{Dims, HexapawnError, Side};

/// One matchbox: the legal moves of its position (as HER sees it) and which still have a bead.
/// A box never holds more than one bead per move, since beads are only ever removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Matchbox {
    pub(super) moves: MoveList,
    /// Bit i set: `moves[i]` still has its bead.
    pub(super) beads: u32,
}

impl Matchbox {
    /// A new box: one bead per legal move of `view`, a position with HER (White) to move.
    pub(super) fn new(view: &Position) -> Matchbox {
        let moves = view.moves();
        Matchbox {
            beads: full_beads(moves.len()),
            moves,
        }
    }

    pub(super) fn bead_count(&self) -> u32 {
        self.beads.count_ones()
    }
}

/// The bead mask of a full box with `moves` moves.
pub(super) fn full_beads(moves: usize) -> u32 {
    ((1u64 << moves) - 1) as u32
}

/// Where a position's box is kept and how to turn moves between the board and the box.
#[derive(Clone, Copy)]
struct BoxAddress {
    key: u128,
    /// The box is kept for the mover's view turned upside down (HER plays Black).
    flipped: bool,
    /// The box is kept for the mirror image of the mover's view.
    mirrored: bool,
    /// The position as the box shows it: HER to move, upwards.
    view: Position,
}

impl BoxAddress {
    fn to_box(self, mv: Move, dims: Dims) -> Move {
        let mv = if self.flipped { mv.flipped(dims) } else { mv };
        if self.mirrored { mv.mirrored(dims) } else { mv }
    }

    fn to_board(self, mv: Move, dims: Dims) -> Move {
        let mv = if self.mirrored { mv.mirrored(dims) } else { mv };
        if self.flipped { mv.flipped(dims) } else { mv }
    }
}

/// HER's memory: every matchbox it has made, for one board size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Brain {
    pub(super) dims: Dims,
    pub(super) mirrors: bool,
    pub(super) boxes: KeyMap<Matchbox>,
    /// The beads in all boxes together, kept up to date for the learning curve.
    pub(super) beads: u64,
}

impl Brain {
    /// An empty brain: boxes are made as HER meets positions.
    pub fn new(dims: Dims, mirrors: bool) -> Brain {
        Brain {
            dims,
            mirrors,
            boxes: KeyMap::default(),
            beads: 0,
        }
    }

    pub fn dims(&self) -> Dims {
        self.dims
    }

    /// Whether a position and its mirror image share a box.
    pub fn mirrors(&self) -> bool {
        self.mirrors
    }

    /// How many matchboxes HER has made.
    pub fn boxes(&self) -> usize {
        self.boxes.len()
    }

    /// How many beads are left in all boxes together.
    pub fn beads(&self) -> u64 {
        self.beads
    }

    /// The box's place for `position`, where the side to move is HER.
    fn address(&self, position: &Position) -> BoxAddress {
        let view = position.mover_view();
        let flipped = position.to_move() == Side::Black;
        if self.mirrors {
            let mirror = view.mirrored();
            if mirror.key() < view.key() {
                return BoxAddress {
                    key: mirror.key(),
                    flipped,
                    mirrored: true,
                    view: mirror,
                };
            }
        }
        BoxAddress {
            key: view.key(),
            flipped,
            mirrored: false,
            view,
        }
    }

    /// Refuses positions of another size and finished games: HER only moves in live games.
    fn check_playable(&self, position: &Position) -> Result<(), HexapawnError> {
        if position.dims() != self.dims {
            return Err(HexapawnError::WrongSize {
                expected: self.dims,
                found: position.dims(),
            });
        }
        match position.status() {
            Status::Playing => Ok(()),
            over => Err(HexapawnError::GameOver(over)),
        }
    }

    /// The box for `position` (HER to move) with each move's beads and probability, on the
    /// board as it stands: what slow mode draws. A position HER has not met yet shows the box it
    /// would make, one bead per legal move; looking does not make it.
    pub fn matchbox(&self, position: &Position) -> Result<MatchboxView, HexapawnError> {
        self.check_playable(position)?;
        let address = self.address(position);
        let fresh;
        let matchbox = match self.boxes.get(&address.key) {
            Some(matchbox) => matchbox,
            None => {
                fresh = Matchbox::new(&address.view);
                &fresh
            }
        };
        let total = matchbox.bead_count();
        let mut beads: Vec<BeadView> = matchbox
            .moves
            .iter()
            .enumerate()
            .map(|(slot, &mv)| {
                let beads = matchbox.beads >> slot & 1;
                BeadView {
                    mv: address.to_board(mv, self.dims),
                    beads,
                    probability: if total == 0 {
                        0.0
                    } else {
                        f64::from(beads) / f64::from(total)
                    },
                }
            })
            .collect();
        // The box's own order follows HER's view; the board's order reads better.
        beads.sort_by_key(|bead| bead.mv);
        Ok(MatchboxView {
            position: *position,
            beads,
            total,
        })
    }

    /// The box for `position` (a live game, HER to move), made on first sight, with its
    /// address.
    fn open_box(&mut self, position: &Position) -> (BoxAddress, &mut Matchbox) {
        let address = self.address(position);
        let beads = &mut self.beads;
        let matchbox = self.boxes.entry(address.key).or_insert_with(|| {
            let matchbox = Matchbox::new(&address.view);
            *beads += u64::from(matchbox.bead_count());
            matchbox
        });
        (address, matchbox)
    }

    /// A uniformly random bead for `position` (a live game, HER to move): the move on the
    /// board and the draw to remember, or `None` when the box is empty.
    fn draw_random(&mut self, position: &Position, rng: &mut StdRng) -> Option<(Move, Draw)> {
        let dims = self.dims;
        let (address, matchbox) = self.open_box(position);
        let count = matchbox.bead_count();
        if count == 0 {
            return None;
        }
        let slot = nth_set_bit(matchbox.beads, rng.random_range(0..count));
        let mv = address.to_board(matchbox.moves[slot as usize], dims);
        Some((mv, Draw::new(address.key, slot)))
    }

    /// The bead of the forced move `mv` in `position` (a live game, HER to move); refused
    /// when the move is illegal or its bead is gone.
    fn draw_forced(&mut self, position: &Position, mv: Move) -> Result<Draw, HexapawnError> {
        position.check(mv)?;
        let dims = self.dims;
        let (address, matchbox) = self.open_box(position);
        let in_box = address.to_box(mv, dims);
        match matchbox.moves.iter().position(|&m| m == in_box) {
            Some(slot) if matchbox.beads >> slot & 1 == 1 => {
                Ok(Draw::new(address.key, slot as u32))
            }
            _ => Err(HexapawnError::NoBead(mv)),
        }
    }

    /// Removes one bead; used for the punishment after a loss.
    fn confiscate(&mut self, draw: Draw) {
        if let Some(matchbox) = self.boxes.get_mut(&draw.key) {
            let bead = 1 << draw.slot;
            if matchbox.beads & bead != 0 {
                matchbox.beads &= !bead;
                self.beads -= 1;
            }
        }
    }
}

/// The bit index of the n-th (from 0) set bit of `bits`, which has more than n set bits.
fn nth_set_bit(mut bits: u32, n: u32) -> u32 {
    for _ in 0..n {
        bits &= bits - 1;
    }
    bits.trailing_zeros()
}

/// A bead drawn in the game in progress: its box and its move's place in the box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Draw {
    key: u128,
    slot: u8,
}

impl Draw {
    fn new(key: u128, slot: u32) -> Draw {
        // A box has at most MAX_MOVES (24) moves.
        Draw {
            key,
            slot: slot as u8,
        }
    }
}

/// A matchbox as slow mode shows it: the position (HER to move) and every legal move with its
/// beads (0 or 1) and the chance HER picks it, ordered by the moves' squares.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchboxView {
    pub position: Position,
    pub beads: Vec<BeadView>,
    /// The beads in the box; 0 means HER resigns here.
    pub total: u32,
}

/// One move of a matchbox, as the board shows it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BeadView {
    pub mv: Move,
    pub beads: u32,
    pub probability: f64,
}

/// How HER's move is picked: a bead at random (fast and auto mode, or slow mode when the
/// player lets HER pick), or the move the player forces in slow mode (it must have a bead).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pick {
    Random,
    Forced(Move),
}

/// What HER does on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HerChoice {
    Play(Move),
    /// The box is empty: HER gives up, and the game is lost.
    Resign,
}

/// How a game ended for HER, for [`Her::finish`]. A resignation is a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HerResult {
    Won,
    Lost,
}

/// HER playing: its brain, its random source, and the beads drawn in the game in progress.
pub struct Her {
    brain: Brain,
    rng: StdRng,
    drawn: Vec<Draw>,
}

impl Her {
    /// HER with a brain (new or imported) and a seed for its draws.
    pub fn new(brain: Brain, seed: u64) -> Her {
        Her {
            brain,
            rng: StdRng::seed_from_u64(seed),
            drawn: Vec::new(),
        }
    }

    pub fn brain(&self) -> &Brain {
        &self.brain
    }

    pub fn into_brain(self) -> Brain {
        self.brain
    }

    /// HER's move in `position`, a live game with HER to move: a random bead, or the forced
    /// one. Refuses positions of another size, finished games, and forced moves that are
    /// illegal or have no bead left.
    pub fn choose(&mut self, position: &Position, pick: Pick) -> Result<HerChoice, HexapawnError> {
        self.brain.check_playable(position)?;
        match pick {
            Pick::Random => Ok(self.choose_random(position)),
            Pick::Forced(mv) => {
                let draw = self.brain.draw_forced(position, mv)?;
                self.drawn.push(draw);
                Ok(HerChoice::Play(mv))
            }
        }
    }

    /// A random bead without `choose`'s checks, for self-play, whose positions are live and of
    /// the brain's size.
    pub(super) fn choose_random(&mut self, position: &Position) -> HerChoice {
        match self.brain.draw_random(position, &mut self.rng) {
            Some((mv, draw)) => {
                self.drawn.push(draw);
                HerChoice::Play(mv)
            }
            None => HerChoice::Resign,
        }
    }

    /// Forgets the draws of a game stopped before its end: it teaches nothing.
    pub(super) fn forget_draws(&mut self) {
        self.drawn.clear();
    }

    /// How many beads of the game in progress its end would judge.
    #[cfg(test)]
    pub(super) fn draws_pending(&self) -> usize {
        self.drawn.len()
    }

    /// Ends the game: after a loss (or resignation) the last drawn bead is confiscated; all the
    /// other drawn beads, and after a win all of them, stay in their boxes.
    pub fn finish(&mut self, result: HerResult) {
        if result == HerResult::Lost
            && let Some(&last) = self.drawn.last()
        {
            self.brain.confiscate(last);
        }
        self.drawn.clear();
    }
}
