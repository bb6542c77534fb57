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

    /// A's mean score (win 1, tie 1/2) and its 95% confidence interval, the one both the text
    /// and the JSON report give: Wilson's score interval, which stays within [0, 1] and has a
    /// width for any number of games, where the mean ± 1.96 standard errors gave 21.9% to
    /// 103.1% for 2 wins, a loss and a tie, and 50% to 50% for 2 ties.
    ///
    /// Wilson's interval is for k successes in n trials; each game is taken as a trial that A
    /// wins a share of, its score (a tie half a success). With ties this is conservative: a
    /// game's score then varies less than a trial's of the same mean (its variance is below
    /// mean × (1 − mean)), so the interval is wider than it need be, never narrower.
    pub fn score(&self) -> (f64, [f64; 2]) {
        const Z: f64 = 1.96;
        let total = self.total();
        if total.games() == 0 {
            return (0.0, [0.0, 1.0]);
        }
        let n = f64::from(total.games());
        let mean = (f64::from(total.wins) + 0.5 * f64::from(total.ties)) / n;
        let z2 = Z * Z;
        let centre = (mean + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let margin = Z / (1.0 + z2 / n) * (mean * (1.0 - mean) / n + z2 / (4.0 * n * n)).sqrt();
        // In exact arithmetic the interval holds the mean and lies within [0, 1]; rounding
        // could step out (6 wins of 6 gave an upper bound of 0.9999999999999999).
        let low = (centre - margin).clamp(0.0, mean);
        let high = (centre + margin).clamp(mean, 1.0);
        (mean, [low, high])
    }

    /// The report: text, or JSON with `args.json`.
    pub fn write_report(&self, args: &ArenaArgs, out: &mut impl Write) -> std::io::Result<()> {
        let total = self.total();
        let (black, white) = (self.as_colour(Player::Black), self.as_colour(Player::White));
        let (score, [low, high]) = self.score();
        let (a_mean, a_max) = summarise(&self.a_times);
        let (b_mean, b_max) = summarise(&self.b_times);
        if args.json {
            let report = json!({
                "a": format!("{:?}", args.a), "b": format!("{:?}", args.b),
                "classic_plies": args.classic_plies,
                "a_move_ms": args.a_move_ms, "b_move_ms": args.b_move_ms,
                "games": total.games(), "a_wins": total.wins, "b_wins": total.losses,
                "ties": total.ties,
                "a_as_black": black.json(), "a_as_white": white.json(),
                "a_score": score, "a_score_95": [low, high],
                "a_seconds_per_move": { "mean": a_mean, "max": a_max },
                "b_seconds_per_move": { "mean": b_mean, "max": b_max },
            });
            return writeln!(out, "{report:#}");
        }
        writeln!(
            out,
            "A = {} at {} ms, B = {} at {} ms, {} games",
            args.side_name(args.a),
            args.a_move_ms,
            args.side_name(args.b),
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
            100.0 * low,
            100.0 * high
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

    fn score_of(wins: u32, losses: u32, ties: u32) -> (f64, [f64; 2]) {
        let game = |outcome, count| vec![(Player::Black, outcome); count as usize];
        let won = game(Outcome::Win(Player::Black), wins);
        let lost = game(Outcome::Win(Player::White), losses);
        let tied = game(Outcome::Tie, ties);
        tally_of(&[won, lost, tied].concat()).score()
    }

    #[test]
    fn two_ties_give_a_wide_interval_around_a_half() {
        let (score, [low, high]) = score_of(0, 0, 2);
        assert_eq!(score, 0.5);
        assert!(low < 0.5 && 0.5 < high, "{low} to {high}");
        assert!(high - low > 0.3, "{low} to {high}");
    }

    #[test]
    fn four_wins_of_four_stay_within_one() {
        let (score, [low, high]) = score_of(4, 0, 0);
        assert_eq!(score, 1.0);
        assert!(high <= 1.0, "{high}");
        assert!(low > 0.4 && low < 1.0, "{low}");
        let (score, [low, high]) = score_of(0, 4, 0);
        assert_eq!(score, 0.0);
        assert!(low >= 0.0 && high < 0.6 && high > 0.0, "{low} to {high}");
    }

    #[test]
    fn the_score_interval_is_wilsons() {
        // 5 of 10: Wilson's interval is 23.66% to 76.34%.
        let (score, [low, high]) = score_of(5, 5, 0);
        assert_eq!(score, 0.5);
        assert!(
            (low - 0.2366).abs() < 1e-4 && (high - 0.7634).abs() < 1e-4,
            "{low} {high}"
        );
        // Every count of 1 to 40 games lies in its interval, which has a width and stays in [0, 1].
        for n in 1..=40 {
            for wins in 0..=n {
                for ties in 0..=n - wins {
                    let (score, [low, high]) = score_of(wins, n - wins - ties, ties);
                    assert!(
                        0.0 <= low && low <= score && score <= high && high <= 1.0,
                        "{wins} wins {ties} ties of {n}: {score} in {low} to {high}"
                    );
                    assert!(high - low > 0.01, "{wins} wins {ties} ties of {n}");
                }
            }
        }
    }

    #[test]
    fn the_text_and_the_json_give_the_same_interval() {
        let args = |json| ArenaArgs {
            a: crate::cli::cave::EngineLevel::Strong,
            b: crate::cli::cave::EngineLevel::Classic,
            games: None,
            openings: None,
            opening_offset: 0,
            classic_plies: parlor_engines::cave::classic::SEED_PLIES,
            a_move_ms: 100,
            b_move_ms: 100,
            json,
            games_out: None,
            jobs: 1,
            starts: None,
            start_bricks: None,
        };
        // 2 wins, a loss and a tie once gave "21.9% to 100.0%" in the text, [0.2187, 1.0313]
        // in the JSON.
        for (wins, losses, ties) in [(2, 1, 1), (4, 0, 0), (0, 0, 2), (3, 2, 5)] {
            let game = |outcome, count| vec![(Player::White, outcome); count];
            let games = [
                game(Outcome::Win(Player::White), wins),
                game(Outcome::Win(Player::Black), losses),
                game(Outcome::Tie, ties),
            ]
            .concat();
            let tally = tally_of(&games);
            let mut json = Vec::new();
            tally.write_report(&args(true), &mut json).unwrap();
            let json: Value = serde_json::from_slice(&json).unwrap();
            let bounds = json["a_score_95"].as_array().unwrap();
            let bounds: Vec<f64> = bounds.iter().map(|b| b.as_f64().unwrap()).collect();
            let mut text = Vec::new();
            tally.write_report(&args(false), &mut text).unwrap();
            let text = String::from_utf8(text).unwrap();
            let expected = format!(
                "(95% CI {:.1}% to {:.1}%)",
                100.0 * bounds[0],
                100.0 * bounds[1]
            );
            assert!(text.contains(&expected), "{expected} in {text}");
            assert!(0.0 <= bounds[0] && bounds[1] <= 1.0, "{bounds:?}");
        }
    }
}
