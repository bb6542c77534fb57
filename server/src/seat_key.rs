//! What the server keeps of a seat token: its SHA-256 digest, never the token. A token is the
//! whole authority over a seat (see `room/seats.rs`), so whoever reads the store or a room's
//! memory must not be able to take a seat with what they find there. The server never needs a
//! token back: it answers a join or a reclaim with the token the client presented.
//!
//! A token carries 128 random bits, so a plain digest (no salt, no slow hash) is enough: there
//! is no dictionary to try.

use std::fmt;

use parlor_shared::identity::{hex_of, is_lowercase_hex};
use parlor_shared::protocol::SeatToken;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

/// The digest of a seat's token; stored as 64 lowercase hex digits.
#[derive(Clone, PartialEq, Eq)]
pub struct SeatKey([u8; 32]);

impl SeatKey {
    /// Hex digits of a key in its stored form.
    pub const HEX_LENGTH: usize = 64;

    /// The key of `token`.
    pub fn of(token: &SeatToken) -> SeatKey {
        SeatKey(Sha256::digest(token.0.as_bytes()).into())
    }

    /// The stored form.
    pub fn to_hex(&self) -> String {
        hex_of(&self.0)
    }

    fn from_hex(text: &str) -> Option<SeatKey> {
        if text.len() != Self::HEX_LENGTH || !is_lowercase_hex(text) {
            return None;
        }
        let mut bytes = [0u8; 32];
        for (byte, pair) in bytes.iter_mut().zip(text.as_bytes().chunks(2)) {
            // Two checked hex digits always parse.
            *byte = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
        }
        Some(SeatKey(bytes))
    }
}

impl fmt::Debug for SeatKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SeatKey({}…)", &self.to_hex()[..8])
    }
}

impl Serialize for SeatKey {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for SeatKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<SeatKey, D::Error> {
        let text = String::deserialize(deserializer)?;
        SeatKey::from_hex(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "a seat key is {} lowercase hex digits",
                SeatKey::HEX_LENGTH
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_matches_its_own_token_only() {
        let token = SeatToken::random();
        let key = SeatKey::of(&token);
        assert_eq!(key, SeatKey::of(&token.clone()));
        assert_ne!(key, SeatKey::of(&SeatToken::random()));
        assert!(!key.to_hex().contains(&token.0), "the key shows the token");
    }

    #[test]
    fn the_key_is_the_sha256_of_the_token_text() {
        // SHA-256("abc"), the FIPS 180-2 example.
        assert_eq!(
            SeatKey::of(&SeatToken("abc".into())).to_hex(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn a_key_comes_back_from_its_stored_form_and_nothing_else_passes_for_one() {
        let key = SeatKey::of(&SeatToken::random());
        let stored = serde_json::to_string(&key).unwrap();
        assert_eq!(serde_json::from_str::<SeatKey>(&stored).unwrap(), key);
        let token = SeatToken::random();
        for bad in [
            format!("\"{}\"", token.0),
            format!("\"{}\"", key.to_hex().to_uppercase()),
            format!("\"{}x\"", &key.to_hex()[1..]),
            "17".to_string(),
        ] {
            assert!(serde_json::from_str::<SeatKey>(&bad).is_err(), "{bad}");
        }
    }
}
