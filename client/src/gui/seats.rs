//! Seats as the two sides every two-seat game draws them with: seat 0 plays Black, seat 1
//! White (Magnetic Cave's bricks, also the colour keys of the other games' seats).

use parlor_shared::cave::Player;

/// The side playing a seat: seat 0 is Black, seat 1 White.
pub fn seat_player(seat: u8) -> Option<Player> {
    [Player::Black, Player::White]
        .into_iter()
        .find(|player| player.seat() == seat)
}

pub fn player_name(player: Player) -> &'static str {
    match player {
        Player::Black => "Black",
        Player::White => "White",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_map_to_players() {
        assert_eq!(seat_player(0), Some(Player::Black));
        assert_eq!(seat_player(1), Some(Player::White));
        assert_eq!(seat_player(2), None);
    }
}
