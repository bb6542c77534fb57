use super::*;
use parlor_shared::protocol::AiKind;

#[test]
fn a_note_too_long_for_beside_the_button_goes_above_it_wrapped() {
    let note = "The server keeps both brains.";
    let chars = |text: &str| text.chars().count() as f32;
    assert_eq!(
        note_lines(note, 50.0, 60.0, chars),
        (vec![note.to_string()], false)
    );
    assert_eq!(
        note_lines(note, 22.0, 40.0, chars),
        (vec![note.to_string()], true)
    );
    let (lines, above) = note_lines(note, 2.0, 20.0, chars);
    assert!(above && lines.len() == 2, "{lines:?}");
}

#[test]
fn a_game_against_her_seats_the_person_first_and_her_second() {
    let form = HexLobbyForm::default();
    let (setup, seats) = form.room(GameKind::Hexapawn).unwrap();
    let GameSetup::Hexapawn(setup) = setup else {
        panic!("not a Hexapawn setup");
    };
    assert_eq!(setup.dims, Dims::HEXAPAWN);
    assert_eq!(setup.brain, "HER");
    assert_eq!(setup.mode, PlayMode::Slow);
    assert_eq!(seats[0], SeatSpec::Human);
    // HER answers within a quarter second unless asked to pause (the course's rule).
    assert!(matches!(
        seats[1],
        SeatSpec::Ai {
            move_ms: ..=250,
            kind: AiKind::Standard
        }
    ));
}

#[test]
fn her_waits_the_pause_chosen_in_fast_mode_only() {
    let mut form = HexLobbyForm {
        pause_ms: 1000,
        mode: PlayMode::Fast,
        ..HexLobbyForm::default()
    };
    let her_ms = |form: &HexLobbyForm| match form.room(GameKind::Hexapawn).unwrap().1[1] {
        SeatSpec::Ai { move_ms, .. } => move_ms,
        SeatSpec::Human => panic!("HER's seat is a person's"),
    };
    assert_eq!(her_ms(&form), 1000);
    form.mode = PlayMode::Slow;
    assert_eq!(her_ms(&form), NO_PAUSE_MS);
}

#[test]
fn default_brain_names_follow_the_board_and_typed_names_stay() {
    let mut form = HexLobbyForm::default();
    let texts = |form: &HexLobbyForm| {
        let [a, b] = form.brains.each_ref().map(|field| field.text.clone());
        [form.brain.text.clone(), a, b]
    };
    assert_eq!(texts(&form), ["HER", "HER A", "HER B"]);
    form.dims = Dims::OCTAPAWN;
    form.follow_board((Dims::HEXAPAWN, false));
    assert_eq!(texts(&form), ["HER 4x4", "HER A 4x4", "HER B 4x4"]);
    form.brains[0].text = "Mine".into();
    form.mirrors = true;
    form.follow_board((Dims::OCTAPAWN, false));
    assert_eq!(
        texts(&form),
        ["HER 4x4 mirrored", "Mine", "HER B 4x4 mirrored"]
    );
    for name in texts(&form) {
        check_brain_name(&name).unwrap();
    }
    // Back on the course's board, the course's name.
    (form.dims, form.mirrors) = (Dims::HEXAPAWN, false);
    form.follow_board((Dims::OCTAPAWN, true));
    assert_eq!(texts(&form), ["HER", "Mine", "HER B"]);
}

#[test]
fn a_brain_the_server_has_for_another_board_is_refused_here() {
    let mut form = HexLobbyForm::default();
    form.set_brains(vec![BrainSummary {
        name: "HER".into(),
        dims: Dims::HEXAPAWN,
        mirrors: true,
        boxes: 3,
        beads: 9,
        games: 2,
        updated_at: 0,
    }]);
    let error = form.room(GameKind::Hexapawn).unwrap_err();
    assert_eq!(
        error,
        "HER is a 3x3 mirrored brain: choose that board or another name"
    );
    form.mirrors = true;
    assert!(form.room(GameKind::Hexapawn).is_ok());
    form.brains[0].text = "HER".into();
    form.dims = Dims::OCTAPAWN;
    assert!(form.room(GameKind::HerMatch).is_err());
    form.forget_brains();
    assert!(form.room(GameKind::HerMatch).is_ok());
}

#[test]
fn a_new_brain_with_a_name_the_server_refuses_is_refused_here_a_known_one_is_not() {
    let mut form = HexLobbyForm::default();
    form.brain.text = "Al/pha".into();
    assert!(
        form.room(GameKind::Hexapawn).is_ok(),
        "the list not here yet"
    );
    form.set_brains(vec![BrainSummary {
        name: "Al/pha".into(),
        dims: Dims::HEXAPAWN,
        mirrors: false,
        boxes: 3,
        beads: 9,
        games: 2,
        updated_at: 0,
    }]);
    assert!(form.room(GameKind::Hexapawn).is_ok(), "a brain of old");
    form.set_brains(Vec::new());
    let error = form.room(GameKind::Hexapawn).unwrap_err();
    assert!(
        error.starts_with("a brain name may not hold '/'"),
        "{error}"
    );
    form.brain.text = "Alpha".into();
    assert!(form.room(GameKind::Hexapawn).is_ok());
    form.brains[1].text = "Be/ta".into();
    assert!(form.room(GameKind::HerMatch).is_err());
}

#[test]
fn a_match_has_no_seats_and_needs_two_brains() {
    let mut form = HexLobbyForm::default();
    let (setup, seats) = form.room(GameKind::HerMatch).unwrap();
    assert!(seats.is_empty());
    assert!(matches!(setup, GameSetup::HerMatch(m) if m.brains == ["HER A", "HER B"]));
    form.brains[1].text = " HER A ".into();
    assert!(form.room(GameKind::HerMatch).is_err());
    form.brain.text = String::new();
    assert!(form.room(GameKind::Hexapawn).is_err());
}

#[test]
fn kept_choices_make_the_same_rooms_and_only_offered_values_are_taken() {
    let mut used = HexLobbyForm {
        dims: Dims::new(4, 4).unwrap(),
        mirrors: true,
        mode: PlayMode::Fast,
        brain: TextField::new("Ada's"),
        pause_ms: 1000,
        rounds: 10_000,
        pace: Pace::PerPly { ms: 300 },
        ..HexLobbyForm::default()
    };
    used.brains[1].text = "Rival".into();
    let mut next_run = HexLobbyForm::default();
    next_run.recall(&used.choices());
    for kind in [GameKind::Hexapawn, GameKind::HerMatch] {
        assert_eq!(next_run.room(kind), used.room(kind));
    }

    let mut edited = used.choices();
    edited.dims = Dims::new(4, 3).unwrap();
    edited.pause_ms = 3;
    edited.rounds = 5;
    edited.pace = Pace::PerPly { ms: 1 };
    edited.brain = "two\nlines".into();
    let mut form = HexLobbyForm::default();
    form.recall(&edited);
    let new = HexLobbyForm::default();
    assert_eq!(
        form.dims, edited.dims,
        "a known brain's board, though no button offers it"
    );
    assert_eq!(
        (form.pause_ms, form.rounds, form.pace),
        (new.pause_ms, new.rounds, new.pace)
    );
    let default = default_brain(form.dims, form.mirrors, "");
    assert_eq!(form.brain.text, default, "no field holds two lines");
    assert_eq!(form.brains[1].text, "Rival");
}
