//! Words the server and the client both show, so that a seat reads the same in a room, in the
//! lobby and in a stored game's record.

/// A duration in milliseconds, in seconds: "0.1 s", "1 s"; under 0.1 s in milliseconds ("1 ms").
pub fn seconds(ms: u32) -> String {
    if ms < 100 {
        // "0.001 s" reads worse than "1 ms".
        return format!("{ms} ms");
    }
    // f64's Display drops a zero fraction: 1000 ms is "1", 100 ms is "0.1".
    format!("{} s", f64::from(ms) / 1000.0)
}

/// An AI's per-move budget, short: "AI 0.1 s", "AI 1 s".
pub fn ai_budget(move_ms: u32) -> String {
    format!("AI {}", seconds(move_ms))
}

/// An AI seat: its budget and its name, "AI 0.3 s (solver)".
pub fn ai_seat(move_ms: u32, name: &str) -> String {
    format!("{} ({name})", ai_budget(move_ms))
}

/// HER's seat: HER does not search, so a seat's time (a pause at most) says nothing of it.
pub const HER_SEAT: &str = "matchbox robot";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_read_in_seconds_or_milliseconds() {
        assert_eq!(seconds(1), "1 ms");
        assert_eq!(seconds(100), "0.1 s");
        assert_eq!(seconds(1000), "1 s");
        assert_eq!(ai_budget(1500), "AI 1.5 s");
        assert_eq!(ai_seat(300, "solver"), "AI 0.3 s (solver)");
    }
}
