//! Places counted by source address, under a cap in all and a cap per source, so that one
//! client cannot take them all: the server's connections (`Limits::max_connections`,
//! `Limits::connections_per_address`) and the brain files travelling
//! (`crate::brain_transfer::places`). A source is counted as the per-address quotas count it
//! (`crate::source`: IPv6 by its prefix).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};

/// The places held, by source.
#[derive(Debug, Default)]
pub struct AddressSlots {
    held: Mutex<Held>,
}

/// The places held by each source, and their sum (kept, not summed: the server's connections
/// take a place at every accept, from thousands of sources).
#[derive(Debug, Default)]
struct Held {
    by_source: HashMap<IpAddr, usize>,
    total: usize,
}

/// One place held by a source, given back when dropped.
#[derive(Debug)]
pub struct AddressSlot {
    slots: Arc<AddressSlots>,
    source: IpAddr,
}

/// Which cap a place was refused under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotsFull {
    /// Every place is held.
    All,
    /// The source holds its share.
    Source,
}

impl AddressSlots {
    fn lock(&self) -> MutexGuard<'_, Held> {
        // A count is whole after any panic: nothing to lose by going on.
        crate::lock(&self.held)
    }

    /// A place for `source`, unless `total` places are held in all or `per_source` by it.
    pub fn take(
        self: &Arc<Self>,
        source: IpAddr,
        per_source: usize,
        total: usize,
    ) -> Result<AddressSlot, SlotsFull> {
        let mut held = self.lock();
        if held.total >= total {
            return Err(SlotsFull::All);
        }
        let count = held.by_source.entry(source).or_default();
        if *count >= per_source {
            return Err(SlotsFull::Source);
        }
        *count += 1;
        held.total += 1;
        Ok(AddressSlot {
            slots: Arc::clone(self),
            source,
        })
    }

    /// Places held, by every source.
    pub fn taken(&self) -> usize {
        self.lock().total
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut held = self.slots.lock();
        if let Some(count) = held.by_source.get_mut(&self.source) {
            *count -= 1;
            if *count == 0 {
                held.by_source.remove(&self.source);
            }
            held.total -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_source_holds_at_most_its_share_all_at_most_the_total_and_places_come_back() {
        let slots = Arc::new(AddressSlots::default());
        let (one, other): (IpAddr, IpAddr) = ("192.0.2.1".parse().unwrap(), "::1".parse().unwrap());
        let first = slots.take(one, 2, 3).unwrap();
        let second = slots.take(one, 2, 3).unwrap();
        assert_eq!(slots.take(one, 2, 3).err(), Some(SlotsFull::Source));
        let others = slots.take(other, 2, 3).unwrap();
        assert_eq!(slots.take(other, 2, 3).err(), Some(SlotsFull::All));
        drop(first);
        let third = slots.take(one, 2, 3);
        assert!(third.is_ok(), "a place given back is taken again");
        drop((second, third, others));
        assert_eq!(slots.taken(), 0);
        assert!(
            slots.lock().by_source.is_empty(),
            "nothing kept for sources gone"
        );
    }
}
