//! What the server knows of a person: the checks a `Hello` passes before the connection speaks
//! for them, and the public id it derives from their secret (`parlor_shared::identity::player_id`,
//! a one-way hash, so the server stores and shows only ids: nothing it keeps lets anybody act
//! as someone else).

use parlor_shared::identity::{
    Player, PlayerSecret, check_name, player_id, without_refused_characters,
};

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
        // A name an older client kept with what names may no longer hold (invisible
        // characters, '#') is shown without it, rather than keep its player out.
        name: check_name(&without_refused_characters(name))?,
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

    /// An older client's name with a direction override is shown without it: the player is
    /// not kept out, and the name does not pass for another.
    #[test]
    fn invisible_characters_are_taken_out_of_a_greeting_s_name() {
        let ada = greeted(&PlayerSecret::random(), "\u{202e}Ada\u{200b}").unwrap();
        assert_eq!(ada.name, "Ada");
    }
}
