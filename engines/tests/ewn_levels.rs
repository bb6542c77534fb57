//! Golden games: for each level in `levels/ewn/`, `shared/tests/golden/ewn/<level>.moves.txt` is a
//! solution. The checker must accept it as a win, the solver (which tries every shorter length
//! first, and is checked against breadth-first search in the unit tests) must find one of the
//! same length, and `levels/ewn/README.md` must state that length and the level's move limit.

use std::path::{Path, PathBuf};

use parlor_engines::ewn::solve;
use parlor_shared::ewn::{Level, Rules, Status, check_moves, parse_level, parse_moves};

fn levels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/ewn")
}

fn level(name: &str, rules: Rules) -> Level {
    let text = std::fs::read_to_string(levels_dir().join(format!("{name}.txt"))).unwrap();
    parse_level(&text, rules).unwrap()
}

/// The length of the golden solution, after checking it wins the level.
fn golden_length(name: &str) -> usize {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/tests/golden/ewn")
        .join(format!("{name}.moves.txt"));
    let moves = parse_moves(&std::fs::read_to_string(path).unwrap()).unwrap();
    let checked = check_moves(&moves, &level(name, Rules::default())).unwrap();
    assert_eq!(checked.status, Status::Won, "{name}");
    checked.moves
}

fn check_level(name: &str) {
    let optimum = golden_length(name);
    let solution = solve(&level(name, Rules::default())).unwrap();
    assert_eq!(solution.moves.len(), optimum, "{name}");
    let states = solution.replay(&level(name, Rules::default())).unwrap();
    assert_eq!(
        level(name, Rules::default()).status(states.last().unwrap()),
        Status::Won
    );
}

macro_rules! golden_levels {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                check_level(stringify!($name));
            }
        )*
    };
}

golden_levels!(
    level1, level2, level3, level4, level5, level6, level7, level8, level9, level10, level11,
    level12,
);

#[test]
fn every_level_has_a_golden_game_and_the_readme_states_its_optimum() {
    let readme = std::fs::read_to_string(levels_dir().join("README.md")).unwrap();
    let rows: Vec<Vec<&str>> = readme
        .lines()
        .filter(|line| line.starts_with("| level") && !line.starts_with("| level |"))
        .map(|line| line.split('|').map(str::trim).collect())
        .collect();
    let files = std::fs::read_dir(levels_dir())
        .unwrap()
        .filter(|entry| {
            let path = entry.as_ref().unwrap().path();
            path.extension().is_some_and(|ext| ext == "txt")
        })
        .count();
    assert_eq!(rows.len(), files, "one README row per level file");
    for row in rows {
        let (name, target, optimum) = (row[1], row[2], row[3]);
        assert_eq!(optimum, golden_length(name).to_string(), "{name}");
        let level = level(name, Rules::default());
        assert_eq!(target, level.target().to_string(), "{name}");
        // "-": no limit of its own, so the 30 dice's.
        let limit = row[4].replace('-', "30");
        assert_eq!(limit, level.rules().max_moves.to_string(), "{name}");
    }
}

#[test]
fn a_solve_with_a_deadline_gives_up_when_it_passes_and_else_finds_the_same_optimum() {
    use std::time::{Duration, Instant};

    use parlor_engines::ewn::{OutOfTime, solve_by};

    // Level 8 takes about 100,000 positions: far more than one look at the clock apart.
    let hard = level("level8", Rules::default());
    assert_eq!(solve_by(&hard, Instant::now()), Err(OutOfTime));
    let in_time = solve_by(&hard, Instant::now() + Duration::from_secs(600)).unwrap();
    assert_eq!(in_time, solve(&hard));
    assert_eq!(in_time.unwrap().moves.len(), golden_length("level8"));
}
