//! `client klotski terminal` run at a terminal with nothing piped in says that it reads the
//! puzzle from the keyboard, instead of seeming to hang; with a file piped in it says nothing
//! of the kind. The terminal is `script`'s (util-linux): where there is none, or another kind, the
//! test is skipped with a note, except in CI.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CLIENT: &str = env!("CARGO_BIN_EXE_client");
const NOTE: &str = "reading the puzzle from the keyboard";

/// Skips the test with a note, except in CI, which runs it on Debian's util-linux.
fn skip(why: &str) {
    assert!(std::env::var_os("CI").is_none(), "{why}");
    eprintln!("skipped: {why}");
}

#[test]
fn a_puzzle_awaited_from_a_terminal_says_so_and_one_piped_in_does_not() {
    let piped = Command::new(CLIENT)
        .args(["klotski", "terminal"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&piped.stderr).contains(NOTE));

    let at_terminal = Command::new("script")
        .args(["-qec", &format!("{CLIENT} klotski terminal"), "/dev/null"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut at_terminal) = at_terminal else {
        return skip("`script` (util-linux) is not installed");
    };
    // Some `script`s pass no end of input on to the program: it would wait for ever.
    let start = Instant::now();
    while at_terminal.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(20) {
            let _ = at_terminal.kill();
            let _ = at_terminal.wait();
            return skip("this `script` gave the client no end of input");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let mut shown = String::new();
    at_terminal
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut shown)
        .unwrap();
    // `script` copies what the client wrote to its terminal, stderr too, to its stdout; one
    // that does not take util-linux's options (BSD's) runs no client at all.
    if !shown.contains("the input ends") {
        eprintln!(
            "skipped: this `script` does not run `-qec COMMAND` as util-linux's does: {shown}"
        );
        return;
    }
    assert!(shown.contains(NOTE), "{shown}");
}
