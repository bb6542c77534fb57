//! How many rooms each player and each address follows (holds a seat in or watches), over all
//! their connections. A room someone follows stays open, and every follower costs the room a
//! state per change, so one person's connections, or one address's many players (identities
//! cost nothing), may follow only so many at once (`Limits::followed_per_player` and
//! `followed_per_address`). A connection takes a [`FollowTicket`] for each room it follows and
//! drops it when it leaves the room or goes. In a cluster, each node counts its own
//! connections' follows and tells the others ([`FollowCounts::tally`]), which add them
//! ([`Elsewhere`]), so the quotas hold hall-wide.

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

/// What a player and an address follow through the hall's other nodes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Elsewhere {
    pub player: usize,
    pub address: usize,
}

/// A node's follows, as it tells the other nodes (looked up on every follow: by hash).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FollowTally {
    pub players: HashMap<PlayerId, u32>,
    pub addresses: HashMap<IpAddr, u32>,
}

impl FollowTally {
    /// What `player` and `address` follow by this tally.
    pub fn of(&self, player: PlayerId, address: IpAddr) -> Elsewhere {
        let count = |found: Option<&u32>| found.copied().unwrap_or(0) as usize;
        Elsewhere {
            player: count(self.players.get(&player)),
            address: count(self.addresses.get(&address)),
        }
    }
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
    /// `elsewhere` is what they follow through the hall's other nodes.
    pub fn take(
        &self,
        player: PlayerId,
        address: IpAddr,
        limits: &Limits,
        elsewhere: Elsewhere,
    ) -> Result<FollowTicket, Refusal> {
        let mut counts = crate::lock(&self.0);
        let by_player = counts.players.get(&player).copied().unwrap_or(0) + elsewhere.player;
        let by_address = counts.addresses.get(&address).copied().unwrap_or(0) + elsewhere.address;
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

impl FollowCounts {
    /// Every player's and address's follows on this server.
    pub fn tally(&self) -> FollowTally {
        let counts = crate::lock(&self.0);
        let count = |n: &usize| u32::try_from(*n).unwrap_or(u32::MAX);
        FollowTally {
            players: (counts.players.iter())
                .map(|(p, n)| (*p, count(n)))
                .collect(),
            addresses: (counts.addresses.iter())
                .map(|(a, n)| (*a, count(n)))
                .collect(),
        }
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
        let none = Elsewhere::default();
        let first = counts.take(ada, here, &limits, none).unwrap();
        let _second = counts.take(ada, there, &limits, none).unwrap();
        let full = counts.take(ada, here, &limits, none).err().unwrap();
        assert!(full.1.contains("a player may follow 2"), "{}", full.1);
        // Another player of the same address shares its quota.
        let _third = counts.take(bob, here, &limits, none).unwrap();
        let _fourth = counts.take(bob, here, &limits, none).unwrap();
        let crowded = counts.take(PlayerId(3), here, &limits, none).err().unwrap();
        assert!(
            crowded.1.contains("one address may follow 3"),
            "{}",
            crowded.1
        );
        drop(first);
        assert!(counts.take(ada, there, &limits, none).is_ok());

        // What other nodes say they follow counts too.
        let tally = counts.tally();
        assert_eq!(
            tally.of(bob, here),
            Elsewhere {
                player: 2,
                address: 2
            }
        );
        let other_node = FollowCounts::default();
        let refused = other_node.take(bob, there, &limits, tally.of(bob, there));
        assert!(refused.is_err(), "Bob follows two rooms on the first node");
        assert!(
            other_node
                .take(PlayerId(4), there, &limits, tally.of(PlayerId(4), there))
                .is_ok()
        );
    }
}
