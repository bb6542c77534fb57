//! Auto mode: HER against a copy of itself.

use crate::hexapawn::{AutoConfig, AutoMatch, CURVE_WINDOW, Dims, MAX_BRAIN_BOXES, Position};

fn config(rounds: u64, seed: u64, mirrors: bool) -> AutoConfig {
    AutoConfig {
        dims: Dims::HEXAPAWN,
        mirrors,
        rounds,
        seed,
    }
}

#[test]
fn a_seed_replays_the_same_match() {
    let first = AutoMatch::new(config(305, 9, false)).run();
    let again = AutoMatch::new(config(305, 9, false)).run();
    assert_eq!(first.stats, again.stats);
    assert_eq!(first.curve, again.curve);
    assert_eq!(first.brains, again.brains);
    let other = AutoMatch::new(config(305, 10, false)).run();
    assert_ne!(first.curve, other.curve);
}

#[test]
fn rounds_wins_and_the_learning_curve_add_up() {
    let report = AutoMatch::new(config(305, 3, true)).run();
    let [a, b] = report.stats;
    assert_eq!(a.wins + b.wins, 305);
    // HER 0 moves first in 153 rounds, HER 1 in 152.
    assert!(a.wins_moving_first <= 153 && b.wins_moving_first <= 152);
    assert_eq!(report.curve.len(), 31);
    for point in &report.curve[..30] {
        assert_eq!(point.round % CURVE_WINDOW, 0);
        assert_eq!(point.losses[0] + point.losses[1], CURVE_WINDOW as u32);
    }
    let last = report.curve.last().unwrap();
    assert_eq!((last.round, last.losses[0] + last.losses[1]), (305, 5));
    assert_eq!(
        last.beads,
        [report.brains[0].beads(), report.brains[1].beads()]
    );
}

/// 3x3 is a second-player win: only beads of lost moves are ever confiscated, so in the end
/// each HER has emptied its box for the opening and resigns at once when it moves first.
#[test]
fn learned_hers_win_when_moving_second() {
    let mut auto = AutoMatch::new(config(3_000, 1, false));
    for _ in 0..2_000 {
        auto.play_round();
    }
    let opening = Position::start(Dims::HEXAPAWN);
    for her in 0..2 {
        assert_eq!(auto.her(her).brain().matchbox(&opening).unwrap().total, 0);
    }
    let before = auto.stats();
    for _ in 0..1_000 {
        let round = auto.play_round();
        assert_ne!(round.winner, round.first);
        assert!(round.resigned && round.plies == 0);
    }
    let report = auto.run();
    for (her, stats) in report.stats.iter().enumerate() {
        assert_eq!(stats.wins - before[her].wins, 500);
        assert!(stats.share_moving_first().unwrap() < 0.5);
    }
}

#[test]
fn a_watched_round_shows_each_position_with_the_move_that_led_to_it() {
    let mut auto = AutoMatch::new(config(50, 3, false));
    for _ in 0..50 {
        let mut shown: Vec<(Position, Option<crate::hexapawn::Move>)> = Vec::new();
        let round = auto.play_round_watched(|position, last, _, _| {
            shown.push((*position, last));
            true
        });
        let round = round.expect("a round nobody stops is played");
        assert_eq!(shown[0], (Position::start(Dims::HEXAPAWN), None));
        for pair in shown.windows(2) {
            let ((before, _), (after, last)) = (pair[0], pair[1]);
            let last = last.expect("every position after the start has a move");
            assert_eq!(before.play(last).unwrap(), after);
        }
        let (last_shown, move_to_it) = *shown.last().unwrap();
        if round.resigned {
            // The resigning HER was shown the end and moved nothing.
            assert_eq!((round.end, round.last_move), (last_shown, move_to_it));
        } else {
            let last = round
                .last_move
                .expect("a round won on the board has a last move");
            assert_eq!(last_shown.play(last).unwrap(), round.end);
        }
    }
}

#[test]
fn a_round_stored_before_the_last_move_was_kept_still_reads() {
    let mut auto = AutoMatch::new(config(1, 4, false));
    let round = auto.play_round();
    let mut json: serde_json::Value = serde_json::to_value(round).unwrap();
    json.as_object_mut().unwrap().remove("last_move");
    let read: crate::hexapawn::RoundResult = serde_json::from_value(json).unwrap();
    assert_eq!(read.last_move, None);
    assert_eq!(read.end, round.end);
}

#[test]
fn a_match_on_a_big_board_stops_once_a_brain_is_full() {
    let config = AutoConfig {
        dims: "8x8".parse::<Dims>().unwrap(),
        mirrors: false,
        rounds: crate::hexapawn::MAX_MATCH_ROUNDS,
        seed: 1,
    };
    let report = AutoMatch::new(config).run();
    let boxes = report.brains.each_ref().map(|brain| brain.boxes());
    // About 23 new boxes a round in each brain: some thousands of rounds, not a million.
    assert!(
        (1_000..100_000).contains(&report.rounds_played),
        "{}",
        report.rounds_played
    );
    let fullest = boxes[0].max(boxes[1]);
    // It stops at the first round that fills one; a round opens at most 48 boxes a brain.
    assert!(
        (MAX_BRAIN_BOXES..MAX_BRAIN_BOXES + 48).contains(&fullest),
        "{boxes:?}"
    );
    let wins: u64 = report.stats.iter().map(|stats| stats.wins).sum();
    assert_eq!(wins, report.rounds_played);
}

#[test]
fn a_round_stopped_midway_teaches_nothing_and_is_not_counted() {
    let mut auto = AutoMatch::new(config(50, 3, false));
    for _ in 0..20 {
        auto.play_round();
    }
    let played = auto.rounds_played();
    let beads = |auto: &AutoMatch| [0, 1].map(|her| auto.her(her).brain().clone());
    let before = beads(&auto);
    let mut shown = 0;
    let stopped = auto.play_round_watched(|_, _, _, _| {
        shown += 1;
        shown < 3
    });
    assert!(stopped.is_none());
    assert_eq!(auto.rounds_played(), played, "not counted");
    for (her, brain) in before.iter().enumerate() {
        let after = &auto.her(her).brain().boxes;
        // Boxes met in the stopped round may be new, with their first beads; none changed.
        assert!(
            brain
                .boxes
                .iter()
                .all(|(key, matchbox)| after.get(key) == Some(matchbox)),
            "nothing learnt"
        );
    }
    // The next round starts afresh: the stopped one's draws are forgotten, so its end cannot
    // confiscate one of them.
    assert_eq!([0, 1].map(|her| auto.her(her).draws_pending()), [0, 0]);
}
