//! The AI seats: which AI fits which seat, what it is called, and the planners that run the
//! engines of `parlor-engines` for a seat. Searches are plain blocking code with a time
//! budget: rooms run them on the AI [`pool`], never on a tokio worker.

mod bricks;
mod ewn;
mod klotski;
pub mod pool;

use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use parlor_engines::cave::{CaveEngine, cave_engine};
use parlor_shared::cave::{Position, Square};
use parlor_shared::game::{GameKind, GameMove, GameSetup, GameState};
use parlor_shared::hexapawn::HexMove;
use parlor_shared::protocol::AiKind;

/// Checks that `kind` can play `seat` of a game with `setup`, and settles what is left open
/// (an oracle without a strength gets a secret one drawn from `seed`).
pub fn settle_ai_seat(
    setup: &GameSetup,
    seat: u8,
    kind: AiKind,
    seed: u64,
) -> Result<AiKind, String> {
    match (setup, kind) {
        (_, AiKind::Standard) => Ok(kind),
        (GameSetup::Cave, AiKind::Classic | AiKind::Easy | AiKind::Normal | AiKind::Strong) => {
            Ok(kind)
        }
        (GameSetup::Bricks { .. }, _) => bricks::settle_seat(setup, seat, kind, seed),
        (GameSetup::Ewn(_), kind) if ewn::fits(kind) => Ok(kind),
        (GameSetup::Ewn(_), _) => Err(format!(
            "{kind:?} does not play EWN puzzles; use Standard or RandomPlayer"
        )),
        (GameSetup::Klotski(_), kind) if klotski::fits(kind) => Ok(kind),
        (GameSetup::Klotski(_) | GameSetup::Hexapawn(_) | GameSetup::HerMatch(_), _) => {
            Err(format!(
                "{kind:?} does not play {}; use Standard",
                setup.kind().name()
            ))
        }
        (GameSetup::Cave, _) => Err(format!(
            "{kind:?} does not play Magnetic Cave; use Standard, Strong, Normal, Easy or Classic"
        )),
    }
}

/// What an AI seat is called in seat lists and records. Never reveals an oracle's strength.
pub fn name(game: GameKind, seat: u8, kind: AiKind) -> &'static str {
    match (game, kind) {
        (GameKind::Cave, AiKind::Standard | AiKind::Strong) => "strong",
        (GameKind::Cave, AiKind::Classic) => "classic",
        (GameKind::Cave, AiKind::Easy) => "easy",
        (GameKind::Cave, AiKind::Normal) => "normal",
        (GameKind::Bricks, _) => bricks::name(seat, kind),
        (GameKind::Ewn, _) => ewn::name(kind),
        (GameKind::Klotski, _) => klotski::name(),
        (GameKind::Hexapawn | GameKind::HerMatch, _) => "HER",
        (GameKind::Cave, _) => "unfit AI",
    }
}

/// How many Magnetic Cave engines stay alive between their moves, server-wide. A strong engine
/// holds up to 12 MB of tables (4 MB of transposition table, 8 MB of df-pn table, filled as
/// they are used), so this bounds them to about 200 MB however many AI rooms run; past it a
/// seat plays the spare engine of the thread its search runs on.
pub const MAX_KEPT_CAVE_ENGINES: usize = 16;

static CAVE_ENGINES: EngineQuota = EngineQuota::new(MAX_KEPT_CAVE_ENGINES);

/// How many Magnetic Cave engines AI seats keep now, server-wide (at most
/// [`MAX_KEPT_CAVE_ENGINES`]).
pub fn kept_cave_engines() -> usize {
    CAVE_ENGINES.kept.load(Ordering::SeqCst)
}

/// A count of kept engines against a maximum.
struct EngineQuota {
    kept: AtomicUsize,
    max: usize,
}

impl EngineQuota {
    const fn new(max: usize) -> EngineQuota {
        EngineQuota {
            kept: AtomicUsize::new(0),
            max,
        }
    }

    /// A place for one more engine, unless all are taken; it is given back when dropped.
    fn take(&'static self) -> Option<QuotaSlot> {
        self.kept
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |kept| {
                (kept < self.max).then_some(kept + 1)
            })
            .ok()
            .map(|_| QuotaSlot(self))
    }
}

struct QuotaSlot(&'static EngineQuota);

impl Drop for QuotaSlot {
    fn drop(&mut self) {
        self.0.kept.fetch_sub(1, Ordering::SeqCst);
    }
}

thread_local! {
    /// Engines for the seats past the quota, one of each kind per thread that searches (the AI
    /// pool's, a thread per core), so such a seat does not build 12 MB of tables for every move.
    /// Sharing one between seats is sound: a transposition table holds what a position is
    /// worth, whichever game reached it, and killers and history only order moves.
    static SPARE_ENGINES: RefCell<Vec<(&'static str, Box<dyn CaveEngine>)>> =
        const { RefCell::new(Vec::new()) };
}

/// Runs `search` with this thread's spare engine of `kind`, built on first use. Spares are
/// kept by the engine's [`name`], so kinds that play one engine (`Standard`, `Strong`) share it.
fn with_spare_engine<T>(kind: AiKind, search: impl FnOnce(&mut dyn CaveEngine) -> T) -> T {
    let engine = name(GameKind::Cave, 0, kind);
    SPARE_ENGINES.with_borrow_mut(|spares| {
        let index = match spares.iter().position(|(of, _)| *of == engine) {
            Some(index) => index,
            None => {
                spares.push((engine, cave_engine(kind)));
                spares.len() - 1
            }
        };
        search(spares[index].1.as_mut())
    })
}

/// An engine kept between moves, with its place in the quota.
struct KeptEngine {
    engine: Box<dyn CaveEngine>,
    _slot: QuotaSlot,
}

/// An AI seat's player. It keeps what it learns between its moves, as the engines of `client
/// cave arena` do, so the server plays the engine the arena measures: the Magnetic Cave engine
/// with its transposition table, killers, history and df-pn proofs, while the quota of kept
/// engines allows.
pub struct Planner {
    kind: AiKind,
    cave: Option<KeptEngine>,
    quota: &'static EngineQuota,
}

impl Planner {
    pub fn new(kind: AiKind) -> Planner {
        Planner::with_quota(kind, &CAVE_ENGINES)
    }

    fn with_quota(kind: AiKind, quota: &'static EngineQuota) -> Planner {
        Planner {
            kind,
            cave: None,
            quota,
        }
    }

    /// The seat's Magnetic Cave move: from its kept engine, or from a new one, kept for the
    /// next move if the quota allows; past the quota, from this thread's spare engine.
    fn cave_move(&mut self, position: &Position, budget: Duration) -> Option<Square> {
        let search = |engine: &mut dyn CaveEngine| engine.choose_move(position, budget);
        if let Some(kept) = &mut self.cave {
            return search(kept.engine.as_mut());
        }
        let Some(slot) = self.quota.take() else {
            return with_spare_engine(self.kind, search);
        };
        let mut engine = cave_engine(self.kind);
        let square = search(engine.as_mut());
        self.cave = Some(KeptEngine {
            engine,
            _slot: slot,
        });
        square
    }

    /// The plan for whichever game `state` belongs to: the move, then any moves the seat means
    /// to make next (a puzzle solver plans its whole solution). Empty when it has no move.
    /// Blocking: call it from a blocking thread. `seed` feeds the AIs that play at random, so
    /// a room's games can be reproduced.
    pub fn plan(&mut self, state: &GameState, seed: u64, budget: Duration) -> Vec<GameMove> {
        let kind = self.kind;
        let one = |mv: Option<GameMove>| mv.into_iter().collect();
        match state {
            GameState::Cave(position) => one(self.cave_move(position, budget).map(GameMove::Cave)),
            GameState::Bricks(game) => {
                one(bricks::choose_move(game, kind, seed).map(GameMove::Bricks))
            }
            GameState::Ewn(game) => ewn::plan(game, kind, seed)
                .into_iter()
                .map(GameMove::Ewn)
                .collect(),
            GameState::Klotski(game) => klotski::plan(game)
                .into_iter()
                .map(GameMove::Klotski)
                .collect(),
            // HER's seat draws its bead in the room, which holds HER's brain.
            GameState::Hexapawn(_) => vec![GameMove::Hexapawn(HexMove::HerPicks)],
            GameState::HerMatch(_) => Vec::new(),
        }
    }
}

/// Whether AI seats of `game` take their whole budget even when they know their move at once:
/// Dropping Bricks' AIs and the EWN solver answer almost instantly, and a room of AIs would be
/// over before anyone watching saw a move. Searching engines use their budget anyway.
pub fn uses_whole_budget(game: GameKind) -> bool {
    matches!(
        game,
        GameKind::Bricks | GameKind::Ewn | GameKind::Klotski | GameKind::Hexapawn
    )
}

/// Where an AI seat of `game` thinks: the Klotski solver may fill its whole memory cap, so
/// its solves queue for the one thread of their own; every game's search has the others.
pub fn lane(game: GameKind) -> pool::Lane {
    match game {
        GameKind::Klotski => pool::Lane::Solve,
        GameKind::Cave
        | GameKind::Bricks
        | GameKind::Ewn
        | GameKind::Hexapawn
        | GameKind::HerMatch => pool::Lane::Search,
    }
}

#[cfg(test)]
mod tests;
