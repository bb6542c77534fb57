//! Every committed fuzz corpus file (`fuzz/corpus/<target>/`) through the same checks as its
//! fuzz target, on stable: the corpora hold the inputs the fuzzers found interesting, including
//! every input that once crashed, so this keeps the fixed bugs fixed without nightly or
//! libFuzzer. See docs/FUZZING.md.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

/// The fuzz targets' checks (plain functions of bytes), shared with `fuzz/fuzz_targets/`.
#[path = "../../fuzz/src/lib.rs"]
mod checks;

fn corpus(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files
}

/// Runs `check` on every file of the target's corpus and names every file it panics on.
fn run(target: &str, check: fn(&[u8])) {
    let files = corpus(target);
    assert!(!files.is_empty(), "the {target} corpus is empty");
    let failed: Vec<String> = files
        .iter()
        .filter(|path| {
            let data = std::fs::read(path).unwrap();
            catch_unwind(AssertUnwindSafe(|| check(&data))).is_err()
        })
        .map(|path| path.display().to_string())
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} {target} corpus files fail:\n{}",
        failed.len(),
        files.len(),
        failed.join("\n")
    );
}

#[test]
fn client_msg_corpus() {
    run("client_msg", checks::client_msg);
}

#[test]
fn server_msg_corpus() {
    run("server_msg", checks::server_msg);
}

#[test]
fn ewn_level_corpus() {
    run("ewn_level", checks::ewn_level);
}

#[test]
fn ewn_moves_corpus() {
    run("ewn_moves", checks::ewn_moves);
}

#[test]
fn klotski_input_corpus() {
    run("klotski_input", checks::klotski_input);
}

#[test]
fn brain_json_corpus() {
    run("brain_json", checks::brain_json);
}
