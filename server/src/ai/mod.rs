//! The AI seats' engines. Each game's engine sits behind a trait so a stronger one can replace
//! it without touching the rooms. Searches are plain blocking code with a time budget: callers
//! run them on a blocking thread, never on a tokio worker.

pub mod cave_alphabeta;

use std::time::Duration;

use parlor_shared::cave::{Position, Square};
use parlor_shared::game::{GameMove, GameState};
use parlor_shared::protocol::MAX_AI_MOVE_MS;

pub use cave_alphabeta::AlphaBeta;

/// A Magnetic Cave player.
pub trait CaveEngine: Send {
    /// A name for logs and records.
    fn name(&self) -> String;

    /// A legal move for the side to move, decided within `budget`; `None` only when the game
    /// is over.
    fn choose_move(&mut self, position: &Position, budget: Duration) -> Option<Square>;
}

/// The engine an AI seat uses today.
pub fn default_cave_engine() -> Box<dyn CaveEngine> {
    Box::new(AlphaBeta::default())
}

/// The AI seat's move in whichever game `state` belongs to; `None` when the game is over.
/// Blocking: call it from a blocking thread.
pub fn choose_move(state: &GameState, budget: Duration) -> Option<GameMove> {
    match state {
        GameState::Cave(position) => {
            default_cave_engine().choose_move(position, budget).map(GameMove::Cave)
        }
    }
}

/// A move budget clamped to the course rule (never over 3 s, never zero).
pub fn clamp_budget(move_ms: u32) -> Duration {
    Duration::from_millis(u64::from(move_ms.clamp(1, MAX_AI_MOVE_MS)))
}
