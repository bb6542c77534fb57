//! Which stored brain a name means. Brains belong to players: a plain name (`HER`) is one of
//! the asker's own, `3f2a…/HER` (a player's 16-hex-digit public id, a slash, the name) is that
//! player's, and `hall/HER` is one the hall shares with everybody, read-only (the brains of
//! stores from before brains had owners are the hall's). The server turns every name it is
//! given into its canonical form, the owner always written out, before it uses it; a client
//! shows a brain of its own by its plain name again ([`BrainRef::shown_to`]).

use crate::identity::PlayerId;

use super::check_brain_name;

/// The owner part of the hall's shared brains.
pub const HALL: &str = "hall";

/// Whose brain a name means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrainOwner {
    /// Whoever asks: a plain name.
    Asker,
    Player(PlayerId),
    /// Shared by the hall, read-only.
    Hall,
}

/// A brain's owner and its plain name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrainRef {
    pub owner: BrainOwner,
    pub name: String,
}

impl BrainRef {
    /// Reads `text` in any of its three forms; the plain name is checked as brain names are.
    pub fn parse(text: &str) -> Result<BrainRef, String> {
        let (owner, name) = match text.split_once('/') {
            Some((HALL, name)) => (BrainOwner::Hall, name),
            Some((id, name)) => match id.parse::<PlayerId>() {
                Ok(id) => (BrainOwner::Player(id), name),
                Err(_) => (BrainOwner::Asker, text),
            },
            None => (BrainOwner::Asker, text),
        };
        check_brain_name(name)?;
        Ok(BrainRef {
            owner,
            name: name.to_string(),
        })
    }

    /// Reads `text` as [`BrainRef::parse`] does, for a brain about to be made (imported, or
    /// first played or trained): its plain name must also pass [`check_new_brain_name`].
    pub fn parse_new(text: &str) -> Result<BrainRef, String> {
        let parsed = BrainRef::parse(text)?;
        check_new_brain_name(&parsed.name)?;
        Ok(parsed)
    }

    /// `text` with its owner written out: a plain name is `asker`'s (the hall's when there is
    /// no asker: a name stored before brains had owners).
    pub fn canonical(text: &str, asker: Option<PlayerId>) -> Result<BrainRef, String> {
        let mut parsed = BrainRef::parse(text)?;
        if parsed.owner == BrainOwner::Asker {
            parsed.owner = asker.map_or(BrainOwner::Hall, BrainOwner::Player);
        }
        Ok(parsed)
    }

    /// Whether `player` may change the brain: import over it, reset it, train it in an auto
    /// match or teach it in a game. Only its owner may; nobody may change the hall's.
    pub fn writable_by(&self, player: PlayerId) -> bool {
        match self.owner {
            BrainOwner::Player(owner) => owner == player,
            BrainOwner::Asker => true,
            BrainOwner::Hall => false,
        }
    }

    /// The written form: plain, `id/name` or `hall/name`.
    pub fn text(&self) -> String {
        match self.owner {
            BrainOwner::Asker => self.name.clone(),
            BrainOwner::Player(id) => format!("{id}/{}", self.name),
            BrainOwner::Hall => format!("{HALL}/{}", self.name),
        }
    }

    /// How `viewer` names it: its plain name when it is theirs, else the written form.
    pub fn shown_to(&self, viewer: Option<PlayerId>) -> String {
        match self.owner {
            BrainOwner::Player(owner) if Some(owner) == viewer => self.name.clone(),
            _ => self.text(),
        }
    }
}

/// Why a plain name is refused for a new brain, beyond [`check_brain_name`]: spaces at either
/// end, which a list does not show, so the brain could not be named again as listed; and `/`,
/// which separates an owner from a name (`hall/HER`), so that `a/b` would read as the brain
/// `b` of the owner `a` wherever an owner may be written; and invisible characters, as in
/// a player's name. Brains stored before these rules keep their names: reading one only checks [`check_brain_name`].
pub fn check_new_brain_name(name: &str) -> Result<(), String> {
    check_brain_name(name)?;
    if name.trim() != name {
        return Err(format!(
            "a brain name may not begin or end with a space, not {name:?}"
        ));
    }
    if name.contains('/') {
        return Err(format!(
            "a brain name may not hold '/', which separates an owner from a name \
             (ID/NAME, {HALL}/NAME), not {name:?}"
        ));
    }
    if name.chars().any(crate::identity::is_invisible) {
        return Err(format!(
            "a brain name may not hold invisible characters (direction marks, zero-width \
             spaces), which would let it pass for another, not {name:?}"
        ));
    }
    Ok(())
}

/// A brain's name for a screen that does not know who looks: the plain name of a player's
/// brain (its room names its creator), `NAME (the hall's)` for the hall's.
pub fn brain_title(text: &str) -> String {
    match BrainRef::parse(text) {
        Ok(BrainRef {
            owner: BrainOwner::Hall,
            name,
        }) => format!("{name} (the hall's)"),
        Ok(brain) => brain.name,
        Err(_) => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ADA: PlayerId = PlayerId(0x3f2a_0000_0000_0001);

    #[test]
    fn a_plain_name_is_the_askers_and_the_others_say_whose() {
        let mine = BrainRef::canonical("HER", Some(ADA)).unwrap();
        assert_eq!(mine.text(), "3f2a000000000001/HER");
        assert_eq!(BrainRef::parse(&mine.text()).unwrap(), mine);
        assert_eq!(mine.shown_to(Some(ADA)), "HER");
        assert_eq!(mine.shown_to(Some(PlayerId(2))), "3f2a000000000001/HER");
        let hall = BrainRef::canonical("hall/HER", Some(ADA)).unwrap();
        assert_eq!(
            (hall.owner, hall.text()),
            (BrainOwner::Hall, "hall/HER".into())
        );
        let stored_before_owners = BrainRef::canonical("HER", None).unwrap();
        assert_eq!(stored_before_owners, hall);
        // A slash in a name of one's own (stored before new names were refused one) is just a
        // character.
        let odd = BrainRef::canonical("a/b", Some(ADA)).unwrap();
        assert_eq!(
            (odd.owner, odd.name.as_str()),
            (BrainOwner::Player(ADA), "a/b")
        );
    }

    #[test]
    fn only_the_owner_may_change_a_brain_and_nobody_the_halls() {
        let mine = BrainRef::canonical("HER", Some(ADA)).unwrap();
        assert!(mine.writable_by(ADA));
        assert!(!mine.writable_by(PlayerId(2)));
        assert!(!BrainRef::parse("hall/HER").unwrap().writable_by(ADA));
    }

    #[test]
    fn a_new_brain_has_no_space_at_either_end_and_no_slash_in_its_name() {
        for bad in [
            " HER",
            "HER ",
            "HER\u{3000}",
            "a/b",
            "hall/ HER",
            "3f2a000000000001/a/b",
        ] {
            let refused = BrainRef::parse_new(bad).unwrap_err();
            assert!(
                refused.contains("space") || refused.contains("'/'"),
                "{bad:?}: {refused}"
            );
        }
        for good in ["HER", "HER 2", "hall/HER", "3f2a000000000001/H E R"] {
            assert!(BrainRef::parse_new(good).is_ok(), "{good:?}");
        }
        // Names stored before the rule still read, with their spaces and slashes.
        let old = BrainRef::parse("3f2a000000000001/ a/b ").unwrap();
        assert_eq!(
            (old.owner, old.name.as_str()),
            (BrainOwner::Player(ADA), " a/b ")
        );
        assert!(check_new_brain_name("").is_err());
        let lookalike = check_new_brain_name("HER\u{200b}").unwrap_err();
        assert!(lookalike.contains("invisible"), "{lookalike}");
        assert!(
            BrainRef::parse("HER\u{200b}").is_ok(),
            "an old one still reads"
        );
    }

    #[test]
    fn the_plain_name_is_checked_in_every_form() {
        for bad in [
            "",
            "hall/",
            "3f2a000000000001/",
            &format!("hall/{}", "x".repeat(41)),
        ] {
            assert!(BrainRef::parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!(brain_title("\n"), "\n");
        assert_eq!(brain_title("3f2a000000000001/HER"), "HER");
        assert_eq!(brain_title("hall/HER"), "HER (the hall's)");
    }
}
