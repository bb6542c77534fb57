//! `client admin`: what a hall's operator does over the protocol. Without `--server` the hall is
//! the one in `--data`, started inside this command with this identity as its operator (whoever
//! holds the data directory runs it); with `--server`, the server must have been started with
//! `--operator` and this identity's id (`client identity show`). Brains are managed with
//! `client hexapawn brains` (an operator lists and deletes every brain there).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::bail;
use clap::{Args, Subcommand};
use parlor_shared::identity::player_id;
use parlor_shared::protocol::{ClientMsg, ErrorCode, RoomId, ServerMsg};

use crate::identity::{Home, Identity};
use crate::net::{Connection, NetEvent};

#[derive(Args, Debug)]
pub struct AdminArgs {
    /// The server to run, e.g. ws://192.168.1.20:7878 (started with --operator YOUR_ID).
    /// Default: the hall in --data, through a server started inside this command.
    #[arg(long)]
    server: Option<String>,
    /// The data directory of the embedded server (ignored with --server).
    #[arg(long, default_value = "parlor-data")]
    data: PathBuf,
    #[command(subcommand)]
    command: AdminCommand,
}

#[derive(Subcommand, Debug)]
pub enum AdminCommand {
    /// The open rooms the lobby lists (200 at most): id, game, creator, moves, and whether they
    /// are over.
    Rooms,
    /// End an unfinished room or auto match: its followers are told, nothing is stored of an
    /// unfinished game.
    Close {
        /// The room's id, as `rooms` shows it (`#2`, or just `2`).
        #[arg(value_parser = room_id)]
        room: RoomId,
    },
}

/// A room's id as typed: `rooms` prints ids as `#2`, so the `#` may be copied with it.
fn room_id(typed: &str) -> Result<RoomId, String> {
    let digits = typed.strip_prefix('#').unwrap_or(typed);
    digits.parse().map_err(|_| {
        format!("a room's id is a whole number, as `rooms` shows it (#2 or 2), not {typed:?}")
    })
}

/// How long each answer is waited for.
const PATIENCE: Duration = Duration::from_secs(20);

pub fn run(args: AdminArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let identity = Identity::load_or_create(&Home::locate()?)?;
    let hall = hall_url(args.server.as_deref(), &args.data, &identity, false)?;
    let url = &hall.url;
    let connection = Connection::open_once(url, &identity);
    let request = match args.command {
        AdminCommand::Rooms => ClientMsg::ListRooms,
        AdminCommand::Close { room } => ClientMsg::CloseRoom { room },
    };
    let mut sent = false;
    loop {
        let Some(event) = connection.recv_timeout(PATIENCE) else {
            bail!("no answer from {url} within {} s", PATIENCE.as_secs());
        };
        let message = match event {
            NetEvent::Connected { .. } if !sent => {
                sent = true;
                connection.send(request.clone());
                continue;
            }
            NetEvent::Disconnected(reason) => bail!("{reason}"),
            NetEvent::Message(message) => *message,
            _ => continue,
        };
        match message {
            ServerMsg::Rooms { rooms, partial } => {
                if partial {
                    writeln!(
                        out,
                        "(this server cannot reach the hall's other nodes now: their rooms are \
                         missing)"
                    )?;
                }
                if rooms.is_empty() {
                    writeln!(out, "(no rooms)")?;
                }
                for room in rooms {
                    let creator = room.creator.map_or("-".into(), |creator| creator.label());
                    let state = if room.outcome.is_some() {
                        "over"
                    } else {
                        "unfinished"
                    };
                    let game = room.game.name();
                    let moves = room.moves;
                    writeln!(
                        out,
                        "#{:<6} {game:<24} {creator:<40} {moves:>6} {state}",
                        room.room
                    )?;
                }
                return Ok(ExitCode::SUCCESS);
            }
            ServerMsg::RoomClosed { message, .. } => {
                writeln!(out, "{message}")?;
                return Ok(ExitCode::SUCCESS);
            }
            ServerMsg::Error { code, message } => {
                let _ = writeln!(std::io::stderr(), "{}", refusal(code, &message));
                return Ok(ExitCode::FAILURE);
            }
            _ => {}
        }
    }
}

/// What a refusal says on stderr: a room that is not ours says how one becomes an operator.
fn refusal(code: ErrorCode, message: &str) -> String {
    let mut said = format!("client: the server refused: {message}");
    if code == ErrorCode::NotYours {
        said.push_str(
            "\n(an operator may close any room: whoever runs the server names you one with \
             `server --operator ID`; `client identity show` prints your id)",
        );
    }
    said
}

/// The hall a command talks to. A server it started inside the command copies its store's
/// log back when this goes (the command is ending), so that `games.db` alone holds what the
/// command stored.
pub struct HallUrl {
    pub url: String,
    embedded: Option<parlor_server::BackgroundServer>,
}

impl Drop for HallUrl {
    fn drop(&mut self) {
        if let Some(server) = self.embedded.take() {
            server.seal_store();
        }
    }
}

/// The hall to talk to: `server` as typed (a bare HOST:PORT gets ws://), or else a server
/// started in this process on `data` with `identity` as its operator. Unless the request
/// `creates` something, a `data` that is not there is refused rather than made empty.
pub fn hall_url(
    server: Option<&str>,
    data: &Path,
    identity: &Identity,
    creates: bool,
) -> anyhow::Result<HallUrl> {
    if let Some(typed) = server {
        let url = crate::gui::server_option(typed)?;
        return Ok(HallUrl {
            url,
            embedded: None,
        });
    }
    if !creates && !data.is_dir() {
        bail!(
            "no data directory at {}: nothing is stored there (check --data)",
            data.display()
        );
    }
    let mut config =
        parlor_server::ServerConfig::new(([127, 0, 0, 1], 0).into(), Some(data.to_path_buf()));
    config.operators = vec![player_id(&identity.secret)];
    let server = parlor_server::start_in_background(config).map_err(|error| {
        match error.downcast_ref::<parlor_server::store::sqlite::DataDirInUse>() {
            Some(_) => anyhow::anyhow!(
                "another Parlor server, or a window, uses {}: reach it with --server ADDRESS \
                 after this command's name (a window shows its address in its top bar), or \
                 stop it first",
                data.display()
            ),
            None => error,
        }
    })?;
    Ok(HallUrl {
        url: server.url(),
        embedded: Some(server),
    })
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[test]
    fn a_refusal_of_a_room_not_ours_says_how_to_be_an_operator() {
        let said = refusal(
            ErrorCode::NotYours,
            "only the player who created room 2 may close it",
        );
        assert!(said.contains("server --operator ID"), "{said}");
        let said = refusal(ErrorCode::NoSuchRoom, "no room 7");
        assert_eq!(said, "client: the server refused: no room 7");
    }

    #[derive(Parser, Debug)]
    struct Typed {
        #[command(subcommand)]
        command: AdminCommand,
    }

    fn closes(args: &[&str]) -> Result<RoomId, String> {
        let typed = Typed::try_parse_from([&["admin", "close"], args].concat());
        match typed.map_err(|error| error.to_string())?.command {
            AdminCommand::Close { room } => Ok(room),
            AdminCommand::Rooms => unreachable!("close was typed"),
        }
    }

    #[test]
    fn a_room_is_named_as_rooms_shows_it_with_or_without_its_hash() {
        assert_eq!(closes(&["#2"]), Ok(2));
        assert_eq!(closes(&["2"]), Ok(2));
        for bad in ["##2", "#", "2#", "# 2", "#x"] {
            let refused = closes(&[bad]).unwrap_err();
            assert!(
                refused.contains("a room's id is a whole number"),
                "{bad}: {refused}"
            );
        }
    }
}
