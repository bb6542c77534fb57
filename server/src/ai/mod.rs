//! The AI seats' engines. Each game's engine sits behind a trait so a stronger one can replace
//! it without touching the rooms. Searches are plain blocking code with a time budget: rooms
//! run them on the AI [`pool`], never on a tokio worker.

mod bricks;
pub mod cave_alphabeta;
pub mod cave_classic;
pub mod cave_dfpn;
pub mod cave_lines;
pub mod cave_prover;
pub mod cave_strong;
pub mod cave_tune;
mod ewn;
mod klotski;
pub mod pool;

use std::time::Duration;

use parlor_shared::cave::{Position, Square};
use parlor_shared::game::{GameKind, GameMove, GameSetup, GameState};
use parlor_shared::hexapawn::HexMove;
use parlor_shared::protocol::{AiKind, MAX_AI_MOVE_MS};

pub use cave_alphabeta::AlphaBeta;

/// A Magnetic Cave player.
pub trait CaveEngine: Send {
    /// A name for logs and records.
    fn name(&self) -> String;

    /// A legal move for the side to move, decided within `budget`; `None` only when the game
    /// is over.
    fn choose_move(&mut self, position: &Position, budget: Duration) -> Option<Square>;

    /// Depth and nodes of the last `choose_move`, for reports and benches.
    fn last_search(&self) -> SearchSummary;
}

/// What one engine search did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchSummary {
    /// The deepest fully searched depth, in plies.
    pub depth: u32,
    pub nodes: u64,
}

/// The Magnetic Cave engine of an AI kind: `Standard` is the strongest.
pub fn cave_engine(kind: AiKind) -> Box<dyn CaveEngine> {
    match kind {
        AiKind::Classic => Box::new(cave_classic::Classic::default()),
        AiKind::Easy => Box::new(AlphaBeta::with_max_depth(2)),
        AiKind::Normal => Box::new(AlphaBeta::default()),
        _ => Box::new(cave_strong::Strong::default()),
    }
}

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
            "{} is not a Magnetic Cave player; use Standard",
            name(GameKind::Cave, seat, kind)
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

/// The plan of an AI seat of kind `kind` in whichever game `state` belongs to: its move, then
/// any moves it means to make next (a puzzle solver plans its whole solution). Empty when it
/// has no move. Blocking: call it from a blocking thread. `seed` feeds the AIs that play at
/// random, so a room's games can be reproduced.
pub fn plan(state: &GameState, kind: AiKind, seed: u64, budget: Duration) -> Vec<GameMove> {
    let one = |mv: Option<GameMove>| mv.into_iter().collect();
    match state {
        GameState::Cave(position) => one(cave_engine(kind)
            .choose_move(position, budget)
            .map(GameMove::Cave)),
        GameState::Bricks(game) => one(bricks::choose_move(game, kind, seed).map(GameMove::Bricks)),
        GameState::Ewn(game) => one(ewn::choose_move(game, kind, seed).map(GameMove::Ewn)),
        GameState::Klotski(game) => klotski::plan(game)
            .into_iter()
            .map(GameMove::Klotski)
            .collect(),
        // HER's seat draws its bead in the room, which holds HER's brain.
        GameState::Hexapawn(_) => vec![GameMove::Hexapawn(HexMove::HerPicks)],
        GameState::HerMatch(_) => Vec::new(),
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

/// A move budget clamped to the course rule (never over 3 s, never zero).
pub fn clamp_budget(move_ms: u32) -> Duration {
    Duration::from_millis(u64::from(move_ms.clamp(1, MAX_AI_MOVE_MS)))
}
