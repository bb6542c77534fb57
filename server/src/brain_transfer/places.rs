//! The places for brain files travelling: [`MAX_FILES_TRAVELLING`] server-wide, of which one
//! address may hold [`FILES_PER_ADDRESS`], so one client cannot take them all.

use std::net::IpAddr;
use std::sync::Arc;

use parlor_shared::protocol::ErrorCode;

use crate::address_slots::SlotsFull;
pub use crate::address_slots::{AddressSlot as Place, AddressSlots as Places};
use crate::hall::Refusal;

/// Brain files travelling at once, server-wide: exports being sent and imports being joined.
pub const MAX_FILES_TRAVELLING: usize = 4;
/// Of those, what the connections from one address may hold.
pub const FILES_PER_ADDRESS: usize = 2;

/// Takes a place for a file from `address`, or says why none is free.
pub fn take_place(places: &Arc<Places>, address: IpAddr) -> Result<Place, Refusal> {
    let taken = places.take(address, FILES_PER_ADDRESS, MAX_FILES_TRAVELLING);
    taken.map_err(|full| {
        let why = match full {
            SlotsFull::All => format!(
                "{MAX_FILES_TRAVELLING} brain files are travelling to or from the server already"
            ),
            SlotsFull::Source => {
                format!(
                    "{FILES_PER_ADDRESS} brain files are travelling to or from {address} already"
                )
            }
        };
        (
            ErrorCode::LimitReached,
            format!("{why}; try again in a minute"),
        )
    })
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
