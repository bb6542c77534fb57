//! `client hexapawn brains` against the embedded server's data directory: a brain imported from
//! a file (larger than a frame, so in parts) comes back the same, survives into the next command (a new process), resets to
//! empty, and bad files or names are refused with the reason and exit code 1.

use std::path::Path;
use std::process::{Command, Output};

const CLIENT: &str = env!("CARGO_BIN_EXE_client");

fn brains(data: &Path, args: &[&str]) -> Output {
    Command::new(CLIENT)
        .env(
            "PARLOR_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/parlor-home"),
        )
        .args(["hexapawn", "brains", "--data"])
        .arg(data)
        .args(args)
        .output()
        .expect("client runs")
}

fn text(output: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A fresh directory for one test's files, removed when dropped.
fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

#[test]
fn a_brain_is_imported_exported_listed_and_reset_across_processes() {
    let dir = scratch();
    let data = dir.path().join("data");
    let auto = Command::new(CLIENT)
        .env(
            "PARLOR_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/parlor-home"),
        )
        .args([
            "hexapawn", "auto", "--size", "4x4", "--rounds", "2000", "--seed", "3", "--json",
        ])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&auto.stdout).unwrap();
    let brain = &report["hers"][1]["brain"];
    let file = dir.path().join("brain.json");
    std::fs::write(&file, brain.to_string()).unwrap();
    // More than a frame holds: the file travels in parts both ways.
    let frame = parlor_shared::codec::MAX_FRAME_BYTES as u64;
    assert!(std::fs::metadata(&file).unwrap().len() > 2 * frame);

    let imported = brains(&data, &["import", "Taught", file.to_str().unwrap()]);
    assert!(imported.status.success(), "{:?}", text(&imported));
    let (listing, _) = text(&brains(&data, &["list"]));
    let beads = report["hers"][1]["beads"].as_u64().unwrap();
    let row = listing.lines().find(|l| l.starts_with("Taught")).unwrap();
    assert!(
        row.split_whitespace().any(|w| w == beads.to_string()),
        "{listing}"
    );

    let exported = brains(&data, &["export", "Taught"]);
    let back: serde_json::Value = serde_json::from_slice(&exported.stdout).unwrap();
    assert_eq!(&back, brain);

    let reset = brains(&data, &["reset", "Taught"]);
    let (out, _) = text(&reset);
    assert!(out.contains("empty again"), "{out}");
    let row_after = out
        .lines()
        .find(|l| l.starts_with("Taught"))
        .unwrap()
        .to_string();
    assert_eq!(row_after.split_whitespace().nth(4), Some("0"), "{out}");
}

#[test]
fn bad_files_and_unknown_names_are_refused_with_the_reason() {
    let dir = scratch();
    let data = dir.path().join("data");
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, r#"{"format":"something else"}"#).unwrap();
    // A wrong file is refused before any server is asked: no store is made for it.
    let output = brains(&data, &["import", "X", bad.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(!data.exists(), "a refused import made {}", data.display());
    std::fs::create_dir(&data).unwrap();
    for (args, reason) in [
        (
            vec!["import", "X", bad.to_str().unwrap()],
            "not a Hexapawn brain file",
        ),
        (vec!["export", "Nobody"], "no brain named \"Nobody\""),
        (vec!["reset", "Nobody"], "no brain named \"Nobody\""),
        (vec!["import", "X", "/no/such/file.json"], "cannot read"),
    ] {
        let output = brains(&data, &args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let (_, stderr) = text(&output);
        assert!(stderr.contains(reason), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn the_windows_options_before_a_subcommand_are_refused_not_ignored() {
    // `client --server URL hexapawn brains reset X` once reset the local brain X instead.
    for window_option in [["--server", "ws://127.0.0.1:9"], ["--data", "elsewhere"]] {
        let output = Command::new(CLIENT)
            .env(
                "PARLOR_HOME",
                concat!(env!("CARGO_TARGET_TMPDIR"), "/parlor-home"),
            )
            .args(window_option)
            .args(["hexapawn", "brains", "reset", "X"])
            .output()
            .expect("client runs");
        assert_eq!(output.status.code(), Some(2), "{window_option:?}");
        let (_, stderr) = text(&output);
        assert!(stderr.contains("cannot be used with"), "{stderr}");
    }
}
