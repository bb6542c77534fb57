//! What the Magnetic Cave commands share: the engine levels they name, and games read from
//! text (a move list, or the starts in a file).

use anyhow::Context;
use clap::ValueEnum;
use parlor_engines::cave::{CaveEngine, cave_engine};
use parlor_shared::cave::{Position, Square, parse_moves};
use parlor_shared::protocol::AiKind;

/// The Magnetic Cave AIs, weakest first.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineLevel {
    /// The seed's depth-4 minimax with its line sum.
    Classic,
    /// Two plies of alpha-beta.
    Easy,
    /// Iterative-deepening alpha-beta with the window heuristic.
    Normal,
    /// PVS with a transposition table and threat extensions.
    Strong,
}

impl EngineLevel {
    pub fn kind(self) -> AiKind {
        match self {
            EngineLevel::Classic => AiKind::Classic,
            EngineLevel::Easy => AiKind::Easy,
            EngineLevel::Normal => AiKind::Normal,
            EngineLevel::Strong => AiKind::Strong,
        }
    }

    pub fn engine(self) -> Box<dyn CaveEngine> {
        cave_engine(self.kind())
    }
}

/// Parses a move list and checks it is a legal game from the empty cave.
pub fn parse_game(text: &str) -> anyhow::Result<Vec<Square>> {
    let squares = parse_moves(text)?;
    Position::from_moves(&squares)
        .map_err(|(ply, error)| anyhow::anyhow!("move {} ({}): {error}", ply + 1, squares[ply]))?;
    Ok(squares)
}

/// The starts in the file at `path` (see `ArenaArgs::starts`), each cut to `bricks` moves.
pub fn load_starts(
    path: &std::path::Path,
    bricks: Option<usize>,
) -> anyhow::Result<Vec<Vec<Square>>> {
    let text = crate::builtin_levels::level_text("cave", path)
        .with_context(|| format!("reading {}", path.display()))?;
    let mut starts = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = || format!("{} line {}", path.display(), index + 1);
        let mut moves =
            parse_game(moves_of_game_line(line)).map_err(|e| anyhow::anyhow!("{}: {e}", at()))?;
        moves.truncate(bricks.unwrap_or(usize::MAX));
        let position = Position::from_moves(&moves).expect("a beginning of a legal game");
        if position.outcome().is_some() {
            match bricks {
                None => anyhow::bail!(
                    "{}: the game is over; --start-bricks N starts from its first N bricks",
                    at()
                ),
                Some(n) => anyhow::bail!("{}: the game is over within {n} bricks", at()),
            }
        }
        starts.push(moves);
    }
    anyhow::ensure!(!starts.is_empty(), "{} holds no start", path.display());
    Ok(starts)
}

/// The moves of a line `--games-out` writes (they follow its last `: `); a bare move list as
/// it is.
pub(super) fn moves_of_game_line(line: &str) -> &str {
    line.rsplit(": ").next().unwrap_or(line)
}
