//! `client hexapawn brains`: HER's brains kept by a server, listed, exported, imported and
//! reset over the protocol. Without `--server` the brains are those of the embedded server's
//! data directory (the window's games against HER teach those).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use parlor_shared::brain_parts::{self, Assembly, Part};
use parlor_shared::hexapawn::BrainRef;
use parlor_shared::protocol::{BrainSummary, ClientMsg, ServerMsg};

use crate::identity::{Home, Identity};
use crate::net::{Connection, NetEvent};
use crate::text_file::read_text_file;

#[derive(Args, Debug)]
pub struct BrainsArgs {
    /// The server whose brains to use, e.g. ws://192.168.1.20:7878 (a bare HOST:PORT gets
    /// ws:// in front, as for the window's --server). Default: the brains in --data, through
    /// a server started inside this command.
    #[arg(long)]
    server: Option<String>,
    /// The data directory of the embedded server (ignored with --server).
    #[arg(long, default_value = "parlor-data")]
    data: PathBuf,
    /// Seconds to wait for each step of the server's answer (an import waits a second more
    /// per 64 KiB sent); other messages from the server do not count as an answer.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=600))]
    timeout: u64,
    #[command(subcommand)]
    command: BrainsCommand,
}

#[derive(Subcommand, Debug)]
pub enum BrainsCommand {
    /// The brains (the 150 changed last, by name): board, mirror setting, boxes, beads and
    /// games played. Any brain can be exported or reset by name, listed or not.
    List,
    /// Print a brain as JSON (position -> move -> beads; see BrainFile in the docs).
    Export {
        /// The brain's name, as `list` shows it.
        name: String,
        /// Write to this file instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Store a brain from a JSON file under NAME, replacing any brain of that name.
    Import {
        /// The name to store it under: 1 to 40 printable characters, no space at either end
        /// and no `/` (but an operator's hall/NAME shares it with everybody).
        name: String,
        /// The JSON file, as `export` writes it.
        file: PathBuf,
    },
    /// Empty a brain: HER forgets all it learnt (same board and mirror setting).
    Reset {
        /// The brain's name, as `list` shows it.
        name: String,
    },
    /// Delete a brain of yours (an operator of the server, any brain; without --server you
    /// are the operator of the brains in --data).
    Delete {
        /// The brain's name, as `list` shows it.
        name: String,
    },
}

pub fn run(args: BrainsArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    // The server answers an import once it has it all: patience for the time it takes to
    // send, at 64 KiB a second at least.
    let mut patience = Duration::from_secs(args.timeout);
    let requests = match &args.command {
        BrainsCommand::List => vec![ClientMsg::ListBrains],
        BrainsCommand::Export { name, .. } => vec![ClientMsg::ExportBrain { name: name.clone() }],
        BrainsCommand::Import { name, file } => {
            // The server refuses such a name too; refused here, before the file is read and sent.
            BrainRef::parse_new(name).map_err(anyhow::Error::msg)?;
            let json =
                read_text_file(file).with_context(|| format!("cannot read {}", file.display()))?;
            // Read here too, so that a wrong file reaches no server (nor makes a --data folder).
            parlor_shared::hexapawn::Brain::from_json(&json)
                .with_context(|| format!("cannot import {}", file.display()))?;
            patience += Duration::from_secs(json.len() as u64 / 65_536);
            brain_parts::import_requests(name, &json).collect()
        }
        BrainsCommand::Reset { name } => vec![ClientMsg::ResetBrain { name: name.clone() }],
        BrainsCommand::Delete { name } => vec![ClientMsg::DeleteBrain { name: name.clone() }],
    };
    let identity = Identity::load_or_create(&Home::locate()?)?;
    // Only an import stores something: the others would create an empty store where a
    // mistyped --data points, and answer as if it held nothing.
    let creates = matches!(args.command, BrainsCommand::Import { .. });
    let hall = crate::cli::admin::hall_url(args.server.as_deref(), &args.data, &identity, creates)?;
    let file = match &args.command {
        BrainsCommand::Export { name, .. } => Some(name.as_str()),
        _ => None,
    };
    match exchange(&hall.url, &identity, requests, file, patience)? {
        Answer::Brains(brains) => {
            match &args.command {
                BrainsCommand::Import { name, .. } => writeln!(out, "Stored brain {name:?}.")?,
                BrainsCommand::Reset { name } => writeln!(out, "Brain {name:?} is empty again.")?,
                BrainsCommand::Delete { name } => writeln!(out, "Brain {name:?} is deleted.")?,
                _ => {}
            }
            write_list(out, &brains)?;
        }
        Answer::File(json) => match &args.command {
            BrainsCommand::Export {
                out: Some(path), ..
            } => {
                crate::out_file::write(path, json + "\n")?;
            }
            _ => writeln!(out, "{json}")?,
        },
        Answer::Refused(message) => {
            let _ = writeln!(
                std::io::stderr(),
                "client: the server refused: {}",
                printable(&message)
            );
            return Ok(ExitCode::FAILURE);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What the server answered.
enum Answer {
    Brains(Vec<BrainSummary>),
    /// A brain file, joined from its parts.
    File(String),
    Refused(String),
}

/// The longest an exchange may take in all, however the server trickles its answer: the
/// server's own limit on an export (600 s), and a little more.
const MOST_IN_ALL: Duration = Duration::from_secs(660);

/// Sends `requests` and waits for their answer: the brain file named `file` (an export), else
/// the brains list; or the server's error. Patience runs from the last step of that answer
/// (a large file takes many frames); anything else the server sends is passed over and buys
/// no time, and the whole exchange ends after [`MOST_IN_ALL`].
fn exchange(
    url: &str,
    identity: &Identity,
    requests: Vec<ClientMsg>,
    file: Option<&str>,
    patience: Duration,
) -> anyhow::Result<Answer> {
    // One exchange: a dropped connection is an error here, not resumed.
    let connection = Connection::open_once(url, identity);
    let mut requests = Some(requests);
    let mut joined = None;
    let started = Instant::now();
    let mut progress = started;
    loop {
        let now = Instant::now();
        let wait = (progress + patience)
            .min(started + MOST_IN_ALL)
            .saturating_duration_since(now);
        let event = connection.recv_timeout(wait);
        let Some(event) = event else {
            let so_far = joined
                .as_ref()
                .map_or(String::new(), |assembly: &Assembly| {
                    let (_, parts) = assembly.file();
                    format!(" (a brain file of {parts} parts was under way)")
                });
            bail!(
                "no answer from {url} within {} s{so_far}",
                Instant::now().duration_since(progress).as_secs()
            );
        };
        match event {
            NetEvent::Connected { .. } => {
                progress = Instant::now();
                for request in requests.take().into_iter().flatten() {
                    connection.send(request);
                }
            }
            NetEvent::Disconnected(reason) => bail!("{}", printable(&reason)),
            NetEvent::Message(message) => {
                if let ServerMsg::Error { message, .. } = *message {
                    return Ok(Answer::Refused(message));
                }
                match (file, &*message) {
                    (Some(name), _) => {
                        let Some(part) = Part::of_export(&message).filter(|p| p.name == name)
                        else {
                            continue;
                        };
                        progress = Instant::now();
                        match Assembly::take(&mut joined, part) {
                            Ok(Some((_, json))) => return checked_brain_file(json),
                            Ok(None) => {}
                            Err(refusal) => bail!("the server sent a broken brain file: {refusal}"),
                        }
                    }
                    (None, ServerMsg::Brains(brains)) => return Ok(Answer::Brains(brains.clone())),
                    (None, _) => {}
                }
            }
            _ => {}
        }
    }
}

/// `json` if it reads as a brain file, so that `export --out` never replaces a file with
/// something else.
fn checked_brain_file(json: String) -> anyhow::Result<Answer> {
    match parlor_shared::hexapawn::Brain::from_json(&json) {
        Ok(_) => Ok(Answer::File(json)),
        Err(error) => bail!("the server sent something that is not a brain file: {error}"),
    }
}

/// `text` from the server with the characters that would act on a terminal (controls such as
/// escape sequences, and bidirectional overrides) shown as `?`.
fn printable(text: &str) -> String {
    let acts = |c: char| {
        c.is_control()
            || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    text.chars()
        .map(|c| if acts(c) { '?' } else { c })
        .collect()
}

fn write_list(out: &mut impl Write, brains: &[BrainSummary]) -> std::io::Result<()> {
    if brains.is_empty() {
        return writeln!(
            out,
            "No brains yet: play HER or start an auto match to make one."
        );
    }
    writeln!(
        out,
        "{:<24} {:>5} {:>8} {:>6} {:>6} {:>9}",
        "name", "board", "mirrors", "boxes", "beads", "games"
    )?;
    for brain in brains {
        writeln!(
            out,
            "{:<24} {:>5} {:>8} {:>6} {:>6} {:>9}",
            printable(&brain.name),
            brain.dims.to_string(),
            if brain.mirrors { "merged" } else { "apart" },
            brain.boxes,
            brain.beads,
            brain.games
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list_on(server: &str, data: PathBuf) -> anyhow::Result<(ExitCode, String)> {
        let args = BrainsArgs {
            server: Some(server.to_string()),
            data,
            timeout: 20,
            command: BrainsCommand::List,
        };
        let mut out = Vec::new();
        let code = run(args, &mut out)?;
        Ok((code, String::from_utf8(out).unwrap()))
    }

    #[test]
    fn a_brain_is_not_imported_under_a_name_with_spaces_at_its_ends_or_a_slash() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["HER ", " HER", "a/b"] {
            let args = BrainsArgs {
                server: None,
                data: dir.path().join("parlor-data"),
                timeout: 20,
                command: BrainsCommand::Import {
                    name: name.into(),
                    file: dir.path().join("her.json"),
                },
            };
            let refused = run(args, &mut Vec::new()).unwrap_err().to_string();
            assert!(
                refused.starts_with("a brain name may not"),
                "{name:?}: {refused}"
            );
            assert!(
                !dir.path().join("parlor-data").exists(),
                "nothing is started or made"
            );
        }
    }

    #[test]
    fn reading_brains_from_a_data_directory_that_is_not_there_is_refused_and_creates_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("parlor-dta");
        for command in [
            BrainsCommand::List,
            BrainsCommand::Reset { name: "x".into() },
        ] {
            let args = BrainsArgs {
                server: None,
                data: missing.clone(),
                timeout: 20,
                command,
            };
            let error = run(args, &mut Vec::new()).unwrap_err().to_string();
            assert!(error.contains("no data directory at"), "{error}");
            assert!(!missing.exists());
        }
    }

    /// The command closes the store of the server it started: `games.db`, copied without
    /// the WAL beside it, holds the brain it imported.
    #[test]
    fn a_brain_imported_through_a_data_directory_is_in_its_database_file_alone() {
        use parlor_shared::hexapawn::{Brain, Dims};
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("her.json");
        let brain = Brain::new(Dims::new(3, 3).unwrap(), true);
        std::fs::write(&file, brain.to_json()).unwrap();
        let data = dir.path().join("parlor-data");
        let import = BrainsArgs {
            server: None,
            data: data.clone(),
            timeout: 20,
            command: BrainsCommand::Import {
                name: "Kept".into(),
                file,
            },
        };
        assert_eq!(run(import, &mut Vec::new()).unwrap(), ExitCode::SUCCESS);
        let copy = dir.path().join("copy");
        std::fs::create_dir(&copy).unwrap();
        std::fs::copy(data.join("games.db"), copy.join("games.db")).unwrap();
        let list = BrainsArgs {
            server: None,
            data: copy,
            timeout: 20,
            command: BrainsCommand::List,
        };
        let mut out = Vec::new();
        assert_eq!(run(list, &mut out).unwrap(), ExitCode::SUCCESS);
        let listing = String::from_utf8(out).unwrap();
        assert!(listing.contains("Kept"), "{listing}");
    }

    /// A data directory a running server holds is refused with the way to reach that server.
    #[test]
    fn a_data_directory_in_use_is_refused_with_how_to_reach_its_server() {
        let dir = tempfile::tempdir().unwrap();
        let config =
            parlor_server::ServerConfig::new(([127, 0, 0, 1], 0).into(), Some(dir.path().into()));
        let _running = parlor_server::start_in_background(config).unwrap();
        let list = BrainsArgs {
            server: None,
            data: dir.path().into(),
            timeout: 20,
            command: BrainsCommand::List,
        };
        let refused = run(list, &mut Vec::new()).unwrap_err().to_string();
        assert!(
            refused.contains("--server ADDRESS after this command's name"),
            "{refused}"
        );
    }

    #[test]
    fn a_bare_host_and_port_is_a_server_as_in_the_window_and_a_blank_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let config =
            parlor_server::ServerConfig::new(([127, 0, 0, 1], 0).into(), Some(dir.path().into()));
        let url = parlor_server::start_in_background(config).unwrap().url();
        let bare = url.strip_prefix("ws://").unwrap();
        let (code, listing) = list_on(bare, dir.path().join("unused")).unwrap();
        assert_eq!(code, ExitCode::SUCCESS);
        assert!(listing.starts_with("No brains yet"), "{listing}");

        let refused = list_on("  ", dir.path().join("unused")).unwrap_err();
        assert!(
            refused.to_string().contains("--server needs an address"),
            "{refused}"
        );
    }
}
