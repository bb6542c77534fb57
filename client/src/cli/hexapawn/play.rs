//! Console games against HER: you are White and move first; HER plays Black and learns from
//! game to game. In slow mode HER's matchbox is shown before each of its moves, with each
//! move's beads and chance, and you force one of its moves or type `her` to let it draw.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use clap::ValueEnum;
use parlor_shared::hexapawn::{
    Brain, Dims, Her, HerChoice, HerResult, MatchboxView, Move, Pick, Position, Side, Status,
};

use crate::cli::console::read_trimmed_line;

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// HER's matchbox is shown; you force its move or let it draw a bead.
    Slow,
    /// HER just moves.
    Fast,
}

/// The options of a console session.
#[derive(Debug, Clone, Copy)]
pub struct PlayOptions {
    pub dims: Dims,
    pub mode: Mode,
    pub seed: u64,
    pub mirrors: bool,
}

/// What came of a prompt.
enum Typed<T> {
    Answer(T),
    /// The player typed `quit`.
    Quit,
    /// The input ended.
    Ended,
}

/// `client hexapawn play`: games until the player stops. Returns FAILURE only when the input
/// ends in the middle of a game.
pub fn play(
    input: &mut impl BufRead,
    out: &mut impl Write,
    options: PlayOptions,
) -> anyhow::Result<ExitCode> {
    let PlayOptions {
        dims,
        mode,
        seed,
        mirrors,
    } = options;
    let mode_name = match mode {
        Mode::Slow => "slow: you see HER's matchbox and may force its move",
        Mode::Fast => "fast: HER just moves",
    };
    writeln!(
        out,
        "Hexapawn {dims} against HER, the matchbox robot ({mode_name}). You are White (W) and \
         move first, up the board; HER is Black (B).\nA pawn steps straight forward onto an \
         empty square (a1-a2) or diagonally forward onto an enemy pawn, capturing it (b2xc3). \
         Reach the far row, take every enemy pawn, or leave the enemy without a move to win.\n\
         Type `moves` for your legal moves, `quit` to stop. HER's seed is {seed} (replay with \
         --seed {seed})."
    )?;
    let mut her = Her::new(Brain::new(dims, mirrors), seed);
    let mut score = [0u32; 2];
    for game in 1.. {
        writeln!(out, "\nGame {game}.")?;
        let human_won = match play_game(input, out, &mut her, mode)? {
            Typed::Answer(human_won) => human_won,
            stopped => {
                writeln!(out, "\nThe game is abandoned; HER learns nothing from it.")?;
                let ended = matches!(stopped, Typed::Ended);
                return Ok(if ended {
                    ExitCode::FAILURE
                } else {
                    ExitCode::SUCCESS
                });
            }
        };
        score[usize::from(!human_won)] += 1;
        writeln!(
            out,
            "Score: you {}, HER {}. HER has {} matchboxes and {} beads.",
            score[0],
            score[1],
            her.brain().boxes(),
            her.brain().beads()
        )?;
        let again = ask(input, out, "Play again? [y/n] ", |line| match line {
            "y" | "yes" | "" => Ok(true),
            "n" | "no" => Ok(false),
            _ => Err("Refused: type y or n.".to_string()),
        })?;
        if !matches!(again, Typed::Answer(true)) {
            break;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// One game: whether the human won, unless the player quit or the input ended.
fn play_game(
    input: &mut impl BufRead,
    out: &mut impl Write,
    her: &mut Her,
    mode: Mode,
) -> anyhow::Result<Typed<bool>> {
    let mut position = Position::start(her.brain().dims());
    let mut her_last_move = None;
    loop {
        if let Status::Won { winner, .. } = position.status() {
            write!(out, "{position}")?;
            let human_won = winner == Side::White;
            let result = position.status().to_string();
            if human_won {
                writeln!(out, "{result}. You win!")?;
            } else {
                writeln!(out, "{result}. HER wins.")?;
            }
            end_game(out, her, human_won, her_last_move, false)?;
            return Ok(Typed::Answer(human_won));
        }
        let mv = if position.to_move() == Side::White {
            write!(out, "{position}")?;
            let prompt = "Your move: ";
            match ask(input, out, prompt, |line| human_move(&position, line))? {
                Typed::Answer(mv) => mv,
                Typed::Quit => return Ok(Typed::Quit),
                Typed::Ended => return Ok(Typed::Ended),
            }
        } else {
            let choice = match mode {
                Mode::Fast => her.choose(&position, Pick::Random)?,
                Mode::Slow => match slow_turn(input, out, her, &position)? {
                    Typed::Answer(choice) => choice,
                    Typed::Quit => return Ok(Typed::Quit),
                    Typed::Ended => return Ok(Typed::Ended),
                },
            };
            match choice {
                HerChoice::Play(mv) => {
                    writeln!(out, "HER plays {mv}.")?;
                    her_last_move = Some(mv);
                    mv
                }
                HerChoice::Resign => {
                    write!(out, "{position}")?;
                    writeln!(
                        out,
                        "HER's matchbox for this position is empty: HER resigns. You win!"
                    )?;
                    end_game(out, her, true, her_last_move, true)?;
                    return Ok(Typed::Answer(true));
                }
            }
        };
        position = position.play(mv)?;
    }
}

/// HER's punishment (or not), told to the player.
fn end_game(
    out: &mut impl Write,
    her: &mut Her,
    human_won: bool,
    her_last_move: Option<Move>,
    resigned: bool,
) -> anyhow::Result<()> {
    if human_won {
        her.finish(HerResult::Lost);
        let which = if resigned { "previous" } else { "last" };
        match her_last_move {
            Some(mv) => writeln!(
                out,
                "HER is punished: the bead for its {which} move, {mv}, is taken from its box."
            )?,
            None => writeln!(out, "HER had not moved, so no bead is taken.")?,
        }
    } else {
        her.finish(HerResult::Won);
        writeln!(
            out,
            "HER is rewarded: all its beads go back into their boxes."
        )?;
    }
    Ok(())
}

/// Slow mode: shows the matchbox and asks for a forced move or `her`.
fn slow_turn(
    input: &mut impl BufRead,
    out: &mut impl Write,
    her: &mut Her,
    position: &Position,
) -> anyhow::Result<Typed<HerChoice>> {
    let matchbox = her.brain().matchbox(position)?;
    write!(out, "{position}")?;
    write_matchbox(out, &matchbox)?;
    if matchbox.total == 0 {
        return Ok(Typed::Answer(her.choose(position, Pick::Random)?));
    }
    let prompt = "Type `her` to let HER draw a bead, or one of its moves to force it: ";
    let pick = ask(input, out, prompt, |line| {
        if line == "her" {
            return Ok(Pick::Random);
        }
        let mv: Move = line.parse().map_err(refused)?;
        match matchbox.beads.iter().find(|bead| bead.mv == mv) {
            Some(bead) if bead.beads > 0 => Ok(Pick::Forced(mv)),
            Some(_) => Err(refused(format!("HER's bead for {mv} has been taken away"))),
            None => Err(refused(match position.check(mv) {
                Err(error) => error.to_string(),
                Ok(()) => format!("{mv} is not in HER's matchbox"),
            })),
        }
    })?;
    Ok(match pick {
        Typed::Answer(pick) => Typed::Answer(her.choose(position, pick)?),
        Typed::Quit => Typed::Quit,
        Typed::Ended => Typed::Ended,
    })
}

fn write_matchbox(out: &mut impl Write, matchbox: &MatchboxView) -> anyhow::Result<()> {
    let beads = |count: u32| if count == 1 { "bead" } else { "beads" };
    writeln!(
        out,
        "HER's matchbox for this position holds {} {}:",
        matchbox.total,
        beads(matchbox.total)
    )?;
    for bead in &matchbox.beads {
        writeln!(
            out,
            "  {:<6} {} {:<5} {:>5.1}%",
            bead.mv.to_string(),
            bead.beads,
            beads(bead.beads),
            bead.probability * 100.0
        )?;
    }
    Ok(())
}

/// The message for input that is not accepted.
fn refused(reason: impl std::fmt::Display) -> String {
    format!("Refused: {reason}.")
}

/// The human's move; otherwise the list of legal moves (for `moves`) or why it is refused.
fn human_move(position: &Position, line: &str) -> Result<Move, String> {
    if line == "moves" {
        let moves: Vec<String> = position
            .legal_moves()
            .iter()
            .map(ToString::to_string)
            .collect();
        return Err(format!("Your legal moves: {}.", moves.join(", ")));
    }
    let mv: Move = line.parse().map_err(refused)?;
    position.check(mv).map_err(refused)?;
    Ok(mv)
}

/// Asks until `parse` accepts a line (trimmed, lower case), the player types `quit` or the
/// input ends, printing what `parse` says about the lines it does not accept.
fn ask<T>(
    input: &mut impl BufRead,
    out: &mut impl Write,
    prompt: &str,
    mut parse: impl FnMut(&str) -> Result<T, String>,
) -> anyhow::Result<Typed<T>> {
    loop {
        write!(out, "{prompt}")?;
        out.flush()?;
        let Some(line) = read_trimmed_line(input)? else {
            return Ok(Typed::Ended);
        };
        let line = line.to_ascii_lowercase();
        if line == "quit" {
            return Ok(Typed::Quit);
        }
        match parse(&line) {
            Ok(answer) => return Ok(Typed::Answer(answer)),
            Err(message) => writeln!(out, "{message}")?,
        }
    }
}
