use parlor_shared::game::{GameKind, Outcome};

use super::*;
use crate::audience::test_player;

/// A finished Magnetic Cave room whose seats are `seats`.
fn finished(seats: Vec<SeatState>) -> RoomSummary {
    RoomSummary {
        room: 4,
        game: GameKind::Cave,
        creator: Some(test_player(1)),
        seats,
        spectators: 0,
        version: 30,
        moves: 30,
        outcome: Some(Outcome::Won { seat: 0 }),
        to_move: None,
        rematch: None,
    }
}

fn taken(id: u64) -> SeatState {
    SeatState::Taken {
        connected: false,
        player: Some(test_player(id)),
    }
}

fn people() -> Vec<SeatSpec> {
    vec![SeatSpec::Human; 2]
}

#[test]
fn the_maker_is_kept_the_first_seat_and_the_other_player_the_next() {
    let game = finished(vec![taken(1), taken(2)]);
    let kept = seats_kept(&game, &GameSetup::Cave, &people(), &test_player(2));
    assert_eq!(kept, vec![Some(test_player(2)), Some(test_player(1))]);
}

#[test]
fn a_person_who_played_both_seats_is_kept_one() {
    let game = finished(vec![taken(1), taken(1)]);
    let kept = seats_kept(&game, &GameSetup::Cave, &people(), &test_player(1));
    assert_eq!(kept, vec![Some(test_player(1)), None]);
}

#[test]
fn an_ais_seat_is_kept_for_nobody() {
    let ai = SeatState::Ai {
        move_ms: 100,
        name: "classic".into(),
    };
    let game = finished(vec![ai, taken(3)]);
    let seats = vec![SeatSpec::ai(100), SeatSpec::Human];
    let kept = seats_kept(&game, &GameSetup::Cave, &seats, &test_player(3));
    assert_eq!(kept, vec![None, Some(test_player(3))]);
}

#[test]
fn nothing_is_kept_but_in_a_true_rematch_by_one_of_its_players() {
    let over = finished(vec![taken(1), taken(2)]);
    let cave = GameSetup::Cave;
    let nothing: Vec<Option<Player>> = Vec::new();
    // A stranger's room.
    assert_eq!(
        seats_kept(&over, &cave, &people(), &test_player(9)),
        nothing
    );
    // A game not over.
    let going_on = RoomSummary {
        outcome: None,
        ..over.clone()
    };
    assert_eq!(
        seats_kept(&going_on, &cave, &people(), &test_player(1)),
        nothing
    );
    // Another game, or an AI where a person sat.
    let bricks = GameSetup::Bricks {
        height: 10,
        drops: 4,
        bricks: 1,
    };
    assert_eq!(
        seats_kept(&over, &bricks, &people(), &test_player(1)),
        nothing
    );
    let against_an_ai = vec![SeatSpec::Human, SeatSpec::ai(100)];
    assert_eq!(
        seats_kept(&over, &cave, &against_an_ai, &test_player(1)),
        nothing
    );
}
