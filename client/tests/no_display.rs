//! Every window command without a display: refused with exit code 1, and the error points to
//! its own game's terminal command rather than to another game's; the window's `--name` is
//! not kept then.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const CLIENT: &str = env!("CARGO_BIN_EXE_client");

fn levels() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels")
}

/// The home of the window commands whose home does not matter.
const HOME: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/parlor-home");

/// Runs the client with `args`, no DISPLAY and `home` as PARLOR_HOME, `stdin` as its input;
/// returns its stderr.
fn refused_without_display(home: &Path, args: &[&str], stdin: Stdio) -> String {
    let output = Command::new(CLIENT)
        .env("PARLOR_HOME", home)
        .args(args)
        .env_remove("DISPLAY")
        .stdin(stdin)
        .output()
        .expect("client runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(stderr.contains("no X display"), "{args:?}: {stderr}");
    stderr
}

fn puzzle() -> Stdio {
    let path = levels().join("klotski/lunaqu4kez_extra_04.in");
    std::fs::File::open(path).unwrap().into()
}

#[test]
fn each_window_command_without_a_display_points_to_its_own_games_terminal_command() {
    let dir = tempfile::tempdir().unwrap();
    let slides = dir.path().join("slides.txt");
    std::fs::write(&slides, "").unwrap();
    let ewn_moves = dir.path().join("moves.txt");
    let level1 = levels().join("ewn/level1.txt");
    let solved = Command::new(CLIENT)
        .env("PARLOR_HOME", HOME)
        .args(["ewn", "solve"])
        .arg(&level1)
        .arg("--out")
        .arg(&ewn_moves)
        .output()
        .unwrap();
    assert!(solved.status.success(), "{solved:?}");
    let (slides, ewn_moves) = (slides.to_str().unwrap(), ewn_moves.to_str().unwrap());
    let bricks = [
        "bricks", "show", "--height", "10", "--drops", "4", "--bricks", "2",
    ];
    let cases: [(&[&str], Stdio, &str); 6] = [
        (&["klotski", "gui"], puzzle(), "`client klotski terminal`"),
        (
            &["klotski", "show", "--moves", slides],
            puzzle(),
            "`client klotski terminal`",
        ),
        (&bricks, Stdio::null(), "`client bricks play`"),
        (
            &["ewn", "view", ewn_moves, "--gui"],
            Stdio::null(),
            "`client ewn view`",
        ),
        (&["cave", "show"], Stdio::null(), "`client cave console`"),
        (&[], Stdio::null(), "`client klotski`"),
    ];
    for (args, stdin, console) in cases {
        let stderr = refused_without_display(Path::new(HOME), args, stdin);
        assert!(stderr.contains(console), "{args:?}: {stderr}");
        if !args.is_empty() && args[0] != "cave" {
            assert!(!stderr.contains("client cave"), "{args:?}: {stderr}");
        }
    }
}

#[test]
fn a_name_for_a_window_that_cannot_open_is_not_kept() {
    let home = tempfile::tempdir().unwrap();
    refused_without_display(home.path(), &["--name", "Ada"], Stdio::null());
    let made: Vec<_> = std::fs::read_dir(home.path()).unwrap().collect();
    assert!(made.is_empty(), "nothing is made in a new home: {made:?}");

    let named = Command::new(CLIENT)
        .env("PARLOR_HOME", home.path())
        .args(["identity", "name", "Bob"])
        .output()
        .unwrap();
    assert!(named.status.success(), "{named:?}");
    let kept = home.path().join("config/identity.json");
    let before = std::fs::read_to_string(&kept).unwrap();
    refused_without_display(home.path(), &["--name", "Ada"], Stdio::null());
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), before, "still Bob");
}
