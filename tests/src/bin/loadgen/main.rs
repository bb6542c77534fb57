//! `loadgen`: load generator for a Parlor server (see `--help` and the README's "Load test").

mod cli;
mod driver;
mod idle;
mod peer;
mod report;
mod rooms;
mod server;
mod stats;
mod watchers;

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Cli, Scenario};
use crate::server::Target;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("loadgen: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    if let Scenario::Rooms(args) = &cli.scenario {
        args.check()?;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("loadgen")
        .enable_all()
        .build()?;
    let mut target = Target::open(&cli.server)?;
    let batch = cli.server.connect_batch as usize;
    let result: anyhow::Result<u64> = runtime.block_on(async {
        idle::preflight(&target.url).await?;
        match &cli.scenario {
            Scenario::Idle(args) => {
                let report = idle::run(&mut target, args, batch).await?;
                report.print(args.json);
                Ok(report.held)
            }
            Scenario::Rooms(args) => {
                let report = rooms::run(&mut target, args, batch).await?;
                report.print(args.json);
                Ok(report.connections_held)
            }
        }
    });
    // Kill a spawned server first, so the connection tasks end on their own, then stop them.
    drop(target);
    runtime.shutdown_timeout(std::time::Duration::from_secs(2));
    match result? {
        0 => anyhow::bail!("no connection was still open at the end"),
        _ => Ok(()),
    }
}
