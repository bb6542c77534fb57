//! How many rooms each player and each address follows (holds a seat in or watches), over all
//! their connections. A room someone follows stays open, and every follower costs the room a
//! state per change, so one person's connections, or one address's many players (identities
//! cost nothing), may follow only so many at once (`Limits::followed_per_player` and
//! `followed_per_address`). A connection takes a [`FollowTicket`] for each room it follows and
//! drops it when it leaves the room or goes.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use parlor_shared::identity::PlayerId;
use parlor_shared::protocol::ErrorCode;

use crate::hall::Refusal;
use crate::limits::Limits;

#[derive(Default)]
struct Counts {
    players: HashMap<PlayerId, usize>,
    addresses: HashMap<IpAddr, usize>,
}

/// The counts, shared by the hall and every ticket it gave out.
#[derive(Clone, Default)]
pub struct FollowCounts(Arc<Mutex<Counts>>);

/// One room followed by `player` from `address`; dropping it gives the place back.
pub struct FollowTicket {
    player: PlayerId,
    address: IpAddr,
    counts: FollowCounts,
}

impl FollowCounts {
    /// A place for one more room `player` follows from `address`, unless either has all the
    /// `limits` allow.
    pub fn take(
        &self,
        player: PlayerId,
        address: IpAddr,
        limits: &Limits,
    ) -> Result<FollowTicket, Refusal> {
        let mut counts = crate::lock(&self.0);
        let by_player = counts.players.get(&player).copied().unwrap_or(0);
        let by_address = counts.addresses.get(&address).copied().unwrap_or(0);
        let refuse = |what: String| Err((ErrorCode::LimitReached, what));
        if by_player >= limits.followed_per_player {
            return refuse(format!(
                "a player may follow {} rooms at once; leave one first",
                limits.followed_per_player
            ));
        }
        if by_address >= limits.followed_per_address {
            return refuse(format!(
                "the players of one address may follow {} rooms at once; leave one first",
                limits.followed_per_address
            ));
        }
        *counts.players.entry(player).or_default() += 1;
        *counts.addresses.entry(address).or_default() += 1;
        Ok(FollowTicket {
            player,
            address,
            counts: self.clone(),
        })
    }
}

impl Drop for FollowTicket {
    fn drop(&mut self) {
        let mut counts = crate::lock(&self.counts.0);
        let Counts { players, addresses } = &mut *counts;
        let counts = [
            players.get_mut(&self.player),
            addresses.get_mut(&self.address),
        ];
        for count in counts.into_iter().flatten() {
            *count -= 1;
        }
        players.retain(|_, count| *count > 0);
        addresses.retain(|_, count| *count > 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_and_an_address_follow_so_many_rooms_and_a_ticket_dropped_frees_its_place() {
        let limits = Limits {
            followed_per_player: 2,
            followed_per_address: 3,
            ..Limits::default()
        };
        let counts = FollowCounts::default();
        let (here, there): (IpAddr, IpAddr) = ([10, 0, 0, 1].into(), [10, 0, 0, 2].into());
        let (ada, bob) = (PlayerId(1), PlayerId(2));
        let first = counts.take(ada, here, &limits).unwrap();
        let _second = counts.take(ada, there, &limits).unwrap();
        let full = counts.take(ada, here, &limits).err().unwrap();
        assert!(full.1.contains("a player may follow 2"), "{}", full.1);
        // Another player of the same address shares its quota.
        let _third = counts.take(bob, here, &limits).unwrap();
        let _fourth = counts.take(bob, here, &limits).unwrap();
        let crowded = counts.take(PlayerId(3), here, &limits).err().unwrap();
        assert!(
            crowded.1.contains("one address may follow 3"),
            "{}",
            crowded.1
        );
        drop(first);
        assert!(counts.take(ada, there, &limits).is_ok());
    }
}
