//! The course's four levels and their own move limits (SPEC §1: "level1 6, level2 10, level3
//! 10, level4 15"). A level is one of them when it is played on the course's board and its
//! target, pieces and dice are theirs, whatever its file is called: a moves file carries its
//! level without a name.
//!
//! The limit is applied where a level is read from a file. A level that travels in a room's
//! state (`LevelSpec`) carries its limit with it, so games stored before the course limits
//! were kept still replay under the limit they were played by.

use std::sync::LazyLock;

use super::board::DEFAULT_BLOCKED;
use super::format::level_lines;
use super::pieces::Pieces;
use super::rules::{DICE_LEN, Rules};

/// The course's level files, `levels/ewn/level1.txt` to `level4.txt`, with their limits.
const COURSE_FILES: [(&str, usize); 4] = [
    (include_str!("../../../levels/ewn/level1.txt"), 6),
    (include_str!("../../../levels/ewn/level2.txt"), 10),
    (include_str!("../../../levels/ewn/level3.txt"), 10),
    (include_str!("../../../levels/ewn/level4.txt"), 15),
];

/// A course level's target, start and dice, and its move limit.
type CourseLevel = (u8, Pieces, [u8; DICE_LEN], usize);

/// [`COURSE_FILES`] read once; a test reads them all.
static COURSE_LEVELS: LazyLock<Vec<CourseLevel>> = LazyLock::new(|| {
    COURSE_FILES
        .iter()
        .map(|&(text, limit)| {
            let (target, start, dice) = level_lines(text).expect("the course's level files read");
            (target, start, dice, limit)
        })
        .collect()
});

/// `rules` for a level read from a file: lost when their limit passes or the course level's
/// own does, whichever is first (SPEC §1). A limit over the dice's is left for `Level::new` to
/// refuse.
pub fn course_rules(rules: Rules, target: u8, start: &Pieces, dice: &[u8; DICE_LEN]) -> Rules {
    let course = COURSE_LEVELS
        .iter()
        .find(|level| (level.0, &level.1, &level.2) == (target, start, dice));
    match course {
        Some(&(.., limit)) if rules.blocked == DEFAULT_BLOCKED && rules.max_moves <= DICE_LEN => {
            Rules {
                max_moves: rules.max_moves.min(limit),
                ..rules
            }
        }
        _ => rules,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ewn::{LevelSpec, Rules, parse_level};

    #[test]
    fn the_course_levels_are_the_project_files_with_their_limits() {
        for (text, limit) in COURSE_FILES {
            let level = parse_level(text, Rules::default()).unwrap();
            assert_eq!(level.rules().max_moves, limit);
        }
        let level5 = parse_level(
            include_str!("../../../levels/ewn/level5.txt"),
            Rules::default(),
        )
        .unwrap();
        assert_eq!(level5.rules().max_moves, DICE_LEN, "not a course level");
    }

    #[test]
    fn a_lower_limit_asked_for_stays_and_a_higher_one_is_cut_to_the_course_limit() {
        let level1 = include_str!("../../../levels/ewn/level1.txt");
        let with = |max_moves| {
            parse_level(
                level1,
                Rules {
                    max_moves,
                    ..Rules::default()
                },
            )
            .unwrap()
            .rules()
            .max_moves
        };
        assert_eq!((with(4), with(6), with(30)), (4, 6, 6));
        let other_board = Rules {
            blocked: 33,
            ..Rules::default()
        };
        let elsewhere = parse_level(level1, other_board).unwrap();
        assert_eq!(
            elsewhere.rules().max_moves,
            DICE_LEN,
            "another course's board"
        );
    }

    #[test]
    fn a_level_in_a_rooms_state_keeps_the_limit_it_carries() {
        // Rooms and records stored before the course limits were kept say 30 for level 1:
        // their games must still replay.
        let level1 = parse_level(
            include_str!("../../../levels/ewn/level1.txt"),
            Rules::default(),
        )
        .unwrap();
        let stored = LevelSpec {
            max_moves: 30,
            ..LevelSpec::of(&level1)
        };
        assert_eq!(stored.level().unwrap().rules().max_moves, 30);
    }
}
