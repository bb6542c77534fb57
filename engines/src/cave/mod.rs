//! Magnetic Cave's engines, one per AI level behind [`CaveEngine`]: `classic` (the seed's
//! depth-4 minimax), `alphabeta` (easy and normal), `strong` (the default), with `dfpn` the
//! proof-number solver and its book, `prover` the exhaustive solver the tests check them
//! against, `lines` the five-cell windows they share and `tune` the evaluation's fit.

pub mod alphabeta;
pub mod classic;
pub mod dfpn;
pub mod lines;
pub mod prover;
pub mod strong;
pub mod tune;

use std::time::Duration;

use parlor_shared::cave::{Position, Square};
use parlor_shared::protocol::AiKind;

pub use alphabeta::AlphaBeta;

/// A Magnetic Cave player.
pub trait CaveEngine: Send {
    /// A name for logs and records.
    fn name(&self) -> String;

    /// A legal move for the side to move, decided within `budget`; `None` only when the game
    /// is over.
    fn choose_move(&mut self, position: &Position, budget: Duration) -> Option<Square>;

    /// Depth, nodes and search time of the last `choose_move`, for reports and benches.
    fn last_search(&self) -> SearchSummary;
}

/// What one engine search did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchSummary {
    /// The deepest fully searched depth, in plies.
    pub depth: u32,
    pub nodes: u64,
    /// The time the nodes were searched in, when the move spent time on more than that (the
    /// strong engine's df-pn checks); `None` when the search was the whole move.
    pub search_time: Option<Duration>,
}

/// The Magnetic Cave engine of an AI kind: `Standard` is the strongest.
pub fn cave_engine(kind: AiKind) -> Box<dyn CaveEngine> {
    match kind {
        AiKind::Classic => Box::new(classic::Classic::default()),
        AiKind::Easy => Box::new(AlphaBeta::with_max_depth(2)),
        AiKind::Normal => Box::new(AlphaBeta::default()),
        _ => Box::new(strong::Strong::default()),
    }
}
