use super::*;

#[test]
fn counts_and_roles_read_naturally() {
    assert_eq!(count_of(1u32, "box", "boxes"), "1 box");
    assert_eq!(count_of(0u32, "box", "boxes"), "0 boxes");
    assert_eq!(count_s(1u64, "move"), "1 move");
    assert_eq!(count_s(2u64, "move"), "2 moves");
    assert_eq!(waiting_for_your_move(&[3]), "Room #3 waits for your move");
    assert_eq!(
        waiting_for_your_move(&[3, 5, 8]),
        "Rooms #3, #5 and #8 wait for your move"
    );
    let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        role_text(GameKind::Klotski, &names(&["Player"])),
        "you are the player"
    );
    assert_eq!(
        role_text(GameKind::Ewn, &names(&["Player"])),
        "you are the player"
    );
    assert_eq!(
        role_text(GameKind::Cave, &names(&["Black"])),
        "you play Black"
    );
    assert_eq!(role_text(GameKind::Cave, &[]), "you are watching");
    assert_eq!(turn_text(GameKind::Ewn, 0, "you"), "Your move");
    assert_eq!(
        turn_text(GameKind::Ewn, 0, "human"),
        "Player to move (human)"
    );
    assert_eq!(turn_text(GameKind::Cave, 1, "you"), "White to move (you)");
}

#[test]
fn an_auto_match_names_the_brain_that_won() {
    use parlor_shared::game::GameSetup;
    use parlor_shared::hexapawn::{Dims, MatchSetup, Pace};
    let setup = MatchSetup {
        dims: Dims::OCTAPAWN,
        mirrors: false,
        rounds: 10,
        pace: Pace::FullSpeed,
        // The server names a player's brain with its owner's id, the hall's with "hall/".
        brains: ["hall/A4".into(), "edadb3f014f3b14a/B4".into()],
    };
    let state = GameSetup::HerMatch(setup).start().unwrap();
    let won = |seat| Outcome::Won { seat };
    assert_eq!(state_outcome(&state, won(1), None), "B4 won");
    assert_eq!(state_outcome(&state, won(0), None), "A4 (the hall's) won");
    // The lobby's summary names the brains as its seats (version 19); one from an older
    // server, with none, says which brain rather than a name it does not have.
    let brain = |name: &str| SeatState::Ai {
        move_ms: 0,
        name: name.into(),
    };
    let mut summary = RoomSummary {
        room: 3,
        game: GameKind::HerMatch,
        creator: None,
        seats: vec![brain("hall/A4"), brain("edadb3f014f3b14a/B4")],
        spectators: 0,
        version: 9,
        moves: 100,
        outcome: Some(won(1)),
        to_move: None,
        rematch: None,
    };
    assert_eq!(summary_result(&summary, won(1)), "B4 won");
    assert_eq!(summary_result(&summary, won(0)), "A4 (the hall's) won");
    assert_eq!(summary_result(&summary, Outcome::Tie), "Tie");
    assert_eq!(
        seat_state(GameKind::HerMatch, &summary.seats[0]),
        "A4 (the hall's)"
    );
    summary.seats.clear();
    assert_eq!(summary_result(&summary, won(1)), "second brain won");
}

#[test]
fn seats_and_outcomes_read_naturally() {
    assert_eq!(seat_name(0), "Black");
    assert_eq!(seat_name(1), "White");
    assert_eq!(seat_name(7), "seat 7");
    let ai = |move_ms| SeatState::Ai {
        move_ms,
        name: "alpha-beta".into(),
    };
    assert_eq!(
        seat_state(GameKind::Cave, &ai(100)),
        "AI 0.1 s (alpha-beta)"
    );
    assert_eq!(seat_state(GameKind::Cave, &ai(3000)), "AI 3 s (alpha-beta)");
    // HER does not search: its seat's time is a pause, if any, which is not said.
    let her = |move_ms| SeatState::Ai {
        move_ms,
        name: "HER".into(),
    };
    assert_eq!(seat_state(GameKind::Hexapawn, &her(1)), "matchbox robot");
    assert_eq!(seat_state(GameKind::Hexapawn, &her(200)), "matchbox robot");
    let taken = |connected, player| SeatState::Taken { connected, player };
    assert_eq!(
        seat_state(GameKind::Cave, &taken(false, None)),
        "human (away)"
    );
    let ada = Player {
        id: parlor_shared::identity::PlayerId(0x3f2a << 48),
        name: "Ada".into(),
    };
    assert_eq!(
        seat_state(GameKind::Cave, &taken(true, Some(ada.clone()))),
        "Ada #3f2a"
    );
    assert_eq!(
        seat_state(GameKind::Cave, &taken(false, Some(ada.clone()))),
        "Ada #3f2a (away)"
    );
    let kept = SeatState::Kept { player: ada };
    assert_eq!(seat_state(GameKind::Cave, &kept), "kept for Ada #3f2a");
    assert_eq!(outcome(Outcome::Won { seat: 1 }, None), "White won");
    assert_eq!(
        outcome(Outcome::Won { seat: 1 }, Some(1)),
        "White won - you won!"
    );
    assert_eq!(
        outcome(Outcome::Won { seat: 0 }, Some(1)),
        "Black won - you lost"
    );
    assert_eq!(outcome(Outcome::Tie, Some(0)), "Tie - the cave is full");
    assert_eq!(result(Outcome::Won { seat: 0 }), "Black won");
    assert_eq!(result(Outcome::Tie), "Tie");
}

#[test]
fn dropping_bricks_seats_and_outcomes_say_who_did_what() {
    let bricks = GameKind::Bricks;
    assert_eq!(game_seat_name(bricks, 0), "Agent");
    assert_eq!(game_seat_name(bricks, 1), "Answerer");
    assert_eq!(game_seat_name(bricks, 2), "seat 2");
    assert_eq!(game_seat_name(GameKind::Cave, 1), "White");
    assert_eq!(
        game_outcome(bricks, Outcome::Won { seat: 0 }, None),
        "Agent won"
    );
    assert_eq!(
        game_outcome(bricks, Outcome::Won { seat: 1 }, Some(0)),
        "Answerer won - you lost"
    );
    assert_eq!(
        game_outcome(bricks, Outcome::Won { seat: 1 }, Some(1)),
        "Answerer won - you won!"
    );
    assert_eq!(
        game_outcome(GameKind::Cave, Outcome::Tie, None),
        "Tie - the cave is full"
    );
    assert_eq!(
        game_outcome(GameKind::Cave, Outcome::Won { seat: 0 }, Some(0)),
        outcome(Outcome::Won { seat: 0 }, Some(0))
    );
    assert_eq!(
        game_result(bricks, Outcome::Won { seat: 1 }),
        "Answerer won"
    );
    assert_eq!(
        game_result(GameKind::Cave, Outcome::Won { seat: 0 }),
        "Black won"
    );
}

#[test]
fn the_puzzles_are_solved_or_not_rather_than_won() {
    let won = Outcome::Won { seat: 0 };
    for puzzle in [GameKind::Klotski, GameKind::Ewn] {
        assert_eq!(game_outcome(puzzle, won, Some(0)), "Solved");
        assert_eq!(game_outcome(puzzle, won, None), "Solved");
        assert_eq!(game_result(puzzle, won), "Solved");
        assert_eq!(game_outcome(puzzle, Outcome::Unsolved, None), "Not solved");
        assert_eq!(game_result(puzzle, Outcome::Unsolved), "Not solved");
    }
}

#[test]
fn ages_round_down_and_never_go_negative() {
    assert_eq!(ago(100, 100), "just now");
    assert_eq!(ago(200, 100), "just now");
    assert_eq!(ago(0, 59), "just now");
    assert_eq!(ago(0, 61), "1 min ago");
    assert_eq!(ago(0, 7200), "2 h ago");
    assert_eq!(ago(0, 3 * 86400 + 5), "3 d ago");
}

#[test]
fn wrapping_breaks_at_spaces_and_cuts_long_words() {
    // Measured in characters here; the window measures the drawn width.
    let wrap = |text, max_chars: usize| wrap_by(text, |line| line.chars().count() <= max_chars);
    assert_eq!(wrap("one two three", 7), ["one two", "three"]);
    assert_eq!(wrap("  spaced   out  ", 20), ["spaced out"]);
    assert_eq!(wrap("abcdefghij x", 4), ["abcd", "efgh", "ij x"]);
    assert!(wrap("", 5).is_empty());
    assert_eq!(wrap("ab", 0), ["a", "b"]);
}

#[test]
fn addresses_get_a_scheme_when_typed_without_one() {
    assert_eq!(
        server_url(" 10.0.0.2:7878 ").as_deref(),
        Some("ws://10.0.0.2:7878")
    );
    assert_eq!(server_url("ws://h:1").as_deref(), Some("ws://h:1"));
    assert_eq!(server_url("wss://h:1").as_deref(), Some("wss://h:1"));
    assert_eq!(server_url("   "), None);
    assert_eq!(server_url("http://h:1").as_deref(), Some("ws://h:1"));
    assert_eq!(server_url("HTTPS://h:1").as_deref(), Some("wss://h:1"));
    assert_eq!(server_url("ftp://h:1"), None);
    assert_eq!(server_url("ws://"), None);
    // Ports: 1 to 65535 (99999 would be taken for another port), IPv6 brackets read right.
    assert_eq!(server_url("ws://127.0.0.1:99999"), None);
    assert_eq!(server_url("h:0"), None);
    assert_eq!(server_url("ws://a:7878,ws://b:70000"), None);
    assert_eq!(
        server_url("ws://a:7878,ws://b:7879/x").as_deref(),
        Some("ws://a:7878,ws://b:7879/x")
    );
    assert_eq!(
        server_url("ws://[::1]:65535").as_deref(),
        Some("ws://[::1]:65535")
    );
    assert_eq!(server_url("ws://[::1]").as_deref(), Some("ws://[::1]"));
}

#[test]
fn a_resignation_says_who_resigned() {
    use parlor_shared::cave::{Player as Side, Position};
    let resigned = Position::new().resign(Side::White).unwrap();
    let state = GameState::Cave(resigned);
    let won = Outcome::Won { seat: 0 };
    let white = seat_name(1);
    assert_eq!(
        state_outcome(&state, won, Some(0)),
        format!("{white} resigned - you won!")
    );
    assert_eq!(
        state_outcome(&state, won, Some(1)),
        format!("{white} resigned - you lost")
    );
    let black = seat_name(0);
    assert_eq!(
        state_outcome(&state, won, None),
        format!("{white} resigned - {black} won")
    );
}

#[test]
fn a_dropping_bricks_resignation_names_the_side() {
    use parlor_shared::bricks::{ANSWERER_SEAT, BricksGame, Setup};
    let game = BricksGame::new(Setup::new(10, 4, 2).unwrap());
    let state = GameState::Bricks(game.resign(ANSWERER_SEAT).unwrap());
    let won = Outcome::Won { seat: 0 };
    assert_eq!(
        state_outcome(&state, won, Some(0)),
        "Answerer resigned - you won!"
    );
    assert_eq!(
        state_outcome(&state, won, None),
        "Answerer resigned - Agent won"
    );
}
