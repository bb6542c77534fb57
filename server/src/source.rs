//! Where a client comes from, as the per-address quotas and the AI pool's turns count it.
//!
//! An IPv4 address is one source. An IPv6 host is usually given a whole /64 (SLAAC, privacy
//! addresses), so it can speak from as many addresses as it likes: counted one by one, each
//! would bring a fresh quota and a fresh turn in the AI pool. So an IPv6 address counts as
//! its network prefix ([`Limits::ipv6_prefix`](crate::limits::Limits), 64 bits unless the
//! server is told otherwise), and an IPv4 address written as IPv6 (`::ffff:a.b.c.d`, what a
//! dual-stack listener reports) as the IPv4 address it is.

use std::net::{IpAddr, Ipv6Addr};

/// The source `address` counts as: itself for IPv4, its first `ipv6_prefix` bits (the rest
/// zero) for IPv6. A prefix over 128 counts as 128.
pub fn source_of(address: IpAddr, ipv6_prefix: u8) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let kept = u32::from(ipv6_prefix.min(128));
                let mask = u128::MAX.checked_shl(128 - kept).unwrap_or(0);
                IpAddr::V6(Ipv6Addr::from(u128::from(v6) & mask))
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn ipv4_is_itself_and_ipv6_counts_as_its_prefix() {
        assert_eq!(source_of(ip("192.0.2.7"), 64), ip("192.0.2.7"));
        assert_eq!(source_of(ip("::ffff:192.0.2.7"), 64), ip("192.0.2.7"));
        // Two privacy addresses of one host: one source.
        let one = source_of(ip("2001:db8:1:2:a1b2:c3d4:e5f6:1"), 64);
        let other = source_of(ip("2001:db8:1:2:ffff:0:0:9"), 64);
        assert_eq!(one, other);
        assert_eq!(one, ip("2001:db8:1:2::"));
        // The next /64 is another source.
        assert_ne!(one, source_of(ip("2001:db8:1:3::1"), 64));
        // A wider prefix groups whole sites; 128 keeps every address apart; 0 is one source.
        assert_eq!(source_of(ip("2001:db8:1:3::1"), 48), ip("2001:db8:1::"));
        assert_eq!(source_of(ip("2001:db8::5"), 128), ip("2001:db8::5"));
        assert_eq!(source_of(ip("2001:db8::5"), 200), ip("2001:db8::5"));
        assert_eq!(source_of(ip("2001:db8::5"), 0), ip("::"));
    }
}
