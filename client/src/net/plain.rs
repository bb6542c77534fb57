//! The network's errors in plain words for a person: "nothing answers at that address (is
//! the server running?)" rather than "IO error: Connection refused (os error 111)".

use std::io::ErrorKind;

use tokio_tungstenite::tungstenite::Error;
use tokio_tungstenite::tungstenite::error::ProtocolError;

/// What went wrong with a connection, for the top bar.
pub fn plain(error: &Error) -> String {
    match error {
        Error::Io(io) => match io.kind() {
            ErrorKind::ConnectionRefused => {
                "nothing answers at that address (is the server running?)".into()
            }
            ErrorKind::ConnectionReset
            | ErrorKind::ConnectionAborted
            | ErrorKind::BrokenPipe
            | ErrorKind::UnexpectedEof => "the connection was cut".into(),
            ErrorKind::TimedOut => "the server did not answer in time".into(),
            ErrorKind::HostUnreachable | ErrorKind::NetworkUnreachable => {
                "that server cannot be reached from here (no route)".into()
            }
            ErrorKind::AddrNotAvailable => "that address is not usable here".into(),
            _ => without_os_error(&io.to_string()),
        },
        Error::ConnectionClosed | Error::AlreadyClosed => "the connection was closed".into(),
        Error::Url(url) => format!("not a usable server address ({url})"),
        Error::Http(response) => format!(
            "the server answered with HTTP {} instead of a WebSocket: is it a Parlor server?",
            response.status()
        ),
        // A server that stopped dead (killed, or its machine gone) closes without a word.
        Error::Protocol(ProtocolError::ResetWithoutClosingHandshake) => {
            "the connection was cut".into()
        }
        Error::Protocol(protocol) => format!("the server broke the WebSocket rules ({protocol})"),
        other => without_os_error(&other.to_string()),
    }
}

/// `text` without the " (os error N)" the system appends, which means nothing to a person.
fn without_os_error(text: &str) -> String {
    match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => text[..at].to_string(),
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn io(kind: ErrorKind) -> Error {
        Error::Io(std::io::Error::from(kind))
    }

    #[test]
    fn common_failures_read_as_plain_words() {
        let refused = plain(&io(ErrorKind::ConnectionRefused));
        assert_eq!(
            refused,
            "nothing answers at that address (is the server running?)"
        );
        assert_eq!(
            plain(&io(ErrorKind::ConnectionReset)),
            "the connection was cut"
        );
        assert_eq!(plain(&Error::ConnectionClosed), "the connection was closed");
        let killed = Error::Protocol(ProtocolError::ResetWithoutClosingHandshake);
        assert_eq!(
            plain(&killed),
            "the connection was cut",
            "not the server's fault"
        );
        let raw = std::io::Error::from_raw_os_error(111);
        assert!(!plain(&Error::Io(raw)).contains("os error"));
        assert_eq!(
            without_os_error("failed to lookup address information (os error -2)"),
            "failed to lookup address information"
        );
        assert_eq!(without_os_error("no number here"), "no number here");
    }
}
