//! The seed's simulator: a human, random or AI player plays a level in the terminal, and the
//! game is written to moves.txt in the seed's format.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::ValueEnum;
use parlor_engines::ewn::solve;
use parlor_shared::ewn::{Level, Move, MovesFile, PIECES, Rules, SQUARES, State, Status};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::{board_picture, read_level, write_text};
use crate::cli::console::read_trimmed_line;

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayerKind {
    /// A person types each move.
    Human,
    /// Picks uniformly among the legal moves.
    Random,
    /// Plays a fewest-move solution found by the solver.
    Ai,
}

impl PlayerKind {
    fn default_name(self) -> Option<&'static str> {
        match self {
            PlayerKind::Human => None,
            PlayerKind::Random => Some("Random Player"),
            PlayerKind::Ai => Some("AI Player"),
        }
    }
}

/// What `client ewn play` was given; whatever is missing is asked for.
pub struct PlayOptions {
    pub level: Option<PathBuf>,
    pub player: Option<PlayerKind>,
    pub name: Option<String>,
    pub out: PathBuf,
    pub rules: Rules,
    /// Where a level number typed at the prompt is looked up (`levelN.txt`); `None` for the
    /// levels built in.
    pub levels_dir: Option<PathBuf>,
    /// The random player's seed; `None` draws one.
    pub seed: Option<u64>,
}

/// Asks `question` until `accept` takes the answer; `None` at end of input.
fn ask<T>(
    input: &mut impl BufRead,
    out: &mut impl Write,
    question: &str,
    mut accept: impl FnMut(&str) -> Result<T, String>,
) -> anyhow::Result<Option<T>> {
    loop {
        write!(out, "{question} ")?;
        out.flush()?;
        let Some(answer) = read_trimmed_line(input)? else {
            writeln!(out)?;
            return Ok(None);
        };
        match accept(&answer) {
            Ok(value) => return Ok(Some(value)),
            Err(reason) => writeln!(out, "Not accepted: {reason}. Try again.")?,
        }
    }
}

fn ask_player(
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<Option<PlayerKind>> {
    writeln!(out, "EinStein würfelt nicht! puzzle. Choose the player:")?;
    writeln!(out, "  1) Human Player")?;
    writeln!(out, "  2) Random Player")?;
    writeln!(out, "  3) AI Player")?;
    ask(input, out, "Player (1-3):", |answer| match answer {
        "1" => Ok(PlayerKind::Human),
        "2" => Ok(PlayerKind::Random),
        "3" => Ok(PlayerKind::Ai),
        _ => Err("answer 1, 2 or 3".into()),
    })
}

fn ask_name(input: &mut impl BufRead, out: &mut impl Write) -> anyhow::Result<Option<String>> {
    ask(input, out, "Your name:", player_name)
}

/// A name the moves file can carry as its first line: not blank, one line of printable
/// characters (surrounding spaces dropped).
fn player_name(text: &str) -> Result<String, String> {
    let name = text.trim();
    if name.is_empty() {
        return Err("the name may not be empty".into());
    }
    if name.chars().any(char::is_control) {
        return Err("the name must be one line of printable characters".into());
    }
    Ok(name.to_string())
}

/// A level by number (`levelN.txt` in `levels_dir`, or the built-in levelN), by built-in name
/// or by path, asked until one loads.
fn ask_level(
    input: &mut impl BufRead,
    out: &mut impl Write,
    levels_dir: Option<&Path>,
    rules: Rules,
) -> anyhow::Result<Option<(PathBuf, Level)>> {
    let numbered = match levels_dir {
        Some(dir) => dir.join("levelN.txt").display().to_string(),
        None => "the built-in levelN".to_string(),
    };
    let question = format!("Level (a number N for {numbered}, or a file):");
    ask(input, out, &question, |answer| {
        let path = match (answer.parse::<u32>(), levels_dir) {
            (Ok(number), Some(dir)) => dir.join(format!("level{number}.txt")),
            (Ok(number), None) => PathBuf::from(format!("level{number}")),
            (Err(_), _) => PathBuf::from(answer),
        };
        let level = read_level(&path, rules).map_err(|error| format!("{error:#}"))?;
        Ok((path, level))
    })
}

/// The legal squares of each movable piece, e.g. `piece 4 to 33 35 43`.
fn describe_choices(level: &Level, state: &State) -> String {
    let moves = level.legal_moves(state);
    let choices: Vec<String> = level
        .movable(state)
        .as_slice()
        .iter()
        .map(|&piece| {
            let squares: Vec<String> = moves
                .iter()
                .filter(|mv| mv.piece == piece)
                .map(|mv| mv.to.to_string())
                .collect();
            format!("piece {piece} to {}", squares.join(" "))
        })
        .collect();
    choices.join("; ")
}

/// A move typed as `piece square`, or just `square` when one piece may move. A word that is no
/// number of either is refused as what its place wants; a number of the wrong piece or square
/// is the rules' to refuse, with their reason.
fn parse_move(answer: &str, level: &Level, state: &State) -> Result<Move, String> {
    let piece = |word: &str| whole(word, &format!("a piece (1 to {PIECES})"));
    let square = |word: &str| whole(word, &format!("a square (0 to {})", SQUARES - 1));
    let words: Vec<&str> = answer.split_whitespace().collect();
    let mv = match (words.as_slice(), level.movable(state).as_slice()) {
        (&[mover, to], _) => Move {
            piece: piece(mover)?,
            to: square(to)?,
        },
        (&[to], &[mover]) => Move {
            piece: mover,
            to: square(to)?,
        },
        (&[_], _) => return Err("two pieces may move: type the piece, then the square".into()),
        _ => return Err("type the piece, then the square, e.g. 2 31".into()),
    };
    level.play(state, mv).map_err(|error| error.to_string())?;
    Ok(mv)
}

/// `word` as a piece's or a square's number, else refused as not `wanted`.
fn whole(word: &str, wanted: &str) -> Result<u8, String> {
    word.parse()
        .map_err(|_| format!("{word:?} is not {wanted}"))
}

/// The player's move: asked, drawn, or taken from the AI's solution.
enum Mover {
    Human,
    Random(Box<StdRng>),
    Ai(std::vec::IntoIter<Move>),
    /// The AI on a level it cannot win: it plays on until the game ends, so the moves file
    /// runs to the end as SPEC §1 asks.
    Closest,
}

impl Mover {
    /// The next move; `Ok(None)` when a human's input ends or the AI has no more moves.
    fn next(
        &mut self,
        input: &mut impl BufRead,
        out: &mut impl Write,
        level: &Level,
        state: &State,
    ) -> anyhow::Result<Option<Move>> {
        match self {
            Mover::Human => {
                let die = level.dice()[state.turn];
                writeln!(out, "Move {}, die {die}.", state.turn + 1)?;
                writeln!(out, "Movable: {}", describe_choices(level, state))?;
                ask(input, out, "Your move (piece square):", |answer| {
                    parse_move(answer, level, state)
                })
            }
            Mover::Random(rng) => {
                let moves = level.legal_moves(state);
                Ok((!moves.is_empty()).then(|| moves[rng.random_range(0..moves.len())]))
            }
            Mover::Ai(moves) => Ok(moves.next()),
            Mover::Closest => Ok(level.closest_move(state)),
        }
    }
}

fn abandon(out: &mut impl Write) -> anyhow::Result<ExitCode> {
    writeln!(out, "Input ended; the game is abandoned.")?;
    Ok(ExitCode::FAILURE)
}

/// `client ewn play`: asks for whatever the options leave open, plays, writes the moves file.
pub fn play(
    input: &mut impl BufRead,
    out: &mut impl Write,
    options: PlayOptions,
) -> anyhow::Result<ExitCode> {
    let Some(kind) = options
        .player
        .map_or_else(|| ask_player(input, out), |p| Ok(Some(p)))?
    else {
        return abandon(out);
    };
    let name = match (options.name, kind.default_name()) {
        (Some(name), _) => {
            player_name(&name).map_err(|reason| anyhow::anyhow!("--name: {reason}"))?
        }
        (None, Some(default)) => default.to_string(),
        (None, None) => match ask_name(input, out)? {
            Some(name) => name,
            None => return abandon(out),
        },
    };
    let (level_path, level) = match &options.level {
        Some(path) => (path.clone(), read_level(path, options.rules)?),
        None => match ask_level(input, out, options.levels_dir.as_deref(), options.rules)? {
            Some(asked) => asked,
            None => return abandon(out),
        },
    };
    // Before the game, not after it: the game would be lost with the refusal.
    crate::out_file::check_not_input(&options.out, &level_path)?;
    let mut mover = match kind {
        PlayerKind::Human => Mover::Human,
        PlayerKind::Random => {
            let seed = options.seed.unwrap_or_else(rand::random);
            writeln!(out, "Random Player's seed: {seed}")?;
            Mover::Random(Box::new(StdRng::seed_from_u64(seed)))
        }
        PlayerKind::Ai => match solve(&level) {
            Some(solution) => {
                writeln!(
                    out,
                    "AI Player found a {}-move solution.",
                    solution.moves.len()
                )?;
                Mover::Ai(solution.moves.into_iter())
            }
            None => {
                let limit = level.rules().max_moves;
                writeln!(
                    out,
                    "AI Player: no solution within {limit} moves; it plays towards square 0 \
                     until the game ends."
                )?;
                Mover::Closest
            }
        },
    };
    let mut state = level.start_state();
    let mut positions = vec![state.pieces];
    writeln!(out, "\n{}", board_picture(&level, &state.pieces))?;
    while level.status(&state) == Status::Playing {
        let die = level.dice()[state.turn];
        let Some(mv) = mover.next(input, out, &level, &state)? else {
            if matches!(mover, Mover::Human) {
                return abandon(out);
            }
            break;
        };
        state = level
            .play(&state, mv)
            .context("the player's move was refused")?;
        positions.push(state.pieces);
        let number = state.turn;
        writeln!(
            out,
            "Move {number}, die {die}: {name} moves piece {} to {}.",
            mv.piece, mv.to
        )?;
        writeln!(out, "{}", board_picture(&level, &state.pieces))?;
    }
    let record = MovesFile::record(&name, &level, positions).to_string();
    match level.status(&state) {
        Status::Won => writeln!(out, "Puzzle solved in {} moves!", state.turn)?,
        // Only when no move is left, which the rules never allow: some piece can always move.
        Status::Playing => writeln!(out, "Puzzle not solved.")?,
        Status::Lost(reason) => writeln!(out, "Puzzle not solved: {}.", Status::Lost(reason))?,
    }
    if let Err(error) = write_text(&options.out, &record) {
        // A person's game is not lost with the file: it goes to the screen instead.
        write!(out, "The moves, which could not be written:\n{record}")?;
        return Err(error);
    }
    writeln!(out, "Moves written to {}.", options.out.display())?;
    Ok(ExitCode::SUCCESS)
}
