//! What the server knows of a person: the checks a `Hello` passes before the connection speaks
//! for them, and the public id it derives from their secret (`parlor_shared::identity::player_id`,
//! a one-way hash, so the server stores and shows only ids: nothing it keeps lets anybody act
//! as someone else).

use parlor_shared::identity::{
    Player, PlayerSecret, check_name, player_id, without_refused_characters,
};

/// Whether `shown`, as a room shows a player, is `player` under another name: they came back
/// renamed.
pub fn shown_otherwise(shown: &Player, player: &Player) -> bool {
    shown.id == player.id && shown.name != player.name
}

/// Shows `shown` by `player`'s name if it is `player` under another one; whether it changed.
pub fn rename_shown(shown: &mut Player, player: &Player) -> bool {
    let renamed = shown_otherwise(shown, player);
    if renamed {
        shown.name.clone_from(&player.name);
    }
    renamed
}

/// The player a `Hello` speaks for, or why it may not: a secret that is malformed or could be
/// guessed, or a name out of bounds.
pub fn greeted(secret: &PlayerSecret, name: &str) -> Result<Player, String> {
    if !secret.is_strong() {
        return Err(format!(
            "a player secret is {} lowercase hex digits drawn at random (such as Python's \
             secrets.token_hex(32)); this one is malformed or could be guessed",
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
    fn only_the_same_player_under_another_name_is_renamed() {
        let ada = greeted(&PlayerSecret::random(), "Ada").unwrap();
        let renamed = Player {
            name: "Ada L".into(),
            ..ada.clone()
        };
        let namesake = greeted(&PlayerSecret::random(), "Ada").unwrap();
        let mut shown = ada.clone();
        assert!(!rename_shown(&mut shown, &ada), "the same name");
        assert!(!rename_shown(
            &mut shown,
            &Player {
                name: "Eve".into(),
                ..namesake
            }
        ));
        assert_eq!(shown, ada, "another player's name is not taken");
        assert!(rename_shown(&mut shown, &renamed));
        assert_eq!(shown, renamed);
    }

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
