//! HER's brains: stored, counted, listed, taught by finished games, reset, deleted.

use parlor_shared::hexapawn::{
    AutoConfig, AutoMatch, Brain, Dims, HerResult, Move, Position, Side,
};
use parlor_shared::identity::PlayerId;

use super::*;
use crate::her_seat::HerGameRecord;
use crate::store::{BrainRow, BrainUse, Store};

on_every_database!(
    brains_round_trip_count_games_and_reset_to_empty,
    a_lost_game_against_a_person_takes_the_bead_of_hers_last_draw,
    a_loss_whose_last_bead_is_gone_takes_no_earlier_bead,
    a_game_whose_brain_was_replaced_by_another_board_teaches_nothing_and_is_not_counted,
    a_prepared_lesson_is_stored_as_prepared_or_worked_out_again_if_the_brain_changed_meanwhile,
    a_player_lists_their_own_brains_by_plain_name_and_the_halls_but_not_other_players,
    a_new_brain_is_made_once_and_never_over_one_stored,
);

fn trained_pair() -> [Brain; 2] {
    let config = AutoConfig {
        dims: Dims::HEXAPAWN,
        mirrors: true,
        rounds: 200,
        seed: 5,
    };
    AutoMatch::new(config).run().brains
}

fn brains_round_trip_count_games_and_reset_to_empty(store: Store) {
    let [a, b] = trained_pair();
    assert!(store.load_brain("A").unwrap().is_none());
    let both = [
        BrainUse {
            name: "A",
            brain: &a,
        },
        BrainUse {
            name: "B",
            brain: &b,
        },
    ];
    store.save_brains(&both).unwrap();
    store.save_brains(&both[..1]).unwrap();
    assert_eq!(store.load_brain("A").unwrap(), Some((a.clone(), 2)));
    assert_eq!(store.load_brain("B").unwrap(), Some((b.clone(), 1)));
    let listed = store.list_brains(PlayerId(1), false).unwrap();
    assert_eq!(listed.len(), 2);
    // Stored under plain names: the hall's, as every brain before brains had owners.
    assert_eq!(
        (listed[0].name.as_str(), listed[0].beads, listed[0].games),
        ("hall/A", a.beads(), 2)
    );
    assert_eq!(
        Brain::from_json(&store.brain_json("B").unwrap().unwrap()).unwrap(),
        b
    );
    assert!(store.reset_brain("A").unwrap());
    let (empty, games) = store.load_brain("A").unwrap().unwrap();
    assert_eq!((empty.boxes(), empty.beads(), games), (0, 0, 0));
    assert!(empty.mirrors());
    assert!(!store.reset_brain("nobody").unwrap());
}

fn a_lost_game_against_a_person_takes_the_bead_of_hers_last_draw(store: Store) {
    let start = Position::start(Dims::HEXAPAWN);
    let after_white = start.play("b1-b2".parse().unwrap()).unwrap();
    assert_eq!(after_white.to_move(), Side::Black);
    let her_move: Move = "a3xb2".parse().unwrap();
    let lost = HerGameRecord {
        brain: "HER".into(),
        dims: Dims::HEXAPAWN,
        mirrors: false,
        draws: vec![(after_white, her_move)],
        result: HerResult::Lost,
    };
    store.record_her_game(&lost).unwrap();
    let (brain, games) = store.load_brain("HER").unwrap().unwrap();
    assert_eq!(games, 1);
    let matchbox = brain.matchbox(&after_white).unwrap();
    let bead = |mv: Move| matchbox.beads.iter().find(|b| b.mv == mv).unwrap().beads;
    assert_eq!(bead(her_move), 0);
    assert_eq!(bead("c3xb2".parse().unwrap()), 1);
    // A second loss replaying a bead that is gone changes nothing more but counts the game.
    store.record_her_game(&lost).unwrap();
    let (again, games) = store.load_brain("HER").unwrap().unwrap();
    assert_eq!((again.beads(), games), (brain.beads(), 2));
}

fn a_loss_whose_last_bead_is_gone_takes_no_earlier_bead(store: Store) {
    // Two games of one brain against people at once, both lost with the same last move:
    // the first recorded takes that bead, and the second may not take its earlier one.
    let first = Position::start(Dims::HEXAPAWN)
        .play("b1-b2".parse().unwrap())
        .unwrap();
    let first_move: Move = "a3xb2".parse().unwrap();
    let last = first
        .play(first_move)
        .unwrap()
        .play("a1xb2".parse().unwrap())
        .unwrap();
    let last_move: Move = "c3-c2".parse().unwrap();
    let lost = |draws| HerGameRecord {
        brain: "HER".into(),
        dims: Dims::HEXAPAWN,
        mirrors: false,
        draws,
        result: HerResult::Lost,
    };
    store
        .record_her_game(&lost(vec![(last, last_move)]))
        .unwrap();
    store
        .record_her_game(&lost(vec![(first, first_move), (last, last_move)]))
        .unwrap();
    let (brain, games) = store.load_brain("HER").unwrap().unwrap();
    assert_eq!(games, 2);
    let beads = |position: &Position, mv: Move| {
        let matchbox = brain.matchbox(position).unwrap();
        matchbox.beads.iter().find(|b| b.mv == mv).unwrap().beads
    };
    assert_eq!(beads(&last, last_move), 0);
    assert_eq!(
        beads(&first, first_move),
        1,
        "the earlier move's bead stays"
    );
}

fn a_game_whose_brain_was_replaced_by_another_board_teaches_nothing_and_is_not_counted(
    store: Store,
) {
    let after_white = Position::start(Dims::HEXAPAWN)
        .play("b1-b2".parse().unwrap())
        .unwrap();
    // Imported over during the game: a 4x4 brain under the 3x3 game's name.
    let octapawn = Brain::new("4x4".parse().unwrap(), false);
    store.put_brain("HER", &octapawn).unwrap();
    let lost = HerGameRecord {
        brain: "HER".into(),
        dims: Dims::HEXAPAWN,
        mirrors: false,
        draws: vec![(after_white, "a3xb2".parse().unwrap())],
        result: HerResult::Lost,
    };
    store.record_her_game(&lost).unwrap();
    let (brain, games) = store.load_brain("HER").unwrap().unwrap();
    assert_eq!((brain, games), (octapawn, 0));
}

fn a_prepared_lesson_is_stored_as_prepared_or_worked_out_again_if_the_brain_changed_meanwhile(
    store: Store,
) {
    let start = Position::start(Dims::HEXAPAWN);
    let b2 = start.play("b1-b2".parse().unwrap()).unwrap();
    let a2 = start.play("a1-a2".parse().unwrap()).unwrap();
    let lost = |position: Position, mv: &str| HerGameRecord {
        brain: "HER".into(),
        dims: Dims::HEXAPAWN,
        mirrors: false,
        draws: vec![(position, mv.parse().unwrap())],
        result: HerResult::Lost,
    };
    let finish = |game: HerGameRecord, prepared| {
        let record = crate::store::NewRecord {
            game: parlor_shared::game::GameKind::Hexapawn,
            seats: vec!["human".into(), "HER".into()],
            players: vec![None, None],
            outcome: parlor_shared::game::Outcome::Won { seat: 0 },
            start: parlor_shared::game::GameSetup::Cave.start().unwrap(),
            moves: Vec::new(),
        };
        let pending = store.finish_room(1, record, Some((game, Some(prepared))));
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(pending.done())
            .unwrap();
    };
    let bead = |position: &Position, mv: &str| {
        let (brain, _) = store.load_brain("HER").unwrap().unwrap();
        let matchbox = brain.matchbox(position).unwrap();
        let mv: Move = mv.parse().unwrap();
        matchbox.beads.iter().find(|b| b.mv == mv).unwrap().beads
    };

    // The brain unchanged since the lesson was prepared: stored as prepared.
    let first = lost(b2, "a3xb2");
    let prepared = store.prepare_lesson(&first).unwrap();
    finish(first, prepared);
    assert_eq!((bead(&b2, "a3xb2"), bead(&b2, "c3xb2")), (0, 1));

    // Another game's lesson stored between preparing and finishing: the prepared brain would
    // drop it, so the lesson is worked out again from the brain as stored then.
    let second = lost(b2, "c3xb2");
    let stale = store.prepare_lesson(&second).unwrap();
    store.record_her_game(&lost(a2, "b3xa2")).unwrap();
    finish(second, stale);
    assert_eq!(bead(&b2, "c3xb2"), 0, "the second game's lesson");
    assert_eq!(
        bead(&a2, "b3xa2"),
        0,
        "the game stored meanwhile keeps its lesson"
    );
    assert_eq!(store.load_brain("HER").unwrap().unwrap().1, 3);
}

fn a_player_lists_their_own_brains_by_plain_name_and_the_halls_but_not_other_players(store: Store) {
    let empty = Brain::new(Dims::HEXAPAWN, false);
    let (ada, bob) = (PlayerId(0xada), PlayerId(0xb0b));
    let own = |player: PlayerId, name: &str| format!("{player}/{name}");
    store.put_brain(&own(ada, "HER"), &empty).unwrap();
    store.put_brain(&own(bob, "HER"), &empty).unwrap();
    store.put_brain("hall/shared", &empty).unwrap();
    let names = |viewer| -> Vec<String> {
        let listed = store.list_brains(viewer, false).unwrap();
        listed.into_iter().map(|summary| summary.name).collect()
    };
    assert_eq!(names(ada), ["HER", "hall/shared"]);
    // An operator lists every brain, by its canonical name.
    let every = store.list_brains(PlayerId(0x0e), true).unwrap();
    let every: Vec<String> = every.into_iter().map(|summary| summary.name).collect();
    assert_eq!(
        every,
        [own(ada, "HER"), own(bob, "HER"), "hall/shared".into()]
    );
    assert_eq!(names(bob), ["HER", "hall/shared"]);
    // Each is its own brain; the hall's is stored under its plain name.
    store.reset_brain(&own(ada, "HER")).unwrap();
    assert!(store.load_brain(&own(bob, "HER")).unwrap().is_some());
    assert!(store.load_brain("shared").unwrap().is_some());
}

fn a_new_brain_is_made_once_and_never_over_one_stored(store: Store) {
    let empty = |dims: Dims| BrainRow::of(&Brain::new(dims, false));
    assert!(store.create_brain("fresh", &empty(Dims::HEXAPAWN)).unwrap());
    assert!(
        !store.create_brain("fresh", &empty(Dims::OCTAPAWN)).unwrap(),
        "a second maker finds it made"
    );
    let (kept, games) = store.load_brain("fresh").unwrap().unwrap();
    assert_eq!((kept.dims(), kept.boxes(), games), (Dims::HEXAPAWN, 0, 0));
    let [taught, _] = trained_pair();
    store.put_brain("taught", &taught).unwrap();
    assert!(
        !store
            .create_brain("taught", &empty(Dims::HEXAPAWN))
            .unwrap()
    );
    assert_eq!(
        store.load_brain("taught").unwrap().unwrap().0,
        taught,
        "left as it was"
    );
}
