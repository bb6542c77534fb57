//! HER's draws and punishments step by step, mirror merging, and the number of boxes HER meets
//! (what training against the exploiter ends with is tested in `parlor-engines`).

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::hexapawn_start;
use crate::hexapawn::{
    Brain, Dims, Her, HerChoice, HerResult, HexapawnError, Move, Pick, Position, Side, Status,
};

/// Plays a game for HER (Black) from the opening: plain moves are White's, `*move` forces
/// HER's move, a lone `*` lets HER draw. Returns the last position, and whether HER resigned.
fn play_script(her: &mut Her, script: &str) -> (Position, bool) {
    let mut position = hexapawn_start();
    for token in script.split_whitespace() {
        let mv = match token.strip_prefix('*') {
            None => token.parse().unwrap(),
            Some(forced) => {
                let pick = if forced.is_empty() {
                    Pick::Random
                } else {
                    Pick::Forced(forced.parse().unwrap())
                };
                match her.choose(&position, pick).unwrap() {
                    HerChoice::Play(mv) => mv,
                    HerChoice::Resign => return (position, true),
                }
            }
        };
        position = position.play(mv).unwrap();
    }
    (position, false)
}

/// The beads (0 or 1) HER's box holds for `mv` in `position`.
fn beads_for(brain: &Brain, position: &str, mv: &str) -> u32 {
    let position = Position::from_text(position).unwrap();
    let mv: Move = mv.parse().unwrap();
    let view = brain.matchbox(&position).unwrap();
    view.beads.iter().find(|bead| bead.mv == mv).unwrap().beads
}

fn new_her(mirrors: bool) -> Her {
    Her::new(Brain::new(Dims::HEXAPAWN, mirrors), 7)
}

#[test]
fn a_loss_removes_the_bead_of_the_last_move_and_a_win_removes_nothing() {
    let mut her = new_her(false);
    let (end, _) = play_script(&mut her, "b1-b2 *a3xb2 c1xb2 *c3xb2 a1xb2");
    assert!(matches!(
        end.status(),
        Status::Won {
            winner: Side::White,
            ..
        }
    ));
    // Two boxes: after b1-b2 (4 moves) and after c1xb2 (2 moves).
    assert_eq!((her.brain().boxes(), her.brain().beads()), (2, 6));
    her.finish(HerResult::Lost);
    assert_eq!(her.brain().beads(), 5);
    assert_eq!(beads_for(her.brain(), ".BB/.W./W.. b", "c3xb2"), 0);
    assert_eq!(beads_for(her.brain(), ".BB/.W./W.. b", "c3-c2"), 1);
    assert_eq!(beads_for(her.brain(), "BBB/.W./W.W b", "a3xb2"), 1);
    let view = her
        .brain()
        .matchbox(&Position::from_text(".BB/.W./W.. b").unwrap())
        .unwrap();
    let chances: Vec<(String, f64)> = view
        .beads
        .iter()
        .map(|bead| (bead.mv.to_string(), bead.probability))
        .collect();
    assert_eq!(
        chances,
        [("c3xb2".to_string(), 0.0), ("c3-c2".to_string(), 1.0)]
    );

    // The removed bead cannot be forced; HER wins with the other one and keeps every bead.
    let mut position = play_script(&mut her, "b1-b2 *a3xb2 c1xb2").0;
    let refused = her.choose(&position, Pick::Forced("c3xb2".parse().unwrap()));
    assert!(matches!(refused, Err(HexapawnError::NoBead(_))));
    for (mover, mv) in [("her", "c3-c2"), ("white", "a1-a2"), ("her", "c2-c1")] {
        let mv: Move = mv.parse().unwrap();
        if mover == "her" {
            assert_eq!(
                her.choose(&position, Pick::Forced(mv)).unwrap(),
                HerChoice::Play(mv)
            );
        }
        position = position.play(mv).unwrap();
    }
    assert!(matches!(
        position.status(),
        Status::Won {
            winner: Side::Black,
            ..
        }
    ));
    let before = her.brain().clone();
    her.finish(HerResult::Won);
    assert_eq!(her.brain(), &before);
    assert_eq!(her.brain().beads(), 5 + 2); // the box after a1-a2 was new: two beads
}

#[test]
fn an_empty_box_resigns_and_removes_the_bead_of_the_previous_move() {
    let mut her = new_her(false);
    // HER's only move a3xb2 loses at once to a2-a3, so its box is emptied.
    let (end, resigned) = play_script(&mut her, "a1-a2 *b3-b2 c1xb2 *c3-c2 b1xc2 * a2-a3");
    assert!(!resigned);
    assert!(matches!(
        end.status(),
        Status::Won {
            winner: Side::White,
            ..
        }
    ));
    her.finish(HerResult::Lost);
    assert_eq!(beads_for(her.brain(), "B../WWW/... b", "a3xb2"), 0);
    assert_eq!(beads_for(her.brain(), "B.B/WW./.W. b", "c3-c2"), 1);

    // Next time HER meets the empty box it resigns, and its previous move (c3-c2) pays.
    let (at, resigned) = play_script(&mut her, "a1-a2 *b3-b2 c1xb2 *c3-c2 b1xc2 *");
    assert!(resigned);
    assert_eq!(at.to_text(), "B../WWW/... b");
    assert_eq!(her.brain().matchbox(&at).unwrap().total, 0);
    her.finish(HerResult::Lost);
    assert_eq!(beads_for(her.brain(), "B.B/WW./.W. b", "c3-c2"), 0);
    assert_eq!(beads_for(her.brain(), "BBB/W../.WW b", "b3-b2"), 1);
}

#[test]
fn her_refuses_finished_games_and_other_sizes() {
    let mut her = new_her(false);
    let over = play_script(&mut her, "a1-a2 *c3-c2 a2xb3").0;
    assert!(matches!(
        her.choose(&over, Pick::Random),
        Err(HexapawnError::GameOver(_))
    ));
    assert!(matches!(
        her.choose(&Position::start(Dims::OCTAPAWN), Pick::Random),
        Err(HexapawnError::WrongSize { .. })
    ));
    let position = play_script(&mut her, "a1-a2").0;
    assert!(matches!(
        her.choose(&position, Pick::Forced("a3-a1".parse().unwrap())),
        Err(HexapawnError::IllegalMove { .. })
    ));
}

#[test]
fn mirror_images_share_a_box_and_its_beads() {
    let mut her = new_her(true);
    play_script(&mut her, "a1-a2 *b3xa2");
    her.finish(HerResult::Lost);
    assert_eq!(her.brain().boxes(), 1);
    // After c1-c2 HER sees the mirror image: the bead of b3xc2 is the one that was removed.
    assert_eq!(beads_for(her.brain(), "BBB/..W/WW. b", "b3xc2"), 0);
    assert_eq!(beads_for(her.brain(), "BBB/..W/WW. b", "a3-a2"), 1);
    play_script(&mut her, "c1-c2 *b3-b2");
    assert_eq!(her.brain().boxes(), 1);
    let unmerged = {
        let mut her = new_her(false);
        play_script(&mut her, "a1-a2 *b3xa2");
        play_script(&mut her, "c1-c2 *b3-b2");
        her.brain().boxes()
    };
    assert_eq!(unmerged, 2);
}

/// Walks every game of 3x3 Hexapawn with HER as Black, forcing each of HER's moves in turn
/// and ending each game as a win (so no bead is removed and every line stays open).
fn meet_every_position(her: &mut Her, position: Position) {
    if position.status() != Status::Playing {
        her.finish(HerResult::Won);
        return;
    }
    for &mv in position.legal_moves().iter() {
        if position.to_move() == Side::Black {
            her.choose(&position, Pick::Forced(mv)).unwrap();
        }
        meet_every_position(her, position.play(mv).unwrap());
    }
}

/// HER as Black against a White that plays uniformly at random.
fn train_against_random_white(her: &mut Her, seed: u64, games: u32) {
    let mut white = StdRng::seed_from_u64(seed);
    for _ in 0..games {
        let mut position = hexapawn_start();
        let won = loop {
            if let Status::Won { winner, .. } = position.status() {
                break winner == Side::Black;
            }
            let mv = if position.to_move() == Side::White {
                let moves = position.legal_moves();
                moves[white.random_range(0..moves.len())]
            } else {
                match her.choose(&position, Pick::Random).unwrap() {
                    HerChoice::Play(mv) => mv,
                    HerChoice::Resign => break false,
                }
            };
            position = position.play(mv).unwrap();
        };
        her.finish(if won { HerResult::Won } else { HerResult::Lost });
    }
}

/// Black can face 37 live positions in 3x3 Hexapawn, 19 when mirror images are merged: HER
/// makes exactly that many boxes when it meets every line, and never more in training (where
/// it soon stops walking into lines its confiscated beads lead to). The 19 agrees with SPEC §5;
/// Gardner's 24 boxes match neither count (his own instructions already merge mirror images:
/// "use the mirror image of a move").
#[test]
fn her_as_second_player_meets_37_positions_or_19_with_mirrors() {
    for (mirrors, every_position) in [(false, 37), (true, 19)] {
        let mut her = new_her(mirrors);
        meet_every_position(&mut her, hexapawn_start());
        assert_eq!(her.brain().boxes(), every_position, "mirrors {mirrors}");
        for seed in 0..3 {
            let mut her = new_her(mirrors);
            train_against_random_white(&mut her, seed, 2_000);
            let boxes = her.brain().boxes();
            assert!(
                boxes <= every_position && boxes >= every_position * 2 / 3,
                "{boxes}"
            );
        }
    }
}
