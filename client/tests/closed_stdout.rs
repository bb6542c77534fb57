//! A command whose standard output is closed early (`client hexapawn auto | head -3`) ends
//! quietly: no "Broken pipe" error on standard error, and the exit code a shell gives a program
//! that SIGPIPE ended (141). One whose standard error cannot be written (`2>/dev/full`) still
//! ends with its own exit code, never a panic's.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

const CLIENT: &str = env!("CARGO_BIN_EXE_client");

#[test]
fn a_reader_that_stops_after_one_line_gets_no_broken_pipe_error() {
    // --json prints the learning curve point by point: megabytes, far more than a pipe holds,
    // so the client is still writing when the pipe is closed.
    let mut child = Command::new(CLIENT)
        .env(
            "PARLOR_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/parlor-home"),
        )
        .args([
            "hexapawn", "auto", "--rounds", "200000", "--seed", "1", "--json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("client runs");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert_eq!(first, "{\n");
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("Broken pipe"), "{stderr}");
    assert_eq!(stderr, "");
    assert_eq!(output.status.code(), Some(141), "{stderr}");
}

#[test]
fn an_error_that_cannot_be_written_still_ends_with_its_exit_code() {
    let Ok(full) = std::fs::File::options().write(true).open("/dev/full") else {
        return; // not Linux
    };
    let mut child = Command::new(CLIENT)
        .env(
            "PARLOR_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/parlor-home"),
        )
        .args(["klotski", "terminal"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(full)
        .spawn()
        .expect("client runs");
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"1 2\n").unwrap();
    let status = child.wait().unwrap();
    assert_eq!(
        status.code(),
        Some(1),
        "bad input, said where nobody can read it"
    );
}
