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
use parlor_shared::protocol::{AiKind, SeatSpec};

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

    /// Tells the engine what it knows of its opponent, for the moves that follow. Engines
    /// that play every opponent alike ignore it.
    fn face(&mut self, _opponent: Opponent) {}
}

/// What an engine knows of its opponent, as chess engines are told through `UCI_Opponent`.
/// Against classic the strong engine opens apart from the opponent's bricks where its search
/// alone would touch them (`strong/opening.rs`): that wins games against classic's
/// blocking that contact ties, and costs games against normal and against strong. It also
/// foresees classic's replies (`strong/foresight.rs`), which only classic's fixed search
/// makes possible.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Opponent {
    /// A person, another AI level, or a program nobody named: the plain search.
    #[default]
    Unknown,
    /// The seed's depth-4 minimax with its line sum.
    Classic,
}

impl Opponent {
    /// What an AI of `kind` is as an opponent.
    pub fn of_ai(kind: AiKind) -> Opponent {
        match kind {
            AiKind::Classic => Opponent::Classic,
            _ => Opponent::Unknown,
        }
    }

    /// What the seat `seat` plays against, of the seats played as `specs`: the first other
    /// seat (only Magnetic Cave's engines are told, and it has two).
    pub fn facing<'a>(specs: impl IntoIterator<Item = &'a SeatSpec>, seat: u8) -> Opponent {
        let other = specs
            .into_iter()
            .enumerate()
            .find(|&(index, _)| index != usize::from(seat));
        match other {
            Some((_, &SeatSpec::Ai { kind, .. })) => Opponent::of_ai(kind),
            Some((_, SeatSpec::Human)) | None => Opponent::Unknown,
        }
    }
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

#[cfg(test)]
mod tests;
