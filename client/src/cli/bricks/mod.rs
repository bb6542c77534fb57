//! Dropping Bricks without the window: `solve` gives the closed form's verdict for any size,
//! `play` runs a game in the terminal (answered by a person, an honest oracle or the
//! adversary), and `tree` prints the seed's backward-induction game tree for small towers.
//! `show` is the exception: it opens the window's replay view of a given game (also what the
//! window tests drive).

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Subcommand, ValueEnum};
use parlor_engines::bricks::{
    Adversary, Agent, Answerer, Oracle, RandomAgent, Solution, WinningAgent, game_tree,
};
use parlor_shared::bricks::{Answer, BricksMove, INDUCTION_MAX_HEIGHT, Setup, State, Status};

use crate::cli::console::read_trimmed_line;
use crate::gui::describe::{count_s, distinguishable_heights};
use crate::seed::clock_seed;

#[derive(Subcommand, Debug)]
pub enum BricksCommand {
    /// Whether the winning agent can win, the fewest drops it needs for H with B bricks, and its
    /// first drop height. Instant for H and D up to 10^18 and B up to 64.
    Solve {
        #[command(flatten)]
        setup: SetupArgs,
        /// Print the answer as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Play a game in the terminal: an agent drops, and a person (typing s or b), an honest
    /// oracle or the adversary answers (a game they answer stops after 100,000 drops).
    Play {
        #[command(flatten)]
        setup: SetupArgs,
        /// Who drops.
        #[arg(long, value_enum, default_value_t = AgentKind::Winning)]
        agent: AgentKind,
        /// Who answers Safe or Broken.
        #[arg(long, value_enum, default_value_t = AnswerKind::Human)]
        answer: AnswerKind,
        /// The oracle's secret strength (0..=H); drawn at random if omitted.
        #[arg(long)]
        strength: Option<u64>,
        /// Seed for the random agent and the oracle's strength; taken from the clock and printed
        /// if omitted, so a game can be replayed.
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Print the game tree by backward induction, the seed's method (heights up to 64).
    Tree {
        #[command(flatten)]
        setup: TreeSetupArgs,
    },
    /// Open a window showing a game given as moves, stepping through it like a replay.
    Show {
        #[command(flatten)]
        setup: SetupArgs,
        /// The moves from the start, e.g. "drop 50, broken, drop 20, safe" (commas or
        /// semicolons between).
        #[arg(long, default_value = "")]
        moves: String,
        /// Save a PNG of the window after it is drawn, then exit.
        #[arg(long)]
        screenshot: Option<PathBuf>,
    },
}

#[derive(Args, Debug, Clone, Copy)]
pub struct SetupArgs {
    /// The tower's highest height H (1..=10^18); the strength S is in 0..=H.
    #[arg(long)]
    height: u64,
    /// Drops allowed, D (0..=10^18).
    #[arg(long)]
    drops: u64,
    /// Bricks, B (0..=64).
    #[arg(long)]
    bricks: u32,
}

impl SetupArgs {
    fn setup(self) -> anyhow::Result<Setup> {
        Ok(Setup::new(self.height, self.drops, self.bricks)?)
    }
}

/// [`SetupArgs`] of `bricks tree`, whose backward induction takes heights up to 64 only.
#[derive(Args, Debug, Clone, Copy)]
pub struct TreeSetupArgs {
    /// The tower's highest height H (1..=64); the strength S is in 0..=H.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=INDUCTION_MAX_HEIGHT))]
    height: u64,
    /// Drops allowed, D (0..=10^18).
    #[arg(long)]
    drops: u64,
    /// Bricks, B (0..=64).
    #[arg(long)]
    bricks: u32,
}

impl TreeSetupArgs {
    fn setup(self) -> anyhow::Result<Setup> {
        let TreeSetupArgs {
            height,
            drops,
            bricks,
        } = self;
        SetupArgs {
            height,
            drops,
            bricks,
        }
        .setup()
    }
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentKind {
    /// Drops from a random open height.
    Random,
    /// Plays the closed form: wins whenever H <= f(D, B).
    Winning,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerKind {
    /// A person types s (safe) or b (broken).
    Human,
    /// Answers truthfully for a strength fixed in secret at the start.
    Oracle,
    /// Answers so that the agent loses when it can, or needs the most drops.
    Adversary,
}

/// The options of one console game, already checked.
#[derive(Debug, Clone, Copy)]
pub struct PlayOptions {
    pub setup: Setup,
    pub agent: AgentKind,
    pub answer: AnswerKind,
    pub strength: Option<u64>,
    pub seed: u64,
}

pub fn run(command: BricksCommand) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout();
    match command {
        BricksCommand::Solve { setup, json } => solve(&mut out, setup.setup()?, json),
        BricksCommand::Play {
            setup,
            agent,
            answer,
            strength,
            seed,
        } => {
            if strength.is_some() && answer != AnswerKind::Oracle {
                anyhow::bail!("--strength is the oracle's secret; it needs --answer oracle");
            }
            let seed = seed.unwrap_or_else(clock_seed);
            let options = PlayOptions {
                setup: setup.setup()?,
                agent,
                answer,
                strength,
                seed,
            };
            let stdin = std::io::stdin();
            play(&mut stdin.lock(), &mut out, options)
        }
        BricksCommand::Tree { setup } => {
            let tree = game_tree(setup.setup()?)
                .context("the game tree is for small towers; `client bricks solve` takes any")?;
            write!(out, "{tree}")?;
            Ok(ExitCode::SUCCESS)
        }
        BricksCommand::Show {
            setup,
            moves,
            screenshot,
        } => crate::gui::show_bricks_game(setup.setup()?, parse_moves(&moves)?, screenshot),
    }
}

/// A move list as `client bricks show` takes it: "drop H", "safe" or "broken" (or d H, s, b),
/// separated by commas or semicolons. Whether the moves are legal is the replay's to say.
pub fn parse_moves(text: &str) -> anyhow::Result<Vec<BricksMove>> {
    let items = text
        .split([',', ';'])
        .map(str::trim)
        .filter(|item| !item.is_empty());
    items
        .enumerate()
        .map(|(index, item)| {
            let words: Vec<String> = item.split_whitespace().map(str::to_lowercase).collect();
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            match words.as_slice() {
                ["safe" | "s"] => Some(BricksMove::Answer(Answer::Safe)),
                ["broken" | "b"] => Some(BricksMove::Answer(Answer::Broken)),
                ["drop" | "d", height] => height.parse().ok().map(BricksMove::Drop),
                _ => None,
            }
            .with_context(|| {
                format!(
                    "move {} ({item:?}) is not \"drop H\", \"safe\" or \"broken\"",
                    index + 1
                )
            })
        })
        .collect()
}

/// `client bricks solve`: the closed form's verdict, as text or JSON.
pub fn solve(out: &mut impl Write, setup: Setup, json: bool) -> anyhow::Result<ExitCode> {
    let solution = Solution::new(setup);
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&solution)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let Setup {
        height,
        drops,
        bricks,
    } = setup;
    writeln!(out, "H = {height}, D = {drops}, B = {bricks}")?;
    let reach = distinguishable_heights(&solution);
    if solution.winnable {
        writeln!(
            out,
            "The agent can win: {drops} drops and {bricks} bricks resolve f(D, B) = {reach} \
             heights, which covers H = {height}."
        )?;
    } else {
        writeln!(
            out,
            "The agent cannot win against an adversary: {drops} drops and {bricks} bricks \
             resolve only f(D, B) = {reach} heights, fewer than H = {height}."
        )?;
    }
    match solution.fewest_drops {
        Some(fewest) => writeln!(
            out,
            "Fewest drops for H = {height} with {bricks} bricks: {fewest}."
        )?,
        None => writeln!(out, "Without bricks no number of drops finds S.")?,
    }
    match solution.first_drop {
        Some(first) => writeln!(out, "First drop: from height {first}.")?,
        None => writeln!(out, "The agent cannot drop at all: D or B is 0.")?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The drops a game answered by the oracle or the adversary plays before it stops: a second
/// or so of output. A tower of 10^18 with one brick would otherwise print for ever.
const MOST_UNATTENDED_DROPS: u64 = 100_000;

/// Who answers in a console game.
enum Answering {
    Human,
    Machine(Box<dyn Answerer>),
}

/// `client bricks play`: the seed's three phases in the terminal. Returns FAILURE only when the
/// input ends before the game does, or a game answered by itself passes
/// [`MOST_UNATTENDED_DROPS`].
pub fn play(
    input: &mut impl BufRead,
    out: &mut impl Write,
    options: PlayOptions,
) -> anyhow::Result<ExitCode> {
    let PlayOptions {
        setup,
        agent,
        answer,
        strength,
        seed,
    } = options;
    // Different seeds for the oracle's strength and the agent, so the two are not correlated.
    let oracle_seed = seed;
    let agent_seed = seed.wrapping_add(1);
    let uses_seed = agent == AgentKind::Random || (answer, strength) == (AnswerKind::Oracle, None);
    let mut secret = None;
    let mut answering = match answer {
        AnswerKind::Human => Answering::Human,
        AnswerKind::Adversary => Answering::Machine(Box::new(Adversary)),
        AnswerKind::Oracle => {
            let oracle = match strength {
                Some(strength) => Oracle::new(setup, strength)?,
                None => Oracle::random(setup, oracle_seed),
            };
            secret = Some(oracle.strength());
            Answering::Machine(Box::new(oracle))
        }
    };
    let mut agent: Box<dyn Agent> = match agent {
        AgentKind::Random => Box::new(RandomAgent::new(setup, agent_seed)),
        AgentKind::Winning => Box::new(WinningAgent::new(setup)),
    };

    write_rules(out, setup)?;
    if uses_seed {
        writeln!(out, "Seed {seed} (replay with --seed {seed}).")?;
    }
    let mut drop_number = 0;
    while agent.can_continue() {
        let state = *agent.state();
        if drop_number == MOST_UNATTENDED_DROPS && matches!(answering, Answering::Machine(_)) {
            writeln!(
                out,
                "Stopped after {drop_number} drops, {} left: a game this long answered by \
                 itself is not worth watching; `client bricks solve` gives its outcome.",
                state.drops_left()
            )?;
            return Ok(ExitCode::FAILURE);
        }
        let height = agent.drop_height()?;
        drop_number += 1;
        writeln!(
            out,
            "Drop {drop_number}: the {} drops from height {height}. Known: S in {}..={}; \
             drops left {}, bricks left {}.",
            agent.name(),
            state.min_safe(),
            state.max_safe(),
            state.drops_left(),
            state.bricks_left()
        )?;
        let answer = match &mut answering {
            Answering::Machine(answerer) => {
                let answer = answerer.answer(&state, height)?;
                writeln!(out, "The answer: {answer}.")?;
                answer
            }
            Answering::Human => match ask_answer(input, out, height)? {
                Some(answer) => answer,
                None => {
                    writeln!(out, "\nInput ended; the game is abandoned.")?;
                    return Ok(ExitCode::FAILURE);
                }
            },
        };
        agent.update(height, answer)?;
    }
    write_end(out, agent.as_mut(), secret)?;
    Ok(ExitCode::SUCCESS)
}

/// The init phase: the rules and whether the start is winnable.
fn write_rules(out: &mut impl Write, setup: Setup) -> anyhow::Result<()> {
    let Setup {
        height,
        drops,
        bricks,
    } = setup;
    writeln!(
        out,
        "Dropping Bricks: a tower of heights 1..={height}, {}, {}.",
        count_s(drops, "drop"),
        count_s(bricks, "brick")
    )?;
    writeln!(
        out,
        "The strength S is the greatest height a brick survives, somewhere in 0..={height}. \
         A drop from h is safe when h <= S (the brick is kept) and broken otherwise."
    )?;
    let solution = Solution::new(setup);
    let verdict = if solution.winnable {
        "can be won whatever the answers"
    } else {
        "cannot be won against an adversary"
    };
    writeln!(
        out,
        "This game {verdict}: H = {height}, f(D, B) = {}.",
        distinguishable_heights(&solution)
    )?;
    Ok(())
}

/// Asks the person for Safe or Broken until the answer is one of them; `None` at end of input.
/// Any answer is consistent with the earlier ones, since the agent only drops from heights
/// whose outcome is still open.
fn ask_answer(
    input: &mut impl BufRead,
    out: &mut impl Write,
    height: u64,
) -> anyhow::Result<Option<Answer>> {
    loop {
        write!(out, "Is a drop from {height} safe or broken? [s/b] ")?;
        out.flush()?;
        let Some(line) = read_trimmed_line(input)? else {
            return Ok(None);
        };
        match line.to_ascii_lowercase().as_str() {
            "s" | "safe" => return Ok(Some(Answer::Safe)),
            "b" | "broken" => return Ok(Some(Answer::Broken)),
            other => writeln!(out, "Not accepted: {other:?}. Type s (safe) or b (broken).")?,
        }
    }
}

/// The end phase: the agent's statement, the result, and the oracle's secret if there was one.
fn write_end(
    out: &mut impl Write,
    agent: &mut dyn Agent,
    secret: Option<u64>,
) -> anyhow::Result<()> {
    let end: State = *agent.state();
    writeln!(out, "The {} says: {}", agent.name(), agent.statement())?;
    match end.status() {
        Status::Won { .. } => writeln!(out, "The agent wins.")?,
        _ => writeln!(out, "The agent loses: it had to guess.")?,
    }
    if let Some(strength) = secret {
        writeln!(out, "The oracle's secret strength was {strength}.")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
