//! Seeds for runs started without `--seed`: drawn from the clock and printed (or put in the
//! JSON report), so that the run can be replayed with `--seed`.

use std::time::{SystemTime, UNIX_EPOCH};

/// The largest seed drawn, 2^53 - 1. JSON readers that keep numbers as doubles (jq,
/// JavaScript) round integers above 2^53, so a larger seed copied from a JSON report would
/// replay another run.
pub const MAX_DRAWN_SEED: u64 = (1 << 53) - 1;

/// A seed that differs from run to run: the clock's nanoseconds, kept to their low 53 bits
/// (they repeat after about 104 days).
pub fn clock_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos());
    (nanos as u64) & MAX_DRAWN_SEED
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drawn_seed_survives_a_trip_through_a_double() {
        for _ in 0..100 {
            let seed = clock_seed();
            assert!(seed <= MAX_DRAWN_SEED, "{seed}");
            assert_eq!(seed as f64 as u64, seed);
            let json: serde_json::Value = serde_json::json!({ "seed": seed });
            assert_eq!(json["seed"].as_f64().map(|f| f as u64), Some(seed));
        }
    }
}
