//! The arena's count of results and its report. Results are kept by the colour A played: the
//! game favours Black, so a total can hide that one engine wins as Black and ties as White.

use std::io::Write;
use std::time::Duration;

use parlor_shared::cave::{Outcome, Player};
use serde_json::{Value, json};

use super::ArenaArgs;

/// Games from A's side.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Record {
    pub wins: u32,
    pub losses: u32,
    pub ties: u32,
}

impl Record {
    fn games(self) -> u32 {
        self.wins + self.losses + self.ties
    }

    fn json(self) -> Value {
        json!({ "wins": self.wins, "losses": self.losses, "ties": self.ties })
    }
}

/// A's results as Black and as White, and the time each engine spent per move.
#[derive(Debug, Default)]
pub struct Tally {
    by_colour: [Record; 2],
    a_times: Vec<Duration>,
    b_times: Vec<Duration>,
}

impl Tally {
    /// Counts one game that A played as `a_plays`.
    pub fn add(
        &mut self,
        a_plays: Player,
        outcome: Outcome,
        a_times: Vec<Duration>,
        b_times: Vec<Duration>,
    ) {
        let record = &mut self.by_colour[usize::from(a_plays.seat())];
        match outcome {
            Outcome::Win(player) if player == a_plays => record.wins += 1,
            Outcome::Win(_) => record.losses += 1,
            Outcome::Tie => record.ties += 1,
        }
        self.a_times.extend(a_times);
        self.b_times.extend(b_times);
    }

    /// A's results with `colour`.
    pub fn as_colour(&self, colour: Player) -> Record {
        self.by_colour[usize::from(colour.seat())]
    }

    /// A's results with both colours.
    pub fn total(&self) -> Record {
        let [black, white] = self.by_colour;
        Record {
            wins: black.wins + white.wins,
            losses: black.losses + white.losses,
            ties: black.ties + white.ties,
        }
    }

    /// A's mean score (win 1, tie 1/2) and the half-width of its 95% confidence interval.
    pub fn score(&self) -> (f64, f64) {
        let total = self.total();
        let n = f64::from(total.games().max(1));
        let scores = [(1.0, total.wins), (0.5, total.ties), (0.0, total.losses)];
        let mean = scores.iter().map(|&(s, k)| s * f64::from(k)).sum::<f64>() / n;
        let variance = scores
            .iter()
            .map(|&(s, k)| (s - mean).powi(2) * f64::from(k))
            .sum::<f64>()
            / n;
        (mean, 1.96 * (variance / n).sqrt())
    }

    /// The report: text, or JSON with `args.json`.
    pub fn write_report(&self, args: &ArenaArgs, out: &mut impl Write) -> std::io::Result<()> {
        let total = self.total();
        let (black, white) = (self.as_colour(Player::Black), self.as_colour(Player::White));
        let (score, margin) = self.score();
        let (a_mean, a_max) = summarise(&self.a_times);
        let (b_mean, b_max) = summarise(&self.b_times);
        if args.json {
            let report = json!({
                "a": format!("{:?}", args.a), "b": format!("{:?}", args.b),
                "a_move_ms": args.a_move_ms, "b_move_ms": args.b_move_ms,
                "games": total.games(), "a_wins": total.wins, "b_wins": total.losses,
                "ties": total.ties,
                "a_as_black": black.json(), "a_as_white": white.json(),
                "a_score": score, "a_score_95": [score - margin, score + margin],
                "a_seconds_per_move": { "mean": a_mean, "max": a_max },
                "b_seconds_per_move": { "mean": b_mean, "max": b_max },
            });
            return writeln!(out, "{report:#}");
        }
        writeln!(
            out,
            "A = {:?} at {} ms, B = {:?} at {} ms, {} games",
            args.a,
            args.a_move_ms,
            args.b,
            args.b_move_ms,
            total.games()
        )?;
        writeln!(
            out,
            "A wins {}, B wins {}, ties {}",
            total.wins, total.losses, total.ties
        )?;
        for (colour, record) in [("Black", black), ("White", white)] {
            writeln!(
                out,
                "  A as {colour}: wins {}, losses {}, ties {}",
                record.wins, record.losses, record.ties
            )?;
        }
        writeln!(
            out,
            "A's score {:.1}% (95% CI {:.1}% to {:.1}%)",
            100.0 * score,
            100.0 * (score - margin).max(0.0),
            100.0 * (score + margin).min(1.0)
        )?;
        writeln!(out, "A per move: mean {a_mean:.3} s, max {a_max:.3} s")?;
        writeln!(out, "B per move: mean {b_mean:.3} s, max {b_max:.3} s")
    }
}

/// The mean and the longest of `times`, in seconds.
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

#[cfg(test)]
mod tests {
    use super::*;

    fn tally_of(games: &[(Player, Outcome)]) -> Tally {
        let mut tally = Tally::default();
        for &(a_plays, outcome) in games {
            tally.add(a_plays, outcome, Vec::new(), Vec::new());
        }
        tally
    }

    #[test]
    fn results_are_counted_by_the_colour_a_played() {
        use Player::{Black, White};
        let tally = tally_of(&[
            (Black, Outcome::Win(Black)),
            (Black, Outcome::Win(Black)),
            (White, Outcome::Win(Black)),
            (White, Outcome::Tie),
            (White, Outcome::Win(White)),
        ]);
        let record = |wins, losses, ties| Record { wins, losses, ties };
        assert_eq!(tally.as_colour(Black), record(2, 0, 0));
        assert_eq!(tally.as_colour(White), record(1, 1, 1));
        assert_eq!(tally.total(), record(3, 1, 1));
    }

    #[test]
    fn the_score_interval_is_exact_for_one_sided_results() {
        let all_won = tally_of(&[(Player::Black, Outcome::Win(Player::Black)); 10]);
        assert_eq!(all_won.score(), (1.0, 0.0));
        let even = tally_of(
            &[
                [(Player::White, Outcome::Win(Player::White)); 5],
                [(Player::White, Outcome::Win(Player::Black)); 5],
            ]
            .concat(),
        );
        let (mean, margin) = even.score();
        assert_eq!(mean, 0.5);
        assert!((margin - 1.96 * (0.25f64 / 10.0).sqrt()).abs() < 1e-12);
    }
}
