//! `client hexapawn brains`: HER's brains kept by a server, listed, exported, imported and
//! reset over the protocol. Without `--server` the brains are those of the embedded server's
//! data directory (the window's games against HER teach those).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use parlor_shared::protocol::{BrainSummary, ClientMsg, ServerMsg};

use crate::net::{Connection, NetEvent};
use crate::text_file::read_text_file;

/// How long to wait for the server's answer.
const PATIENCE: Duration = Duration::from_secs(20);

#[derive(Args, Debug)]
pub struct BrainsArgs {
    /// The server whose brains to use, e.g. ws://192.168.1.20:7878. Default: the brains in
    /// --data, through a server started inside this command.
    #[arg(long)]
    server: Option<String>,
    /// The data directory of the embedded server (ignored with --server).
    #[arg(long, default_value = "parlor-data")]
    data: PathBuf,
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
        name: String,
        /// Write to this file instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Store a brain from a JSON file under NAME, replacing any brain of that name.
    Import { name: String, file: PathBuf },
    /// Empty a brain: HER forgets all it learnt (same board and mirror setting).
    Reset { name: String },
}

pub fn run(args: BrainsArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let request = match &args.command {
        BrainsCommand::List => ClientMsg::ListBrains,
        BrainsCommand::Export { name, .. } => ClientMsg::ExportBrain { name: name.clone() },
        BrainsCommand::Import { name, file } => ClientMsg::ImportBrain {
            name: name.clone(),
            json: read_text_file(file)
                .with_context(|| format!("cannot read {}", file.display()))?,
        },
        BrainsCommand::Reset { name } => ClientMsg::ResetBrain { name: name.clone() },
    };
    let url = match args.server {
        Some(url) => url,
        None => {
            let config = parlor_server::ServerConfig::new(
                ([127, 0, 0, 1], 0).into(),
                Some(args.data.clone()),
            );
            parlor_server::start_in_background(config)?.url()
        }
    };
    match ask(&url, request)? {
        ServerMsg::Brains(brains) => {
            match &args.command {
                BrainsCommand::Import { name, .. } => writeln!(out, "Stored brain {name:?}.")?,
                BrainsCommand::Reset { name } => writeln!(out, "Brain {name:?} is empty again.")?,
                _ => {}
            }
            write_list(out, &brains)?;
        }
        ServerMsg::Brain { json, .. } => match &args.command {
            BrainsCommand::Export {
                out: Some(path), ..
            } => {
                std::fs::write(path, json + "\n")
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            _ => writeln!(out, "{json}")?,
        },
        ServerMsg::Error { message, .. } => {
            eprintln!("client: the server refused: {message}");
            return Ok(ExitCode::FAILURE);
        }
        other => bail!("unexpected answer from the server: {other:?}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// Sends one request and waits for its answer (or an error).
fn ask(url: &str, request: ClientMsg) -> anyhow::Result<ServerMsg> {
    // One request, one answer: a dropped connection is an error here, not resumed.
    let connection = Connection::open_once(url);
    let deadline = Instant::now() + PATIENCE;
    let mut sent = false;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match connection.recv_timeout(left) {
            None => bail!("no answer from {url} within {} s", PATIENCE.as_secs()),
            Some(NetEvent::Connected(_)) if !sent => {
                connection.send(request.clone());
                sent = true;
            }
            Some(NetEvent::Connected(_)) => {}
            Some(NetEvent::Disconnected(reason)) => bail!("{reason}"),
            Some(NetEvent::Message(message))
                if matches!(
                    *message,
                    ServerMsg::Brains(_) | ServerMsg::Brain { .. } | ServerMsg::Error { .. }
                ) =>
            {
                return Ok(*message);
            }
            Some(_) => {}
        }
    }
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
            brain.name,
            brain.dims.to_string(),
            if brain.mirrors { "merged" } else { "apart" },
            brain.boxes,
            brain.beads,
            brain.games
        )?;
    }
    Ok(())
}
