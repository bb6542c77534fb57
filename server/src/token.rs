//! Seat tokens: 128 bits from the operating system's generator, as 32 hex digits.

use parlor_shared::protocol::SeatToken;

pub fn new_seat_token() -> SeatToken {
    let mut bytes = [0u8; 16];
    // The OS generator failing is not something a game server can recover from.
    getrandom::fill(&mut bytes).expect("the operating system's random generator failed");
    SeatToken(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_32_hex_digits_and_differ() {
        let (a, b) = (new_seat_token(), new_seat_token());
        assert_eq!(a.0.len(), 32);
        assert!(a.0.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }
}
