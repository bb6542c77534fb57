//! What one player may keep of brains: how many, and their stored bytes together
//! (`Limits::brains`). Checked when a brain is made: by an import (its packed size), and by a
//! game or an auto match on a new name (it starts empty; a match's brains then grow, up to
//! `MAX_BRAIN_BOXES`, which the bytes already kept count against at the next creation).

use parlor_shared::identity::PlayerId;
use parlor_shared::protocol::ErrorCode;

use crate::hall::{Refusal, internal};
use crate::limits::BrainQuota;
use crate::store::Store;

/// Refuses a brain of `owner`'s that would take them over `quota`: one more brain (`adding`,
/// unless it replaces the brain `canonical`) of `bytes` stored bytes. Blocking: it reads the
/// store.
pub fn check(
    store: &Store,
    quota: BrainQuota,
    owner: PlayerId,
    canonical: &str,
    adding: bool,
    bytes: u64,
) -> Result<(), Refusal> {
    let (count, used) = store.brain_usage(owner, canonical).map_err(internal)?;
    if adding && count >= quota.count {
        return Err((
            ErrorCode::LimitReached,
            format!("a player may keep {} brains; delete one first", quota.count),
        ));
    }
    if used + bytes > quota.bytes {
        return Err((
            ErrorCode::LimitReached,
            format!(
                "a player's brains may take {} MiB in the store, and yours would take {} MiB; \
                 delete or reset one first",
                quota.bytes >> 20,
                (used + bytes).div_ceil(1 << 20)
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

    #[test]
    fn a_players_brains_stop_at_their_count_and_bytes_and_a_replacement_is_not_one_more() {
        let store = Store::in_memory().unwrap();
        let (ada, bob) = (PlayerId(0xada), PlayerId(0xb0b));
        let empty = BrainRow::of(&Brain::new(Dims::HEXAPAWN, false));
        let quota = BrainQuota {
            count: 2,
            bytes: 3 * empty.stored_bytes(),
        };
        for name in ["one", "two"] {
            store
                .put_brain_row(&format!("{ada}/{name}"), &empty)
                .unwrap();
        }
        let third = check(&store, quota, ada, &format!("{ada}/three"), true, 0).unwrap_err();
        assert!(third.1.contains("keep 2 brains"), "{}", third.1);
        // Replacing one of the two is not a third.
        let size = empty.stored_bytes();
        assert!(check(&store, quota, ada, &format!("{ada}/two"), true, size).is_ok());
        let too_big = check(&store, quota, ada, &format!("{ada}/two"), true, 3 * size);
        assert!(too_big.unwrap_err().1.contains("MiB"));
        // Another player's brains are theirs to count.
        assert!(check(&store, quota, bob, &format!("{bob}/one"), true, size).is_ok());
    }
}
