use super::*;

#[test]
fn the_protocol_document_names_the_current_version() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/PROTOCOL.md");
    let text = std::fs::read_to_string(path).unwrap();
    let title = format!("# Parlor wire protocol, version {PROTOCOL_VERSION}\n");
    assert!(text.starts_with(&title), "{path} must start with {title:?}");
    let hello = format!(r#""protocol":{PROTOCOL_VERSION},"#);
    assert!(text.contains(&hello), "{path}: its Hello example");
}

#[test]
fn tokens_are_32_random_hex_digits_and_differ() {
    let (a, b) = (SeatToken::random(), SeatToken::random());
    assert!(a.is_strong() && b.is_strong());
    assert_ne!(a, b);
    for bad in [
        "",
        "0123",
        "0123456789ABCDEF0123456789ABCDEF",
        "0123456789abcdef0123456789abcdeg",
        "00000000000000000000000000000000",
        "0123456789abcdef0123456789abcdef",
    ] {
        assert!(!SeatToken(bad.into()).is_strong(), "{bad:?}");
    }
    let long = SeatToken(format!("{}0", a.0));
    assert!(!long.is_strong());
}

#[test]
fn a_token_never_shows_in_debug_output() {
    let token = SeatToken("0123456789abcdef0123456789abcdef".into());
    let request = ClientMsg::Move {
        room: 1,
        token: token.clone(),
        version: 0,
        mv: GameMove::Cave("a1".parse().unwrap()),
    };
    for text in [
        format!("{token:?}"),
        format!("{request:?}"),
        format!("{request:#?}"),
    ] {
        assert!(!text.contains("0123456789abcdef"), "{text}");
    }
}
