//! `client cave arena`: matches between Magnetic Cave engines. Every opening (two first
//! bricks) is played twice, once with each engine moving first, so colour and opening luck
//! cancel out; the score comes with a 95% confidence interval.

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Args;
use parlor_server::ai::clamp_budget;
use parlor_shared::cave::{Outcome, Player, Position, Square};
use parlor_shared::protocol::MAX_AI_MOVE_MS;
use serde_json::json;

use crate::cave_cli::EngineLevel;

#[derive(Args, Debug, Clone)]
pub struct ArenaArgs {
    /// The first engine.
    #[arg(long, value_enum)]
    a: EngineLevel,
    /// The second engine.
    #[arg(long, value_enum)]
    b: EngineLevel,
    /// Games in all (rounded up to an even number: each opening from both sides).
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// How many different openings to spread the games over.
    #[arg(long, default_value_t = 16)]
    openings: u32,
    /// Thinking time per move for A, in milliseconds.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_AI_MOVE_MS)))]
    a_move_ms: u32,
    /// Thinking time per move for B, in milliseconds.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_AI_MOVE_MS)))]
    b_move_ms: u32,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    /// Also write every game to this file, a line each: its number, A's colour, the outcome
    /// and the moves from the empty cave (for `cave show --moves` or `cave prove --position`).
    #[arg(long)]
    games_out: Option<std::path::PathBuf>,
    /// Games played at once, each on a thread of its own. Engines think on one core each and
    /// by the clock: give no more jobs than there are idle cores.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    jobs: u32,
}

/// One finished game: its outcome, every move, and each engine's time per move.
struct Game {
    outcome: Outcome,
    moves: Vec<Square>,
    a_times: Vec<Duration>,
    b_times: Vec<Duration>,
}

/// Wins, losses and ties from A's side, and the time each engine spent per move.
#[derive(Debug, Default)]
struct Tally {
    a_wins: u32,
    b_wins: u32,
    ties: u32,
    a_times: Vec<Duration>,
    b_times: Vec<Duration>,
}

impl Tally {
    fn games(&self) -> u32 {
        self.a_wins + self.b_wins + self.ties
    }

    /// A's mean score (win 1, tie 1/2) and the half-width of its 95% confidence interval.
    fn score(&self) -> (f64, f64) {
        let n = f64::from(self.games().max(1));
        let scores = [(1.0, self.a_wins), (0.5, self.ties), (0.0, self.b_wins)];
        let mean = scores.iter().map(|&(s, k)| s * f64::from(k)).sum::<f64>() / n;
        let variance = scores
            .iter()
            .map(|&(s, k)| (s - mean).powi(2) * f64::from(k))
            .sum::<f64>()
            / n;
        (mean, 1.96 * (variance / n).sqrt())
    }
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

fn summarise(times: &[Duration]) -> (f64, f64) {
    let total: Duration = times.iter().sum();
    let mean = total.as_secs_f64() / times.len().max(1) as f64;
    let max = times
        .iter()
        .max()
        .copied()
        .unwrap_or_default()
        .as_secs_f64();
    (mean, max)
}

pub fn run(args: &ArenaArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let openings = all_openings();
    let spread = args.openings.clamp(1, openings.len() as u32) as usize;
    let pairs = args.games.div_ceil(2) as usize;
    let mut tally = Tally::default();
    let mut games_out = match &args.games_out {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?,
        )),
        None => None,
    };
    let total = pairs * 2;
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
                    let opening = openings[(game / 2 % spread) * openings.len() / spread];
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
            match played.outcome {
                Outcome::Win(player) if player == a_plays => tally.a_wins += 1,
                Outcome::Win(_) => tally.b_wins += 1,
                Outcome::Tie => tally.ties += 1,
            }
            tally.a_times.extend(played.a_times);
            tally.b_times.extend(played.b_times);
            let moves: Vec<String> = played.moves.iter().map(Square::to_string).collect();
            let line = format!(
                "game {:>3}: A as {a_plays:?}: {:?}: {}",
                game + 1,
                played.outcome,
                moves.join(" ")
            );
            if !args.json {
                writeln!(out, "{line}")?;
            }
            if let Some(file) = &mut games_out {
                writeln!(file, "{line}")?;
                file.flush()?;
            }
        }
        Ok(())
    });
    outcome?;
    let (score, margin) = tally.score();
    let (a_mean, a_max) = summarise(&tally.a_times);
    let (b_mean, b_max) = summarise(&tally.b_times);
    if args.json {
        let report = json!({
            "a": format!("{:?}", args.a), "b": format!("{:?}", args.b),
            "a_move_ms": args.a_move_ms, "b_move_ms": args.b_move_ms,
            "games": tally.games(), "a_wins": tally.a_wins, "b_wins": tally.b_wins, "ties": tally.ties,
            "a_score": score, "a_score_95": [score - margin, score + margin],
            "a_seconds_per_move": { "mean": a_mean, "max": a_max },
            "b_seconds_per_move": { "mean": b_mean, "max": b_max },
        });
        writeln!(out, "{report:#}")?;
    } else {
        writeln!(
            out,
            "A = {:?} at {} ms, B = {:?} at {} ms, {} games",
            args.a,
            args.a_move_ms,
            args.b,
            args.b_move_ms,
            tally.games()
        )?;
        writeln!(
            out,
            "A wins {}, B wins {}, ties {}",
            tally.a_wins, tally.b_wins, tally.ties
        )?;
        writeln!(
            out,
            "A's score {:.1}% (95% CI {:.1}% to {:.1}%)",
            100.0 * score,
            100.0 * (score - margin).max(0.0),
            100.0 * (score + margin).min(1.0)
        )?;
        writeln!(out, "A per move: mean {a_mean:.3} s, max {a_max:.3} s")?;
        writeln!(out, "B per move: mean {b_mean:.3} s, max {b_max:.3} s")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One game from `opening`.
fn play_one(args: &ArenaArgs, opening: [Square; 2], a_plays: Player) -> anyhow::Result<Game> {
    let (mut a, mut b) = (args.a.engine(), args.b.engine());
    let (a_budget, b_budget) = (clamp_budget(args.a_move_ms), clamp_budget(args.b_move_ms));
    let mut position =
        Position::from_moves(&opening).map_err(|(_, e)| anyhow::anyhow!("opening: {e}"))?;
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
mod tests {
    use super::*;

    #[test]
    fn openings_are_distinct_legal_pairs() {
        let openings = all_openings();
        assert!(openings.len() > 200);
        for opening in &openings {
            assert!(Position::from_moves(opening).is_ok());
        }
        let mut unique = openings.clone();
        unique.dedup();
        assert_eq!(unique.len(), openings.len());
    }

    #[test]
    fn the_score_interval_is_exact_for_one_sided_results() {
        let tally = Tally {
            a_wins: 10,
            ..Tally::default()
        };
        assert_eq!(tally.score(), (1.0, 0.0));
        let even = Tally {
            a_wins: 5,
            b_wins: 5,
            ..Tally::default()
        };
        let (mean, margin) = even.score();
        assert_eq!(mean, 0.5);
        assert!((margin - 1.96 * (0.25f64 / 10.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn a_short_arena_counts_every_game() {
        let games = std::env::temp_dir().join(format!("cave-arena-{}.txt", std::process::id()));
        let args = ArenaArgs {
            a: EngineLevel::Easy,
            b: EngineLevel::Classic,
            games: 3,
            openings: 2,
            a_move_ms: 5,
            b_move_ms: 5,
            json: true,
            games_out: Some(games.clone()),
            jobs: 2,
        };
        let mut out = Vec::new();
        run(&args, &mut out).unwrap();
        let written = std::fs::read_to_string(&games).unwrap();
        assert_eq!(written.lines().count(), 4, "a line per game");
        for line in written.lines() {
            let moves = line.rsplit(": ").next().unwrap();
            assert!(parlor_shared::cave::parse_moves(moves).is_ok(), "{line}");
        }
        std::fs::remove_file(&games).unwrap();
        let report: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(
            report["games"], 4,
            "rounded up to both sides of two openings"
        );
        let total = report["a_wins"].as_u64().unwrap()
            + report["b_wins"].as_u64().unwrap()
            + report["ties"].as_u64().unwrap();
        assert_eq!(total, 4);
    }
}
