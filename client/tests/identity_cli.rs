//! `client identity` and `client admin` as processes: an identity is made once and kept under
//! `PARLOR_HOME`, moves to another home by export and import (which never replaces another
//! identity unasked), and the hall in a data directory is its holder's to run.

use std::path::Path;
use std::process::{Command, Output};

const CLIENT: &str = env!("CARGO_BIN_EXE_client");

fn client(home: &Path, args: &[&str]) -> Output {
    Command::new(CLIENT)
        .env("PARLOR_HOME", home)
        .args(args)
        .output()
        .expect("client runs")
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// The public id `identity show` prints.
fn public_id(home: &Path) -> String {
    let shown = stdout(&client(home, &["identity", "show"]));
    let line = shown
        .lines()
        .find(|l| l.starts_with("Public id: "))
        .unwrap();
    let id = line["Public id: ".len()..]
        .split_whitespace()
        .next()
        .unwrap();
    assert_eq!(id.len(), 16, "{shown}");
    id.to_string()
}

#[test]
fn an_identity_is_kept_exported_and_imported_and_never_replaced_unasked() {
    let dir = tempfile::tempdir().unwrap();
    let (here, there) = (dir.path().join("here"), dir.path().join("there"));
    let mine = public_id(&here);
    assert_eq!(public_id(&here), mine, "made once, then kept");
    let theirs = public_id(&there);
    assert_ne!(mine, theirs);

    let file = dir.path().join("me.json");
    stdout(&client(
        &here,
        &["identity", "export", file.to_str().unwrap()],
    ));
    let refused = client(&there, &["identity", "import", file.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--replace"));
    assert_eq!(public_id(&there), theirs, "unchanged");
    let args = ["identity", "import", file.to_str().unwrap(), "--replace"];
    stdout(&client(&there, &args));
    assert_eq!(
        public_id(&there),
        mine,
        "the same player on the other machine"
    );

    let renamed = stdout(&client(&here, &["identity", "name", "Ada"]));
    assert!(renamed.contains("\"Ada\""), "{renamed}");
    let too_long = client(&here, &["identity", "name", &"x".repeat(33)]);
    assert_eq!(too_long.status.code(), Some(1));

    // A file whose name holds what names may not: imported without it, and said so.
    let mut edited: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    edited["name"] = "Ada#1".into();
    std::fs::write(&file, edited.to_string()).unwrap();
    let args = ["identity", "import", file.to_str().unwrap(), "--replace"];
    let said = stdout(&client(&there, &args));
    assert!(
        said.contains("\"Ada1\"") && said.contains("named you \"Ada#1\""),
        "{said}"
    );
}

/// A kept identity file that cannot be read is left as it is, and every command that needs it
/// says how to go on; `import --replace` does.
#[test]
fn a_damaged_identity_says_how_to_go_on_and_is_replaced_by_an_import() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let mine = public_id(&home);
    let file = dir.path().join("me.json");
    stdout(&client(
        &home,
        &["identity", "export", file.to_str().unwrap()],
    ));
    let kept = std::fs::read_dir(home.join("config"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| path.ends_with("identity.json"))
        .expect("the identity is kept under config/");
    std::fs::write(&kept, "").unwrap();

    let shown = client(&home, &["identity", "show"]);
    assert_eq!(shown.status.code(), Some(1));
    let said = String::from_utf8_lossy(&shown.stderr);
    assert!(said.contains("identity import FILE --replace"), "{said}");
    let imported = client(&home, &["identity", "import", file.to_str().unwrap()]);
    assert_eq!(imported.status.code(), Some(1));
    let said = String::from_utf8_lossy(&imported.stderr);
    assert!(said.contains("add --replace"), "{said}");
    assert_eq!(std::fs::read(&kept).unwrap(), b"", "left as it was");

    let args = ["identity", "import", file.to_str().unwrap(), "--replace"];
    stdout(&client(&home, &args));
    assert_eq!(public_id(&home), mine, "back as themselves");
}

#[test]
fn the_hall_in_a_data_directory_is_its_holders_to_run() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let data = dir.path().join("data");
    let data = data.to_str().unwrap();
    let missing = client(&home, &["admin", "--data", data, "rooms"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no data directory"));
    std::fs::create_dir_all(data).unwrap();
    assert_eq!(
        stdout(&client(&home, &["admin", "--data", data, "rooms"])),
        "(no rooms)\n"
    );
    let closed = client(&home, &["admin", "--data", data, "close", "7"]);
    assert_eq!(closed.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&closed.stderr).contains("no room 7"));
}
