//! `client`: Parlor's window, plus console play and engine mode for Magnetic Cave.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use parlor_client::identity::Home;
use parlor_client::{cli, gui};

/// Parlor game hall client.
///
/// With no subcommand it opens the window. Without `--server` it starts a server inside this
/// process (games stored in `--data`), so one command gives a playable game; with
/// `--server ws://HOST:PORT` it joins a server started elsewhere with `server`. These options
/// are the window's; a subcommand takes its own (e.g. `client hexapawn brains --server URL`).
#[derive(Parser, Debug)]
#[command(version, args_conflicts_with_subcommands = true)]
struct Args {
    /// Server to connect to, e.g. ws://192.168.1.20:7878, or several nodes of one hall separated
    /// by commas (ws://a:7878,ws://b:7878), tried in turn when one goes. Default: an embedded
    /// server.
    #[arg(long)]
    server: Option<String>,
    /// Data directory of the embedded server (ignored with --server).
    #[arg(long, default_value = "parlor-data")]
    data: PathBuf,
    /// The name you go by (1 to 32 characters), kept for next time. Default: the name kept
    /// with your identity (see `client identity`).
    #[arg(long)]
    name: Option<String>,
    /// Opens a room by itself, e.g. "hexapawn slow b1-b2", "her-match 300", "cave classic a1 b1"
    /// or "klotski levels/klotski/lunaqu4kez_extra_04.in 9L 5R".
    #[arg(long, hide = true)]
    open_room: Option<String>,
    /// With --open-room: saves the window as PNG once the room is there, then quits.
    #[arg(long, hide = true, requires = "open_room")]
    screenshot: Option<PathBuf>,
    /// The window's first size, WIDTHxHEIGHT (e.g. 800x600), for the layout tests.
    #[arg(long, hide = true, value_parser = parse_window_size)]
    window_size: Option<(i32, i32)>,
    /// With --screenshot: writes what its frame drew where, and the layout problems found, as
    /// JSON.
    #[arg(long, hide = true, requires = "screenshot")]
    layout_report: Option<PathBuf>,
    /// The longest time between two frames of a quiet window whose input wakes it (default 1
    /// s), for the test that input and the network wake the window by themselves.
    #[arg(long, hide = true)]
    quiet_frame_seconds: Option<u64>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Magnetic Cave without the window: console play, engine mode, a position viewer.
    Cave {
        #[command(subcommand)]
        command: cli::cave::CaveCommand,
    },
    /// Dropping Bricks without the window: the closed-form solver, console play, the game tree.
    Bricks {
        #[command(subcommand)]
        command: cli::bricks::BricksCommand,
    },
    /// Hexapawn and HER, the matchbox robot: auto mode, console play, the solver, a bench.
    Hexapawn {
        #[command(subcommand)]
        command: cli::hexapawn::HexapawnCommand,
    },
    /// EinStein würfelt nicht! puzzle: play a level, check a moves.txt, solve, bench, generate.
    Ewn {
        #[command(subcommand)]
        command: cli::ewn::EwnCommand,
    },
    /// Numeric Klotski: the seed's terminal answer, chosen searches, a generator, a bench.
    Klotski {
        #[command(subcommand)]
        command: cli::klotski::KlotskiCommand,
    },
    /// Who you are to Parlor servers: show, rename, export to another machine, import.
    /// Kept in your config directory, or under $PARLOR_HOME when it is set.
    Identity {
        #[command(subcommand)]
        command: cli::identity::IdentityCommand,
    },
    /// Run a hall: list and end any room or auto match (brains: `client hexapawn brains`).
    Admin(cli::admin::AdminArgs),
    /// The levels built into the program: list them by game, or print one. Their names stand
    /// where a level file goes (`client ewn solve level4`).
    Levels(cli::levels::LevelsArgs),
}

/// A window size written WIDTHxHEIGHT, each from 200 to 8192 pixels.
fn parse_window_size(text: &str) -> Result<(i32, i32), String> {
    let sides = text.split_once('x').and_then(|(width, height)| {
        let side = |side: &str| {
            side.parse::<i32>()
                .ok()
                .filter(|side| (200..=8192).contains(side))
        };
        Some((side(width)?, side(height)?))
    });
    sides.ok_or_else(|| format!("{text:?} is not a size such as 800x600 (200 to 8192 each)"))
}

/// Whether `command` opens a window, which runs for hours: its Klotski tables are read whole
/// once before their first use. A command-line search, over in milliseconds, trusts a table
/// file's verification record.
fn opens_a_window(command: &Option<Command>) -> bool {
    matches!(
        command,
        None | Some(Command::Klotski {
            command: cli::klotski::KlotskiCommand::Gui { .. }
        })
    )
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(parlor_wire::log_filter("warn"))
        .with_writer(|| parlor_wire::LogWriter)
        .init();
    let args = Args::try_parse().unwrap_or_else(|error| {
        let _ = error.print();
        if let Some(hint) = misplaced_window_option(&error) {
            eprintln!("\n{hint}");
        }
        std::process::exit(error.exit_code());
    });
    // Klotski's pattern tables are kept in the cache folder, for every search of this
    // process: the window's embedded server's solver seats, and the command-line tools.
    if let Ok(home) = Home::locate() {
        let tables = parlor_home::klotski_tables::TableCache::new(&home.cache);
        let tables = if opens_a_window(&args.command) {
            tables.checking_whole()
        } else {
            tables
        };
        parlor_engines::klotski::set_table_store(Box::new(tables));
    }
    let result = match args.command {
        None => gui::run(gui::GuiOptions {
            server: args.server,
            data_dir: args.data,
            name: args.name,
            open_room: args.open_room,
            screenshot: args.screenshot,
            window_size: args.window_size,
            layout_report: args.layout_report,
            quiet_frame: args.quiet_frame_seconds.map(std::time::Duration::from_secs),
        }),
        Some(Command::Cave { command }) => cli::cave::run(command),
        Some(Command::Bricks { command }) => cli::bricks::run(command),
        Some(Command::Hexapawn { command }) => cli::hexapawn::run(command),
        Some(Command::Ewn { command }) => cli::ewn::run(command),
        Some(Command::Klotski { command }) => cli::klotski::run(command),
        Some(Command::Identity { command }) => cli::identity::run(command, &mut std::io::stdout()),
        Some(Command::Admin(args)) => cli::admin::run(args, &mut std::io::stdout()),
        Some(Command::Levels(args)) => cli::levels::run(args, &mut std::io::stdout()),
    };
    match result {
        Ok(code) => code,
        // `client ... | head`: the reader took what it wanted and left. Not an error to report;
        // the exit code is a shell's for a command ended by SIGPIPE.
        Err(error) if reader_has_gone(&error) => ExitCode::from(CLOSED_PIPE_EXIT),
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "client: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Where an option of the window's put before a subcommand goes instead: the window's options
/// stand alone, and the commands that reach a server take their own `--server`.
fn misplaced_window_option(error: &clap::Error) -> Option<&'static str> {
    use clap::error::{ContextKind, ErrorKind};
    // Only a clash of options with a subcommand names the subcommand; a clash of two options
    // within one (`cave engine --first --second`) is not this.
    let with_a_subcommand = error.kind() == ErrorKind::ArgumentConflict
        && error.get(ContextKind::InvalidSubcommand).is_some();
    with_a_subcommand.then_some(
        "--server, --data and --name open the window, so they take no subcommand. The commands \
         that reach a server take --server after their own name: \
         `client hexapawn brains --server URL list`, `client admin --server URL rooms`.",
    )
}

/// The exit code after a write to a pipe nobody reads any more: 128 + SIGPIPE, what a shell
/// reports for a program that SIGPIPE ended (Rust programs ignore the signal and get an error).
const CLOSED_PIPE_EXIT: u8 = 128 + 13;

/// Whether a write failed because the other end of a pipe was closed, anywhere in the chain.
fn reader_has_gone(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn a_window_option_before_a_subcommand_is_told_where_it_goes() {
        let hint = |words: &[&str]| {
            let error = Args::try_parse_from(words).expect_err("refused");
            misplaced_window_option(&error)
        };
        let told = hint(&[
            "client",
            "--server",
            "ws://a:7878",
            "hexapawn",
            "brains",
            "list",
        ]);
        assert!(told.is_some_and(|hint| hint.contains("brains --server URL")));
        assert_eq!(hint(&["client", "--no-such-option"]), None);
        let two_sides = ["client", "cave", "engine", "--first", "--second"];
        assert_eq!(hint(&two_sides), None, "a clash within a subcommand");
    }

    #[test]
    fn the_windows_read_their_tables_whole_and_the_command_line_searches_do_not() {
        let opens = |words: &[&str]| opens_a_window(&Args::parse_from(words).command);
        assert!(opens(&["client"]));
        assert!(opens(&["client", "klotski", "gui"]));
        assert!(!opens(&["client", "klotski", "terminal"]));
        assert!(!opens(&["client", "klotski", "solve"]));
    }

    /// `command path --option` (or `<ARG>` for a positional argument) for every option below
    /// `command` that has no help text.
    fn options_without_help(command: &clap::Command, path: &str, found: &mut Vec<String>) {
        let path = format!("{path} {}", command.get_name()).trim().to_string();
        for arg in command.get_arguments() {
            let builtin = matches!(arg.get_id().as_str(), "help" | "version");
            if builtin || arg.is_hide_set() || arg.get_help().is_some() {
                continue;
            }
            match arg.get_long() {
                Some(long) => found.push(format!("{path} --{long}")),
                None if arg.is_positional() => {
                    found.push(format!("{path} <{}>", arg.get_id().as_str().to_uppercase()));
                }
                None => {}
            }
        }
        for sub in command.get_subcommands() {
            options_without_help(sub, &path, found);
        }
    }

    #[test]
    fn every_option_says_what_it_does() {
        let mut found = Vec::new();
        options_without_help(&Args::command(), "", &mut found);
        assert_eq!(found, Vec::<String>::new());
    }
}
