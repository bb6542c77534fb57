//! The course's four levels and their own move limits (SPEC §1: "level1 6, level2 10, level3
//! 10, level4 15"). A level is one of them when it is played on the course's board and its
//! target, pieces and dice are theirs, whatever its file is called: a moves file carries its
//! level without a name.
//!
//! The limit is applied where a level is read from a file. A level that travels in a room's
//! state (`LevelSpec`) carries its limit with it, so games stored before the course limits
//! were kept still replay under the limit they were played by.

use super::board::DEFAULT_BLOCKED;
use super::pieces::Pieces;
use super::rules::{DICE_LEN, Rules};

/// A course level: target, the squares of pieces 1..6, the dice, and its move limit.
struct CourseLevel {
    target: u8,
    start: [i8; 6],
    dice: [u8; DICE_LEN],
    limit: usize,
}

/// `levels/ewn/level1.txt` to `level4.txt`, as a test checks.
const COURSE_LEVELS: [CourseLevel; 4] = [
    CourseLevel {
        target: 2,
        start: [21, 32, 43, 34, 23, 12],
        dice: [
            3, 3, 5, 4, 1, 3, 2, 3, 1, 6, 6, 6, 1, 4, 3, 3, 6, 4, 2, 5, 6, 2, 4, 3, 2, 6, 3, 2, 6,
            2,
        ],
        limit: 6,
    },
    CourseLevel {
        target: 3,
        start: [41, 52, 44, 34, 23, 15],
        dice: [
            2, 2, 6, 2, 5, 4, 3, 6, 5, 1, 2, 4, 5, 2, 2, 2, 3, 6, 1, 1, 1, 3, 2, 2, 6, 6, 1, 5, 3,
            2,
        ],
        limit: 10,
    },
    CourseLevel {
        target: 3,
        start: [55, 24, 25, 15, 23, 45],
        dice: [
            1, 4, 1, 5, 5, 3, 5, 1, 5, 4, 6, 3, 5, 6, 6, 5, 1, 3, 4, 2, 6, 1, 3, 4, 4, 2, 6, 1, 1,
            2,
        ],
        limit: 10,
    },
    CourseLevel {
        target: 3,
        start: [76, 44, 74, 46, 77, 73],
        dice: [
            5, 4, 4, 6, 4, 4, 1, 2, 4, 1, 1, 1, 6, 5, 2, 1, 5, 2, 4, 1, 2, 1, 6, 4, 2, 2, 2, 1, 1,
            6,
        ],
        limit: 15,
    },
];

/// `rules` for a level read from a file: lost when their limit passes or the course level's
/// own does, whichever is first (SPEC §1). A limit over the dice's is left for `Level::new` to
/// refuse.
pub fn course_rules(rules: Rules, target: u8, start: &Pieces, dice: &[u8; DICE_LEN]) -> Rules {
    let numbers = start.numbers();
    let course = COURSE_LEVELS
        .iter()
        .find(|level| level.target == target && level.start == numbers && &level.dice == dice);
    match course {
        Some(level) if rules.blocked == DEFAULT_BLOCKED && rules.max_moves <= DICE_LEN => Rules {
            max_moves: rules.max_moves.min(level.limit),
            ..rules
        },
        _ => rules,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ewn::{LevelSpec, Rules, parse_level};

    #[test]
    fn the_course_levels_are_the_project_files_with_their_limits() {
        let files = [
            include_str!("../../../levels/ewn/level1.txt"),
            include_str!("../../../levels/ewn/level2.txt"),
            include_str!("../../../levels/ewn/level3.txt"),
            include_str!("../../../levels/ewn/level4.txt"),
        ];
        for (file, course) in files.iter().zip(&COURSE_LEVELS) {
            let level = parse_level(file, Rules::default()).unwrap();
            assert_eq!(
                (level.target(), level.start().numbers(), level.dice()),
                (course.target, course.start, &course.dice)
            );
            assert_eq!(level.rules().max_moves, course.limit);
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
