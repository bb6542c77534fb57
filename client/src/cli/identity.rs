//! `client identity`: the player this client is to every server (see `identity.rs`), shown,
//! renamed, exported to use on another machine, and imported there.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use clap::Subcommand;
use parlor_shared::identity::player_id;

use crate::identity::{HOME_VARIABLE, Home, Identity};

#[derive(Subcommand, Debug)]
pub enum IdentityCommand {
    /// The name you go by and where your identity is kept (made on first use).
    Show,
    /// Go by NAME from now on (1 to 32 characters); servers show it from your next connection.
    Name {
        /// The new name.
        name: String,
    },
    /// Write your identity to FILE, to import on another machine. FILE holds your secret:
    /// whoever has it plays as you.
    Export {
        /// Where to write it (an existing file is not replaced).
        file: PathBuf,
    },
    /// Become the player in FILE (written by `export`) on this machine.
    Import {
        /// The file `export` wrote.
        file: PathBuf,
        /// Replace the identity this machine has now. Its seats and brains stay with it, so
        /// export it first if you may want it back.
        #[arg(long)]
        replace: bool,
    },
}

pub fn run(command: IdentityCommand, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let home = Home::locate()?;
    let path = home.identity_file();
    match command {
        IdentityCommand::Show => {
            let identity = Identity::load_or_create(&home)?;
            writeln!(out, "Name: {}", identity.name)?;
            let id = player_id(&identity.secret);
            writeln!(
                out,
                "Public id: {id} (what a server shows, and what --operator takes)"
            )?;
            writeln!(out, "Kept in: {}", path.display())?;
            writeln!(out, "(set {HOME_VARIABLE} to keep another identity)")?;
        }
        IdentityCommand::Name { name } => {
            let renamed = Identity::load_or_create(&home)?.renamed(&name)?;
            renamed.write(&path)?;
            writeln!(
                out,
                "You go by {:?} from your next connection.",
                renamed.name
            )?;
        }
        IdentityCommand::Export { file } => {
            Identity::load_or_create(&home)?.export(&file)?;
            writeln!(
                out,
                "Wrote {}. It holds your secret: keep it to yourself, and import it on another \
                 machine with `client identity import`.",
                file.display()
            )?;
        }
        IdentityCommand::Import { file, replace } => {
            let (imported, given) = Identity::read_with_given_name(&file)?;
            if path.exists() && !replace {
                let current = Identity::read(&path).map_err(|error| {
                    anyhow::anyhow!(
                        "{error:#}\nThe identity kept here cannot be read: add --replace to \
                         put the imported one in its place"
                    )
                })?;
                if current.secret != imported.secret {
                    bail!(
                        "this machine already has an identity ({:?}); importing replaces it and \
                         its seats: add --replace (export it first to keep it)",
                        current.name
                    );
                }
            }
            imported.write(&path)?;
            writeln!(out, "You are {:?} on this machine now.", imported.name)?;
            // A name the file holds with characters names may not have reads without them.
            if given != imported.name {
                writeln!(
                    out,
                    "(The file named you {given:?}: a name may not hold '#' or invisible \
                     characters, so they were left out.)"
                )?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
