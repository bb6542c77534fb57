//! What the server knows of a person: the public id it derives from their secret, and the
//! checks a `Hello` passes before the connection speaks for them.
//!
//! The id is a one-way hash of the secret, so the server stores and shows only ids: nothing it
//! keeps lets anybody act as someone else, and every server derives the same id from the same
//! secret (no table of players is needed to know who is who). A secret carries 256 random
//! bits, so a plain digest is enough.

use parlor_shared::identity::{Player, PlayerId, PlayerSecret, check_name};
use sha2::{Digest, Sha256};

/// The public id of the holder of `secret`.
pub fn player_id(secret: &PlayerSecret) -> PlayerId {
    let digest = Sha256::new()
        .chain_update(b"parlor player id\0")
        .chain_update(secret.0.as_bytes())
        .finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    PlayerId(u64::from_be_bytes(first))
}

/// The player a `Hello` speaks for, or why it may not: a secret that is malformed or could be
/// guessed, or a name out of bounds.
pub fn greeted(secret: &PlayerSecret, name: &str) -> Result<Player, String> {
    if !secret.is_strong() {
        return Err(format!(
            "a player secret is {} lowercase hex digits drawn at random (PlayerSecret::random); \
             this one is malformed or could be guessed",
            PlayerSecret::LENGTH
        ));
    }
    Ok(Player {
        id: player_id(secret),
        name: check_name(name)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_secret_is_one_player_on_every_connection() {
        let (ada, bob) = (PlayerSecret::random(), PlayerSecret::random());
        let first = greeted(&ada, "Ada").unwrap();
        let again = greeted(&ada.clone(), " Ada Lovelace ").unwrap();
        assert_eq!(first.id, again.id);
        assert_eq!(again.name, "Ada Lovelace");
        assert_ne!(first.id, greeted(&bob, "Ada").unwrap().id);
    }

    #[test]
    fn weak_secrets_and_bad_names_are_refused() {
        let zero = PlayerSecret("0".repeat(64));
        assert!(greeted(&zero, "Ada").unwrap_err().contains("guessed"));
        let long = "x".repeat(64 * 1024);
        assert!(
            greeted(&PlayerSecret::random(), &long)
                .unwrap_err()
                .contains("32")
        );
    }

    #[test]
    fn the_id_does_not_show_the_secret() {
        let secret = PlayerSecret::random();
        let id = player_id(&secret).to_string();
        assert!(!secret.0.contains(&id));
    }
}
