use parlor_shared::bricks::{Answer, BricksMove, Setup};

use super::*;

fn game(height: u64, drops: u64, bricks: u32, moves: &[BricksMove]) -> BricksGame {
    let mut game = BricksGame::new(Setup::new(height, drops, bricks).unwrap());
    for &mv in moves {
        game = game.play(mv).unwrap();
    }
    game
}

use BricksMove::{Answer as Say, Drop};

#[test]
fn whole_numbers_may_be_grouped_or_written_as_powers_of_ten() {
    assert_eq!(parse_whole_number("42"), Ok(42));
    assert_eq!(parse_whole_number(" 1_000 "), Ok(1000));
    assert_eq!(parse_whole_number("1,000,000"), Ok(1_000_000));
    assert_eq!(parse_whole_number("1 000"), Ok(1000));
    assert_eq!(parse_whole_number("1e18"), Ok(1_000_000_000_000_000_000));
    assert_eq!(parse_whole_number("25E2"), Ok(2500));
    assert_eq!(parse_whole_number("0"), Ok(0));
}

#[test]
fn anything_else_is_refused_with_a_reason_and_no_panic() {
    assert_eq!(parse_whole_number("  "), Err("type a whole number".into()));
    assert_eq!(
        parse_whole_number("12a"),
        Err("\"12a\" is not a whole number".into())
    );
    assert_eq!(
        parse_whole_number(" -3 "),
        Err("-3 is negative: type 0 or more".into())
    );
    for text in ["-3", "1.5", "e5", "5e", "1e-3", "１２", "0x10"] {
        assert!(parse_whole_number(text).is_err(), "{text}");
    }
    assert_eq!(
        parse_whole_number("99999999999999999999"),
        Err("99999999999999999999 is too large".into())
    );
    assert!(parse_whole_number("1e20").is_err());
    assert!(parse_whole_number("1e99999999999").is_err());
}

#[test]
fn ranges_read_as_ranges_single_numbers_or_nothing() {
    assert_eq!(range_text(1, 20, "none"), "1 to 20");
    assert_eq!(range_text(7, 7, "none"), "7");
    assert_eq!(range_text(1, 0, "none yet"), "none yet");
}

#[test]
fn a_drop_is_accepted_only_from_an_open_height_and_refusals_say_why() {
    // After 50 broken and 20 safe the open heights are 21..=49.
    let playing = game(
        100,
        14,
        2,
        &[Drop(50), Say(Answer::Broken), Drop(20), Say(Answer::Safe)],
    );
    assert_eq!(drop_height("21", &playing), Ok(21));
    assert_eq!(drop_height(" 49 ", &playing), Ok(49));
    let refusal = |text| drop_height(text, &playing).unwrap_err();
    assert_eq!(refusal("0"), "0 is the ground: drop from 21 to 49.");
    assert_eq!(refusal("20"), "20 is known to be safe: drop from 21 to 49.");
    assert_eq!(refusal("50"), "50 is known to break: drop from 21 to 49.");
    assert_eq!(refusal("101"), "The tower ends at 100: drop from 21 to 49.");
    assert_eq!(
        refusal(""),
        "Not a height: type a whole number; drop from 21 to 49."
    );
    assert!(refusal("x").starts_with("Not a height: \"x\""));

    let waiting = game(100, 14, 2, &[Drop(50)]);
    assert_eq!(
        drop_height("10", &waiting).unwrap_err(),
        "The drop from 50 waits for its answer."
    );
    let one_left = game(3, 3, 1, &[Drop(2), Say(Answer::Safe)]);
    assert_eq!(
        drop_height("2", &one_left).unwrap_err(),
        "2 is known to be safe: the only open height is 3."
    );
    let over = game(3, 3, 1, &[Drop(1), Say(Answer::Broken)]);
    assert_eq!(drop_height("1", &over).unwrap_err(), "The game is over.");
}

#[test]
fn the_statement_is_certain_when_won_and_a_guess_with_doubts_when_lost() {
    assert_eq!(statement(&game(10, 4, 1, &[])), None);
    let won = game(
        3,
        3,
        1,
        &[Drop(1), Say(Answer::Safe), Drop(2), Say(Answer::Broken)],
    );
    assert_eq!(statement(&won), Some(Statement::Certain(1)));
    assert_eq!(
        statement(&won).unwrap().to_string(),
        "The strength is 1, for certain."
    );
    // One brick broken at 5 with S unknown in 0..=4: the guess is the middle, 2.
    let lost = game(10, 4, 1, &[Drop(5), Say(Answer::Broken)]);
    assert_eq!(
        statement(&lost),
        Some(Statement::Guess {
            guess: 2,
            low: 0,
            high: 4
        })
    );
    assert!(
        statement(&lost)
            .unwrap()
            .to_string()
            .contains("with doubts")
    );
}

#[test]
fn status_lines_show_the_known_ranges_what_is_left_and_what_comes_next() {
    let texts = |game: &BricksGame| -> Vec<String> {
        status_lines(game)
            .into_iter()
            .map(|(text, _)| text)
            .collect()
    };
    let start = game(100, 14, 2, &[]);
    assert_eq!(
        texts(&start),
        [
            "H = 100, D = 14, B = 2",
            "Safe (green): none yet",
            "Open: 1 to 100",
            "Broken (red): none yet",
            "Strength S: 0 to 100",
            "Drops left: 14 of 14",
            "Bricks left: 2 of 2",
            "The agent drops next.",
        ]
    );
    let waiting = game(100, 14, 2, &[Drop(50), Say(Answer::Broken), Drop(20)]);
    let lines = status_lines(&waiting);
    assert_eq!(lines[1].0, "Safe (green): none yet");
    assert_eq!(lines[3], ("Broken (red): 50 to 100".into(), Tone::Broken));
    assert_eq!(lines[6].0, "Bricks left: 1 of 2");
    assert_eq!(
        lines.last().unwrap(),
        &(
            "A brick fell from 20: safe or broken?".into(),
            Tone::Pending
        )
    );
    let won = game(
        3,
        3,
        1,
        &[Drop(1), Say(Answer::Safe), Drop(2), Say(Answer::Broken)],
    );
    let lines = texts(&won);
    assert_eq!(
        lines[1..5],
        [
            "Safe (green): 1",
            "Open: none",
            "Broken (red): 2 to 3",
            "Strength S: 1"
        ]
    );
    assert_eq!(
        lines[lines.len() - 3..],
        [
            "The agent says:",
            "The strength is 1, for certain.",
            "The agent wins: it knows S."
        ]
    );
    let lost = game(10, 4, 1, &[Drop(5), Say(Answer::Broken)]);
    assert_eq!(
        texts(&lost).last().unwrap(),
        "The agent loses: it had to guess."
    );
}

#[test]
fn a_resigned_game_says_who_gave_up_and_takes_no_drop() {
    use parlor_shared::bricks::{AGENT_SEAT, ANSWERER_SEAT};
    let dropped = game(10, 4, 2, &[BricksMove::Drop(3)]);
    for (seat, said) in [
        (AGENT_SEAT, "The agent resigned: the answering side wins."),
        (
            ANSWERER_SEAT,
            "The answering side resigned: the agent wins.",
        ),
    ] {
        let resigned = dropped.resign(seat).unwrap();
        let lines = status_lines(&resigned);
        assert_eq!(lines.last().map(|(text, _)| text.as_str()), Some(said));
        assert_eq!(statement(&resigned), None, "the agent states nothing");
        assert_eq!(drop_height("5", &resigned), Err("The game is over.".into()));
    }
}
