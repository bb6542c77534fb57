//! Parlor's engines: every AI and solver, as plain blocking code over the rules of
//! `parlor-shared`. The server runs them on its AI pool with a time budget; the client's
//! console, engine mode, arena and benches call them directly.

pub mod bricks;
pub mod cave;
pub mod ewn;
pub mod hexapawn;
pub mod klotski;

use std::time::Duration;

use parlor_shared::protocol::MAX_AI_MOVE_MS;

/// A move budget clamped to the course rule (never over 3 s, never zero).
pub fn clamp_budget(move_ms: u32) -> Duration {
    Duration::from_millis(u64::from(move_ms.clamp(1, MAX_AI_MOVE_MS)))
}
