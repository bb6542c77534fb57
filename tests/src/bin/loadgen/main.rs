//! `loadgen`: load generator for a Parlor server (see `--help` and the README's "Load test").

mod cli;
mod driver;
mod idle;
mod peer;
mod report;
mod rooms;
mod server;
mod signals;
mod stats;
mod watchers;

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Cli, Scenario};
use crate::server::Target;
use crate::signals::{StopSignal, Stopped};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("loadgen: {error:#}");
            match error.downcast_ref::<Stopped>() {
                Some(stopped) => ExitCode::from(stopped.signal.exit_code()),
                None => ExitCode::FAILURE,
            }
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
    // Before the server is started: a signal must not end loadgen and leave the server running.
    let stop = StopSignal::listen(&runtime)?;
    let mut target = Target::open(&cli.server, &stop)?;
    let batch = cli.server.connect_batch as usize;
    // How many connections were still open at the end, and what of the load asked for was not
    // reached.
    let result: anyhow::Result<(u64, Option<String>)> = runtime.block_on(async {
        let scenario = async {
            for node in 0..target.nodes() {
                idle::preflight(&target.node_url(node)).await?;
            }
            match &cli.scenario {
                Scenario::Idle(args) => {
                    let report = idle::run(&mut target, args, batch).await?;
                    report.print(args.json);
                    Ok((report.held, report.shortfall()))
                }
                Scenario::Rooms(args) => {
                    let report = rooms::run(&mut target, args, batch).await?;
                    report.print(args.json);
                    Ok((report.connections_held, report.shortfall()))
                }
            }
        };
        tokio::select! {
            biased;
            signal = stop.wait() => Err(Stopped {
                signal,
                server_killed: cli.server.spawn_server.is_some(),
            }
            .into()),
            result = scenario => result,
        }
    });
    // Kill a spawned server first, so the connection tasks end on their own, then stop them.
    drop(target);
    runtime.shutdown_timeout(std::time::Duration::from_secs(2));
    match result? {
        (0, _) => anyhow::bail!("no connection was still open at the end"),
        // The figures printed are for a smaller load than asked: a script must not take them
        // for the asked one.
        (_, Some(shortfall)) => anyhow::bail!("{shortfall}"),
        (_, None) => Ok(()),
    }
}
