//! The connections one source address may hold at once (`Limits::connections_per_address`):
//! without a cap of its own, one host could take every place under the server's
//! `max_connections` and lock everybody else out. A source is counted as the other
//! per-address quotas count it (`crate::source`: IPv6 by its prefix).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// The connections held, by source.
#[derive(Clone, Default)]
pub struct AddressSlots(Arc<Mutex<HashMap<IpAddr, usize>>>);

/// One connection's place under its source's cap, given back when dropped.
pub struct AddressSlot {
    source: IpAddr,
    slots: AddressSlots,
}

impl AddressSlots {
    /// A place for one more connection from `source`, unless it holds `cap` already.
    pub fn take(&self, source: IpAddr, cap: usize) -> Option<AddressSlot> {
        let mut held = crate::lock(&self.0);
        let count = held.entry(source).or_default();
        if *count >= cap {
            return None;
        }
        *count += 1;
        Some(AddressSlot {
            source,
            slots: self.clone(),
        })
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut held = crate::lock(&self.slots.0);
        if let Some(count) = held.get_mut(&self.source) {
            *count -= 1;
            if *count == 0 {
                held.remove(&self.source);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_source_holds_at_most_its_cap_and_gets_places_back_as_connections_end() {
        let slots = AddressSlots::default();
        let (one, other): (IpAddr, IpAddr) = ("192.0.2.1".parse().unwrap(), "::1".parse().unwrap());
        let first = slots.take(one, 2).unwrap();
        let second = slots.take(one, 2).unwrap();
        assert!(slots.take(one, 2).is_none(), "a third is over the cap");
        assert!(slots.take(other, 2).is_some(), "another source has its own");
        drop(first);
        let third = slots.take(one, 2);
        assert!(third.is_some(), "a place given back is taken again");
        drop((second, third));
        assert!(
            crate::lock(&slots.0).is_empty(),
            "nothing kept for sources gone"
        );
    }
}
