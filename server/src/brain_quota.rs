//! What one player, and the players of one source address together, may keep of brains: how
//! many, and their stored bytes (`Limits::brains`, `Limits::brains_per_address`; identities
//! cost nothing to make, so an address has a quota of its own). Checked when a brain is made:
//! by an import (its packed size), and by a game or an auto match on a new name (it starts
//! empty; a match's brains then grow, up to `MAX_BRAIN_BOXES`, which the bytes already kept
//! count against at the next creation). A brain admitted is noted with its address, so the
//! address's count holds across restarts.

use std::net::IpAddr;

use parlor_shared::identity::PlayerId;
use parlor_shared::protocol::ErrorCode;

use crate::hall::{Refusal, internal};
use crate::limits::{BrainQuota, Limits};
use crate::store::Store;

/// The brain quotas of a hall.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrainQuotas {
    pub per_player: BrainQuota,
    pub per_address: BrainQuota,
}

impl BrainQuotas {
    pub fn of(limits: &Limits) -> BrainQuotas {
        BrainQuotas {
            per_player: limits.brains,
            per_address: limits.brains_per_address,
        }
    }
}

/// Who makes a brain: its owner, and the source address they ask from (`crate::source`;
/// `None` for the hall's own work, which counts for the player only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrainMaker {
    pub player: PlayerId,
    pub source: Option<IpAddr>,
}

/// Admits a brain `canonical` of `maker`'s taking `bytes` stored bytes (replacing the brain of
/// that name, if there is one), or refuses it when it would take its owner or their address
/// over their quota; an admitted brain is noted as made from `maker.source`. Blocking: it
/// reads and writes the store.
pub fn admit(
    store: &Store,
    quotas: BrainQuotas,
    maker: BrainMaker,
    canonical: &str,
    bytes: u64,
) -> Result<(), Refusal> {
    let (count, used) = (store.brain_usage(maker.player, canonical)).map_err(internal)?;
    check(quotas.per_player, "a player", "yours", count, used + bytes)?;
    if let Some(source) = maker.source {
        let (count, used) = (store.brain_usage_from(source, canonical)).map_err(internal)?;
        check(
            quotas.per_address,
            "the players of one address",
            "your address's",
            count,
            used + bytes,
        )?;
        store
            .note_brain_source(canonical, source)
            .map_err(internal)?;
    }
    Ok(())
}

/// Refuses one more brain for a holder who keeps `count` others, when the bytes would come to
/// `total`. `whose` names the holder, `their` their brains.
fn check(
    quota: BrainQuota,
    whose: &str,
    their: &str,
    count: usize,
    total: u64,
) -> Result<(), Refusal> {
    if count >= quota.count {
        return Err((
            ErrorCode::LimitReached,
            format!("{whose} may keep {} brains; delete one first", quota.count),
        ));
    }
    if total > quota.bytes {
        return Err((
            ErrorCode::LimitReached,
            format!(
                "{whose}'s brains may take {} MiB in the store, and {their} would take {} MiB; \
                 delete or reset one first",
                quota.bytes >> 20,
                total.div_ceil(1 << 20)
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use parlor_shared::hexapawn::{Brain, Dims};

    use super::*;
    use crate::store::BrainRow;

    fn maker(player: u64, address: [u8; 4]) -> BrainMaker {
        BrainMaker {
            player: PlayerId(player),
            source: Some(IpAddr::from(address)),
        }
    }

    /// Admits and stores an empty brain `name` of `maker`'s.
    fn make(
        store: &Store,
        quotas: BrainQuotas,
        maker: BrainMaker,
        name: &str,
    ) -> Result<(), Refusal> {
        let empty = BrainRow::of(&Brain::new(Dims::HEXAPAWN, false));
        let canonical = format!("{}/{name}", maker.player);
        admit(store, quotas, maker, &canonical, empty.stored_bytes())?;
        store.put_brain_row(&canonical, &empty).unwrap();
        Ok(())
    }

    fn roomy() -> BrainQuota {
        BrainQuota {
            count: 100,
            bytes: 1 << 30,
        }
    }

    #[test]
    fn a_players_brains_stop_at_their_count_and_bytes_and_a_replacement_is_not_one_more() {
        let store = Store::in_memory().unwrap();
        let (ada, bob) = (maker(0xada, [10, 0, 0, 1]), maker(0xb0b, [10, 0, 0, 2]));
        let size = BrainRow::of(&Brain::new(Dims::HEXAPAWN, false)).stored_bytes();
        let quotas = BrainQuotas {
            per_player: BrainQuota {
                count: 2,
                bytes: 3 * size,
            },
            per_address: roomy(),
        };
        for name in ["one", "two"] {
            make(&store, quotas, ada, name).unwrap();
        }
        let third = make(&store, quotas, ada, "three").unwrap_err();
        assert!(
            third.1.contains("a player may keep 2 brains"),
            "{}",
            third.1
        );
        // Replacing one of the two is not a third.
        let two = format!("{}/two", ada.player);
        assert!(admit(&store, quotas, ada, &two, size).is_ok());
        let too_big = admit(&store, quotas, ada, &two, 3 * size).unwrap_err();
        assert!(
            too_big.1.contains("MiB") && too_big.1.contains("yours"),
            "{}",
            too_big.1
        );
        // Another player's brains are theirs to count.
        make(&store, quotas, bob, "one").unwrap();
    }

    #[test]
    fn the_players_of_one_address_share_a_quota_that_other_addresses_do_not_feel() {
        let store = Store::in_memory().unwrap();
        let size = BrainRow::of(&Brain::new(Dims::HEXAPAWN, false)).stored_bytes();
        let quotas = BrainQuotas {
            per_player: roomy(),
            per_address: BrainQuota {
                count: 3,
                bytes: 10 * size,
            },
        };
        // Three fresh identities at one address, a brain each: the fourth is refused.
        for player in 1..=3 {
            make(&store, quotas, maker(player, [10, 0, 0, 1]), "her").unwrap();
        }
        let fourth = make(&store, quotas, maker(4, [10, 0, 0, 1]), "her").unwrap_err();
        assert_eq!(fourth.0, ErrorCode::LimitReached);
        assert!(fourth.1.contains("one address may keep 3"), "{}", fourth.1);
        // The same player from another address, and the hall's own work, go on.
        make(&store, quotas, maker(4, [10, 0, 0, 2]), "her").unwrap();
        let hall_work = BrainMaker {
            player: PlayerId(4),
            source: None,
        };
        make(&store, quotas, hall_work, "other").unwrap();
        // A deleted brain frees its place.
        assert!(store.delete_brain(&format!("{}/her", PlayerId(1))).unwrap());
        make(&store, quotas, maker(5, [10, 0, 0, 1]), "her").unwrap();
        // Bytes count too.
        let heavy = admit(&store, quotas, maker(6, [10, 0, 0, 3]), "6/x", 11 * size);
        assert!(heavy.unwrap_err().1.contains("your address's"));
    }

    #[test]
    fn a_brain_noted_but_never_stored_counts_nothing() {
        let store = Store::in_memory().unwrap();
        let quotas = BrainQuotas {
            per_player: roomy(),
            per_address: BrainQuota {
                count: 1,
                bytes: 1 << 20,
            },
        };
        let at = maker(1, [10, 0, 0, 1]);
        // A game on a new brain that never ended: admitted, never stored.
        admit(&store, quotas, at, &format!("{}/gone", at.player), 0).unwrap();
        make(&store, quotas, at, "kept").unwrap();
    }
}
