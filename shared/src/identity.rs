//! Who a person is in the hall: a secret only their client holds ([`PlayerSecret`]), the public
//! id the server derives from it ([`PlayerId`]) and the name they chose ([`Player`]).
//!
//! There are no passwords: a client makes its secret once, keeps it, and proves who it is by
//! sending it in `Hello`. The server keeps only what it derives from the secret (a one-way
//! hash, [`player_id`]), so nothing it stores or shows lets anybody act as someone else.
//! Secrets and seat tokens that a client chooses must look random ([`looks_random`]): an
//! all-zero or patterned one could be guessed by anybody.

use std::fmt;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use unicode_normalization::UnicodeNormalization;

/// The most characters a display name may have.
pub const MAX_NAME_CHARS: usize = 32;

/// A person's secret: 256 bits from the operating system's generator as 64 lowercase hex
/// digits. Its `Debug` form hides it, so it cannot reach a log by accident.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayerSecret(pub String);

impl PlayerSecret {
    /// Hex digits in a secret.
    pub const LENGTH: usize = 64;

    pub fn random() -> PlayerSecret {
        PlayerSecret(random_hex(Self::LENGTH))
    }

    /// Whether it has the form [`PlayerSecret::random`] gives and looks random.
    pub fn is_strong(&self) -> bool {
        self.0.len() == Self::LENGTH && looks_random(&self.0)
    }
}

impl fmt::Debug for PlayerSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PlayerSecret(<secret>)")
    }
}

/// A person's public id, the same on every connection and every machine that uses their
/// secret. Shown as 16 hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PlayerId(pub u64);

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl std::str::FromStr for PlayerId {
    type Err = String;

    /// The 16 hex digits `Display` writes.
    fn from_str(text: &str) -> Result<PlayerId, String> {
        if text.len() != 16 || !is_lowercase_hex(text) {
            return Err(format!(
                "a player id is 16 lowercase hex digits (`client identity show` says yours), \
                 not {text:?}"
            ));
        }
        u64::from_str_radix(text, 16)
            .map(PlayerId)
            .map_err(|e| e.to_string())
    }
}

impl fmt::Debug for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PlayerId({self})")
    }
}

/// The public id of the holder of `secret`: a one-way hash of it, so that every server derives
/// the same id from the same secret (no table of players is needed to know who is who) and
/// nothing that shows or stores ids lets anybody act as the player. A secret carries 256 random
/// bits, so a plain digest is enough.
pub fn player_id(secret: &PlayerSecret) -> PlayerId {
    let digest = Sha256::new()
        .chain_update(b"parlor player id\0")
        .chain_update(secret.0.as_bytes())
        .finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    PlayerId(u64::from_be_bytes(first))
}

/// A person as others see them: their public id and display name.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Player {
    pub id: PlayerId,
    pub name: String,
}

impl Player {
    /// The name with the start of the id, so that two people of one name can be told apart:
    /// `ada #3f2a`. A name longer than [`LABEL_NAME_CHARS`] is cut short ("…"), so that the
    /// tag after it stays in sight where a line has little room.
    pub fn label(&self) -> String {
        let tag = &self.id.to_string()[..4];
        if self.name.chars().count() <= LABEL_NAME_CHARS {
            return format!("{} {TAG_MARK}{tag}", self.name);
        }
        let short: String = self.name.chars().take(LABEL_NAME_CHARS - 1).collect();
        format!("{}… {TAG_MARK}{tag}", short.trim_end())
    }
}

/// The player that takes the most bytes on the wire: a name of the most characters, each four
/// bytes of UTF-8. For the tests (of this crate and the server's) that check the largest
/// messages fit a frame.
pub fn widest_player() -> Player {
    Player {
        id: PlayerId(u64::MAX),
        name: "\u{1F600}".repeat(MAX_NAME_CHARS),
    }
}

/// `name` as a display name: trimmed, every run of spaces (of any width) made one plain
/// space, composed (Unicode NFC: an `e` with a combining accent, as some keyboards type it,
/// is the one letter `é`, and counts as one), 1 to [`MAX_NAME_CHARS`] characters, no control
/// or invisible characters and no `#`. The error says what is wrong, for a person.
pub fn check_name(name: &str) -> Result<String, String> {
    if name.trim().chars().any(char::is_control) {
        return Err("a name may not hold control characters (tabs, line breaks)".into());
    }
    let name: String = name
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .nfc()
        .collect();
    let chars = name.chars().count();
    if chars == 0 {
        return Err("a name must have at least one character".into());
    }
    if chars > MAX_NAME_CHARS {
        return Err(format!(
            "a name may have at most {MAX_NAME_CHARS} characters; this one has {chars}"
        ));
    }
    if name.chars().any(is_invisible) {
        return Err(
            "a name may not hold invisible characters (direction marks, zero-width \
             spaces): they would let it pass for another"
                .into(),
        );
    }
    if name.contains(TAG_MARK) {
        return Err(format!(
            "a name may not hold '{TAG_MARK}': others see each name followed by \
             '{TAG_MARK}' and the start of its id, which a name must not imitate"
        ));
    }
    Ok(name)
}

/// The most characters of a name a [`Player::label`] shows.
pub const LABEL_NAME_CHARS: usize = 20;

/// What precedes the start of a player's id in [`Player::label`].
const TAG_MARK: char = '#';

/// `name` without what [`check_name`] refuses but a name kept before it refused them may
/// hold (invisible characters, `#`), so that it still reads and shows as it looks.
pub fn without_refused_characters(name: &str) -> String {
    name.chars()
        .filter(|&c| !is_invisible(c) && c != TAG_MARK)
        .collect()
}

/// A character that shows nothing of its own but may reorder or hide what is around it: the
/// direction marks, embeddings, overrides and isolates, the zero-width spaces and joiners, the
/// soft hyphen and the word joiner's kin, and the tag characters.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{061C}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{E0000}'..='\u{E007F}'
    )
}

/// `length` lowercase hex digits from the operating system's generator.
pub fn random_hex(length: usize) -> String {
    let mut bytes = vec![0u8; length.div_ceil(2)];
    // The OS generator failing is not something a game can recover from.
    getrandom::fill(&mut bytes).expect("the operating system's random generator failed");
    let mut hex = hex_of(&bytes);
    hex.truncate(length);
    hex
}

/// `bytes` as lowercase hex digits, two a byte.
pub fn hex_of(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `text` is all lowercase hex digits (the form of secrets, tokens, ids and keys).
pub fn is_lowercase_hex(text: &str) -> bool {
    text.bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Whether `hex` is lowercase hex digits that look drawn at random: at least six different
/// digits, and no repeating pattern (`0000…`, `abab…`, `0123…f0123…f`). A random string of 32
/// digits fails this about once in 10^12 draws; a person typing one almost always does.
pub fn looks_random(hex: &str) -> bool {
    let digits = hex.as_bytes();
    if digits.is_empty() || !is_lowercase_hex(hex) {
        return false;
    }
    let mut seen = [false; 256];
    digits.iter().for_each(|&b| seen[b as usize] = true);
    let distinct = seen.iter().filter(|&&s| s).count();
    let repeats = |period: usize| digits.iter().zip(&digits[period..]).all(|(a, b)| a == b);
    distinct >= 6 && !(1..=digits.len() / 2).any(repeats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_secrets_are_strong_and_differ() {
        let (a, b) = (PlayerSecret::random(), PlayerSecret::random());
        assert!(a.is_strong() && b.is_strong());
        assert_ne!(a, b);
        assert_eq!(a.0.len(), PlayerSecret::LENGTH);
    }

    #[test]
    fn the_id_does_not_show_the_secret() {
        let secret = PlayerSecret::random();
        let id = player_id(&secret).to_string();
        assert!(!secret.0.contains(&id));
    }

    #[test]
    fn weak_and_malformed_secrets_are_refused() {
        let zero = "0".repeat(64);
        let pattern = "0123456789abcdef".repeat(4);
        let pair = "ab".repeat(32);
        let five_digits = "0123401234012340123401234012340123401234012340123401234012340121";
        let upper = "A".repeat(64);
        let short = &PlayerSecret::random().0[..63];
        for weak in [&zero, &pattern, &pair, five_digits, &upper, short, ""] {
            assert!(!PlayerSecret(weak.to_string()).is_strong(), "{weak:?}");
        }
    }

    #[test]
    fn a_secret_never_shows_in_debug_output() {
        let secret = PlayerSecret::random();
        assert!(!format!("{secret:?}").contains(&secret.0));
    }

    #[test]
    fn names_are_trimmed_bounded_and_printable() {
        assert_eq!(check_name("  Ada  ").unwrap(), "Ada");
        assert_eq!(check_name(&"é".repeat(32)).unwrap().chars().count(), 32);
        // The same letters typed as an e and a combining accent each: composed, and counted
        // as the letters they are.
        let decomposed = "e\u{301}".repeat(32);
        assert_eq!(check_name(&decomposed).unwrap(), "é".repeat(32));
        for bad in ["", "   ", "a\nb", "tab\there"] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
        for spoof in ["\u{202e}live", "Ada\u{200b}", "A\u{2066}da", "\u{feff}Ada"] {
            let refused = check_name(spoof).unwrap_err();
            assert!(refused.contains("invisible"), "{spoof:?}: {refused}");
            assert!(check_name(&without_refused_characters(spoof)).is_ok());
        }
        assert_eq!(without_refused_characters("A\u{200b}da\u{202e}"), "Ada");
        // Nothing may pass for another player's tag: no '#', no run of wide spaces pushing
        // the real tag out of sight.
        let tag = check_name("Ada #3f2a").unwrap_err();
        assert!(tag.contains("'#'"), "{tag}");
        assert_eq!(
            check_name(&without_refused_characters("Ada #3f2a")).unwrap(),
            "Ada 3f2a"
        );
        let wide = format!("Ada{}x", "\u{2003}".repeat(22));
        assert_eq!(check_name(&wide).unwrap(), "Ada x");
        assert_eq!(check_name("Ada   Lovelace").unwrap(), "Ada Lovelace");
        assert_eq!(check_name("Zoë Ωmega 李").unwrap(), "Zoë Ωmega 李");
        let long = check_name(&"x".repeat(33)).unwrap_err();
        assert!(long.contains("32"), "{long}");
    }

    #[test]
    fn an_id_reads_back_from_its_text_and_nothing_else_does() {
        let id = PlayerId(0x3f2a_0000_0000_0001);
        assert_eq!(id.to_string().parse::<PlayerId>(), Ok(id));
        for bad in ["3f2a", "3F2A000000000001", "3f2a00000000000g", ""] {
            assert!(bad.parse::<PlayerId>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_label_tells_two_people_of_one_name_apart() {
        let ada = |id| Player {
            id: PlayerId(id),
            name: "Ada".into(),
        };
        assert_eq!(ada(0x3f2a_0000_0000_0001).label(), "Ada #3f2a");
        assert_ne!(ada(0x1111 << 48).label(), ada(0x2222 << 48).label());
        let long = Player {
            name: "W".repeat(MAX_NAME_CHARS),
            ..ada(0x3f2a << 48)
        };
        assert_eq!(long.label(), format!("{}… #3f2a", "W".repeat(19)));
    }
}
