//! Magnetic Cave without the lobby: console play as in the seed, engine mode for tournaments,
//! and a window that shows a given game (also what the window tests drive).

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::{ArgGroup, Args, Subcommand, ValueEnum};
use parlor_engines::cave::CaveEngine;
use parlor_engines::clamp_budget;
use parlor_shared::cave::{Outcome, Player, Position, Square};
use parlor_shared::protocol::{DEFAULT_AI_MOVE_MS, MAX_AI_MOVE_MS};

use crate::cli::console::read_trimmed_line;

pub mod arena;
mod bench;
pub mod games;
mod prove;
mod tune;

pub use bench::bench;
pub use games::{EngineLevel, parse_game};

#[derive(Subcommand, Debug)]
pub enum CaveCommand {
    /// Play in the terminal: human/human, human/AI, AI/human or AI/AI. Moves are typed like d4
    /// (column a = left wall, row 1 = bottom).
    Console {
        /// Who plays: hh, ha (human ■ vs AI □), ah (AI ■ vs human □) or aa. Asked if omitted.
        #[arg(long, value_enum)]
        mode: Option<Mode>,
        #[command(flatten)]
        ai: EngineArgs,
    },
    /// Engine for tournaments: reads the opponent's moves from stdin, one per line, and writes
    /// its own moves, one per line. Nothing else goes to stdout.
    #[command(group(ArgGroup::new("side").required(true).args(["first", "second"])))]
    Engine {
        /// This engine places the first brick (■); it writes its opening move at once.
        #[arg(long)]
        first: bool,
        /// This engine places the second brick (□).
        #[arg(long)]
        second: bool,
        #[command(flatten)]
        ai: EngineArgs,
    },
    /// Time the AI: it plays itself and prints the time per move (median, 90th percentile,
    /// max), the depth reached and nodes per second of the search (the strong engine's df-pn
    /// checks in late moves are left out of that time, and their share is shown).
    Bench {
        /// Games to play; each starts from a different opening pair of wall cells.
        #[arg(long, default_value_t = 1, value_parser = parlor_wire::at_least(1u32))]
        games: u32,
        #[command(flatten)]
        ai: EngineArgs,
    },
    /// Make tactics puzzles: positions from seeded random play where the side to move forces
    /// five in exactly N moves, proved by an exhaustive search (the suite in levels/cave/).
    /// Each is printed as soon as it is found; every 5 s stderr says how far the search got.
    Tactics {
        /// Moves to the forced five (1 = at once); 3 already takes a while to prove.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=4))]
        wins_in: u32,
        /// Puzzles to find.
        #[arg(long, default_value_t = 5, value_parser = parlor_wire::at_least(1u32))]
        count: u32,
        /// Seed of the random play the puzzles come from: the same seed finds the same puzzles,
        /// another seed other ones.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Matches between engines: each pairing from both sides, from varied short openings;
    /// prints wins, losses and ties with a 95% confidence interval, and time per move.
    Arena(crate::cli::cave::arena::ArenaArgs),
    /// Prove positions with the df-pn solver: the start (the empty cave unless --position) and
    /// every position --plies below it, one per mirror image: win, loss, tie, tie-or-better,
    /// tie-or-worse or unknown for the side to move, with nodes and time.
    Prove(prove::ProveArgs),
    /// Fit the strong engine's evaluation weights to proven positions (in the book's format,
    /// as `cave prove --write` writes it) and print them.
    Tune(tune::TuneArgs),
    /// Open a window showing a game given as moves, stepping through it like a replay.
    Show {
        /// The moves from the empty cave, e.g. "a1 h1 b1" (spaces or commas between).
        #[arg(long, default_value = "")]
        moves: String,
        /// Save a PNG of the window after it is drawn, then exit.
        #[arg(long)]
        screenshot: Option<PathBuf>,
    },
}

#[derive(Args, Debug, Clone, Copy)]
pub struct EngineArgs {
    /// Thinking time per AI move in milliseconds (the course allows at most 3000).
    #[arg(long, default_value_t = DEFAULT_AI_MOVE_MS,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_AI_MOVE_MS)))]
    move_ms: u32,
    /// Which AI plays.
    #[arg(long, value_enum, default_value_t = EngineLevel::Strong)]
    engine: EngineLevel,
}

impl EngineArgs {
    fn budget(&self) -> Duration {
        clamp_budget(self.move_ms)
    }
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Two people at one keyboard.
    Hh,
    /// A person plays ■ (first), the AI plays □.
    Ha,
    /// The AI plays ■ (first), a person plays □.
    Ah,
    /// The AI plays both sides.
    Aa,
}

impl Mode {
    fn is_ai(self, player: Player) -> bool {
        matches!(
            (self, player),
            (Mode::Aa, _) | (Mode::Ha, Player::White) | (Mode::Ah, Player::Black)
        )
    }
}

pub fn run(command: CaveCommand) -> anyhow::Result<ExitCode> {
    match command {
        CaveCommand::Console { mode, ai } => {
            let stdin = std::io::stdin();
            let mut engine = ai.engine.engine();
            console(
                &mut stdin.lock(),
                &mut std::io::stdout(),
                mode,
                engine.as_mut(),
                ai.budget(),
            )
        }
        CaveCommand::Engine { first, ai, .. } => {
            let stdin = std::io::stdin();
            let mut player = ai.engine.engine();
            engine(
                &mut stdin.lock(),
                &mut std::io::stdout(),
                first,
                player.as_mut(),
                ai.budget(),
            )
        }
        CaveCommand::Bench { games, ai } => {
            bench(&mut std::io::stdout(), games, ai.engine, ai.budget())
        }
        CaveCommand::Tactics {
            wins_in,
            count,
            seed,
        } => tactics(
            &mut std::io::stdout(),
            &mut std::io::stderr(),
            wins_in,
            count,
            seed,
        ),
        CaveCommand::Arena(args) => crate::cli::cave::arena::run(&args, &mut std::io::stdout()),
        CaveCommand::Prove(args) => prove::run(&args, &mut std::io::stdout()),
        CaveCommand::Tune(args) => tune::run(&args, &mut std::io::stdout()),
        CaveCommand::Show { moves, screenshot } => {
            let moves = parse_game(&moves)?;
            crate::gui::show_cave_game(moves, screenshot)
        }
    }
}

/// `cave tactics`: each puzzle goes out as soon as it is found (a
/// win in four can take minutes), and every few seconds `progress` hears how far it got.
fn tactics(
    out: &mut impl Write,
    progress: &mut impl Write,
    wins_in: u32,
    count: u32,
    seed: u64,
) -> anyhow::Result<ExitCode> {
    let mut search = parlor_engines::cave::prover::TacticsSearch::new(wins_in, 10, seed);
    let (started, mut reported, mut found) = (Instant::now(), Instant::now(), 0);
    while found < count {
        if let Some(game) = search.play_game() {
            found += 1;
            let moves: Vec<String> = game.iter().map(Square::to_string).collect();
            writeln!(out, "win-in {wins_in}: {}", moves.join(" "))?;
            out.flush()?;
        }
        if reported.elapsed() >= Duration::from_secs(5) {
            reported = Instant::now();
            let (games, seconds) = (search.games, started.elapsed().as_secs());
            writeln!(
                progress,
                "{found} of {count} puzzles found in {games} games, {seconds} s"
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn ask_mode(input: &mut impl BufRead, out: &mut impl Write) -> anyhow::Result<Option<Mode>> {
    writeln!(out, "Magnetic Cave. Choose a mode:")?;
    writeln!(out, "  1) human ■ vs human □")?;
    writeln!(out, "  2) human ■ vs AI □")?;
    writeln!(out, "  3) AI ■ vs human □")?;
    writeln!(out, "  4) AI ■ vs AI □")?;
    loop {
        write!(out, "Mode (1-4): ")?;
        out.flush()?;
        let Some(answer) = read_trimmed_line(input)? else {
            return Ok(None);
        };
        match answer.as_str() {
            "1" => return Ok(Some(Mode::Hh)),
            "2" => return Ok(Some(Mode::Ha)),
            "3" => return Ok(Some(Mode::Ah)),
            "4" => return Ok(Some(Mode::Aa)),
            _ => writeln!(out, "Please answer 1, 2, 3 or 4.")?,
        }
    }
}

/// The seed's console game: the board after every move, row 8 on top.
pub fn console(
    input: &mut impl BufRead,
    out: &mut impl Write,
    mode: Option<Mode>,
    engine: &mut dyn CaveEngine,
    budget: Duration,
) -> anyhow::Result<ExitCode> {
    let Some(mode) = mode.map_or_else(|| ask_mode(input, out), |m| Ok(Some(m)))? else {
        writeln!(out, "No mode chosen; bye.")?;
        return Ok(ExitCode::FAILURE);
    };
    let mut position = Position::new();
    writeln!(out, "{position}")?;
    while position.outcome().is_none() {
        let player = position.to_move();
        let square = if mode.is_ai(player) {
            let started = Instant::now();
            let square = engine
                .choose_move(&position, budget)
                .context("the AI found no move")?;
            let report = engine.last_search();
            writeln!(
                out,
                "AI {} plays {square} (depth {}, {} nodes, {:.2} s)",
                player.symbol(),
                report.depth,
                report.nodes,
                started.elapsed().as_secs_f64()
            )?;
            square
        } else {
            match ask_move(input, out, &position)? {
                Some(square) => square,
                None => {
                    writeln!(out, "\nInput ended; the game is abandoned.")?;
                    return Ok(ExitCode::FAILURE);
                }
            }
        };
        position = position
            .play(square)
            .context("a checked move was refused")?;
        writeln!(out, "{position}")?;
    }
    match position.outcome() {
        Some(Outcome::Win(player)) => writeln!(out, "Player {} wins!", player.symbol())?,
        _ => writeln!(out, "It's a tie!")?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Asks the person to move until the answer is a legal cell; `None` at end of input.
fn ask_move(
    input: &mut impl BufRead,
    out: &mut impl Write,
    position: &Position,
) -> anyhow::Result<Option<Square>> {
    let player = position.to_move();
    loop {
        write!(
            out,
            "Player {}, enter your position (e.g. a1 or h1): ",
            player.symbol()
        )?;
        out.flush()?;
        let Some(answer) = read_trimmed_line(input)? else {
            return Ok(None);
        };
        let refusal = match answer.parse::<Square>() {
            Ok(square) => match position.check(square) {
                Ok(()) => return Ok(Some(square)),
                Err(error) => error.to_string(),
            },
            Err(error) => error.to_string(),
        };
        writeln!(out, "Not accepted: {refusal}. Try again.")?;
    }
}

/// Tournament engine mode: only moves on stdout, diagnostics on stderr. A refused opponent move
/// is reported on stderr and ignored; input that ends right after one exits with code 2.
pub fn engine(
    input: &mut impl BufRead,
    out: &mut impl Write,
    first: bool,
    engine: &mut dyn CaveEngine,
    budget: Duration,
) -> anyhow::Result<ExitCode> {
    let mut position = Position::new();
    let me = if first { Player::Black } else { Player::White };
    let mut last_refused = false;
    loop {
        if position.outcome().is_some() {
            return Ok(ExitCode::SUCCESS);
        }
        if position.to_move() == me {
            let square = engine
                .choose_move(&position, budget)
                .context("the engine found no move")?;
            writeln!(out, "{square}")?;
            out.flush()?;
            position = position
                .play(square)
                .context("the engine's own move was refused")?;
            continue;
        }
        let line = loop {
            match read_trimmed_line(input)? {
                // Input that ends on a refused move tells the caller the game did not finish
                // as it thinks.
                None if last_refused => return Ok(ExitCode::from(2)),
                None => return Ok(ExitCode::SUCCESS),
                Some(line) if line.is_empty() => continue,
                Some(line) => break line,
            }
        };
        let played = line
            .parse::<Square>()
            .map_err(|e| e.to_string())
            .and_then(|square| position.play(square).map_err(|e| e.to_string()));
        // A refused move changes nothing: the engine waits for a legal one, as the console does.
        match played {
            Ok(next) => (position, last_refused) = (next, false),
            Err(reason) => {
                let _ = writeln!(
                    std::io::stderr(),
                    "engine: the opponent's move {line:?} is refused: {reason}; waiting for a legal move"
                );
                last_refused = true;
            }
        }
    }
}

/// A file of `text` in the temporary directory whose name ends in `-name`, removed when
/// dropped: for the tests of the cave commands that read files.
#[cfg(test)]
pub(crate) fn temp_file(name: &str, text: &str) -> tempfile::TempPath {
    let file = tempfile::Builder::new()
        .prefix("parlor-cave-")
        .suffix(&format!("-{name}"))
        .tempfile()
        .unwrap();
    std::fs::write(file.path(), text).unwrap();
    file.into_temp_path()
}

#[cfg(test)]
mod tests;
