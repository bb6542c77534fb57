//! What the logs may hold. Frames carry seat tokens, so the WebSocket library, which logs
//! frames whole at trace and debug, is kept quiet (`parlor_wire::log_filter`, the filter of both
//! binaries); and text a client sends is logged cut short, so that a client cannot fill the disk
//! through the log.

use std::borrow::Cow;

use parlor_shared::codec::CodecError;

/// The characters of a client's text that reach a log at most.
const LOGGABLE_CHARS: usize = 64;

/// `text` as a log may hold it: at most [`LOGGABLE_CHARS`] characters, control characters
/// replaced (a client's newline would forge a log line), and a cut said with the whole
/// length, e.g. `xxxx…(65000 bytes)`.
pub fn loggable(text: &str) -> Cow<'_, str> {
    let cut = text.char_indices().nth(LOGGABLE_CHARS).map(|(at, _)| at);
    let kept = &text[..cut.unwrap_or(text.len())];
    if cut.is_none() && !kept.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut shown: String = kept
        .chars()
        .map(|c| {
            if c.is_control() {
                char::REPLACEMENT_CHARACTER
            } else {
                c
            }
        })
        .collect();
    if cut.is_some() {
        shown.push_str(&format!("…({} bytes)", text.len()));
    }
    Cow::Owned(shown)
}

/// A frame that did not decode, as the log tells it: its kind and where decoding stopped,
/// never its content (serde's messages quote what they could not read, tokens included).
pub fn garbled_frame(error: &CodecError) -> String {
    match error {
        CodecError::Json(error) => {
            let what = match error.classify() {
                serde_json::error::Category::Io => "unreadable",
                serde_json::error::Category::Syntax => "not JSON",
                serde_json::error::Category::Data => "not a request",
                serde_json::error::Category::Eof => "cut short",
            };
            format!(
                "bad JSON frame: {what} (line {}, column {})",
                error.line(),
                error.column()
            )
        }
        CodecError::Binary(_) => "bad binary frame".into(),
        // Numbers only.
        CodecError::TooLarge(_)
        | CodecError::NodeMessageTooLarge(_)
        | CodecError::TrailingBytes(_) => error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use parlor_shared::codec::{self, Frame};
    use parlor_shared::protocol::ClientMsg;

    use super::*;

    #[test]
    fn loggable_text_is_cut_and_has_no_control_characters() {
        assert!(matches!(loggable("parlor-client 0.1"), Cow::Borrowed(_)));
        assert_eq!(loggable("a\nb\u{1b}[31m"), "a\u{fffd}b\u{fffd}[31m");
        let long = "é".repeat(30_000);
        let shown = loggable(&long);
        assert_eq!(
            shown,
            format!("{}…(60000 bytes)", "é".repeat(LOGGABLE_CHARS))
        );
        assert_eq!(loggable(&"x".repeat(LOGGABLE_CHARS)).len(), LOGGABLE_CHARS);
    }

    #[test]
    fn a_garbled_frame_is_logged_without_its_content() {
        let secret = "0123456789abcdef0123456789abcdef";
        let frames = [
            Frame::Text(format!(
                r#"{{"Reclaim":{{"room":1,"token":7,"x":"{secret}"}}}}"#
            )),
            Frame::Text(format!(r#"{{"{secret}":{{}}}}"#)),
            Frame::Text(format!(r#"{{"Hello":{{"protocol":"{secret}"}}}}"#)),
            Frame::Binary(secret.as_bytes().to_vec()),
        ];
        let mut quoted = 0;
        for frame in frames {
            let error = codec::decode::<ClientMsg>(&frame).unwrap_err();
            quoted += usize::from(error.to_string().contains(secret));
            let logged = garbled_frame(&error);
            assert!(!logged.contains(secret), "{logged}");
            assert!(logged.starts_with("bad "), "{logged}");
        }
        assert!(quoted > 0, "the codec's own messages quote frames");
    }
}
