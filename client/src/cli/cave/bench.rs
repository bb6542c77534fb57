//! `cave bench`: the AI plays itself from varied openings, timed move by move.

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use parlor_shared::cave::{Outcome, Player, Position, Square};

use super::EngineLevel;

/// AI self-play with per-move timings, as a table on `out`.
pub fn bench(
    out: &mut impl Write,
    games: u32,
    level: EngineLevel,
    budget: Duration,
) -> anyhow::Result<ExitCode> {
    let wall_cells: Vec<Square> = Position::new().legal_squares().collect();
    let mut times = Vec::new();
    let (mut depth_sum, mut nodes, mut results) = (0u64, 0u64, [0u32; 3]);
    // Nodes per second of the search alone: the strong engine's late moves also give df-pn
    // time, in which no search nodes are counted.
    let mut search_time = Duration::ZERO;
    // The classic engine searches a fixed depth: the budget only cuts a search that runs long.
    let at = match (level, budget.as_millis()) {
        (EngineLevel::Classic, ms) => format!("at its fixed depth (the {ms} ms budget is a cap)"),
        (_, ms) => format!("at {ms} ms per move"),
    };
    writeln!(out, "{level:?} AI self-play {at}, {games} game(s)")?;
    for game in 0..games as usize {
        // Two opening bricks per game so the games differ; the AI plays everything after.
        let first = wall_cells[game % wall_cells.len()];
        let second = wall_cells[(game * 7 + 3) % wall_cells.len()];
        let mut position = Position::new().play(first)?;
        if let Ok(next) = position.play(second) {
            position = next;
        }
        let mut engine = level.engine();
        while position.outcome().is_none() {
            let started = Instant::now();
            let square = engine
                .choose_move(&position, budget)
                .context("the AI found no move")?;
            let spent = started.elapsed();
            times.push(spent);
            let report = engine.last_search();
            depth_sum += u64::from(report.depth);
            nodes += report.nodes;
            search_time += report.search_time.unwrap_or(spent);
            position = position.play(square)?;
        }
        let (result, ended) = match position.outcome() {
            Some(Outcome::Win(player)) => {
                let seat = usize::from(player == Player::White);
                (seat, format!("{} wins", player.symbol()))
            }
            _ => (2, "a tie".to_string()),
        };
        results[result] += 1;
        writeln!(
            out,
            "game {}: {first} {second} ... {} bricks, {ended}",
            game + 1,
            position.brick_count(),
        )?;
    }
    times.sort();
    let total: Duration = times.iter().sum();
    let pick = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize].as_secs_f64();
    writeln!(out, "moves searched   {}", times.len())?;
    writeln!(out, "median per move  {:.3} s", pick(0.5))?;
    writeln!(out, "p90 per move     {:.3} s", pick(0.9))?;
    writeln!(out, "max per move     {:.3} s", pick(1.0))?;
    writeln!(
        out,
        "mean depth       {:.1}",
        depth_sum as f64 / times.len() as f64
    )?;
    let (searching, all) = (search_time.as_secs_f64(), total.as_secs_f64());
    writeln!(
        out,
        "nodes per second {:.0} (in search time: {:.0}% of all time)",
        nodes as f64 / searching.max(f64::MIN_POSITIVE),
        100.0 * searching / all.max(f64::MIN_POSITIVE)
    )?;
    writeln!(
        out,
        "results          ■ {} / □ {} / tie {}",
        results[0], results[1], results[2]
    )?;
    Ok(ExitCode::SUCCESS)
}
