//! `client cave arena`: matches between Magnetic Cave engines. Every opening (two first
//! bricks) is played twice, once with each engine moving first, so colour and opening luck
//! cancel out; the score comes with a 95% confidence interval (Wilson's). Games may also start
//! from given positions (`--starts`), such as the games of an earlier arena cut at some brick,
//! to see where a result is decided.

use std::collections::BTreeMap;
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Args;
use parlor_engines::cave::CaveEngine;
use parlor_engines::cave::classic::{Classic, SEED_PLIES};
use parlor_engines::clamp_budget;
use parlor_shared::cave::{Outcome, Player, Position, Square};
use parlor_shared::protocol::MAX_AI_MOVE_MS;

use self::tally::Tally;
use super::games::{EngineLevel, load_starts};

mod tally;

#[derive(Args, Debug, Clone)]
pub struct ArenaArgs {
    /// The first engine.
    #[arg(long, value_enum)]
    a: EngineLevel,
    /// The second engine.
    #[arg(long, value_enum)]
    b: EngineLevel,
    /// Games in all, rounded up to an even number: each opening from both sides [default: 20,
    /// or two per start].
    #[arg(long, value_parser = parlor_wire::at_least(1u32))]
    games: Option<u32>,
    /// How many different openings (or starts) to spread the games over [default: 16 openings,
    /// or every start].
    #[arg(long, value_parser = parlor_wire::at_least(1u32))]
    openings: Option<u32>,
    /// Shift the openings (or starts) taken by this many places in their fixed list. While
    /// the offsets differ by less than the spacing of the openings taken, rounded down (the
    /// list's length over --openings: 256 / 100 gives 2, so offsets 0 and 1), runs share no
    /// opening: independent samples.
    #[arg(long, default_value_t = 0)]
    opening_offset: usize,
    /// Thinking time per move for A, in milliseconds.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_AI_MOVE_MS)))]
    a_move_ms: u32,
    /// Thinking time per move for B, in milliseconds.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_AI_MOVE_MS)))]
    b_move_ms: u32,
    /// Print the result as JSON, and the line of each game as it is over to stderr.
    #[arg(long)]
    json: bool,
    /// Also write every game to this file, a line each in game order: its number, A's colour,
    /// the outcome and the moves from the empty cave (for `cave show --moves` or `cave prove
    /// --position`). The file is emptied at the start, as shell `>` would, and each game is
    /// written when it is over (a run cut short keeps the games so far); the --starts file is
    /// refused.
    #[arg(long)]
    games_out: Option<std::path::PathBuf>,
    /// Games played at once, each on a thread of its own. Engines think on one core each and
    /// by the clock: give no more jobs than there are idle cores.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    jobs: u32,
    /// Start the games from these positions instead of the two-brick openings: a file with a
    /// move list per line, as `cave prove --position` takes them, or lines of a `--games-out`
    /// file (the moves after the last `: `), or a built-in list's name (`client levels cave`).
    /// Those games are finished, and a finished game is
    /// refused as a start: give --start-bricks with them. Empty lines and lines starting with
    /// # are skipped. Each start is played twice, with A on each side.
    #[arg(long)]
    starts: Option<std::path::PathBuf>,
    /// Keep only the first N moves of each start: replays earlier games from brick N. A game
    /// over by then is refused.
    #[arg(long, requires = "starts")]
    start_bricks: Option<usize>,
    /// How many plies a classic side searches, its own move included: 4 is the classic
    /// level (the seed's depth 4), 5 what the seed's code searches. Other depths check a
    /// figure against classic's neighbours, opponents nothing was tuned against.
    #[arg(long, default_value_t = SEED_PLIES, value_parser = clap::value_parser!(u32).range(1..=6))]
    classic_plies: u32,
}

impl ArenaArgs {
    /// `level` as the report names it: a classic side with the plies it searches when they
    /// are not the classic level's.
    fn side_name(&self, level: EngineLevel) -> String {
        match level {
            EngineLevel::Classic if self.classic_plies != SEED_PLIES => {
                format!("Classic searching {} plies", self.classic_plies)
            }
            _ => format!("{level:?}"),
        }
    }

    /// The engine of `level`, a classic one searching `--classic-plies`.
    fn engine(&self, level: EngineLevel) -> Box<dyn CaveEngine> {
        match level {
            EngineLevel::Classic => Box::new(Classic::searching(self.classic_plies)),
            _ => level.engine(),
        }
    }
}

/// One finished game: its outcome, every move, and each engine's time per move.
struct Game {
    outcome: Outcome,
    moves: Vec<Square>,
    a_times: Vec<Duration>,
    b_times: Vec<Duration>,
}

/// Every opening of two bricks, in a fixed order.
fn all_openings() -> Vec<[Square; 2]> {
    let start = Position::new();
    start
        .legal_squares()
        .flat_map(|first| {
            let after = start.play_unchecked(first);
            after
                .legal_squares()
                .map(move |second| [first, second])
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Which of `count` openings the `pair`-th pair of games plays: `spread` of them, evenly
/// spaced through the list from `offset` on.
fn opening_index(pair: usize, spread: usize, count: usize, offset: usize) -> usize {
    // Both terms are below `count`: no offset overflows.
    ((pair % spread) * count / spread + offset % count) % count
}

/// Plays the games and writes on `out` a line per game, in game order as they are over, then
/// the report; with `--json` the report alone, the lines of the games going to stderr.
pub fn run(args: &ArenaArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    run_with_log(args, out, &mut std::io::stderr())
}

/// `run`, with `log` for the line of each game when the report is JSON: a run takes minutes,
/// and stdout is kept to the JSON.
fn run_with_log(
    args: &ArenaArgs,
    out: &mut impl Write,
    log: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    // The games file is emptied when the games begin, as shell `>` would, and written as they
    // finish: the starts it would empty, or a path it cannot be, are refused before.
    if let Some(path) = &args.games_out {
        if let Some(starts) = &args.starts {
            crate::out_file::check_not_input(path, starts).context("--games-out")?;
        }
        crate::out_file::check_writable(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let (openings, spread) = match &args.starts {
        Some(path) => {
            let starts = load_starts(path, args.start_bricks)?;
            let spread = args.openings.unwrap_or(starts.len() as u32);
            (starts, spread)
        }
        None => {
            let openings = all_openings().iter().map(|pair| pair.to_vec()).collect();
            (openings, args.openings.unwrap_or(16))
        }
    };
    let spread = spread.clamp(1, openings.len() as u32) as usize;
    let pairs = match args.games {
        Some(games) => games.div_ceil(2) as usize,
        None if args.starts.is_some() => openings.len(),
        None => 10,
    };
    let played = spread.min(pairs);
    if let Some(asked) = args.openings.filter(|&asked| asked as usize > played) {
        writeln!(
            log,
            "--openings {asked}: {} games play {played} openings, each from both sides (there \
             are {})",
            pairs * 2,
            openings.len()
        )?;
    }
    let mut tally = Tally::default();
    let mut games_out = match &args.games_out {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?,
        )),
        None => None,
    };
    let total = pairs * 2;
    let mut in_order = InGameOrder::default();
    let mut progress = Progress::new(total);
    let next_game = AtomicUsize::new(0);
    let (finished, results) = mpsc::channel();
    let outcome = std::thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..args.jobs {
            let finished = finished.clone();
            let next_game = &next_game;
            let openings = &openings;
            scope.spawn(move || {
                loop {
                    let game = next_game.fetch_add(1, Ordering::Relaxed);
                    if game >= total {
                        break;
                    }
                    let opening = &openings
                        [opening_index(game / 2, spread, openings.len(), args.opening_offset)];
                    let a_plays = if game.is_multiple_of(2) {
                        Player::Black
                    } else {
                        Player::White
                    };
                    let result = play_one(args, opening, a_plays);
                    if finished.send((game, a_plays, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(finished);
        for (game, a_plays, result) in results {
            let played = match result {
                Ok(played) => played,
                Err(error) => {
                    // The other jobs stop after their current game.
                    next_game.store(total, Ordering::Relaxed);
                    return Err(error);
                }
            };
            tally.add(a_plays, played.outcome, played.a_times, played.b_times);
            let moves: Vec<String> = played.moves.iter().map(Square::to_string).collect();
            let finished = Finished {
                a_plays,
                outcome: played.outcome,
                moves: moves.join(" "),
            };
            for finished in in_order.finished(game, finished) {
                let line = progress.line(&finished);
                if args.json {
                    // A stderr that is closed costs the progress lines, not the run.
                    let _ = writeln!(log, "{line}");
                } else {
                    writeln!(out, "{line}")?;
                }
                if let Some(file) = &mut games_out {
                    writeln!(file, "{}", finished.file_line(progress.done))?;
                    file.flush()?;
                }
            }
        }
        Ok(())
    });
    outcome?;
    tally.write_report(args, out)?;
    Ok(ExitCode::SUCCESS)
}

/// A game that is over, as its lines tell it.
struct Finished {
    a_plays: Player,
    outcome: Outcome,
    moves: String,
}

impl Finished {
    /// Its line in `--games-out`, as game `number`: "game   7: A as White: Tie: a1 h8 ...".
    fn file_line(&self, number: usize) -> String {
        let Finished {
            a_plays,
            outcome,
            moves,
        } = self;
        format!("game {number:>3}: A as {a_plays:?}: {outcome:?}: {moves}")
    }

    /// A's score in half points: 2 for a win, 1 for a tie.
    fn a_half_points(&self) -> usize {
        match self.outcome {
            Outcome::Win(player) if player == self.a_plays => 2,
            Outcome::Win(_) => 0,
            Outcome::Tie => 1,
        }
    }
}

/// The games handed on so far, in game order, and A's score in them.
struct Progress {
    total: usize,
    done: usize,
    a_half_points: usize,
}

impl Progress {
    fn new(total: usize) -> Progress {
        Progress {
            total,
            done: 0,
            a_half_points: 0,
        }
    }

    /// Counts the next game in order and gives its line for the terminal: its `--games-out`
    /// line with the count and A's score so far, "game  7 of 20, A's score 4.5/7: A as White:
    /// Tie: a1 h8 ..." (the moves still after the last `: `, so such lines serve as --starts).
    fn line(&mut self, game: &Finished) -> String {
        self.done += 1;
        self.a_half_points += game.a_half_points();
        let width = self.total.to_string().len();
        let half = if self.a_half_points % 2 == 1 {
            ".5"
        } else {
            ""
        };
        format!(
            "game {:>width$} of {}, A's score {}{half}/{}: A as {:?}: {:?}: {}",
            self.done,
            self.total,
            self.a_half_points / 2,
            self.done,
            game.a_plays,
            game.outcome,
            game.moves
        )
    }
}

/// Finished games, handed on in game order. With several jobs, games finish out of order; a
/// reader of the output or of `--games-out` expects game k on line k.
struct InGameOrder<T> {
    next: usize,
    waiting: BTreeMap<usize, T>,
}

impl<T> Default for InGameOrder<T> {
    fn default() -> Self {
        InGameOrder {
            next: 0,
            waiting: BTreeMap::new(),
        }
    }
}

impl<T> InGameOrder<T> {
    /// Takes game `game` (counted from 0) and returns the games now due, in order: none while
    /// an earlier game is still being played.
    fn finished(&mut self, game: usize, item: T) -> Vec<T> {
        self.waiting.insert(game, item);
        let mut due = Vec::new();
        while let Some(item) = self.waiting.remove(&self.next) {
            due.push(item);
            self.next += 1;
        }
        due
    }
}

/// One game from `opening`.
fn play_one(args: &ArenaArgs, opening: &[Square], a_plays: Player) -> anyhow::Result<Game> {
    let (mut a, mut b) = (args.engine(args.a), args.engine(args.b));
    let (a_budget, b_budget) = (clamp_budget(args.a_move_ms), clamp_budget(args.b_move_ms));
    let mut position =
        Position::from_moves(opening).map_err(|(_, e)| anyhow::anyhow!("opening: {e}"))?;
    let mut moves = opening.to_vec();
    let (mut a_times, mut b_times) = (Vec::new(), Vec::new());
    while position.outcome().is_none() {
        let a_to_move = position.to_move() == a_plays;
        let (engine, budget) = if a_to_move {
            (&mut a, a_budget)
        } else {
            (&mut b, b_budget)
        };
        let started = Instant::now();
        let square = engine
            .choose_move(&position, budget)
            .context("an engine found no move")?;
        let spent = started.elapsed();
        if a_to_move {
            &mut a_times
        } else {
            &mut b_times
        }
        .push(spent);
        position = position
            .play(square)
            .with_context(|| format!("an engine played the illegal {square}"))?;
        moves.push(square);
    }
    let outcome = position
        .outcome()
        .expect("the loop ends when the game does");
    Ok(Game {
        outcome,
        moves,
        a_times,
        b_times,
    })
}

#[cfg(test)]
mod tests;
