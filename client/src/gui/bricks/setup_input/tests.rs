use super::*;

#[test]
fn a_good_setup_is_read_from_the_three_fields() {
    assert_eq!(
        parse_setup("100", "14", "2"),
        Ok(Setup::new(100, 14, 2).unwrap())
    );
    assert_eq!(
        parse_setup("1e18", "1 000", "64"),
        Ok(Setup::new(1_000_000_000_000_000_000, 1000, 64).unwrap())
    );
    // No drops or no bricks is a legal (lost) game.
    assert!(parse_setup("5", "0", "0").is_ok());
}

#[test]
fn each_bad_field_gets_its_own_reason() {
    let errors = parse_setup("", "x", "-1").unwrap_err();
    assert_eq!(errors.height.as_deref(), Some("type a whole number"));
    assert_eq!(errors.drops.as_deref(), Some("\"x\" is not a whole number"));
    assert!(errors.bricks.is_some());

    let only = |height, drops, bricks| parse_setup(height, drops, bricks).unwrap_err();
    assert_eq!(
        only("0", "3", "1"),
        FieldErrors {
            height: Some("the height must be at least 1".into()),
            ..FieldErrors::default()
        }
    );
    assert!(
        only("2e18", "3", "1")
            .height
            .unwrap()
            .contains("over the limit")
    );
    assert!(
        only("10", "2e18", "1")
            .drops
            .unwrap()
            .contains("over the limit")
    );
    assert!(
        only("10", "3", "65")
            .bricks
            .unwrap()
            .contains("over the limit")
    );
    assert_eq!(
        only("10", "3", "5000000000").bricks.as_deref(),
        Some("5000000000 bricks is too many")
    );
}

#[test]
fn every_bad_field_is_flagged_at_once() {
    let errors = parse_setup("0", "3", "65").unwrap_err();
    assert_eq!(
        errors.height.as_deref(),
        Some("the height must be at least 1")
    );
    assert!(errors.drops.is_none());
    assert!(errors.bricks.unwrap().contains("over the limit"));
    // A number too large to read does not hide the other fields' reasons.
    let errors = parse_setup("0", "14", "99999999999999999999").unwrap_err();
    assert!(errors.height.is_some());
    assert_eq!(
        errors.bricks.as_deref(),
        Some("the bricks are over the limit of 64: 99999999999999999999")
    );
    let errors = parse_setup("1e20", "1e21", "1").unwrap_err();
    assert_eq!(
        errors.height.as_deref(),
        Some("the height is over the limit of 10^18: 1e20")
    );
    assert_eq!(
        errors.drops.as_deref(),
        Some("the drops are over the limit of 10^18: 1e21")
    );
    let errors = parse_setup("0", "2e18", "5000000000").unwrap_err();
    assert!(errors.height.is_some());
    assert!(errors.drops.unwrap().contains("over the limit"));
    assert_eq!(
        errors.bricks.as_deref(),
        Some("5000000000 bricks is too many")
    );
}

#[test]
fn the_strength_is_optional_and_within_the_tower() {
    assert_eq!(parse_strength("", Some(100)), Ok(None));
    assert_eq!(parse_strength(" 37 ", Some(100)), Ok(Some(37)));
    assert_eq!(parse_strength("0", Some(100)), Ok(Some(0)));
    assert_eq!(parse_strength("100", Some(100)), Ok(Some(100)));
    assert_eq!(
        parse_strength("101", Some(100)),
        Err("S must be from 0 to 100".into())
    );
    assert_eq!(parse_strength("500", None), Ok(Some(500)));
    assert!(parse_strength("abc", Some(100)).is_err());
}

#[test]
fn seats_become_people_or_the_chosen_ai_kinds() {
    let ai = |kind| SeatSpec::Ai {
        move_ms: DEFAULT_AI_MOVE_MS,
        kind,
    };
    assert_eq!(
        seat_specs(AgentChoice::Winning, AnswererChoice::Human, None),
        [ai(AiKind::WinningAgent), SeatSpec::Human]
    );
    assert_eq!(
        seat_specs(AgentChoice::Human, AnswererChoice::Adversary, Some(3)),
        [SeatSpec::Human, ai(AiKind::Adversary)]
    );
    assert_eq!(
        seat_specs(AgentChoice::Random, AnswererChoice::Oracle, Some(37)),
        [
            ai(AiKind::RandomAgent),
            ai(AiKind::Oracle { strength: Some(37) })
        ]
    );
    assert_eq!(
        game_setup(Setup::new(100, 14, 2).unwrap()),
        GameSetup::Bricks {
            height: 100,
            drops: 14,
            bricks: 2
        }
    );
}

#[test]
fn the_verdict_says_whether_the_agent_can_win() {
    let winnable = verdict_lines(Setup::new(100, 14, 2).unwrap());
    assert_eq!(
        winnable,
        [
            "The agent can win whatever the answers: f(D, B) = 105 >= H = 100.",
            "Fewest drops that always suffice for H = 100: 14.",
            "The winning agent drops first from 14.",
        ]
    );
    let lost = verdict_lines(Setup::new(10, 4, 1).unwrap());
    assert!(lost[0].starts_with("An adversary can make the agent lose: f(D, B) = 4 < H = 10"));
    let no_bricks = verdict_lines(Setup::new(10, 4, 0).unwrap());
    assert_eq!(no_bricks.len(), 2);
    assert_eq!(no_bricks[1], "Without bricks no number of drops finds S.");
}

#[test]
fn the_rules_use_no_range_notation() {
    assert!(!RULES.contains("..="), "{RULES}");
    assert!(RULES.contains("from 0 to H"));
}
