//! `client klotski terminal` run at a terminal with nothing piped in says that it reads the
//! puzzle from the keyboard, instead of seeming to hang; with a file piped in it says nothing
//! of the kind. The terminal is `script`'s (util-linux), skipped with a note where it is missing.

use std::process::{Command, Stdio};

const CLIENT: &str = env!("CARGO_BIN_EXE_client");
const NOTE: &str = "reading the puzzle from the keyboard";

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
        .output();
    let Ok(at_terminal) = at_terminal else {
        eprintln!("skipped: `script` (util-linux) is not installed");
        return;
    };
    // `script` copies what the client wrote to its terminal, stderr too, to its stdout.
    let shown = String::from_utf8_lossy(&at_terminal.stdout);
    assert!(shown.contains(NOTE), "{shown}");
    assert!(
        shown.contains("the input ends"),
        "then the end of input is told: {shown}"
    );
}
