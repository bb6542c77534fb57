//! Where a Klotski command reads its puzzle: standard input, as the course's grader gives it,
//! or a file or built-in board named with `--level`.

use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;

use crate::builtin_levels;
use crate::text_file::{read_at_most, text_from_utf8};

/// The longest input read from standard input.
const MAX_INPUT_BYTES: u64 = 1 << 20;

/// Where a command reads its puzzle: standard input, as the course's grader gives it, or a
/// file or built-in board named with `--level`.
#[derive(Args, Debug)]
pub struct PuzzleInput {
    /// Read the puzzle from this file, or the built-in board of this name (`client levels
    /// klotski`), instead of standard input.
    #[arg(long)]
    pub(super) level: Option<PathBuf>,
}

impl PuzzleInput {
    pub(super) fn read(&self) -> anyhow::Result<String> {
        match &self.level {
            None => {
                let stdin = std::io::stdin();
                // Without a file piped in, a person at a terminal would see nothing happen.
                if std::io::IsTerminal::is_terminal(&stdin) {
                    eprintln!(
                        "client: reading the puzzle from the keyboard: type it and end with \
                         Ctrl-D (or give a file: `< FILE`, or --level FILE)"
                    );
                }
                read_input_from(stdin)
            }
            Some(path) => builtin_levels::level_text("klotski", path)
                .with_context(|| format!("reading {}", path.display())),
        }
    }
}

/// The puzzle on `input` (standard input), refusing anything longer than a puzzle could
/// sensibly be; a leading byte order mark is skipped.
pub(super) fn read_input_from(input: impl std::io::Read) -> anyhow::Result<String> {
    let Some(bytes) = read_at_most(input, MAX_INPUT_BYTES).context("reading standard input")?
    else {
        bail!("the input is longer than {MAX_INPUT_BYTES} bytes");
    };
    text_from_utf8(bytes).context("the input is not UTF-8 text")
}
