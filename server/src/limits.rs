//! What one client may cost the server: caps on connections, rooms and spectators, request
//! budgets, and the timeouts that free resources held by silent peers.
//!
//! Budgets are token buckets: a client may spend a burst at once and then the refill rate. A
//! client that overdraws a budget is abusing the server, and its connection is closed with
//! WebSocket code 1008 (policy violation); a cap that is merely full gets an error and changes
//! nothing.

use std::time::Duration;

use tokio::time::Instant;

#[derive(Clone, Debug)]
pub struct Limits {
    /// Connections held at once; more are answered `ServerBusy` and closed (code 1013).
    pub max_connections: usize,
    /// Connections one source address may hold at once (`crate::address_slots`); more are
    /// answered `LimitReached` and closed (code 1008).
    pub connections_per_address: usize,
    /// What one player may keep: unfinished rooms they created, of those with AI seats (each
    /// search or solve is work for the AI pool), auto matches running.
    pub per_player: RoomQuota,
    /// What the players of one address may keep together: identities cost nothing to make.
    pub per_address: RoomQuota,
    /// The brains one player may keep, and their stored bytes together (a full 8x8 brain is
    /// about 7.5 MB packed).
    pub brains: BrainQuota,
    /// The brains the players of one source address may keep together.
    pub brains_per_address: BrainQuota,
    /// Rooms one player follows at once (seats and watching, over all their connections),
    /// and the players of one address together.
    pub followed_per_player: usize,
    pub followed_per_address: usize,
    /// The bits of an IPv6 address that name its source for the per-address quotas and the
    /// AI pool's turns (`crate::source`): a host is usually given a whole /64.
    pub ipv6_prefix: u8,
    /// Unfinished rooms, server-wide.
    pub max_rooms: usize,
    /// Unfinished rooms with AI seats, server-wide: bounds the AI pool's queue.
    pub max_ai_rooms: usize,
    /// HER-vs-HER matches running at once, server-wide (each is a thread).
    pub max_matches: usize,
    /// Spectators of one room (players do not count).
    pub spectators_per_room: usize,
    /// How long a finished room stays open after its game is stored, so its creator and
    /// latecomers can still watch the end; after that it closes once nobody follows it.
    pub finished_room_linger: Duration,
    /// An unfinished room or auto match closes (and is forgotten, also by the store) once
    /// nobody has followed it for this long (no seat holder connected, no spectator; a new
    /// room from its creation), however its AIs or HERs play on meanwhile, and across restarts
    /// (`crate::abandon_clock`): else rooms left behind would fill `max_rooms` for good. Ten
    /// minutes: a dropped connection is back within a minute (the client's backoff), and a
    /// person who closed the window has that long to come back to their seats as their player
    /// (seats are kept only while their room lives), while the places of rooms whose people
    /// have left are free again within ten minutes.
    pub abandoned_room_after: Duration,
    /// Any request: per second, and the burst allowed on top.
    pub requests: Budget,
    /// `CreateRoom` requests, per connection.
    pub room_creations: Budget,
    /// Rooms the players of one address create together (`CreateRoom` and `PlayAgain`, over
    /// all their connections): the unfinished-room quotas do not bound games that end at
    /// once, and each of those leaves a record and a lobby row.
    pub room_creations_per_address: Budget,
    /// The WebSocket upgrade, and then `Hello` (a fresh timeout of this length for each).
    pub handshake_timeout: Duration,
    /// A connection that sends nothing at all (not even a pong) for this long is closed.
    pub idle_timeout: Duration,
    /// How often the server pings (tungstenite never does on its own).
    pub ping_every: Duration,
    /// A single frame the client does not take within this time ends the connection.
    pub write_timeout: Duration,
    /// What the store may hold (`crate::store::Store::check_not_full`): past it, new rooms and
    /// brain imports are refused and auto matches stop, while games under way go on and are
    /// stored. 4 GiB suits a small server: over 500 full 8x8 brains (7.5 MB each, packed), or
    /// about a million finished games (a few KB each). It may be passed by what was under way
    /// when it was reached: each running match's last rounds (2 x 7.5 MB on 8x8), the imports
    /// travelling (4 at most), and the games still being played.
    pub max_store_bytes: u64,
}

/// Rooms someone may keep unfinished: in all, with AI seats, and auto matches running.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RoomQuota {
    pub rooms: usize,
    pub ai_rooms: usize,
    pub matches: usize,
}

/// The brains one player may keep: how many, and their stored bytes together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrainQuota {
    pub count: usize,
    pub bytes: u64,
}

/// How often a server started from the command line pings each connection.
pub const PING_EVERY: Duration = Duration::from_secs(20);

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_connections: 10_000,
            connections_per_address: 256,
            per_player: RoomQuota {
                rooms: 16,
                ai_rooms: 4,
                matches: 2,
            },
            // A classroom behind one address: a few dozen people, each within their own quota.
            per_address: RoomQuota {
                rooms: 64,
                ai_rooms: 16,
                matches: 4,
            },
            brains: BrainQuota {
                count: 32,
                bytes: 256 << 20,
            },
            // Four players' worth: a quarter of the store, so that fresh identities at one
            // address cannot fill it with brains.
            brains_per_address: BrainQuota {
                count: 128,
                bytes: 1 << 30,
            },
            followed_per_player: 64,
            followed_per_address: 512,
            ipv6_prefix: 64,
            max_rooms: 2_000,
            max_ai_rooms: 64,
            max_matches: 8,
            spectators_per_room: 100,
            finished_room_linger: Duration::from_secs(60),
            abandoned_room_after: Duration::from_secs(10 * 60),
            requests: Budget {
                per_second: 50.0,
                burst: 200.0,
            },
            room_creations: Budget {
                per_second: 1.0,
                burst: 30.0,
            },
            room_creations_per_address: Budget::per_minute(ROOM_CREATIONS_PER_ADDRESS),
            handshake_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            ping_every: PING_EVERY,
            write_timeout: Duration::from_secs(30),
            max_store_bytes: 4 << 30,
        }
    }
}

/// How soon a room tries again a write the store refused (a full disk, a locked database): its
/// finished game, or its AI's move. Nothing is lost meanwhile: a finished game is in the store's
/// room rows, and a move is only shown once stored.
pub const STORE_RETRY: Duration = Duration::from_secs(10);

/// How long rooms stay open once nobody needs them (see [`Limits::finished_room_linger`]
/// and [`Limits::abandoned_room_after`]), and how soon a write the store refused is tried
/// again ([`STORE_RETRY`]).
#[derive(Clone, Copy, Debug)]
pub struct RoomLifetimes {
    pub linger: Duration,
    pub abandoned_after: Duration,
    pub store_retry: Duration,
}

impl Limits {
    pub fn room_lifetimes(&self) -> RoomLifetimes {
        RoomLifetimes {
            linger: self.finished_room_linger,
            abandoned_after: self.abandoned_room_after,
            store_retry: STORE_RETRY,
        }
    }
}

/// Rooms the players of one address may create a minute by default: a classroom behind one
/// address playing quick games, two rooms a second, 120 at once.
pub const ROOM_CREATIONS_PER_ADDRESS: u32 = 120;

/// A token bucket's refill rate and size.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub per_second: f64,
    pub burst: f64,
}

impl Budget {
    /// `count` a minute, all of them at once if need be.
    pub fn per_minute(count: u32) -> Budget {
        Budget {
            per_second: f64::from(count) / 60.0,
            burst: f64::from(count),
        }
    }
}

/// A token bucket being spent.
#[derive(Debug)]
pub struct Bucket {
    budget: Budget,
    tokens: f64,
    refilled: Instant,
}

impl Bucket {
    pub fn full(budget: Budget) -> Bucket {
        Bucket::full_at(budget, Instant::now())
    }

    pub fn full_at(budget: Budget, now: Instant) -> Bucket {
        Bucket {
            budget,
            tokens: budget.burst,
            refilled: now,
        }
    }

    /// Spends one token; false when the budget is overdrawn.
    pub fn spend(&mut self) -> bool {
        self.spend_at(Instant::now(), 1.0)
    }

    /// Spends `cost` tokens (a fraction for small requests); false when overdrawn.
    pub fn spend_some(&mut self, cost: f64) -> bool {
        self.spend_at(Instant::now(), cost)
    }

    /// Whether the bucket has refilled to its burst by `now`: it then holds nothing a new
    /// one would not.
    pub fn is_full_at(&self, now: Instant) -> bool {
        self.tokens_at(now) >= self.budget.burst
    }

    /// The tokens the bucket holds at `now`, refilled since it was last spent from.
    fn tokens_at(&self, now: Instant) -> f64 {
        let elapsed = now.saturating_duration_since(self.refilled).as_secs_f64();
        (self.tokens + elapsed * self.budget.per_second).min(self.budget.burst)
    }

    pub(crate) fn spend_at(&mut self, now: Instant, cost: f64) -> bool {
        self.tokens = self.tokens_at(now);
        self.refilled = now;
        if self.tokens >= cost {
            self.tokens -= cost;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_its_burst_then_its_rate() {
        let budget = Budget {
            per_second: 10.0,
            burst: 5.0,
        };
        let mut bucket = Bucket::full(budget);
        let start = bucket.refilled;
        assert!((0..5).all(|_| bucket.spend_at(start, 1.0)));
        assert!(!bucket.spend_at(start, 1.0), "the burst is spent");
        // 100 ms at 10 per second buys exactly one more.
        let later = start + Duration::from_millis(100);
        assert!(bucket.spend_at(later, 1.0));
        assert!(!bucket.spend_at(later, 1.0));
        // A long pause refills to the burst, not beyond it.
        let much_later = later + Duration::from_secs(60);
        assert_eq!(
            (0..10).filter(|_| bucket.spend_at(much_later, 1.0)).count(),
            5
        );
        // A sixteenth of a request costs that much: a full bucket of 5 takes 80.
        let refilled = much_later + Duration::from_secs(60);
        let parts = (0..100)
            .filter(|_| bucket.spend_at(refilled, 1.0 / 16.0))
            .count();
        assert_eq!(parts, 80);
    }
}
