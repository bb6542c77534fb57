//! How fast the players of one address create rooms, over all their connections: one token
//! bucket per address, kept while it is not full again.

use std::collections::HashMap;
use std::net::IpAddr;
use tokio::time::Instant;

use crate::limits::{Bucket, Budget};

/// Past this many addresses, the buckets that have refilled are dropped before another is
/// added: a full bucket says nothing a new one would not, so the map holds only the
/// addresses that created rooms lately (at most one per connection).
const PRUNE_PAST: usize = 1024;

#[derive(Debug, Default)]
pub struct CreationRate {
    buckets: HashMap<IpAddr, Bucket>,
}

impl CreationRate {
    /// Spends one creation of `address` at `now` under `budget`; false when its budget is
    /// overdrawn (nothing is spent then).
    pub fn spend(&mut self, address: IpAddr, budget: Budget, now: Instant) -> bool {
        if self.buckets.len() >= PRUNE_PAST && !self.buckets.contains_key(&address) {
            self.buckets.retain(|_, bucket| !bucket.is_full_at(now));
        }
        let bucket = self
            .buckets
            .entry(address)
            .or_insert_with(|| Bucket::full_at(budget, now));
        bucket.spend_at(now, 1.0)
    }

    #[cfg(test)]
    pub fn addresses(&self) -> usize {
        self.buckets.len()
    }
}

#[cfg(test)]
mod tests {
    use std::net::Ipv4Addr;
    use std::time::Duration;

    use super::*;

    #[test]
    fn an_address_spends_its_burst_then_its_rate_and_others_are_apart() {
        let budget = Budget::per_minute(60);
        let (ada, bob) = (IpAddr::from([10, 0, 0, 1]), IpAddr::from([10, 0, 0, 2]));
        let mut rate = CreationRate::default();
        let start = Instant::now();
        assert!((0..60).all(|_| rate.spend(ada, budget, start)));
        assert!(!rate.spend(ada, budget, start), "the burst is spent");
        assert!(
            rate.spend(bob, budget, start),
            "another address has its own"
        );
        let a_second_later = start + Duration::from_secs(1);
        assert!(rate.spend(ada, budget, a_second_later));
        assert!(!rate.spend(ada, budget, a_second_later));
    }

    #[test]
    fn refilled_buckets_are_dropped_once_many_addresses_came() {
        let budget = Budget::per_minute(60);
        let mut rate = CreationRate::default();
        let start = Instant::now();
        let address = |n: u32| IpAddr::from(Ipv4Addr::from(n));
        for n in 0..PRUNE_PAST as u32 {
            assert!(rate.spend(address(n), budget, start));
            assert!(rate.spend(address(n), budget, start));
        }
        assert_eq!(rate.addresses(), PRUNE_PAST);
        // A second later every bucket has one of its two tokens back, none is full: all are
        // kept.
        assert!(rate.spend(address(u32::MAX), budget, start + Duration::from_secs(1)));
        assert_eq!(rate.addresses(), PRUNE_PAST + 1);
        // A minute later all have refilled: only the newcomer stays.
        let later = start + Duration::from_secs(61);
        assert!(rate.spend(address(u32::MAX - 1), budget, later));
        assert_eq!(rate.addresses(), 1);
    }
}
