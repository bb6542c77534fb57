//! The searches compared on a fixed suite (the seed's second bonus): every course input, boards
//! of up to 12 cells made by the generator from fixed seeds, seeded random 15-puzzles and the
//! seed's 5x6 sample. One table per contender, a method with a heuristic (answer, length,
//! proved, time, positions), then a summary per contender and suite, and optionally a PNG
//! chart. The informed methods run with each heuristic asked for: by default the best pattern
//! databases (the kept 4x4 7-8 ones) and the small ones a search builds (6-6-3), side by side.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use parlor_engines::klotski::{
    GenerateOptions, HeuristicKind, Method, SolveOptions, Verdict, generate, prepare, solve,
};
use parlor_shared::klotski::{Puzzle, Shape, parse_puzzle};

use super::chart;
use super::{HeuristicArg, MethodArg};

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Also draw the comparison as a PNG chart here.
    #[arg(long)]
    pub chart: Option<PathBuf>,
    /// Search time per puzzle and method, in milliseconds.
    #[arg(long, default_value_t = 5000)]
    pub budget_ms: u64,
    /// How many random 15-puzzles (seeds 1, 2, ...).
    #[arg(long, default_value_t = 10)]
    pub fifteen: u64,
    /// How many 24-puzzles a walk of 80 slides from the goal (seeds 1, 2, ...): random ones
    /// take minutes to hours.
    #[arg(long, default_value_t = 3)]
    pub twenty_four: u64,
    /// The methods to compare (default: all, and auto).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub methods: Vec<MethodArg>,
    /// The heuristics the informed methods (all but bfs and bibfs) run with, each a
    /// contender of its own.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [HeuristicArg::Databases, HeuristicArg::SmallDatabases])]
    pub heuristics: Vec<HeuristicArg>,
}

/// One line of the comparison: a method and the heuristic it runs with (none for the blind
/// searches).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contender {
    pub method: Method,
    pub heuristic: Option<HeuristicKind>,
}

impl Contender {
    /// "idastar", "auto small-tables": the method, and the heuristic unless it is the best
    /// pattern databases.
    pub fn name(&self) -> String {
        match self.heuristic {
            None | Some(HeuristicKind::PatternDatabases) => self.method.name().to_string(),
            Some(HeuristicKind::SmallPatternDatabases) => format!("{} small-tables", self.method),
            Some(HeuristicKind::Conflicts) => format!("{} conflicts", self.method),
            Some(HeuristicKind::Manhattan) => format!("{} manhattan", self.method),
            Some(HeuristicKind::BlockDatabases) => format!("{} block-tables", self.method),
        }
    }
}

/// Every method asked for with every heuristic asked for (the blind ones once).
pub fn contenders(methods: &[Method], heuristics: &[HeuristicKind]) -> Vec<Contender> {
    let mut all = Vec::new();
    for &method in methods {
        if matches!(method, Method::Bfs | Method::Bibfs) {
            all.push(Contender {
                method,
                heuristic: None,
            });
            continue;
        }
        for &heuristic in heuristics {
            all.push(Contender {
                method,
                heuristic: Some(heuristic),
            });
        }
    }
    all
}

/// The parts of the suite, each summarised on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suite {
    Course,
    Small,
    Fifteen,
    TwentyFour,
    Sample,
}

impl Suite {
    pub const ALL: [Suite; 5] = [
        Suite::Course,
        Suite::Small,
        Suite::Fifteen,
        Suite::TwentyFour,
        Suite::Sample,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Suite::Course => "course",
            Suite::Small => "small",
            Suite::Fifteen => "15-puzzle",
            Suite::TwentyFour => "24-puzzle walks",
            Suite::Sample => "5x6 sample",
        }
    }
}

pub struct Instance {
    pub suite: Suite,
    pub name: String,
    pub puzzle: Puzzle,
}

/// One contender's result on one instance.
#[derive(Clone, Debug)]
pub struct Run {
    pub contender: Contender,
    pub instance: usize,
    /// Steps of the solution found, if any.
    pub length: Option<usize>,
    /// A shortest solution, or a proved `No`.
    pub proved: bool,
    /// Proved to have no solution.
    pub no: bool,
    pub time: Duration,
    pub expanded: u64,
    pub lower_bound: u32,
}

impl Run {
    /// Whether the method gave an answer (a solution or a proof of `No`).
    pub fn answered(&self) -> bool {
        self.length.is_some() || self.no
    }
}

macro_rules! course {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../../../../levels/klotski/", $name, ".in")))),*]
    };
}

/// The course inputs (levels/klotski/), built into the binary so the bench runs anywhere.
const COURSE: &[(&str, &str)] = course![
    "lunaqu4kez_extra_01",
    "lunaqu4kez_extra_02",
    "lunaqu4kez_extra_03",
    "lunaqu4kez_extra_04",
    "lunaqu4kez_extra_05",
    "lunaqu4kez_extra_06",
    "lunaqu4kez_test_1",
    "lunaqu4kez_test_2",
    "lunaqu4kez_test_3",
    "lunaqu4kez_test_4",
    "mahynotch_test_1",
    "phalaraluve_data_01",
    "phalaraluve_data_02",
    "phalaraluve_data_03",
    "phalaraluve_data_04",
    "phalaraluve_data_05",
    "phalaraluve_data_06",
    "phalaraluve_data_07",
    "phalaraluve_data_08",
    "phalaraluve_data_09",
    "phalaraluve_data_10",
    "phalaraluve_data_11",
    "phalaraluve_data_12",
    "phalaraluve_data_13",
    "phalaraluve_data_14",
    "phalaraluve_data_15",
    "phalaraluve_data_16",
    "phalaraluve_data_17",
    "phalaraluve_data_18",
    "phalaraluve_data_19",
    "phalaraluve_data_20",
];

const SAMPLE: &str = include_str!("../../../../levels/klotski/mahynotch_test_2_spec_sample.in");

/// Small boards (rows, columns, blanks, blocks, unsolvable), each drawn with seeds 1 and 2.
const SMALL: &[(u32, u32, u32, &[Shape], bool)] = &[
    (3, 3, 1, &[], false),
    (3, 4, 1, &[], false),
    (2, 6, 1, &[], false),
    (3, 4, 2, &[], false),
    (3, 4, 2, &[Shape::Square], false),
    (3, 4, 3, &[Shape::Tall, Shape::Wide], false),
    (2, 6, 2, &[Shape::Wide, Shape::Wide], false),
    (4, 3, 2, &[Shape::Tall, Shape::Tall], false),
    (3, 3, 2, &[Shape::Wide], false),
    (3, 4, 1, &[Shape::Wide], true),
    (3, 4, 2, &[Shape::Tall], true),
];

/// Slides of the walk that scrambles the bench's 24-puzzles: it leaves them some 50-70 slides
/// from the goal, where the 6-6-6-6 tables answer within a second and linear conflicts take
/// many seconds (a walk of 200 leaves them over 80 from it, as hard as random ones).
const TWENTY_FOUR_WALK: u32 = 80;

/// The whole suite.
pub fn suite(fifteen: u64, twenty_four: u64) -> anyhow::Result<Vec<Instance>> {
    let mut instances = Vec::new();
    for &(name, text) in COURSE {
        instances.push(Instance {
            suite: Suite::Course,
            name: name.to_string(),
            puzzle: parse_puzzle(text)?,
        });
    }
    for &(rows, cols, blanks, blocks, unsolvable) in SMALL {
        for seed in 1..=2 {
            let options = GenerateOptions {
                rows,
                cols,
                blanks,
                blocks: blocks.to_vec(),
                seed,
                unsolvable,
                ..GenerateOptions::default()
            };
            let shapes: Vec<String> = blocks.iter().map(Shape::to_string).collect();
            let name = format!(
                "{rows}x{cols} b{blanks} [{}] s{seed}{}",
                shapes.join(","),
                if unsolvable { " unsolvable" } else { "" }
            );
            instances.push(Instance {
                suite: Suite::Small,
                name,
                puzzle: generate(&options)?,
            });
        }
    }
    for seed in 1..=fifteen {
        let options = GenerateOptions {
            seed,
            ..GenerateOptions::default()
        };
        instances.push(Instance {
            suite: Suite::Fifteen,
            name: format!("15-puzzle s{seed}"),
            puzzle: generate(&options)?,
        });
    }
    for seed in 1..=twenty_four {
        let options = GenerateOptions {
            rows: 5,
            cols: 5,
            seed,
            walk: Some(TWENTY_FOUR_WALK),
            ..GenerateOptions::default()
        };
        instances.push(Instance {
            suite: Suite::TwentyFour,
            name: format!("24-puzzle walk s{seed}"),
            puzzle: generate(&options)?,
        });
    }
    instances.push(Instance {
        suite: Suite::Sample,
        name: "seed's 5x6 sample".to_string(),
        puzzle: parse_puzzle(SAMPLE)?,
    });
    Ok(instances)
}

/// Runs the bench: the tables and the summary to `out`, a note while the heuristic tables are
/// built (seconds on 4x4) to `notes`.
pub fn run(
    args: &BenchArgs,
    out: &mut impl Write,
    notes: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.chart {
        crate::png_file::check_png_path(path, "chart")?;
    }
    let instances = suite(args.fifteen, args.twenty_four)?;
    let methods: Vec<Method> = if args.methods.is_empty() {
        Method::SEARCHES.into_iter().chain([Method::Auto]).collect()
    } else {
        args.methods.iter().map(|method| method.method()).collect()
    };
    let heuristics: Vec<HeuristicKind> = args.heuristics.iter().map(|arg| arg.kind()).collect();
    let contenders = contenders(&methods, &heuristics);
    // Pattern databases are loaded or built once per process; first, so that no instance's
    // time includes them.
    writeln!(notes, "loading or building the heuristic tables...")?;
    let building = Instant::now();
    for instance in &instances {
        for &heuristic in &heuristics {
            prepare(&instance.puzzle, heuristic);
        }
    }
    writeln!(
        out,
        "{} puzzles, {} ms a search; heuristic tables ready in {:.1} s",
        instances.len(),
        args.budget_ms,
        building.elapsed().as_secs_f64()
    )?;
    let options = |contender: Contender| SolveOptions {
        method: contender.method,
        budget: Duration::from_millis(args.budget_ms),
        heuristic: contender.heuristic.unwrap_or(HeuristicKind::Manhattan),
        ..SolveOptions::default()
    };
    let mut runs = Vec::new();
    for &contender in &contenders {
        writeln!(out, "\n== {}", contender.name())?;
        writeln!(
            out,
            "{:<34} {:>6} {:>6} {:>6} {:>10} {:>12} {:>6} tables",
            "puzzle", "answer", "steps", "proved", "time ms", "expanded", "bound"
        )?;
        for (index, instance) in instances.iter().enumerate() {
            let report = solve(&instance.puzzle, &options(contender));
            let (length, proved, no) = match &report.verdict {
                Verdict::Solved {
                    moves,
                    proved_shortest,
                } => (Some(moves.len()), *proved_shortest, false),
                Verdict::Unsolvable(_) => (None, true, true),
                Verdict::Undecided => (None, false, false),
            };
            let tables = report.tables.unwrap_or_default();
            let run = Run {
                contender,
                instance: index,
                length,
                proved,
                no,
                time: report.elapsed,
                expanded: report.stats.expanded,
                lower_bound: report.stats.lower_bound,
            };
            writeln!(out, "{} {tables}", row(instance, &run))?;
            runs.push(run);
        }
    }
    let disagreements = disagreements(&instances, &runs);
    writeln!(
        out,
        "\n== summary (time: mean / max over the answered puzzles)"
    )?;
    write_summary(out, &instances, &contenders, &runs)?;
    for line in &disagreements {
        writeln!(out, "DISAGREEMENT: {line}")?;
    }
    if let Some(path) = &args.chart {
        let note = chart::draw(path, &instances, &contenders, &runs)?;
        writeln!(out, "\nchart written to {}{note}", path.display())?;
    }
    Ok(if disagreements.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn row(instance: &Instance, run: &Run) -> String {
    let answer = match (run.length, run.no) {
        (Some(_), _) => "Yes",
        (None, true) => "No",
        (None, false) => "-",
    };
    let steps = run
        .length
        .map_or("-".to_string(), |length| length.to_string());
    let proved = if run.answered() && run.proved {
        "yes"
    } else {
        "no"
    };
    format!(
        "{:<34} {answer:>6} {steps:>6} {proved:>6} {:>10.1} {:>12} {:>6}",
        instance.name,
        run.time.as_secs_f64() * 1000.0,
        run.expanded,
        run.lower_bound
    )
}

/// Proved answers that differ between methods: each is a bug somewhere.
fn disagreements(instances: &[Instance], runs: &[Run]) -> Vec<String> {
    let mut found = Vec::new();
    for (index, instance) in instances.iter().enumerate() {
        let proved: Vec<&Run> = runs
            .iter()
            .filter(|run| run.instance == index && run.answered() && run.proved)
            .collect();
        if let Some(first) = proved.first()
            && let Some(other) = proved
                .iter()
                .find(|run| (run.length, run.no) != (first.length, first.no))
        {
            found.push(format!(
                "{}: {} says {:?}, {} says {:?}",
                instance.name,
                first.contender.name(),
                first.length,
                other.contender.name(),
                other.length
            ));
        }
    }
    found
}

fn write_summary(
    out: &mut impl Write,
    instances: &[Instance],
    contenders: &[Contender],
    runs: &[Run],
) -> anyhow::Result<()> {
    writeln!(
        out,
        "{:<22} {:<11} {:>8} {:>8} {:>8} {:>19} {:>14}",
        "method", "suite", "answered", "proved", "puzzles", "time ms mean / max", "expanded"
    )?;
    for &contender in contenders {
        for suite in Suite::ALL {
            let of_suite: Vec<&Run> = runs
                .iter()
                .filter(|run| run.contender == contender && instances[run.instance].suite == suite)
                .collect();
            let answered: Vec<&&Run> = of_suite.iter().filter(|run| run.answered()).collect();
            let proved = answered.iter().filter(|run| run.proved).count();
            let times: Vec<f64> = answered
                .iter()
                .map(|run| run.time.as_secs_f64() * 1000.0)
                .collect();
            let time = match times.len() {
                0 => "-".to_string(),
                answered => format!(
                    "{:.1} / {:.1}",
                    times.iter().sum::<f64>() / answered as f64,
                    times.iter().copied().fold(0.0, f64::max)
                ),
            };
            let expanded: u64 = of_suite.iter().map(|run| run.expanded).sum();
            writeln!(
                out,
                "{:<22} {:<11} {:>8} {:>8} {:>8} {:>19} {:>14}",
                contender.name(),
                suite.name(),
                answered.len(),
                proved,
                of_suite.len(),
                time,
                expanded
            )?;
        }
    }
    Ok(())
}
