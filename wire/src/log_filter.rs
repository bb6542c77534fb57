//! The binaries' log filter. Frames carry seat tokens, and the WebSocket library logs frames
//! whole at trace and debug, as the NATS client does the messages between a cluster's nodes
//! (forwarded frames, tokens included), so their targets are off unless RUST_LOG names them.
//! And the binaries' log writer, which loses what standard error cannot take.

use std::io::Write;

use tracing_subscriber::EnvFilter;

/// The WebSocket and NATS libraries' log targets: each logs frames, payload included.
const FRAME_LOGGING_TARGETS: [&str; 3] = ["tungstenite", "tokio_tungstenite", "async_nats"];

/// Standard error for the log, losing what it cannot write: a full disk or a closed pipe
/// behind it must not end the process (the log's formatter answers a failed write with a
/// note to standard error, which panics when that fails too). Give `|| LogWriter` to
/// `with_writer`.
#[derive(Clone, Copy, Debug, Default)]
pub struct LogWriter;

impl Write for LogWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let _ = std::io::stderr().write_all(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let _ = std::io::stderr().flush();
        Ok(())
    }
}

/// The binaries' log filter: RUST_LOG when set and valid, else `default_level`, with the
/// WebSocket library's targets turned off unless RUST_LOG names them itself (someone debugging
/// the library asked for its frames, tokens and all).
pub fn log_filter(default_level: &str) -> EnvFilter {
    let asked = std::env::var(EnvFilter::DEFAULT_ENV).ok();
    EnvFilter::new(directives(asked.as_deref(), default_level))
}

/// The directives `log_filter` uses. A RUST_LOG that does not parse is passed over whole, as
/// the binaries did before.
fn directives(asked: Option<&str>, default_level: &str) -> String {
    let base = asked
        .filter(|asked| EnvFilter::try_new(asked).is_ok())
        .unwrap_or(default_level);
    let mut directives: Vec<String> = (!base.is_empty())
        .then(|| base.to_owned())
        .into_iter()
        .collect();
    for target in FRAME_LOGGING_TARGETS {
        if !names_target(base, target) {
            directives.push(format!("{target}=off"));
        }
    }
    directives.join(",")
}

/// Whether one of `directives` is about `target` or a module below it.
fn names_target(directives: &str, target: &str) -> bool {
    directives.split(',').any(|directive| {
        let named = directive.split(['=', '[']).next().unwrap_or("").trim();
        named == target
            || named
                .strip_prefix(target)
                .is_some_and(|below| below.starts_with("::"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_websocket_library_is_off_unless_asked_for_by_name() {
        let off = "tungstenite=off,tokio_tungstenite=off,async_nats=off";
        assert_eq!(directives(None, "info"), format!("info,{off}"));
        assert_eq!(directives(Some("trace"), "info"), format!("trace,{off}"));
        assert_eq!(
            directives(Some(""), "info"),
            off,
            "set but empty: nothing logged"
        );
        assert_eq!(
            directives(Some("debug,tungstenite::protocol=trace"), "info"),
            "debug,tungstenite::protocol=trace,tokio_tungstenite=off,async_nats=off"
        );
        assert_eq!(
            directives(Some("tokio_tungstenite"), "info"),
            "tokio_tungstenite,tungstenite=off,async_nats=off",
            "a name that only ends in another target does not name it"
        );
        assert_eq!(
            directives(Some("tungstenite_extra=trace"), "info"),
            format!("tungstenite_extra=trace,{off}")
        );
        assert_eq!(
            directives(Some("not a directive=="), "warn"),
            format!("warn,{off}"),
            "an invalid RUST_LOG is passed over"
        );
    }
}
