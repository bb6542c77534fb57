//! docs/PROTOCOL.md names the protocol version the code speaks, everywhere it names one: its
//! title ("version N"), and the `"protocol": N` of every example (Hello, Welcome, the Python
//! client). Lines such as "Version 6 added it" are history and are not checked: only a number
//! that follows the word "protocol" (after quotes, a colon, a comma or the word "version").

use parlor_shared::protocol::PROTOCOL_VERSION;

const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/PROTOCOL.md");

/// Every protocol version `text` names: (line number from 1, the version, the line).
fn versions_named(text: &str) -> Vec<(usize, u64, String)> {
    const WORD: &str = "protocol";
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        // ASCII lowercasing keeps every byte where it was, so offsets hold in `line` too.
        let lower = line.to_ascii_lowercase();
        let mut from = 0;
        while let Some(at) = lower[from..].find(WORD) {
            from += at + WORD.len();
            let mut rest = lower[from..].trim_start_matches(['"', ':', ',', ' ', '\t']);
            if let Some(after) = rest.strip_prefix("version") {
                rest = after.trim_start_matches([':', ',', ' ', '\t']);
            }
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            if let Ok(version) = digits.parse() {
                found.push((index + 1, version, line.trim().to_string()));
            }
        }
    }
    found
}

#[test]
fn the_protocol_document_names_only_the_current_version() {
    let text = std::fs::read_to_string(PATH).unwrap_or_else(|error| panic!("{PATH}: {error}"));
    let found = versions_named(&text);
    // The title, the Hello and Welcome of the handshake, and the Python client's Hello.
    assert!(
        found.len() >= 4,
        "{PATH}: expected the title, the Hello and Welcome examples and the Python client \
         to name the protocol version; found only {found:?}"
    );
    let wrong: Vec<String> = found
        .iter()
        .filter(|(_, version, _)| *version != u64::from(PROTOCOL_VERSION))
        .map(|(line, version, text)| {
            format!(
                "docs/PROTOCOL.md line {line}: protocol {version}, not {PROTOCOL_VERSION}: {text}"
            )
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "docs/PROTOCOL.md must name PROTOCOL_VERSION ({PROTOCOL_VERSION}) wherever it names the \
         protocol's version:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn versions_are_found_in_every_form_the_document_uses() {
    let text = "# Parlor wire protocol, version 7\n\
                `{\"Hello\":{\"protocol\":7,\"client\":\"x\"}}`\n\
                {\"Hello\": {\"protocol\": 6, \"client\": \"python\"}}\n\
                `PROTOCOL_VERSION` is bumped; Version 5 answered with `Error`.\n";
    let found: Vec<(usize, u64)> = versions_named(text)
        .into_iter()
        .map(|(line, version, _)| (line, version))
        .collect();
    assert_eq!(found, [(1, 7), (2, 7), (3, 6)]);
}
