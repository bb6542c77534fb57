//! Parlor's shared crate: the rules of every game as pure functions of state (no I/O), and the
//! wire protocol with its codec. The server, the client and every AI use these same rules.

pub mod brain_parts;
pub mod bricks;
pub mod cave;
pub mod codec;
pub mod ewn;
pub mod game;
pub mod hexapawn;
pub mod identity;
pub mod klotski;
pub mod protocol;
pub mod words;
