//! The places for brain files travelling: [`MAX_FILES_TRAVELLING`] server-wide, of which one
//! address may hold [`FILES_PER_ADDRESS`], so one client cannot take them all.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};

use parlor_shared::protocol::ErrorCode;

use crate::hall::Refusal;

/// Brain files travelling at once, server-wide: exports being sent and imports being joined.
pub const MAX_FILES_TRAVELLING: usize = 4;
/// Of those, what the connections from one address may hold.
pub const FILES_PER_ADDRESS: usize = 2;

/// The places, shared by every connection.
#[derive(Debug, Default)]
pub struct Places {
    held: Mutex<HashMap<IpAddr, usize>>,
}

/// A place held for a file; dropping it frees the place.
#[derive(Debug)]
pub struct Place {
    places: Arc<Places>,
    address: IpAddr,
}

impl Places {
    fn lock(&self) -> MutexGuard<'_, HashMap<IpAddr, usize>> {
        // A count is whole after any panic: nothing to lose by going on.
        crate::lock(&self.held)
    }

    /// Places taken, server-wide.
    pub fn taken(&self) -> usize {
        self.lock().values().sum()
    }
}

/// Takes a place for a file from `address`, or says why none is free.
pub fn take_place(places: &Arc<Places>, address: IpAddr) -> Result<Place, Refusal> {
    let mut held = places.lock();
    let busy = |why: String| {
        (
            ErrorCode::LimitReached,
            format!("{why}; try again in a minute"),
        )
    };
    if held.values().sum::<usize>() >= MAX_FILES_TRAVELLING {
        return Err(busy(format!(
            "{MAX_FILES_TRAVELLING} brain files are travelling to or from the server already"
        )));
    }
    let from_address = held.entry(address).or_default();
    if *from_address >= FILES_PER_ADDRESS {
        return Err(busy(format!(
            "{FILES_PER_ADDRESS} brain files are travelling to or from {address} already"
        )));
    }
    *from_address += 1;
    Ok(Place {
        places: Arc::clone(places),
        address,
    })
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut held = self.places.lock();
        if let Some(count) = held.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                held.remove(&self.address);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_address_holds_at_most_its_share_and_all_hold_at_most_the_total() {
        let places = Arc::new(Places::default());
        let address = |last: u8| IpAddr::from([10, 0, 0, last]);
        let first: Vec<Place> = (0..FILES_PER_ADDRESS)
            .map(|_| take_place(&places, address(1)).unwrap())
            .collect();
        let (code, message) = take_place(&places, address(1)).err().unwrap();
        assert_eq!(code, ErrorCode::LimitReached);
        assert!(message.contains("10.0.0.1"), "{message}");
        let others: Vec<Place> = (2..)
            .map_while(|last| take_place(&places, address(last)).ok())
            .collect();
        assert_eq!(first.len() + others.len(), MAX_FILES_TRAVELLING);
        drop(first);
        assert_eq!(places.taken(), others.len());
        assert!(
            take_place(&places, address(1)).is_ok(),
            "freed when dropped"
        );
    }
}
